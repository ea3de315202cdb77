import { z } from 'zod';
import { isCountryCode } from './countries';
import { messages } from './messages';
import { safeRedirect } from './redirect';
import { boosts, boostTypes, isBoostType, isPaidPlan, isPlanName, plans, type Boost, type BoostType, type Plan, type PlanName, type SubscriptionStatus } from './plans';

// Billing facts shared by the server, the CLI and the screens: price lookup keys (boosts themselves are plan rules, shared/plans.ts), tax ids,
// the subscription state machine, the checkout schema and the DTOs of the billing calls.

export type BillingPeriod = 'month' | 'year';
const billingPeriods: readonly BillingPeriod[] = ['month', 'year'];

/** Which billing the server runs: Stripe, Cairn's built-in test billing, or none (operators set plans by hand). */
export type BillingProviderName = 'stripe' | 'local' | 'none';

/** Pay as you go (shared/ppu.ts) has its card on the plans crossroad. */
export const PAY_AS_YOU_GO_AVAILABLE = true;

// ---- price lookup keys: one per plan and period, one per boost ----

/** The key a price is known by in every provider: Stripe's lookup_key, and the local provider's price id. */
export const planLookupKey = (plan: PlanName, period: BillingPeriod) => `cairn_${plan.toLowerCase()}_${period}`;
export const boostLookupKey = (type: BoostType) => `cairn_${type.toLowerCase()}`;

export type PriceTarget = { kind: 'plan'; plan: PlanName; period: BillingPeriod } | { kind: 'boost'; boost: BoostType };

/** Every price Cairn sells, with its amount in euro cents. ENTERPRISE (custom) and STARTER (free) are not sold. */
export const sellablePrices = (): Array<{ lookupKey: string; target: PriceTarget; amount: number; recurring: BillingPeriod | null; name: string }> => [
  ...(['HOBBY', 'DEVELOPER'] as const).flatMap((plan) =>
    billingPeriods.map((period) => ({
      lookupKey: planLookupKey(plan, period),
      target: { kind: 'plan' as const, plan, period },
      amount: plans[plan].stripePriceId[period].price!,
      recurring: period,
      name: `Cairn ${plan}`,
    })),
  ),
  ...boostTypes.map((boost) => ({
    lookupKey: boostLookupKey(boost),
    target: { kind: 'boost' as const, boost },
    amount: boosts[boost].price,
    recurring: null,
    name: `Cairn ${boost}`,
  })),
];

// ---- tax ids per country (Stripe's tax id types) ----

// EU VAT numbers: the country prefix (EL for Greece) and the national format after it.
const EU_VAT: Record<string, [prefix: string, body: string, example: string]> = {
  AT: ['AT', 'U\\d{8}', 'ATU12345678'], BE: ['BE', '[01]\\d{9}', 'BE0123456789'], BG: ['BG', '\\d{9,10}', 'BG123456789'], CY: ['CY', '\\d{8}[A-Z]', 'CY12345678Z'], CZ: ['CZ', '\\d{8,10}', 'CZ12345678'],
  DE: ['DE', '\\d{9}', 'DE123456789'], DK: ['DK', '\\d{8}', 'DK12345678'], EE: ['EE', '\\d{9}', 'EE123456789'], ES: ['ES', '[A-Z\\d]\\d{7}[A-Z\\d]', 'ESA1234567Z'], FI: ['FI', '\\d{8}', 'FI12345678'],
  FR: ['FR', '[A-Z\\d]{2}\\d{9}', 'FRAB123456789'], GR: ['EL', '\\d{9}', 'EL123456789'], HR: ['HR', '\\d{11}', 'HR12345678912'], HU: ['HU', '\\d{8}', 'HU12345678'], IE: ['IE', '\\d[A-Z\\d+*]\\d{5}[A-W][A-I]?', 'IE1234567WI'],
  IT: ['IT', '\\d{11}', 'IT12345678912'], LT: ['LT', '(\\d{9}|\\d{12})', 'LT123456789'], LU: ['LU', '\\d{8}', 'LU12345678'], LV: ['LV', '\\d{11}', 'LV12345678912'], MT: ['MT', '\\d{8}', 'MT12345678'],
  NL: ['NL', '\\d{9}B\\d{2}', 'NL123456789B12'], PL: ['PL', '\\d{10}', 'PL1234567890'], PT: ['PT', '\\d{9}', 'PT123456789'], RO: ['RO', '\\d{2,10}', 'RO1234567891'], SE: ['SE', '\\d{12}', 'SE123456789123'],
  SI: ['SI', '\\d{8}', 'SI12345678'], SK: ['SK', '\\d{10}', 'SK1234567891'],
};

