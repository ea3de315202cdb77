import type { Db } from '../db/index';

export interface User {
  id: number;
  email: string;
}

export async function findUserById(db: Db, id: number): Promise<User | undefined> {
  return db('users').where({ id }).first('id', 'email');
}

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  return db('users').where({ email: email.toLowerCase() }).first('id', 'email');
}

/** Finds the account for an e-mail, creating it on first sign-in. Safe under concurrent first sign-ins. */
export async function findOrCreateUserByEmail(db: Db, email: string): Promise<User> {
  const normalized = email.toLowerCase();
  const now = Date.now();
  await db('users').insert({ email: normalized, created_at: now, updated_at: now }).onConflict('email').ignore();
  const user = await findUserByEmail(db, normalized);
  if (!user) throw new Error('user vanished right after insert');
  return user;
}
