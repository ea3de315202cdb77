import crypto from 'node:crypto';
import type { Db } from '../../db/index';
import { Conflict, Forbidden, NotFound } from '../../errors';
import type { AssignableRole } from '../../../shared/permissions';
import type { InvitationDto, InvitationPreview } from '../../../shared/workspaces';
import { getSubscription, withOwnerLock } from './subscriptions';
import { limitError, whosePlan, type Membership } from './workspaces';
import { afterKey, decodeCursor, pageLimit, pageOf, whereContains, type Paged } from '../../db/pagination';
import type { SearchPageQuery } from '../../../shared/page-query';
import { DAY_MS } from '../../../shared/time';

export const INVITATION_TTL_MS = 7 * DAY_MS;
const hash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

const countOf = async (q: Promise<Array<Record<string, unknown>>>) => Number((await q)[0]?.n ?? 0);

const pending = (db: Db, workspaceId: number, now: number) =>
  db('workspace_invitations').where({ workspace_id: workspaceId }).whereNull('accepted_at').andWhere('expires_at', '>', now);

/**
 * Invites an e-mail with a role. Members plus pending invitations may not exceed the owner's plan,
 * so accepting never overshoots it. Returns the invitation and the secret token for the link.
 */
export async function createInvitation(
  db: Db,
  m: Membership,
  invitedBy: number,
  email: string,
  role: AssignableRole,
): Promise<{ invitation: InvitationDto; token: string }> {
  return withOwnerLock(db, m.ownerId, async (trx) => {
    const now = Date.now();
    const already = await trx('workspace_members as wm')
      .join('users as u', 'u.id', 'wm.user_id')
      .where({ 'wm.workspace_id': m.workspaceId, 'u.email': email })
      .first('u.id');
    if (already) throw new Conflict(`${email} is already a member of this workspace.`);
    if (await pending(trx, m.workspaceId, now).where({ email }).first('id')) {
      throw new Conflict(`${email} has already been invited. Revoke that invitation to send a new one.`);
    }
    const { plan } = await getSubscription(trx, m.ownerId);
    const members = await countOf(trx('workspace_members').where({ workspace_id: m.workspaceId }).count({ n: '*' }));
    const invited = await countOf(pending(trx, m.workspaceId, now).count({ n: '*' }));
    if (members + invited >= plan.workspaceMembers) throw limitError(plan, 'workspaceMembers', members + invited, whosePlan(m));
    const token = crypto.randomBytes(24).toString('base64url');
    const id = crypto.randomUUID();
    await trx('workspace_invitations').insert({
      id,
      workspace_id: m.workspaceId,
      token_hash: hash(token),
      email,
      role,
      invited_by: invitedBy,
      created_at: now,
      expires_at: now + INVITATION_TTL_MS,
    });
    const inviter = await trx('users').where({ id: invitedBy }).first('email');
    return {
      token,
      invitation: { id, email, role_name: role, invited_by_email: inviter?.email ?? null, created_at: now, expires_at: now + INVITATION_TTL_MS },
    };
  });
}

/** One page of a workspace's pending invitations, oldest first; `q` searches the invited addresses. */
export async function listInvitations(db: Db, workspaceId: number, page: SearchPageQuery = {}): Promise<Paged<InvitationDto>> {
  const limit = pageLimit(page.limit);
  const q = pending(db, workspaceId, Date.now()).leftJoin('users as u', 'u.id', 'workspace_invitations.invited_by');
  if (page.cursor) afterKey(q, ['workspace_invitations.created_at', 'workspace_invitations.id'], decodeCursor(page.cursor, ['int', 'string']));
  whereContains(q, 'workspace_invitations.email', page.q);
  const rows = (await q
    .orderBy('workspace_invitations.created_at', 'asc')
    .orderBy('workspace_invitations.id', 'asc')
    .limit(limit + 1)
    .select(
      'workspace_invitations.id',
      'workspace_invitations.email',
      'workspace_invitations.role as role_name',
      'u.email as invited_by_email',
      'workspace_invitations.created_at',
      'workspace_invitations.expires_at',
    )) as InvitationDto[];
  return pageOf(rows, limit, (r) => [Number(r.created_at), r.id]);
}