interface TaxIdType {
  type: string;
  /** What the field shows as an example. */
  example: string;
  pattern: RegExp;
}

const single: Record<string, TaxIdType> = {
  US: { type: 'us_ein', example: '12-3456789', pattern: /^\d{2}-?\d{7}$/ },
  GB: { type: 'gb_vat', example: 'GB123456789', pattern: /^GB(\d{9}|\d{12})$/ },
  AU: { type: 'au_abn', example: '12345678912', pattern: /^\d{11}$/ },
  CA: { type: 'ca_gst_hst', example: '123456789RT0002', pattern: /^\d{9}RT\d{4}$/ },
  CH: { type: 'ch_vat', example: 'CHE-123.456.789 MWST', pattern: /^CHE-?\d{3}\.?\d{3}\.?\d{3} ?(MWST|TVA|IVA)$/ },
  IN: { type: 'in_gst', example: '12ABCDE3456FGZH', pattern: /^\d{2}[A-Z]{5}\d{4}[A-Z][A-Z\d]Z[A-Z\d]$/ },
  JP: { type: 'jp_cn', example: '1234567891234', pattern: /^\d{13}$/ },
  NO: { type: 'no_vat', example: '123456789MVA', pattern: /^\d{9}MVA$/ },
  NZ: { type: 'nz_gst', example: '123456789', pattern: /^\d{8,9}$/ },
  ZA: { type: 'za_vat', example: '4123456789', pattern: /^4\d{9}$/ },
  SG: { type: 'sg_gst', example: 'M12345678X', pattern: /^[A-Z]\d{8}[A-Z]$/ },
  BR: { type: 'br_cnpj', example: '01.234.456/5432-10', pattern: /^\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}$/ },
  MX: { type: 'mx_rfc', example: 'ABC010203AB9', pattern: /^[A-Z&Ñ]{3,4}\d{6}[A-Z\d]{3}$/ },
  KR: { type: 'kr_brn', example: '123-45-67890', pattern: /^\d{3}-?\d{2}-?\d{5}$/ },
  AE: { type: 'ae_trn', example: '123456789012345', pattern: /^\d{15}$/ },
};

/** The tax id type a country collects, or null when it has none here. */
export function taxIdTypeFor(country: string): TaxIdType | null {
  const eu = EU_VAT[country];
  if (eu) return { type: 'eu_vat', example: eu[2], pattern: new RegExp(`^${eu[0]}${eu[1]}$`) };
  return single[country] ?? null;
}

/** Upper-cases and drops inner spaces (Swiss ids keep the space before MWST/TVA/IVA). */
export const normalizeTaxId = (value: string) => {
  const v = value.trim().toUpperCase();
  return /^CHE/.test(v) ? v.replace(/\s+(?=(MWST|TVA|IVA)$)/, ' ').replace(/\s(?!(MWST|TVA|IVA)$)/g, '') : v.replace(/\s+/g, '');
};

// ---- the subscription state machine (the local provider and the sweeper; Stripe reports its own) ----

type BillingEvent =
  | 'first_payment_paid'
  | 'first_payment_failed'
  | 'incomplete_timeout'
  | 'renewal_paid'
  | 'renewal_failed'
  | 'invoice_paid'
  | 'canceled';

/** incomplete_expired: the first payment failed and none succeeded within 23 hours (spec section 4). */
export const INCOMPLETE_EXPIRY_MS = 23 * 3600 * 1000;

