import type { Db } from '../../db/index';
import { NotFound, PlanLimit, Conflict } from '../../errors';
import { recordGatewayChange } from '../../db/gateway-changes';
import { decodeCursor, pageLimit, pageOf, type Paged } from '../../db/pagination';
import type { PageQuery } from '../../../shared/page-query';
import { ownedProjectCount } from '../projects/index';
import { ownedWebhookCount } from '../webhooks/index';
import { boosts, DEFAULT_PLAN, isPlanName, planNames, plans, type BoostType, type PlanName, type SubscriptionStatus } from '../../../shared/plans';
import { INCOMPLETE_EXPIRY_MS, excessFor, hasUnpaidInvoice, type BillingPeriod, type BillingProviderName, type CurrentCounts, type LogType, type SubscriptionLogDto } from '../../../shared/billing';
import { messages } from '../../../shared/messages';
import type { AddonDto } from '../../../shared/workspaces';
import { NO_ORIGIN, recordAudit, type AuditAction, type AuditActor, type AuditOrigin } from '../audit/index';
import { DAY_MS } from '../../../shared/time';

// The one subscription state machine every provider drives (Stripe through its webhooks and
// re-reads, the local provider through its checkout page, operators by hand), and the subscription
// logs it writes. Services only: no HTTP here.

export interface SubscriptionState {
  plan: PlanName;
  status: SubscriptionStatus;
  period: BillingPeriod | null;
  priceId: string | null;
  provider: BillingProviderName | null;
  providerSubscriptionId: string | null;
  currentPeriodEnd: number | null;
  cancelAtPeriodEnd: boolean;
  delinquent: boolean;
  incompleteSince: number | null;
}

export interface LogEntry {
  type: LogType;
  amount?: number | null;
  boost?: BoostType | null;
  workspaceId?: number | null;
  reference?: string | null;
  /** Logged once: a second entry with the same key is dropped. */
  dedupeKey?: string | null;
}

/**
 * Who bought: the user who opened the checkout (its reference), else the subscription's owner. The
 * purchase completes on the payment provider's word, so there is no client address to record.
 */
async function buyer(trx: Db, ownerId: number, reference: string | null | undefined): Promise<AuditActor> {
  const row = reference
    ? await trx('checkout_sessions as c').join('users as u', 'u.id', 'c.user_id').where('c.id', reference).first('u.id', 'u.email')
    : undefined;
  if (row) return { userId: Number(row.id), email: row.email as string };
  const owner = await trx('users').where({ id: ownerId }).first('email');
  return { userId: ownerId, email: (owner?.email as string | undefined) ?? `user ${ownerId}` };
}

/** A plan bought or changed by its owner: one audit entry in every workspace the plan runs. */
async function auditPlanPurchase(trx: Db, ownerId: number, after: SubscriptionState, entry: LogEntry, now: number): Promise<void> {
  const actor = await buyer(trx, ownerId, entry.reference);
  const workspaces = (await trx('workspaces').where({ owner_id: ownerId }).select('id')) as Array<{ id: number }>;
  for (const w of workspaces) {
    await recordAudit(trx, {
      workspaceId: w.id,
      actor,
      action: 'billing.plan_purchased',
      target: { type: 'subscription', id: ownerId, label: after.period ? `${after.plan} (${after.period})` : after.plan },
      ...NO_ORIGIN,
      details: { change: entry.type, plan: after.plan, period: after.period, amount_cents: entry.amount ?? null },
      at: now,
    });
  }
}

/** A member's action on the owner's subscription (the billing portal's): one entry in every workspace the plan runs, by who acted. */
export async function auditSubscriptionAction(db: Db, ownerId: number, after: SubscriptionState, actor: AuditActor, action: AuditAction, origin: AuditOrigin): Promise<void> {
  const workspaces = (await db('workspaces').where({ owner_id: ownerId }).select('id')) as Array<{ id: number }>;
  for (const w of workspaces) {
    await recordAudit(db, {
      workspaceId: w.id,
      actor,
      action,
      target: { type: 'subscription', id: ownerId, label: after.period ? `${after.plan} (${after.period})` : after.plan },
      ...origin,
      details: { status: after.status },
    });
  }
}

