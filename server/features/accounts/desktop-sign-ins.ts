import crypto from 'node:crypto';
import type { Db } from '../../db/index';
import { DESKTOP_CODE_TTL_MS, DESKTOP_SIGN_IN_TTL_MS, type DesktopStartQuery } from '../../../shared/desktop-auth';

const sha256 = (value: string): string => crypto.createHash('sha256').update(value).digest('hex');
const s256Challenge = (verifier: string): string => crypto.createHash('sha256').update(verifier).digest('base64url');
const randomToken = (): string => crypto.randomBytes(32).toString('base64url');

const USER_AGENT_MAX = 512;

/**
 * Remembers the app's challenge, state, redirect and device name, and the user agent of the browser that
 * started; returns the random id the browser keeps until sign-in is done.
 */
export async function startDesktopSignIn(db: Db, input: DesktopStartQuery, userAgent: string | undefined, now = Date.now()): Promise<string> {
  const requestId = randomToken();
  // Rows past use are of no use to anyone; clear them while we are here.
  await pruneDesktopSignIns(db, now);
  await db('desktop_sign_ins').insert({
    request_hash: sha256(requestId),
    code_challenge: input.code_challenge,
    state: input.state,
    redirect_uri: input.redirect_uri,
    device_name: input.device ?? null,
    user_agent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null,
    expires_at: now + DESKTOP_SIGN_IN_TTL_MS,
    created_at: now,
  });
  return requestId;
}

/**
 * Drops the sign-ins that can do nothing more, as soon as they can't: never consented to before
 * their expiry, or whose code expired or was spent. Answers how many went.
 */
export const pruneDesktopSignIns = (db: Db, now = Date.now()): Promise<number> =>
  db('desktop_sign_ins')
    .where((q) => q.whereNull('code_hash').andWhere('expires_at', '<=', now))
    .orWhere('code_expires_at', '<=', now)
    .orWhereNotNull('used_at')
    .delete();

/** What the consent page shows of a sign-in still waiting for the user's decision. */
export interface PendingDesktopSignIn {
  /** sha256 of the browser's request id: the consent form names the sign-in it was shown for by this. */
  requestHash: string;
  redirectUri: string;
  deviceName: string | null;
  userAgent: string | null;
}

/** The sign-in this browser started, while it waits for consent: null when unknown, expired or already decided. */
export async function pendingDesktopSignIn(db: Db, requestId: string, now = Date.now()): Promise<PendingDesktopSignIn | null> {
  const requestHash = sha256(requestId);
  const row = await db('desktop_sign_ins')
    .where({ request_hash: requestHash })
    .whereNull('code_hash')
    .andWhere('expires_at', '>', now)
    .first('redirect_uri', 'device_name', 'user_agent');
  if (!row) return null;
  return {
    requestHash,
    redirectUri: row.redirect_uri as string,
    deviceName: (row.device_name as string | null) ?? null,
    userAgent: (row.user_agent as string | null) ?? null,
  };
}

/** The user said no: the sign-in can never get a code. Returns where to tell the app, or null when nothing was waiting. */
export async function cancelDesktopSignIn(db: Db, requestId: string, now = Date.now()): Promise<{ state: string; redirectUri: string } | null> {
  const row = await db('desktop_sign_ins')
    .where({ request_hash: sha256(requestId) })
    .whereNull('code_hash')
    .andWhere('expires_at', '>', now)
    .first('id', 'state', 'redirect_uri');
  if (!row) return null;
  const deleted = await db('desktop_sign_ins').where({ id: row.id }).whereNull('code_hash').delete();
  return deleted === 1 ? { state: row.state as string, redirectUri: row.redirect_uri as string } : null;
}

export interface IssuedCode {
  code: string;
  state: string;
  redirectUri: string;
}

/**
 * The user, signed in as `userId`, consented in the browser that started the request: issue its one-time code,
 * once. Null when the request is unknown, expired or already had its code. Only the consent form's POST calls this.
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

export interface ExchangedCode {
  userId: number;
  /** The name the app gave its computer when it started signing in. */
  deviceName: string | null;
}

/**
 * Spends the code (whatever the verifier: a code is tried once) and returns its user when the verifier's S256
 * matches the challenge the app sent at the start and the code has not expired; null otherwise.
 */
export async function exchangeDesktopCode(db: Db, code: string, verifier: string, now = Date.now()): Promise<ExchangedCode | null> {
  const codeHash = sha256(code);
  const row = await db('desktop_sign_ins').where({ code_hash: codeHash }).first('id', 'user_id', 'code_challenge', 'code_expires_at', 'device_name');
  if (!row) return null;
  const spent = await db('desktop_sign_ins').where({ id: row.id }).whereNull('used_at').update({ used_at: now });
  if (spent !== 1) return null;
  if (Number(row.code_expires_at) <= now) return null;
  const expected = Buffer.from(String(row.code_challenge));
  const actual = Buffer.from(s256Challenge(verifier));
  if (expected.length !== actual.length || !crypto.timingSafeEqual(expected, actual)) return null;
  return row.user_id === null ? null : { userId: Number(row.user_id), deviceName: (row.device_name as string | null) ?? null };
}
