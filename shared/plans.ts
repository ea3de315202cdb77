// Plans as data (spec section 9). Prices are integer euro cents. Stripe product and price ids are the
// operator's, so they come from billing configuration; here they are null until billing fills them.

export type PlanName = 'STARTER' | 'HOBBY' | 'DEVELOPER' | 'ENTERPRISE';

export interface PlanPrice {
  /** Stripe price id, set by billing configuration. */
  id: string | null;
  /** Minor units (euro cents); null for custom pricing. */
  price: number | null;
  price_currency: 'eur';
}

export interface Plan {
  name: PlanName;
  stripeProductId: string | null;
  stripePriceId: { month: PlanPrice; year: PlanPrice };
  image: string;
  /** Requests per day. */
  requestLimit: number;
  projectCount: number;
  webhookCount: number;
  workspaceCount: number;
  workspaceMembers: number;
  /** Bytes. */
  storageLimit: number;
  storageLimitFilecoin: number;
  limitPerSecond: number;
  limitBurst: number;
  /** Websocket connections (the push API, /ws) each project may hold open at once. */
  websocketConnections: number;
  /** The project page's detailed statistics (IP addresses, endpoints, browsers); without them only countries. */
  detailedStats: boolean;
}

const price = (cents: number | null): PlanPrice => ({ id: null, price: cents, price_currency: 'eur' });

export const plans: Readonly<Record<PlanName, Plan>> = {
  STARTER: {
    name: 'STARTER',
    stripeProductId: null,
    stripePriceId: { month: price(0), year: price(0) },
    image: '/plans/starter.svg',
    requestLimit: 50_000,
    projectCount: 1,
    webhookCount: 1,
    workspaceCount: 1,
    workspaceMembers: 1,
    storageLimit: 100_000_000,
    storageLimitFilecoin: 10_000_000,
    limitPerSecond: 10,
    limitBurst: 500,
    websocketConnections: 5,
    detailedStats: false,
  },
  HOBBY: {
    name: 'HOBBY',
    stripeProductId: null,
    stripePriceId: { month: price(2900), year: price(29900) },
    image: '/plans/hobby.svg',
    requestLimit: 300_000,
    projectCount: 3,
    webhookCount: 3,
    workspaceCount: 1,
    workspaceMembers: 1,
    storageLimit: 1_000_000_000,
    storageLimitFilecoin: 100_000_000,
    limitPerSecond: 10,
    limitBurst: 500,
    websocketConnections: 20,
    detailedStats: false,
  },
  DEVELOPER: {
    name: 'DEVELOPER',
    stripeProductId: null,
    stripePriceId: { month: price(7900), year: price(79900) },
    image: '/plans/developer.svg',
    requestLimit: 1_000_000,
    projectCount: 10,
    webhookCount: 10,
    workspaceCount: 2,
    workspaceMembers: 5,
    storageLimit: 50_000_000_000,
    storageLimitFilecoin: 1_000_000_000,
    limitPerSecond: 10,
    limitBurst: 500,
    websocketConnections: 100,
    detailedStats: true,
  },
  ENTERPRISE: {
    name: 'ENTERPRISE',
    stripeProductId: null,
    stripePriceId: { month: price(null), year: price(null) },
    image: '/plans/enterprise.svg',
    requestLimit: 10_000_000,
    projectCount: 10,
    webhookCount: 10,
    workspaceCount: 3,
    workspaceMembers: 10,
    storageLimit: 100_000_000,
    storageLimitFilecoin: 1_000_000_000,
    limitPerSecond: 10,
    limitBurst: 500,
    websocketConnections: 2000,
    detailedStats: true,
  },
};

export const planNames = Object.keys(plans) as PlanName[];
export const DEFAULT_PLAN: PlanName = 'STARTER';

export const isPlanName = (v: unknown): v is PlanName => typeof v === 'string' && v in plans;

/** A paid subscription is any plan but STARTER (spec section 4). */
export const isPaidPlan = (name: PlanName) => name !== 'STARTER';