const bool = (v: unknown) => v === true || v === 1 || v === '1' || v === 't';
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export async function readSubscriptionState(db: Db, userId: number): Promise<SubscriptionState> {
  const r = await db('subscriptions').where({ user_id: userId }).first();
  return {
    plan: r && isPlanName(r.plan) ? r.plan : DEFAULT_PLAN,
    status: (r?.status as SubscriptionStatus) ?? 'active',
    period: (r?.period as BillingPeriod | null) ?? null,
    priceId: r?.price_id ?? null,
    provider: (r?.provider as BillingProviderName | null) ?? null,
    providerSubscriptionId: r?.provider_subscription_id ?? null,
    currentPeriodEnd: num(r?.current_period_end),
    cancelAtPeriodEnd: bool(r?.cancel_at_period_end),
    delinquent: bool(r?.delinquent),
    incompleteSince: num(r?.incomplete_since),
  };
}

const rank = (plan: PlanName, period: BillingPeriod | null) => planNames.indexOf(plan) * 2 + (period === 'year' ? 1 : 0);

async function insertLog(trx: Db, userId: number, state: SubscriptionState, provider: BillingProviderName | 'cardano', entry: LogEntry, now: number) {
  const row = {
    user_id: userId,
    workspace_id: entry.workspaceId ?? null,
    type: entry.type,
    plan: state.plan,
    period: state.period,
    status: state.status,
    amount: entry.amount ?? null,
    currency: 'eur',
    boost: entry.boost ?? null,
    provider,
    reference: entry.reference ?? null,
    dedupe_key: entry.dedupeKey ?? null,
    created_at: now,
  };
  if (entry.dedupeKey) await trx('subscription_logs').insert(row).onConflict('dedupe_key').ignore();
  else await trx('subscription_logs').insert(row);
}

/**
 * Writes one subscription log entry with the subscription as it stands, inside the caller's
 * transaction (pay-as-you-go credits log this way beside their balance change).
 */
export async function writeSubscriptionLog(trx: Db, userId: number, provider: BillingProviderName | 'cardano', entry: LogEntry, now = Date.now()): Promise<void> {
  await insertLog(trx, userId, await readSubscriptionState(trx, userId), provider, entry, now);
}

/**
 * Moves a user's subscription to `next` in one transaction with its logs and the gateway change, so
 * a crash leaves either all of it or none. Logs the money event given, and what the difference
 * itself says (an upgrade, a downgrade, a cancellation, an expiry), so applying the same state twice
 * logs nothing new.
 */
