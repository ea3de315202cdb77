import type { Db } from '../../db/index';
import { AppError, Invalid } from '../../errors';
import { recordGatewayChange } from '../../db/gateway-changes';
import { deleteWorkspace, getSubscription, withOwnerLock } from '../workspaces/index';
import { forgetAuditPerson } from '../audit/index';
import { isPaidPlan } from '../../../shared/plans';
import { accountMessages, type AccountDeletionPlan, type BlockingWorkspace } from '../../../shared/account';
import type { User } from './users';

/** Cancels what the provider would otherwise go on charging (the composition root wires billing's). */
export type CancelBilling = (user: User) => Promise<void>;

const count = (v: unknown) => Number(v ?? 0);

/** The workspaces the user owns, each with how many other members it has and how many projects. */
async function ownedWorkspaces(db: Db, userId: number) {
  const rows = (await db('workspaces as w')
    .where('w.owner_id', userId)
    .orderBy('w.id', 'asc')
    .select(
      'w.id',
      'w.name',
      db('workspace_members as m').count('*').whereRaw('m.workspace_id = w.id').andWhereNot('m.user_id', userId).as('others'),
      db('projects as p').count('*').whereRaw('p.workspace_id = w.id').as('projects'),
    )) as Array<{ id: number; name: string; others: unknown; projects: unknown }>;
  return rows.map((r) => ({ id: Number(r.id), name: r.name, others: count(r.others), projects: count(r.projects) }));
}

/** What deleting the account would delete and cancel, and which workspaces stop it. */
export async function planAccountDeletion(db: Db, userId: number): Promise<AccountDeletionPlan> {
  const owned = await ownedWorkspaces(db, userId);
  const blockers: BlockingWorkspace[] = owned.filter((w) => w.others > 0).map((w) => ({ id: w.id, name: w.name, members: w.others + 1 }));
  const { plan, status } = await getSubscription(db, userId);
  const live = status !== 'canceled' && status !== 'incomplete_expired';
  return {
    allowed: blockers.length === 0,
    blockers,
    workspacesDeleted: owned.filter((w) => w.others === 0).map((w) => ({ id: w.id, name: w.name, projects: w.projects })),
    cancelsSubscription: isPaidPlan(plan.name) && live ? plan.name : null,
  };
}

const blockedError = (blockers: BlockingWorkspace[]) =>
  new AppError(409, 'account_has_shared_workspaces', accountMessages.blocked(blockers.map((b) => b.name)), { blockers });

/**
 * Deletes the account after the user typed their e-mail address: refused while they own a workspace
 * with other members. Cancels a paid subscription first; then, in one transaction, deletes the
 * workspaces they alone are in (with their projects, as deleting a workspace does), their memberships,
 * invitations to or from them, sign-in links, OAuth links, settings, billing records, community
 * endpoints, desktop sign-ins, every session, and the user. Pay-as-you-go orders they placed in other
 * people's workspaces stay with those workspaces, without their name (docs/features/accounts.md).
 */
export async function deleteAccount(db: Db, user: User, confirmation: string, cancelBilling: CancelBilling): Promise<void> {
  if (confirmation.trim().toLowerCase() !== user.email.toLowerCase()) throw new Invalid(accountMessages.confirmationMismatch);
  const plan = await planAccountDeletion(db, user.id);
  if (!plan.allowed) throw blockedError(plan.blockers);
  await cancelBilling(user);
  const email = user.email.toLowerCase();
  // The owner's lock: accepting an invitation holds it while it checks the owner's plan, so nobody
  // joins a workspace between the check below and its deletion.
  await withOwnerLock(db, user.id, async (trx) => {
    const owned = await ownedWorkspaces(trx, user.id);
    const blockers = owned.filter((w) => w.others > 0);
    if (blockers.length > 0) throw blockedError(blockers.map((w) => ({ id: w.id, name: w.name, members: w.others + 1 })));
    for (const w of owned) await deleteWorkspace(trx, w.id);
    await trx('workspace_members').where({ user_id: user.id }).delete();
    await trx('workspace_invitations').where({ email }).delete();
    await trx('workspace_invitations').where({ invited_by: user.id }).update({ invited_by: null });
    await trx('workspace_invitations').where({ accepted_by: user.id }).update({ accepted_by: null });
    await trx('ppu_orders').where({ user_id: user.id }).update({ user_id: null });
    await trx('community_endpoints').where({ reviewed_by: user.id }).update({ reviewed_by: null });
    await trx('community_endpoints').where({ user_id: user.id }).delete();
    for (const table of ['oauth_accounts', 'user_settings', 'billing_customers', 'checkout_sessions', 'subscription_logs', 'desktop_sign_ins', 'quota_usage', 'sessions', 'subscriptions']) {
      await trx(table).where({ user_id: user.id }).delete();
    }
    await trx('magic_link_tokens').where({ email }).delete();
    await trx('sign_in_throttle').where({ key: `email:${email}` }).delete();
    await forgetAuditPerson(trx, user.id, email);
    await trx('users').where({ id: user.id }).delete();
    await recordGatewayChange(trx, 'subscription', user.id);
  });
}
