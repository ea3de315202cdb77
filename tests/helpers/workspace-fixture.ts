import crypto from 'node:crypto';
import type { Db } from '../../server/db/index';
import { findOrCreateUserByEmail } from '../../server/features/accounts/users';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import type { PlanName } from '../../shared/plans';
import type { Role } from '../../shared/permissions';

/** Builds a workspace with members in given roles straight in the database (for tests that are about something else). */
export async function makeWorkspace(db: Db, ownerId: number, members: Array<{ userId: number; role: Exclude<Role, 'owner'> }>, name = 'Fixture workspace') {
  const now = Date.now();
  const [row] = await db('workspaces').insert({ name, owner_id: ownerId, created_at: now, updated_at: now }).returning('id');
  const id = typeof row === 'object' ? (row as { id: number }).id : (row as number);
  await db('workspace_members').insert([
    { workspace_id: id, user_id: ownerId, role: 'owner', created_at: now },
    ...members.map((m) => ({ workspace_id: id, user_id: m.userId, role: m.role, created_at: now + 1 })),
  ]);
  return id;
}

export async function makeProject(db: Db, workspaceId: number, name = 'Fixture project', networkId = 0) {
  const uuid = crypto.randomUUID();
  const now = Date.now();
  await db('projects').insert({ uuid, workspace_id: workspaceId, name, project_id: `mainnet${crypto.randomBytes(16).toString('hex')}`, network_id: networkId, created_at: now, updated_at: now });
  return uuid;
}

export async function makeUser(db: Db, email: string, plan: PlanName = 'STARTER') {
  const user = await findOrCreateUserByEmail(db, email);
  await setSubscription(db, user.id, plan, 'active');
  return user;
}
