import type { Db } from '../../db/index';
import { recordGatewayChange } from '../../db/gateway-changes';
import { DEFAULT_PLAN, isPlanName, plans, type Plan, type PlanName, type SubscriptionStatus } from '../../../shared/plans';

export interface Subscription {
  userId: number;
  plan: Plan;
  status: SubscriptionStatus;
}

/** The user's subscription; STARTER/active when none has been stored yet. */
export async function getSubscription(db: Db, userId: number): Promise<Subscription> {
  const row = await db('subscriptions').where({ user_id: userId }).first('plan', 'status');
  const name: PlanName = row && isPlanName(row.plan) ? row.plan : DEFAULT_PLAN;
  return { userId, plan: plans[name], status: (row?.status as SubscriptionStatus) ?? 'active' };
}

/** Stores plan and status; billing calls this when Stripe or pay-as-you-go changes them. */
export async function setSubscription(db: Db, userId: number, plan: PlanName, status: SubscriptionStatus): Promise<void> {
  const now = Date.now();
  await db.transaction(async (trx) => {
    await trx('subscriptions')
      .insert({ user_id: userId, plan, status, created_at: now, updated_at: now })
      .onConflict('user_id')
      .merge({ plan, status, updated_at: now });
    await recordGatewayChange(trx, 'subscription', userId);
  });
}

/**
 * Runs fn in a transaction holding the owner's subscription row, so checks of pooled limits
 * (projects, workspaces, members) and the insert that follows cannot interleave with another request.
 * PostgreSQL: SELECT … FOR UPDATE. SQLite: every transaction takes the file's write lock when it
 * begins, so they are already serial.
 */
export async function withOwnerLock<T>(db: Db, ownerId: number, fn: (trx: Db) => Promise<T>): Promise<T> {
  return withOwnersLock(db, [ownerId], fn);
}

/** withOwnerLock for several owners (a transfer holds both), taken in id order so two never deadlock. */
export async function withOwnersLock<T>(db: Db, ownerIds: number[], fn: (trx: Db) => Promise<T>): Promise<T> {
  const ids = [...new Set(ownerIds)].sort((a, b) => a - b);
  return db.transaction(async (trx) => {
    const now = Date.now();
    for (const ownerId of ids) {
      await trx('subscriptions')
        .insert({ user_id: ownerId, plan: DEFAULT_PLAN, status: 'active', created_at: now, updated_at: now })
        .onConflict('user_id')
        .ignore();
      await trx('subscriptions').where({ user_id: ownerId }).forUpdate().first('user_id');
    }
    return fn(trx);
  });
}
