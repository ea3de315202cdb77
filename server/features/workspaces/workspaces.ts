import type { Db } from '../../db/index';
import { Conflict, Forbidden, Invalid, NotFound, PlanLimit } from '../../errors';
import { isRole, type AssignableRole, type Role } from '../../../shared/permissions';
import { planLimitMessage, type CountLimit, type Plan } from '../../../shared/plans';
import { getSubscription, withOwnerLock, withOwnersLock } from './subscriptions';
import { recordGatewayChange } from '../../db/gateway-changes';
import type { WorkspaceDto, MemberDto, TransferPlan, Membership } from '../../../shared/workspaces';
import { afterKey, decodeCursor, pageLimit, pageOf, whereContains, type Paged } from '../../db/pagination';
import type { SearchPageQuery } from '../../../shared/page-query';

export type { Membership };


const insertedId = (row: unknown): number => (typeof row === 'object' && row !== null ? (row as { id: number }).id : (row as number));

/** The caller's membership in a workspace. Not a member, or no such workspace: 404, never its data. */
export async function membershipOf(db: Db, workspaceId: number, userId: number): Promise<Membership> {
  const row = await db('workspaces as w')
    .join('workspace_members as m', 'm.workspace_id', 'w.id')
    .where({ 'w.id': workspaceId, 'm.user_id': userId })
    .first('w.id', 'w.name', 'w.owner_id', 'm.role');
  if (!row || !isRole(row.role)) throw new NotFound('Workspace not found.');
  return { workspaceId: row.id, name: row.name, ownerId: row.owner_id, role: row.role };
}

const workspaceColumns = (db: Db, userId: number) => [
  'w.id',
  'w.name',
  'm.role as role_name',
  db.raw('CASE WHEN w.owner_id = ? THEN 1 ELSE 0 END as is_creator', [userId]),
  'o.email as creator_email',
];

const toDto = (r: { id: number; name: string; role_name: Role; is_creator: number | boolean; creator_email: string }): WorkspaceDto => ({
  id: r.id,
  name: r.name,
  role_name: r.role_name,
  is_creator: Boolean(Number(r.is_creator)),
  creator_email: r.creator_email,
});

/** One page of the user's workspaces, oldest first (the first is the default selection); `q` searches their names. */
export async function listWorkspaces(db: Db, userId: number, page: SearchPageQuery = {}): Promise<Paged<WorkspaceDto>> {
  const limit = pageLimit(page.limit);
  const q = db('workspaces as w')
    .join('workspace_members as m', 'm.workspace_id', 'w.id')
    .join('users as o', 'o.id', 'w.owner_id')
    .where('m.user_id', userId);
  if (page.cursor) afterKey(q, ['w.id'], decodeCursor(page.cursor, ['int']));
  whereContains(q, 'w.name', page.q);
  const rows = await q.orderBy('w.id', 'asc').limit(limit + 1).select(workspaceColumns(db, userId));
  return pageOf(rows.map(toDto), limit, (w) => [w.id]);
}

export async function getWorkspace(db: Db, workspaceId: number, userId: number): Promise<WorkspaceDto> {
  const row = await db('workspaces as w')
    .join('workspace_members as m', 'm.workspace_id', 'w.id')
    .join('users as o', 'o.id', 'w.owner_id')
    .where({ 'm.user_id': userId, 'w.id': workspaceId })
    .first(workspaceColumns(db, userId));
  if (!row) throw new NotFound('Workspace not found.');
  return toDto(row);
}

export const ownedWorkspaceCount = async (db: Db, ownerId: number): Promise<number> =>
  Number((await db('workspaces').where({ owner_id: ownerId }).count({ n: '*' }))[0]?.n ?? 0);

/** The 422 of a count limit, in the words the screens use too (shared/plans.ts). */
export const limitError = (plan: Plan, limit: CountLimit, used: number, whose: 'own' | 'owner' = 'own') =>
  new PlanLimit(planLimitMessage(plan.name, limit, whose), { limit, plan: plan.name, max: plan[limit], used });

/** Whose plan a limit message names: the caller's own, or (for any other member) the owner's. */
export const whosePlan = (m: Pick<Membership, 'role'>): 'own' | 'owner' => (m.role === 'owner' ? 'own' : 'owner');