const transitions: Record<SubscriptionStatus, Partial<Record<BillingEvent, SubscriptionStatus>>> = {
  active: { renewal_paid: 'active', renewal_failed: 'past_due', canceled: 'canceled', first_payment_paid: 'active', first_payment_failed: 'incomplete' },
  trialing: { renewal_paid: 'active', renewal_failed: 'past_due', canceled: 'canceled' },
  past_due: { renewal_paid: 'active', invoice_paid: 'active', renewal_failed: 'unpaid', canceled: 'canceled' },
  unpaid: { renewal_paid: 'active', invoice_paid: 'active', canceled: 'canceled' },
  incomplete: { first_payment_paid: 'active', invoice_paid: 'active', first_payment_failed: 'incomplete', incomplete_timeout: 'incomplete_expired' },
  incomplete_expired: { first_payment_paid: 'active', first_payment_failed: 'incomplete' },
  canceled: { first_payment_paid: 'active', first_payment_failed: 'incomplete' },
};

/** The status after an event, or null when the event does not apply in that status. */
export const nextStatus = (status: SubscriptionStatus, event: BillingEvent): SubscriptionStatus | null => transitions[status][event] ?? null;

/** The statuses in which a paid plan is live: paid now, or its renewal is still being collected. */
const LIVE_PAID: ReadonlySet<SubscriptionStatus> = new Set<SubscriptionStatus>(['active', 'trialing', 'past_due', 'unpaid']);
/** The owner pays for a plan now (not STARTER, and not a first payment that failed or a canceled one). */
export const hasPaidSubscription = (s: { plan: PlanName; status: SubscriptionStatus }) => isPaidPlan(s.plan) && LIVE_PAID.has(s.status);

/** An invoice is open and unpaid: plan changes and cancellation wait until it is paid. */
export const hasUnpaidInvoice = (status: SubscriptionStatus) => status === 'past_due' || status === 'unpaid';

// ---- plan-change rule (spec section 5) ----

export interface CurrentCounts {
  projects: number;
  webhooks: number;
  workspaces: number;
}

/** What must go before the plan fits, or null when the current counts fit it. */
export function excessFor(plan: Plan, counts: CurrentCounts): CurrentCounts | null {
  const excess = {
    projects: Math.max(0, counts.projects - plan.projectCount),
    webhooks: Math.max(0, counts.webhooks - plan.webhookCount),
    workspaces: Math.max(0, counts.workspaces - plan.workspaceCount),
  };
  return excess.projects + excess.webhooks + excess.workspaces > 0 ? excess : null;
}

// ---- subscription logs ----

export const logTypes = ['checkout', 'upgrade', 'downgrade', 'renewal', 'failed_payment', 'payment', 'cancellation', 'boost', 'expired', 'operator', 'ppu_order'] as const;
export type LogType = (typeof logTypes)[number];

export const logTypeLabels: Record<LogType, string> = {
  checkout: 'Checkout',
  upgrade: 'Upgrade',
  downgrade: 'Downgrade',
  renewal: 'Renewal',
  failed_payment: 'Failed payment',
  payment: 'Invoice paid',
  cancellation: 'Cancellation',
  boost: 'Boost',
  expired: 'First payment expired',
  operator: 'Changed by the operator',
  ppu_order: 'Pay-as-you-go order paid',
};

export interface SubscriptionLogDto {
  id: number;
  type: LogType;
  plan: PlanName;
  period: BillingPeriod | null;
  status: SubscriptionStatus;
  /** Euro cents; null when no money moved. */
  amount: number | null;
  currency: 'eur';
  boost: BoostType | null;
  workspace_id: number | null;
  /** 'cardano' for pay-as-you-go orders paid in ADA. */
  provider: BillingProviderName | 'cardano';
  reference: string | null;
  created_at: number;
}

// ---- DTOs of the billing calls ----

export interface BillingPlanDto extends Plan {
  /** Whether this plan can be bought through checkout here (not STARTER, not ENTERPRISE, and billing on). */
  purchasable: boolean;
}

export interface BillingInfoDto {
  provider: BillingProviderName;
  /** The built-in provider: the operator's test billing, where no money moves. */
  testBilling: boolean;
  plans: BillingPlanDto[];
  boosts: Array<Boost & { priceId: string | null }>;
}

