import crypto from 'node:crypto';
import type { Db } from '../../db/index';
import { Invalid, NotFound } from '../../errors';
import { accountMessages, type AccountSessionDto } from '../../../shared/account';
import { describeDevice } from './user-agent';

/** The public name of a session: its id would be a credential, so the list never shows it. */
export const publicSessionId = (sid: string): string => crypto.createHash('sha256').update(`cairn-session:${sid}`).digest('base64url').slice(0, 22);

const toNumber = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const bool = (v: unknown) => v === true || v === 1 || v === '1' || v === 't';

interface SessionRow {
  sid: string;
  ip: string | null;
  user_agent: string | null;
  device_name: string | null;
  desktop: unknown;
  signed_in_at: unknown;
  last_seen_at: unknown;
}

/** The user's signed-in sessions, the one in use first, then the most recently seen. */
export async function listSessions(db: Db, userId: number, currentSid: string, now = Date.now()): Promise<AccountSessionDto[]> {
  const rows = (await db('sessions')
    .where({ user_id: userId })
    .andWhere('expires_at', '>', now)
    .select('sid', 'ip', 'user_agent', 'device_name', 'desktop', 'signed_in_at', 'last_seen_at')) as SessionRow[];
  const list = rows.map((r) => {
    const desktop = bool(r.desktop);
    return {
      id: publicSessionId(r.sid),
      device: describeDevice(r.user_agent, { desktop, deviceName: r.device_name }),
      device_name: r.device_name,
      desktop,
      ip: r.ip,
      signed_in_at: toNumber(r.signed_in_at),
      last_seen_at: toNumber(r.last_seen_at),
      current: r.sid === currentSid,
    };
  });
  return list.sort((a, b) => Number(b.current) - Number(a.current) || (b.last_seen_at ?? 0) - (a.last_seen_at ?? 0));
}

/**
 * Ends one of the user's own sessions, named by its public id. Another user's session, or one that has
 * ended, is not found (404). The session in use is ended with Sign Out instead.
 */
export async function endSession(db: Db, userId: number, publicId: string, currentSid: string, now = Date.now()): Promise<void> {
  const rows = (await db('sessions').where({ user_id: userId }).andWhere('expires_at', '>', now).select('sid')) as Array<{ sid: string }>;
  const target = rows.find((r) => publicSessionId(r.sid) === publicId);
  if (!target) throw new NotFound(accountMessages.sessionNotFound);
  if (target.sid === currentSid) throw new Invalid(accountMessages.currentSession);
  await db('sessions').where({ sid: target.sid, user_id: userId }).delete();
}

/** Ends every session of the user but the one in use; answers how many were ended. */
export async function endOtherSessions(db: Db, userId: number, currentSid: string): Promise<number> {
  return db('sessions').where({ user_id: userId }).andWhereNot({ sid: currentSid }).delete();
}

/** Ends every session of the user (deleting the account). */
export async function endAllSessions(db: Db, userId: number): Promise<number> {
  return db('sessions').where({ user_id: userId }).delete();
}