export async function createWorkspace(db: Db, userId: number, name: string): Promise<WorkspaceDto> {
  const id = await withOwnerLock(db, userId, async (trx) => {
    const { plan } = await getSubscription(trx, userId);
    const owned = await ownedWorkspaceCount(trx, userId);
    if (owned >= plan.workspaceCount) throw limitError(plan, 'workspaceCount', owned);
    const now = Date.now();
    const [row] = await trx('workspaces').insert({ name, owner_id: userId, created_at: now, updated_at: now }).returning('id');
    const workspaceId = insertedId(row);
    await trx('workspace_members').insert({ workspace_id: workspaceId, user_id: userId, role: 'owner', created_at: now });
    return workspaceId;
  });
  return getWorkspace(db, id, userId);
}

export async function renameWorkspace(db: Db, workspaceId: number, name: string): Promise<void> {
  await db('workspaces').where({ id: workspaceId }).update({ name, updated_at: Date.now() });
}

/** Removes the workspace with its projects, webhooks, memberships, invitations and add-ons, all or nothing. */
export async function deleteWorkspace(db: Db, workspaceId: number): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('projects').where({ workspace_id: workspaceId }).delete();
    await trx('webhooks').where({ workspace_id: workspaceId }).delete();
    await trx('workspace_invitations').where({ workspace_id: workspaceId }).delete();
    await trx('addons').where({ workspace_id: workspaceId }).delete();
    await trx('workspace_members').where({ workspace_id: workspaceId }).delete();
    await trx('workspaces').where({ id: workspaceId }).delete();
    await recordGatewayChange(trx, 'workspace', workspaceId);
  });
}

// ---- members ----

// The owner first, then the others in the order they joined: the rank is the first part of the sort key.
const MEMBER_RANK = "CASE WHEN m.role = 'owner' THEN 0 ELSE 1 END";

const memberRows = (db: Db, workspaceId: number) =>
  db('workspace_members as m')
    .join('users as u', 'u.id', 'm.user_id')
    .join('workspaces as w', 'w.id', 'm.workspace_id')
    .where('m.workspace_id', workspaceId)
    .select('u.id as user_id', 'u.email', 'm.role as role_name', 'm.created_at as joined_at', 'w.owner_id', db.raw(`${MEMBER_RANK} as member_rank`));

type MemberRow = { user_id: number; email: string; role_name: Role; joined_at: number | string; owner_id: number; member_rank: number | string };

const memberDto = (r: MemberRow): MemberDto => ({
  user_id: r.user_id,
  email: r.email,
  role_name: r.role_name,
  is_creator: r.user_id === r.owner_id,
  joined_at: r.joined_at as MemberDto['joined_at'],
});

/** One page of a workspace's members, the owner first; `q` searches their e-mail addresses. */
export async function listMembers(db: Db, workspaceId: number, page: SearchPageQuery = {}): Promise<Paged<MemberDto>> {
  const limit = pageLimit(page.limit);
  const q = memberRows(db, workspaceId);
  if (page.cursor) afterKey(q, [MEMBER_RANK, 'm.created_at', 'm.user_id'], decodeCursor(page.cursor, ['int', 'int', 'int']));
  whereContains(q, 'u.email', page.q);
  const rows = (await q.orderByRaw(MEMBER_RANK).orderBy('m.created_at', 'asc').orderBy('m.user_id', 'asc').limit(limit + 1)) as MemberRow[];
  return pageOf(rows, limit, (r) => [Number(r.member_rank), Number(r.joined_at), r.user_id]).map(memberDto);
}

/** One member of a workspace, or null. */
export async function findMember(db: Db, workspaceId: number, userId: number): Promise<MemberDto | null> {
  const row = (await memberRows(db, workspaceId).andWhere('m.user_id', userId).first()) as MemberRow | undefined;
  return row ? memberDto(row) : null;
}

const memberRole = async (db: Db, workspaceId: number, userId: number): Promise<Role> => {
  const row = await db('workspace_members').where({ workspace_id: workspaceId, user_id: userId }).first('role');
  if (!row) throw new NotFound('Member not found.');
  return row.role as Role;
};

export async function changeMemberRole(db: Db, workspaceId: number, userId: number, role: AssignableRole): Promise<void> {
  const current = await memberRole(db, workspaceId, userId);
  if (current === 'owner') throw new Forbidden("The owner's role cannot be changed. Transfer the workspace to make someone else the owner.");
  await db('workspace_members').where({ workspace_id: workspaceId, user_id: userId }).update({ role });
}

export async function removeMember(db: Db, workspaceId: number, userId: number): Promise<void> {
  const current = await memberRole(db, workspaceId, userId);
  if (current === 'owner') throw new Forbidden('The owner cannot be removed from the workspace.');
  await db('workspace_members').where({ workspace_id: workspaceId, user_id: userId }).delete();
}