export type SubscriptionStatus =
  | 'active'
  | 'trialing'
  | 'past_due'
  | 'canceled'
  | 'unpaid'
  | 'incomplete'
  | 'incomplete_expired';

/** incomplete and incomplete_expired both block adding projects (spec section 4). */
export const blocksNewProjects = (status: SubscriptionStatus) => status === 'incomplete' || status === 'incomplete_expired';

// Display rules of spec section 9.
export const YEARLY_DISCOUNT = 0.15;
export const monthlyRequests = (plan: Plan) => plan.requestLimit * 30;
export const storageInMb = (bytes: number) => bytes / 1_000_000;
/** Yearly savings against twelve monthly payments, in cents (Hobby 4900, Developer 14900). */
export const yearlySavings = (plan: Plan): number | null => {
  const m = plan.stripePriceId.month.price;
  const y = plan.stripePriceId.year.price;
  return m === null || y === null ? null : m * 12 - y;
};

// ---- boosts: requests added to the daily limit, bought one-off (spec section 9 names them) ----

export type BoostType = 'REQUESTS_BOOST_1M' | 'REQUESTS_BOOST_300K';
export interface Boost {
  type: BoostType;
  /** Added to the subscription's daily request limit while the boost lasts. */
  requests: number;
  /** One-off price in euro cents (our choice; the spec names the boosts, not their prices). */
  price: number;
  days: number;
}
export const boosts: Readonly<Record<BoostType, Boost>> = {
  REQUESTS_BOOST_300K: { type: 'REQUESTS_BOOST_300K', requests: 300_000, price: 1900, days: 30 },
  REQUESTS_BOOST_1M: { type: 'REQUESTS_BOOST_1M', requests: 1_000_000, price: 4900, days: 30 },
};
export const boostTypes = Object.keys(boosts) as BoostType[];
export const isBoostType = (v: unknown): v is BoostType => typeof v === 'string' && v in boosts;
/** Daily requests a boost adds; 0 for an unknown type. */
export const boostRequests = (type: string): number => (isBoostType(type) ? boosts[type].requests : 0);

/** The requests per day an account may make: its plan's allowance plus what each running boost adds. */
export function dailyRequestLimit(plan: Pick<Plan, 'requestLimit'>, runningBoosts: Iterable<string>): number {
  let limit = plan.requestLimit;
  for (const type of runningBoosts) limit += boostRequests(type);
  return limit;
}

// ---- limit messages: the server's 422 plan_limit answers and the screens' reasons, word for word ----

export type CountLimit = 'projectCount' | 'webhookCount' | 'workspaceCount' | 'workspaceMembers';
const limitNouns: Record<CountLimit, string> = { projectCount: 'project', webhookCount: 'webhook', workspaceCount: 'workspace', workspaceMembers: 'member' };

/**
 * 'Your HOBBY plan allows 3 projects. Upgrade the plan to add more.' to the owner; the other members
 * of a workspace are told it is the owner's plan (quotas are pooled over what the owner owns) and
 * that the owner upgrades it: 'The workspace owner's HOBBY plan allows 3 projects. Ask the owner to
 * upgrade the plan to add more.'
 */
export const planLimitMessage = (plan: PlanName, limit: CountLimit, whose: 'own' | 'owner' = 'own'): string => {
  const max = plans[plan][limit];
  const allows = `${plan} plan allows ${max} ${limitNouns[limit]}${max === 1 ? '' : 's'}${limit === 'workspaceMembers' ? ' per workspace' : ''}.`;
  return whose === 'own' ? `Your ${allows} Upgrade the plan to add more.` : `The workspace owner's ${allows} Ask the owner to upgrade the plan to add more.`;
};

/** Why no project can be added while the first payment is incomplete or expired; null otherwise. */
export const subscriptionBlockedMessage = (status: SubscriptionStatus): string | null =>
  status === 'incomplete'
    ? 'The first payment of this subscription is not complete yet, so projects cannot be added. Complete the payment in billing and try again.'
    : status === 'incomplete_expired'
      ? 'The first payment of this subscription failed and it expired, so projects cannot be added. Choose a plan again to continue.'
      : null;