export async function applySubscription(
  db: Db,
  userId: number,
  next: Partial<SubscriptionState> & Pick<SubscriptionState, 'plan' | 'status'>,
  provider: BillingProviderName,
  entry?: LogEntry,
  now = Date.now(),
): Promise<SubscriptionState> {
  return db.transaction(async (trx) => {
    await trx('subscriptions')
      .insert({ user_id: userId, plan: DEFAULT_PLAN, status: 'active', created_at: now, updated_at: now })
      .onConflict('user_id')
      .ignore();
    await trx('subscriptions').where({ user_id: userId }).forUpdate().first('user_id');
    const before = await readSubscriptionState(trx, userId);
    const after: SubscriptionState = { ...before, ...next };
    if (after.status !== 'incomplete') after.incompleteSince = null;
    else if (after.incompleteSince === null) after.incompleteSince = now;
    await trx('subscriptions').where({ user_id: userId }).update({
      plan: after.plan,
      status: after.status,
      period: after.period,
      price_id: after.priceId,
      provider: after.provider,
      provider_subscription_id: after.providerSubscriptionId,
      current_period_end: after.currentPeriodEnd,
      cancel_at_period_end: after.cancelAtPeriodEnd,
      delinquent: after.delinquent,
      incomplete_since: after.incompleteSince,
      updated_at: now,
    });
    if (before.plan !== after.plan || before.status !== after.status) await recordGatewayChange(trx, 'subscription', userId);
    if (entry) await insertLog(trx, userId, after, provider, entry, now);
    if (entry && (entry.type === 'checkout' || entry.type === 'upgrade' || entry.type === 'downgrade')) await auditPlanPurchase(trx, userId, after, entry, now);
    const covered = entry && ['checkout', 'failed_payment', 'operator', 'upgrade', 'downgrade'].includes(entry.type);
    if (!covered && (before.plan !== after.plan || before.period !== after.period) && after.status !== 'canceled' && after.status !== 'incomplete_expired') {
      await insertLog(trx, userId, after, provider, { type: rank(after.plan, after.period) > rank(before.plan, before.period) ? 'upgrade' : 'downgrade' }, now);
    }
    if (entry?.type !== 'cancellation' && after.status === 'canceled' && before.status !== 'canceled') await insertLog(trx, userId, after, provider, { type: 'cancellation' }, now);
    if (after.status === 'incomplete_expired' && before.status !== 'incomplete_expired') await insertLog(trx, userId, after, provider, { type: 'expired' }, now);
    return after;
  });
}

/** The state a canceled subscription leaves: back on STARTER, nothing owed. */
export const canceledState = (provider: BillingProviderName): Partial<SubscriptionState> & Pick<SubscriptionState, 'plan' | 'status'> => ({
  plan: 'STARTER',
  status: 'canceled',
  period: null,
  priceId: null,
  provider,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  delinquent: false,
});

/** incomplete for 23 hours without a successful payment becomes incomplete_expired (spec section 4). */
export async function expireIncompleteSubscriptions(db: Db, now = Date.now()): Promise<number> {
  const due = await db('subscriptions').where({ status: 'incomplete' }).andWhere('incomplete_since', '<=', now - INCOMPLETE_EXPIRY_MS).select('user_id', 'provider');
  for (const r of due) {
    await applySubscription(db, r.user_id, { plan: (await readSubscriptionState(db, r.user_id)).plan, status: 'incomplete_expired' }, (r.provider as BillingProviderName) ?? 'none', undefined, now);
  }
  return due.length;
}

// ---- counts and the plan-change rules (spec section 5) ----

export async function currentCounts(db: Db, userId: number): Promise<CurrentCounts> {
  const [projects, webhooks, workspaces] = await Promise.all([
    ownedProjectCount(db, userId),
    ownedWebhookCount(db, userId),
    db('workspaces').where({ owner_id: userId }).count({ n: '*' }).then((r) => Number(r[0]?.n ?? 0)),
  ]);
  return { projects, webhooks, workspaces };
}

/** Refuses a plan change (or cancellation, newPlan STARTER) with the spec's words when it may not happen. */
export async function assertPlanChangeAllowed(db: Db, userId: number, newPlan: PlanName): Promise<void> {
  const state = await readSubscriptionState(db, userId);
  if (hasUnpaidInvoice(state.status) || state.delinquent) throw new Conflict(messages.billing.unpaidInvoice);
  const excess = excessFor(plans[newPlan], await currentCounts(db, userId));
  if (excess) throw new PlanLimit(messages.billing.removeToMatch(excess.projects, excess.webhooks, excess.workspaces, newPlan), { limit: 'planChange', excess });
}

// ---- boosts ----

/** The types of the owner's running boosts, one per boost (all workspaces the owner owns). */
export async function runningBoostTypes(db: Db, ownerId: number, now = Date.now()): Promise<string[]> {
  const rows: Array<{ type: string }> = await db('addons as a').join('workspaces as w', 'w.id', 'a.workspace_id').where('w.owner_id', ownerId).andWhere('a.expires_at', '>', now).select('a.type');
  return rows.map((r) => r.type);
}

