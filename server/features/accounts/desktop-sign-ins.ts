import crypto from 'node:crypto';
import type { Db } from '../../db/index';
import { DESKTOP_CODE_TTL_MS, DESKTOP_SIGN_IN_TTL_MS, type DesktopStartQuery } from '../../../shared/desktop-auth';

const sha256 = (value: string): string => crypto.createHash('sha256').update(value).digest('hex');
const s256Challenge = (verifier: string): string => crypto.createHash('sha256').update(verifier).digest('base64url');
const randomToken = (): string => crypto.randomBytes(32).toString('base64url');

/** Remembers the app's challenge, state and redirect; returns the random id the browser keeps until sign-in is done. */
export async function startDesktopSignIn(db: Db, input: DesktopStartQuery, now = Date.now()): Promise<string> {
  const requestId = randomToken();
  // Stale rows are of no use to anyone; clear them while we are here.
  await db('desktop_sign_ins').where('expires_at', '<', now - DESKTOP_SIGN_IN_TTL_MS).delete();
  await db('desktop_sign_ins').insert({
    request_hash: sha256(requestId),
    code_challenge: input.code_challenge,
    state: input.state,
    redirect_uri: input.redirect_uri,
    expires_at: now + DESKTOP_SIGN_IN_TTL_MS,
    created_at: now,
  });
  return requestId;
}

export interface IssuedCode {
  code: string;
  state: string;
  redirectUri: string;
}

/**
 * The browser finished signing in as `userId`: issue the one-time code for the request it started, once. Null
 * when the request is unknown, expired or already had its code.
 */
export async function issueDesktopCode(db: Db, requestId: string, userId: number, now = Date.now()): Promise<IssuedCode | null> {
  const code = randomToken();
  const row = await db('desktop_sign_ins').where({ request_hash: sha256(requestId) }).first('id', 'state', 'redirect_uri');
  if (!row) return null;
  const updated = await db('desktop_sign_ins')
    .where({ id: row.id })
    .whereNull('code_hash')
    .andWhere('expires_at', '>', now)
    .update({ user_id: userId, code_hash: sha256(code), code_expires_at: now + DESKTOP_CODE_TTL_MS });
  return updated === 1 ? { code, state: row.state as string, redirectUri: row.redirect_uri as string } : null;
}

/**
 * Spends the code (whatever the verifier: a code is tried once) and returns its user when the verifier's S256
 * matches the challenge the app sent at the start and the code has not expired; null otherwise.
 */
export async function exchangeDesktopCode(db: Db, code: string, verifier: string, now = Date.now()): Promise<number | null> {
  const codeHash = sha256(code);
  const row = await db('desktop_sign_ins').where({ code_hash: codeHash }).first('id', 'user_id', 'code_challenge', 'code_expires_at');
  if (!row) return null;
  const spent = await db('desktop_sign_ins').where({ id: row.id }).whereNull('used_at').update({ used_at: now });
  if (spent !== 1) return null;
  if (Number(row.code_expires_at) <= now) return null;
  const expected = Buffer.from(String(row.code_challenge));
  const actual = Buffer.from(s256Challenge(verifier));
  if (expected.length !== actual.length || !crypto.timingSafeEqual(expected, actual)) return null;
  return row.user_id === null ? null : Number(row.user_id);
}
