import type { Db } from '../../db/index';
import type { BillingProviderName } from '../../../shared/billing';

export interface CustomerRow {
  user_id: number;
  provider: BillingProviderName;
  customer_id: string;
  country: string | null;
  tax_id_type: string | null;
  tax_id: string | null;
}

export const customerRow = (db: Db, userId: number): Promise<CustomerRow | undefined> => db('billing_customers').where({ user_id: userId }).first();

/** Stores (or updates) the user's billing customer with the country and tax id given at checkout. */
export async function saveCustomer(
  db: Db,
  userId: number,
  provider: BillingProviderName,
  customerId: string,
  country: string | null,
  taxId: { type: string; value: string } | null,
): Promise<void> {
  const now = Date.now();
  const fields = {
    provider,
    customer_id: customerId,
    ...(country ? { country } : {}),
    ...(taxId ? { tax_id_type: taxId.type, tax_id: taxId.value } : {}),
    updated_at: now,
  };
  await db('billing_customers')
    .insert({ user_id: userId, country: null, tax_id_type: null, tax_id: null, ...fields, created_at: now })
    .onConflict('user_id')
    .merge(fields);
}
