import type { Db } from '../../db/index';
import type { CustomerSettings } from '../../../shared/workspaces';

/** The customer's own settings; marketing consent is null until they have answered. */
export async function getCustomerSettings(db: Db, userId: number): Promise<CustomerSettings> {
  const row = await db('user_settings').where({ user_id: userId }).first('marketing_consent');
  return { marketing_consent: row?.marketing_consent === null || row === undefined ? null : Boolean(row.marketing_consent) };
}

export async function setMarketingConsent(db: Db, userId: number, consent: boolean): Promise<CustomerSettings> {
  const now = Date.now();
  await db('user_settings')
    .insert({ user_id: userId, marketing_consent: consent, updated_at: now })
    .onConflict('user_id')
    .merge({ marketing_consent: consent, updated_at: now });
  return getCustomerSettings(db, userId);
}