export async function leaveWorkspace(db: Db, m: Membership, userId: number): Promise<void> {
  if (m.role === 'owner') throw new Forbidden('The owner cannot leave the workspace. Transfer it to another member or delete it.');
  await db('workspace_members').where({ workspace_id: m.workspaceId, user_id: userId }).delete();
}

// ---- transfer ----

/** What transferring the workspace to newOwnerId would change, and what blocks it. */
export async function planTransfer(db: Db, m: Membership, newOwnerId: number): Promise<TransferPlan> {
  const target = await db('workspace_members as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.workspace_id': m.workspaceId, 'm.user_id': newOwnerId })
    .first('u.id', 'u.email', 'm.role');
  if (!target) throw new Invalid('The new owner must be a member of this workspace.');
  if (newOwnerId === m.ownerId) throw new Invalid('This member already owns the workspace.');
  const { plan } = await getSubscription(db, newOwnerId);
  const projectsHere = Number((await db('projects').where({ workspace_id: m.workspaceId }).count({ n: '*' }))[0]?.n ?? 0);
  const projectsOwned = Number(
    (await db('projects as p').join('workspaces as w', 'w.id', 'p.workspace_id').where('w.owner_id', newOwnerId).count({ n: '*' }))[0]?.n ?? 0,
  );
  const workspacesOwned = await ownedWorkspaceCount(db, newOwnerId);
  const members = Number((await db('workspace_members').where({ workspace_id: m.workspaceId }).count({ n: '*' }))[0]?.n ?? 0);
  const after = { projectCount: projectsOwned + projectsHere, workspaceCount: workspacesOwned + 1, workspaceMembers: members };
  const blockers: TransferPlan['blockers'] = [];
  if (after.workspaceCount > plan.workspaceCount)
    blockers.push({ limit: 'workspaceCount', max: plan.workspaceCount, after: after.workspaceCount, message: `${target.email} is on the ${plan.name} plan, which allows ${plan.workspaceCount} workspace${plan.workspaceCount === 1 ? '' : 's'}; they would own ${after.workspaceCount}.` });
  if (after.projectCount > plan.projectCount)
    blockers.push({ limit: 'projectCount', max: plan.projectCount, after: after.projectCount, message: `${target.email} is on the ${plan.name} plan, which allows ${plan.projectCount} project${plan.projectCount === 1 ? '' : 's'}; they would have ${after.projectCount}.` });
  if (after.workspaceMembers > plan.workspaceMembers)
    blockers.push({ limit: 'workspaceMembers', max: plan.workspaceMembers, after: after.workspaceMembers, message: `${target.email} is on the ${plan.name} plan, which allows ${plan.workspaceMembers} member${plan.workspaceMembers === 1 ? '' : 's'} per workspace; this workspace has ${after.workspaceMembers}.` });
  return {
    newOwner: { id: target.id, email: target.email, plan: plan.name, currentRole: target.role },
    changes: {
      newOwnerRole: 'owner',
      previousOwnerRole: 'administrator',
      plan: plan.name,
      projectsMoving: projectsHere,
    },
    after,
    blockers,
    allowed: blockers.length === 0,
  };
}

export async function transferWorkspace(db: Db, m: Membership, newOwnerId: number): Promise<void> {
  // Membership first: the lock below creates the new owner's subscription row, which for a user id
  // that does not exist would fail on its foreign key (a 500 instead of this 400).
  if (!(await db('workspace_members').where({ workspace_id: m.workspaceId, user_id: newOwnerId }).first('user_id'))) {
    throw new Invalid('The new owner must be a member of this workspace.');
  }
  // Both owners: the current owner's lock is what accepting an invitation holds while it checks
  // the current owner's plan, so a transfer cannot slip in between.
  await withOwnersLock(db, [m.ownerId, newOwnerId], async (trx) => {
    const plan = await planTransfer(trx, m, newOwnerId);
    if (!plan.allowed) throw new PlanLimit(plan.blockers.map((b) => b.message).join(' '), { blockers: plan.blockers });
    const updated = await trx('workspaces').where({ id: m.workspaceId, owner_id: m.ownerId }).update({ owner_id: newOwnerId, updated_at: Date.now() });
    if (updated !== 1) throw new Conflict('The workspace changed owner meanwhile. Reload and try again.');
    await trx('workspace_members').where({ workspace_id: m.workspaceId, user_id: newOwnerId }).update({ role: 'owner' });
    await trx('workspace_members').where({ workspace_id: m.workspaceId, user_id: m.ownerId }).update({ role: 'administrator' });
    await recordGatewayChange(trx, 'workspace', m.workspaceId);
  });
}

