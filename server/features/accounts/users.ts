import type { Db } from '../../db/index';
import { DEFAULT_PLAN } from '../../../shared/plans';

export interface User {
  id: number;
  email: string;
}

export const FIRST_WORKSPACE_NAME = 'My Workspace';

export async function findUserById(db: Db, id: number): Promise<User | undefined> {
  return db('users').where({ id }).first('id', 'email');
}

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return db('users').where({ email: email.toLowerCase() }).first('id', 'email');
}

/**
 * Creates the account if the e-mail has none, in one transaction with what every new user gets: the
 * STARTER subscription and a first workspace they own. Safe under concurrent first sign-ins.
 */
export async function findOrCreateUserByEmail(db: Db, email: string): Promise<User> {
  const normalized = email.toLowerCase();
  const existing = await findUserByEmail(db, normalized);
  if (existing) return existing;
  return db.transaction(async (trx) => {
    const now = Date.now();
    const inserted = await trx('users')
      .insert({ email: normalized, created_at: now, updated_at: now })
      .onConflict('email')
      .ignore()
      .returning('id');
    const user = await findUserByEmail(trx, normalized);
    if (!user) throw new Error('user vanished right after insert');
    if (inserted.length > 0) {
      await trx('subscriptions').insert({ user_id: user.id, plan: DEFAULT_PLAN, status: 'active', created_at: now, updated_at: now });
      const [ws] = await trx('workspaces').insert({ name: FIRST_WORKSPACE_NAME, owner_id: user.id, created_at: now, updated_at: now }).returning('id');
      const workspaceId = typeof ws === 'object' ? (ws as { id: number }).id : (ws as number);
      await trx('workspace_members').insert({ workspace_id: workspaceId, user_id: user.id, role: 'owner', created_at: now });
    }
    return user;
  });
}