/** The workspace's boosts still running, soonest to end first (GET /api/workspaces/{id}/addons). */
export async function activeAddons(db: Db, workspaceId: number, now = Date.now()): Promise<AddonDto[]> {
  const rows: Array<{ type: BoostType; expires_at: number | string }> = await db('addons')
    .where({ workspace_id: workspaceId })
    .andWhere('expires_at', '>', now)
    .orderBy('expires_at', 'asc')
    .select('type', 'expires_at');
  return rows.map((r) => ({ type: r.type, expires_at: Number(r.expires_at) }));
}

/** Grants a boost to a workspace once per reference; logs it for the workspace owner. */
export async function grantBoost(
  db: Db,
  args: { workspaceId: number; type: BoostType; reference: string | null; days?: number; amount: number | null; provider: BillingProviderName; logType?: LogType },
  now = Date.now(),
): Promise<{ granted: boolean; expiresAt: number }> {
  return db.transaction(async (trx) => {
    const ws = await trx('workspaces').where({ id: args.workspaceId }).first('owner_id');
    if (!ws) throw new NotFound('Workspace not found.');
    if (args.reference && (await trx('addons').where({ reference: args.reference }).first('id'))) {
      return { granted: false, expiresAt: 0 };
    }
    const expiresAt = now + (args.days ?? boosts[args.type].days) * DAY_MS;
    await trx('addons').insert({ workspace_id: args.workspaceId, type: args.type, expires_at: expiresAt, created_at: now, reference: args.reference });
    await recordGatewayChange(trx, 'addon', args.workspaceId);
    const state = await readSubscriptionState(trx, ws.owner_id);
    await insertLog(trx, ws.owner_id, state, args.provider, { type: args.logType ?? 'boost', amount: args.amount, boost: args.type, workspaceId: args.workspaceId, reference: args.reference }, now);
    // A purchase has its checkout as reference; the operator's grants (no reference) are recorded by the operator's route.
    if (args.reference) {
      await recordAudit(trx, {
        workspaceId: args.workspaceId,
        actor: await buyer(trx, ws.owner_id, args.reference),
        action: 'billing.boost_purchased',
        target: { type: 'boost', id: args.reference, label: `+${boosts[args.type].requests.toLocaleString('en-US')} requests per day` },
        ...NO_ORIGIN,
        details: { boost: args.type, amount_cents: args.amount, expires_at: new Date(expiresAt).toISOString() },
        at: now,
      });
    }
    return { granted: true, expiresAt };
  });
}

// ---- logs ----

const toLog = (r: Record<string, unknown>): SubscriptionLogDto => ({
  id: Number(r.id),
  type: r.type as LogType,
  plan: r.plan as PlanName,
  period: (r.period as BillingPeriod | null) ?? null,
  status: r.status as SubscriptionStatus,
  amount: num(r.amount),
  currency: 'eur',
  boost: (r.boost as BoostType | null) ?? null,
  workspace_id: num(r.workspace_id),
  provider: r.provider as BillingProviderName,
  reference: (r.reference as string | null) ?? null,
  created_at: Number(r.created_at),
});

/** One page of the user's subscription log, newest first (shared/pagination.ts: `next` is the cursor of the older page). */
export async function listLogs(db: Db, userId: number, page: PageQuery = {}): Promise<Paged<SubscriptionLogDto>> {
  const limit = pageLimit(page.limit);
  const q = db('subscription_logs').where({ user_id: userId });
  if (page.cursor) q.andWhere('id', '<', decodeCursor(page.cursor, ['int'])[0]!);
  const rows = (await q.orderBy('id', 'desc').limit(limit + 1).select()) as Array<{ id: number | string }>;
  return pageOf(rows, limit, (r) => [Number(r.id)]).map(toLog);
}

/** One log entry of the user's own; someone else's answers 404. */
export async function getLog(db: Db, userId: number, id: number): Promise<SubscriptionLogDto> {
  const r = await db('subscription_logs').where({ user_id: userId, id }).first();
  if (!r) throw new NotFound('Log entry not found.');
  return toLog(r);
}

