import type { Db } from '../../db/index';
import { isPaidPlan } from '../../../shared/plans';
import { hasPaidSubscription } from '../../../shared/billing';
import { readSubscriptionState } from './billing';
import type { BillingProvider, BillingUser } from './provider';

/**
 * Before an account is deleted: cancels its paid subscription (live, or still collecting its first
 * payment) with the provider, so nothing is charged after the account is gone. A provider that cannot
 * be reached throws, and the account stays as it is.
 */
export async function cancelForAccountDeletion(db: Db, billing: BillingProvider, user: BillingUser): Promise<void> {
  const state = await readSubscriptionState(db, user.id);
  if (hasPaidSubscription(state) || (isPaidPlan(state.plan) && state.status === 'incomplete')) await billing.cancel(user);
}