export interface CustomerSubscriptionDto {
  id: string | null;
  status: SubscriptionStatus;
  plan: PlanName;
  period: BillingPeriod | null;
  price_id: string | null;
  current_period_end: number | null;
  cancel_at_period_end: boolean;
  provider: BillingProviderName;
}

/** GET /api/stripe/get_customer: Stripe's customer shape, the parts the dashboard reads. */
export interface CustomerDto {
  id: string | null;
  email: string;
  delinquent: boolean;
  country: string | null;
  tax_id: { type: string; value: string } | null;
  subscriptions: { data: CustomerSubscriptionDto[] };
}

/** GET /api/workspaces/{id}/billing: the owner's billing state as a member of the workspace may see it. */
export interface WorkspaceBillingDto {
  provider: BillingProviderName;
  testBilling: boolean;
  owner_email: string;
  plan: PlanName;
  period: BillingPeriod | null;
  status: SubscriptionStatus;
  delinquent: boolean;
  current_period_end: number | null;
  /** Set while the first payment is incomplete: when it expires (23 hours after it failed). */
  incomplete_expires_at: number | null;
  counts: CurrentCounts;
}

export interface CheckoutResultDto {
  url: string;
}

// ---- POST /api/checkout ----

/** Database ids are 32-bit integers on PostgreSQL: anything larger is refused as input, never sent to the database. */
const MAX_ID = 2_147_483_647;
export const idSchema = (message: string) => z.number({ error: message }).int(message).positive(message).max(MAX_ID, message);

const callbackPath = (fallback: string) =>
  z
    .string()
    .optional()
    .refine((v) => v === undefined || safeRedirect(v, '') !== '', 'Callback paths must be same-origin relative paths such as /dashboard/subscription.')
    .transform((v) => (v === undefined ? fallback : safeRedirect(v, fallback)));

/** A tax id is checked against the type of the country it is given with. */
const taxIdFitsCountry = (v: { country?: string | undefined; taxId?: string | undefined }, ctx: z.RefinementCtx) => {
  if (v.taxId && v.taxId.trim()) {
    const type = v.country ? taxIdTypeFor(v.country) : null;
    if (!type) ctx.addIssue({ code: 'custom', path: ['taxId'], message: 'This country has no tax id here; leave the field empty.' });
    else if (!type.pattern.test(normalizeTaxId(v.taxId)))
      ctx.addIssue({ code: 'custom', path: ['taxId'], message: `The tax id does not look like a ${type.type} (for example ${type.example}).` });
  }
};

const checkoutBuyerFields = {
  // An empty choice is no country.
  country: z
    .string()
    .optional()
    .refine((v) => !v || isCountryCode(v), 'Choose a country from the list.')
    .transform((v) => v || undefined),
  taxId: z.string().max(40).optional(),
};

/** The buyer's part of a checkout, as the checkout form asks it: the country and, where it has one, a tax id of its type. */
export const checkoutBuyerSchema = z.object(checkoutBuyerFields).superRefine(taxIdFitsCountry);

export const checkoutSchema = z
  .object({
    priceId: z.string({ error: 'priceId is required' }).min(1, 'priceId is required').max(200),
    email: z.string().email(messages.signIn.emailInvalid).max(254).optional(),
    mode: z.enum(['subscription', 'payment'], { error: 'mode must be subscription or payment' }).default('subscription'),
    onBehalfWorkspaceId: idSchema('onBehalfWorkspaceId must be a workspace id').optional(),
    successCallbackPath: callbackPath('/dashboard/subscription'),
    cancelCallbackPath: callbackPath('/dashboard/subscription/plans/fixed'),
    ...checkoutBuyerFields,
  })
  .superRefine(taxIdFitsCountry);
export type CheckoutInput = z.input<typeof checkoutSchema>;

export const updateSubscriptionSchema = z.object({ newPriceId: z.string({ error: 'newPriceId is required' }).min(1, 'newPriceId is required').max(200) });

