import type { Db } from '../../db/index';
import type { Logger } from '../../logger';
import type { Config } from '../../config';
import { Conflict } from '../../errors';
import type { CustomerDto } from '../../../shared/billing';
import type { BillingProvider, BillingUser } from './provider';
import { LocalBillingProvider, localCustomer } from './local';
import { StripeBillingProvider } from './stripe';

export type { BillingProvider } from './provider';
export { LocalBillingProvider } from './local';
export { StripeBillingProvider } from './stripe';

export const NO_BILLING = 'Billing is not set up on this Cairn, so plans cannot be bought here. Ask the operator to change your plan.';

/** No billing at all: plans change only through the operator page or the operator CLI. */
export class NoBillingProvider implements BillingProvider {
  readonly name = 'none' as const;
  readonly testBilling = false;
  constructor(private readonly db: Db) {}
  async start() {}
  priceId() {
    return null;
  }
  targetOf() {
    return null;
  }
  async checkout(): Promise<string> {
    throw new Conflict(NO_BILLING);
  }
  async previewPlanChange(): Promise<never> {
    throw new Conflict(NO_BILLING);
  }
  async changePlan(): Promise<void> {
    throw new Conflict(NO_BILLING);
  }
  async cancel(): Promise<void> {
    throw new Conflict(NO_BILLING);
  }
  async portalUrl(): Promise<string> {
    throw new Conflict(NO_BILLING);
  }
  customer(user: BillingUser): Promise<CustomerDto> {
    return localCustomer(this.db, user, 'none');
  }
}

export function createBillingProvider(config: Config, db: Db, logger: Logger): BillingProvider {
  const b = config.billing;
  if (b.provider === 'stripe') {
    return new StripeBillingProvider(db, logger, { secretKey: b.stripe!.secretKey, webhookSecret: b.stripe!.webhookSecret, apiUrl: b.stripe!.apiUrl, publicUrl: config.publicUrl });
  }
  if (b.provider === 'local') return new LocalBillingProvider(db);
  return new NoBillingProvider(db);
}

/** The start-up line naming which billing runs (every embedded default says what it is). */
export function billingStartupLine(provider: BillingProvider): { level: 'info' | 'warn'; line: string } {
  if (provider.name === 'stripe') return { level: 'info', line: 'billing: Stripe (STRIPE_SECRET_KEY)' };
  if (provider.name === 'local') return { level: 'warn', line: "billing: built-in test billing (no money moves; customers pay, fail or cancel on Cairn's own checkout page). Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET for Stripe" };
  return { level: 'warn', line: 'billing: none (BILLING_PROVIDER=none): plans are set by operators (OPERATOR_EMAILS, npm run operator)' };
}
