import type { Db } from '../../db/index';
import { Invalid, NotFound } from '../../errors';
import { applySubscription, grantBoost, readSubscriptionState } from '../billing/index';
import { findUserByEmail, findUserById } from '../accounts/index';
import type { BoostType, PlanName, SubscriptionStatus } from '../../../shared/plans';
import type { OperatorUserDto } from '../../../shared/billing';
import { boosts } from '../../../shared/plans';
import { NO_ORIGIN, recordAudit, type AuditOrigin } from '../audit/index';

/** Who acts: an operator's e-mail and where the request came from; the command line by default. */
export interface OperatorActor extends AuditOrigin {
  operator: string;
}
const COMMAND_LINE: OperatorActor = { operator: 'npm run operator', ...NO_ORIGIN };

// What an operator does by hand, from the operator page or `npm run operator`: see every user with
// plan and status, set any user's plan, grant a boost. Each change is logged like any other.

export async function listUsersForOperator(db: Db, search = ''): Promise<OperatorUserDto[]> {
  const q = db('users as u').leftJoin('subscriptions as s', 's.user_id', 'u.id').orderBy('u.id', 'asc').limit(200);
  if (search) q.where('u.email', 'like', `%${search.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
  const users = await q.select('u.id', 'u.email', 'u.created_at', 's.plan', 's.status', 's.provider');
  const ids = users.map((u) => u.id);
  const workspaces = ids.length
    ? await db('workspaces as w')
        .whereIn('w.owner_id', ids)
        .select(
          'w.id',
          'w.name',
          'w.owner_id',
          db('projects').whereRaw('projects.workspace_id = w.id').count('*').as('projects'),
          db('workspace_members').whereRaw('workspace_members.workspace_id = w.id').count('*').as('members'),
        )
    : [];
  const addons = workspaces.length
    ? await db('addons').whereIn('workspace_id', workspaces.map((w) => w.id)).andWhere('expires_at', '>', Date.now()).select('workspace_id', 'type', 'expires_at')
    : [];
  return users.map((u) => ({
    id: u.id,
    email: u.email,
    plan: (u.plan ?? 'STARTER') as PlanName,
    status: (u.status ?? 'active') as SubscriptionStatus,
    provider: u.provider ?? null,
    created_at: Number(u.created_at),
    workspaces: workspaces
      .filter((w) => w.owner_id === u.id)
      .map((w) => ({
        id: w.id,
        name: w.name,
        projects: Number(w.projects),
        members: Number(w.members),
        boosts: addons.filter((a) => a.workspace_id === w.id).map((a) => ({ type: a.type as BoostType, expires_at: Number(a.expires_at) })),
      })),
  }));
}

/** A user by id or e-mail (the CLI takes either). */
export async function findUserForOperator(db: Db, who: string | number) {
  const user = typeof who === 'number' || /^\d+$/.test(who) ? await findUserById(db, Number(who)) : await findUserByEmail(db, who);
  if (!user) throw new NotFound(`There is no user ${who}.`);
  return user;
}

/**
 * Sets a user's plan and status by hand. A Stripe subscription the user has stays in Stripe: its next
 * event or the reconciliation on start brings Stripe's state back, so change it there too.
 */
export async function setPlanByOperator(db: Db, userId: number, plan: PlanName, status: SubscriptionStatus, by: OperatorActor = COMMAND_LINE) {
  const state = await readSubscriptionState(db, userId);
  const after = await applySubscription(db, userId, { plan, status, delinquent: false, ...(plan === 'STARTER' ? { period: null, priceId: null } : {}) }, state.provider ?? 'none', { type: 'operator', amount: null });
  // The plan is what every workspace the user owns runs on: each of them records it.
  const owned = (await db('workspaces').where({ owner_id: userId }).select('id')) as Array<{ id: number }>;
  const owner = await findUserById(db, userId);
  for (const w of owned) {
    await recordAudit(db, {
      workspaceId: w.id,
      actor: { operator: by.operator },
      action: 'operator.plan_set',
      target: { type: 'subscription', id: userId, label: `${plan} (${owner?.email ?? `user ${userId}`})` },
      ip: by.ip,
      userAgent: by.userAgent,
      details: { from_plan: state.plan, plan, from_status: state.status, status },
    });
  }
  return after;
}

/** Grants a boost to one of the user's own workspaces (the first one when none is named). */
export async function grantBoostByOperator(db: Db, userId: number, type: BoostType, workspaceId?: number, days?: number, by: OperatorActor = COMMAND_LINE) {
  const owned = await db('workspaces').where({ owner_id: userId }).orderBy('id', 'asc').select('id');
  const target = workspaceId ?? owned[0]?.id;
  if (!target) throw new Invalid('This user owns no workspace to boost.');
  if (!owned.some((w) => w.id === target)) throw new Invalid('A boost goes to a workspace the user owns.');
  const state = await readSubscriptionState(db, userId);
  const granted = await grantBoost(db, { workspaceId: target, type, reference: null, days, amount: null, provider: state.provider ?? 'none', logType: 'boost' });
  await recordAudit(db, {
    workspaceId: target,
    actor: { operator: by.operator },
    action: 'operator.boost_granted',
    target: { type: 'boost', id: type, label: `+${boosts[type].requests.toLocaleString('en-US')} requests per day` },
    ip: by.ip,
    userAgent: by.userAgent,
    details: { boost: type, days: days ?? boosts[type].days, expires_at: new Date(granted.expiresAt).toISOString() },
  });
  return granted;
}