/** POST /api/stripe/preview_subscription_change: newPriceId of the plan to move to, or null to go back to STARTER (a cancellation). */
export const previewSubscriptionChangeSchema = z.object({
  newPriceId: z.string({ error: 'newPriceId is required: a price id, or null for STARTER' }).min(1, 'newPriceId is required').max(200).nullable(),
});

/** What a plan change will charge: now (the prorated difference, as the provider computes it) and from the next period on. */
export interface PlanChangePreviewDto {
  plan: PlanName;
  period: BillingPeriod | null;
  direction: 'upgrade' | 'downgrade';
  /** Euro cents charged at once. */
  amount_now: number;
  /** Euro cents charged every period from the next one on (0 on STARTER). */
  next_amount: number;
  /** When the next period starts (ms since the epoch), when the provider says. */
  next_period_start: number | null;
  currency: 'eur';
}

export const operatorPlanSchema = z.object({
  plan: z.string().refine(isPlanName, 'plan must be STARTER, HOBBY, DEVELOPER or ENTERPRISE'),
  status: z.enum(['active', 'past_due', 'unpaid', 'incomplete', 'incomplete_expired', 'canceled']).default('active'),
});
export const operatorBoostSchema = z.object({
  type: z.string().refine(isBoostType, 'type must be REQUESTS_BOOST_1M or REQUESTS_BOOST_300K'),
  workspaceId: idSchema('workspaceId must be a workspace id').optional(),
  days: z.number().int().min(1).max(366).optional(),
});

export interface OperatorUserDto {
  id: number;
  email: string;
  plan: PlanName;
  status: SubscriptionStatus;
  provider: BillingProviderName | null;
  created_at: number;
  workspaces: Array<{ id: number; name: string; projects: number; members: number; boosts: Array<{ type: BoostType; expires_at: number }> }>;
}

// ---- warning banners ----

/** 'Quota nearly exhausted' from this fraction of projects, webhooks, requests or storage (our reading of the spec's unnamed 0.8). */
export const QUOTA_WARNING_FRACTION = 0.8;

/** The quota parts at or above the warning fraction, named for the banner. */
export function nearlyExhausted(q: {
  quota: { projectCount: number; requestLimit: number; storageLimit: number; webhookCount: number };
  used: { subscription: { projectCount: number; webhookCount: number; requests: number; storage: number } };
}): string[] {
  const u = q.used.subscription;
  const parts: Array<[string, number, number]> = [
    ['Projects', u.projectCount, q.quota.projectCount],
    ['Webhooks', u.webhookCount, q.quota.webhookCount],
    ['Requests today', u.requests, q.quota.requestLimit],
    ['Storage', u.storage, q.quota.storageLimit],
  ];
  // A count the plan allows one of (STARTER's one project) is the plan in use, not a quota running out:
  // counts warn only once a plan allows more than one. Requests and storage always warn.
  const counted = new Set(['Projects', 'Webhooks']);
  return parts
    .filter(([name, used, limit]) => limit > 0 && !(counted.has(name) && limit <= 1) && used / limit >= QUOTA_WARNING_FRACTION)
    .map(([name]) => name);
}

export type BannerKind = 'quota' | 'unpaid-own' | 'unpaid-owner' | 'initial-payment';

/**
 * Which warning banners a member of a workspace sees (spec section 2), in the order they show: failed
 * initial payment, unpaid invoice (the user's own, or the workspace owner's), quota nearly exhausted.
 * Upgrade advice and the billing link on the owner's notice are for billing roles only (the banner does that).
 */
export function bannersFor(
  isOwner: boolean,
  quota: Parameters<typeof nearlyExhausted>[0],
  billing: { status: SubscriptionStatus; delinquent: boolean },
): BannerKind[] {
  const out: BannerKind[] = [];
  if (billing.status === 'incomplete' || billing.status === 'incomplete_expired') out.push('initial-payment');
  if (hasUnpaidInvoice(billing.status) || billing.delinquent) out.push(isOwner ? 'unpaid-own' : 'unpaid-owner');
  if (nearlyExhausted(quota).length > 0) out.push('quota');
  return out;
}
