import type { PlanName } from '../../../shared/plans';
import type { BillingPeriod, BillingProviderName, CustomerDto, PriceTarget } from '../../../shared/billing';

/** What a billing portal offers: the invoices alone, or the whole subscription too. */
export type PortalScope = 'invoices' | 'full';

export interface BillingUser {
  id: number;
  email: string;
}

export interface CheckoutRequest {
  user: BillingUser;
  priceId: string;
  target: PriceTarget;
  /** Euro cents charged now (first period, or the boost). */
  amount: number;
  /** The workspace a boost is bought for. */
  workspaceId: number | null;
  successPath: string;
  cancelPath: string;
  country: string | null;
  taxId: { type: string; value: string } | null;
}

/** Euro cents a plan change charges now, and every period from nextPeriodStart on. */
export interface PlanChangeCharge {
  amountNow: number;
  nextAmount: number;
  nextPeriodStart: number | null;
}

/**
 * What the billing routes need from a provider. Stripe and the local (built-in test) provider both
 * end in services/billing's applySubscription, so they drive one state machine and one log.
 */
export interface BillingProvider {
  readonly name: BillingProviderName;
  /** The operator's built-in test billing: no money moves. */
  readonly testBilling: boolean;
  /** Resolves price ids and brings stored state up to date with the provider (reconciliation on start). */
  start(): Promise<void>;
  priceId(lookupKey: string): string | null;
  targetOf(priceId: string): PriceTarget | null;
  /** Creates a checkout and answers the address the browser goes to. */
  checkout(req: CheckoutRequest): Promise<string>;
  /**
   * What changePlan with the same arguments would charge now (the prorated difference, as the
   * provider computes it: Stripe through an invoice preview) and every period from the next one on.
   */
  previewPlanChange(user: BillingUser, plan: PlanName, period: BillingPeriod, priceId: string): Promise<PlanChangeCharge>;
  /** Immediate, prorated plan change of an existing paid subscription. */
  changePlan(user: BillingUser, plan: PlanName, period: BillingPeriod, priceId: string): Promise<void>;
  cancel(user: BillingUser): Promise<void>;
  /**
   * The customer portal's address; returnPath is where it comes back to. `invoices`: a portal of the
   * invoices alone (see and pay them), for an administrator of a workspace of the user; `full` adds
   * the subscription (plan, renewal, payment method, cancellation), for the user alone.
   */
  portalUrl(user: BillingUser, returnPath: string, scope: PortalScope): Promise<string>;
  customer(user: BillingUser, opts: { refresh: boolean }): Promise<CustomerDto>;
}