/** Answers whom the revoked invitation was for. */
export async function revokeInvitation(db: Db, workspaceId: number, invitationId: string): Promise<{ email: string; role: AssignableRole }> {
  const row = (await db('workspace_invitations').where({ id: invitationId, workspace_id: workspaceId }).whereNull('accepted_at').first('email', 'role')) as { email: string; role: AssignableRole } | undefined;
  const deleted = row ? await db('workspace_invitations').where({ id: invitationId, workspace_id: workspaceId }).whereNull('accepted_at').delete() : 0;
  if (!row || deleted === 0) throw new NotFound('Invitation not found.');
  return row;
}

const byToken = (db: Db, token: string) =>
  db('workspace_invitations as i')
    .join('workspaces as w', 'w.id', 'i.workspace_id')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .where('i.token_hash', hash(token))
    .first('i.id', 'i.workspace_id', 'i.email', 'i.role', 'i.expires_at', 'i.accepted_at', 'w.name as workspace_name', 'w.owner_id', 'u.email as invited_by_email');

export async function previewInvitation(db: Db, token: string): Promise<InvitationPreview> {
  const row = await byToken(db, token);
  if (!row) throw new NotFound('This invitation does not exist or has been revoked.');
  return {
    workspace_name: row.workspace_name,
    email: row.email,
    role_name: row.role,
    invited_by_email: row.invited_by_email ?? null,
    expires_at: row.expires_at,
    status: row.accepted_at ? 'accepted' : row.expires_at <= Date.now() ? 'expired' : 'pending',
  };
}

/** Accepts as the signed-in user, who must have the invited e-mail. Single use: one atomic update. */
export async function acceptInvitation(db: Db, token: string, user: { id: number; email: string }): Promise<{ workspaceId: number; invitationId: string; role: AssignableRole }> {
  const row = await byToken(db, token);
  if (!row) throw new NotFound('This invitation does not exist or has been revoked.');
  if (row.email !== user.email.toLowerCase()) {
    throw new Forbidden(`This invitation was sent to ${row.email}. Sign in with that e-mail to accept it.`);
  }
  // The owner read above may change before its lock is ours (a transfer): read it again under the
  // lock and start over with the new owner, so the plan checked is the one that owns the workspace.
  for (let attempt = 0; attempt < 3; attempt++) {
    const ownerId = attempt === 0 ? (row.owner_id as number) : ((await db('workspaces').where({ id: row.workspace_id }).first('owner_id'))?.owner_id as number | undefined);
    if (ownerId === undefined) throw new NotFound('This invitation does not exist or has been revoked.');
    const result = await withOwnerLock(db, ownerId, async (trx) => {
      const current = await trx('workspaces').where({ id: row.workspace_id }).first('owner_id');
      if (!current) throw new NotFound('This invitation does not exist or has been revoked.');
      if (current.owner_id !== ownerId) return OWNER_CHANGED;
      const now = Date.now();
      if (await trx('workspace_members').where({ workspace_id: row.workspace_id, user_id: user.id }).first('user_id')) {
        throw new Conflict('You are already a member of this workspace.');
      }
      const spent = await trx('workspace_invitations')
        .where({ id: row.id })
        .whereNull('accepted_at')
        .andWhere('expires_at', '>', now)
        .update({ accepted_at: now, accepted_by: user.id });
      if (spent !== 1) {
        const fresh = await trx('workspace_invitations').where({ id: row.id }).first('accepted_at');
        throw new Conflict(fresh?.accepted_at ? 'This invitation has already been accepted.' : 'This invitation has expired. Ask for a new one.');
      }
      const { plan } = await getSubscription(trx, ownerId);
      const members = await countOf(trx('workspace_members').where({ workspace_id: row.workspace_id }).count({ n: '*' }));
      if (members >= plan.workspaceMembers) throw limitError(plan, 'workspaceMembers', members, 'owner');
      await trx('workspace_members').insert({ workspace_id: row.workspace_id, user_id: user.id, role: row.role, created_at: now });
      return { workspaceId: row.workspace_id as number, invitationId: row.id as string, role: row.role as AssignableRole };
    });
    if (result !== OWNER_CHANGED) return result;
  }
  throw new Conflict('The workspace changed owner meanwhile. Try again.');
}

const OWNER_CHANGED = Symbol('owner changed');
