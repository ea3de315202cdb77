import crypto from 'node:crypto';
import type { Db } from '../../db/index';
import { Invalid, NotFound } from '../../errors';
import { accountMessages, type AccountSessionDto } from '../../../shared/account';
import { CURSOR_MESSAGE } from '../../../shared/pagination';
import type { PageQuery } from '../../../shared/page-query';
import { decodeCursor, encodeCursor, pageLimit, Paged } from '../../db/pagination';
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

const COLUMNS = ['sid', 'ip', 'user_agent', 'device_name', 'desktop', 'signed_in_at', 'last_seen_at'] as const;

function toDto(r: SessionRow, currentSid: string): AccountSessionDto {
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
}

/**
 * Where a page of the other sessions starts: at `seen` (a last-seen time, or NO_SEEN for the sessions
 * never seen, listed after all the others), after the first `skip` sessions seen at that time. A
 * session id is a credential, so the cursor never carries one: sessions seen in the same millisecond
 * are counted past instead, in the order of their ids.
 */
interface SessionsFrom {
  seen: number;
  skip: number;
}
const NO_SEEN = -1;
const FROM_THE_TOP: SessionsFrom = { seen: Number.MAX_SAFE_INTEGER, skip: 0 };

function decodeSessionsCursor(cursor: string): SessionsFrom {
  const [seen, skip] = decodeCursor(cursor, ['int', 'int']) as [number, number];
  if (seen < NO_SEEN || skip < 0) throw new Invalid(CURSOR_MESSAGE);
  return { seen, skip };
}

/**
 * Up to `count` of the user's sessions other than the one in use, from `from` on: the most recently
 * seen first, on the (user_id, last_seen_at, sid) index, then those never seen.
 */
async function otherSessions(db: Db, userId: number, currentSid: string, from: SessionsFrom, count: number, now: number): Promise<SessionRow[]> {
  const base = () => db('sessions').where({ user_id: userId }).andWhere('expires_at', '>', now).andWhereNot({ sid: currentSid });
  const rows: SessionRow[] = [];
  if (from.seen !== NO_SEEN) {
    rows.push(
      ...((await base()
        .andWhere('last_seen_at', '<=', from.seen)
        .orderBy('last_seen_at', 'desc')
        .orderBy('sid', 'desc')
        .offset(from.skip)
        .limit(count)
        .select([...COLUMNS])) as SessionRow[]),
    );
  }
  if (rows.length < count) {
    rows.push(
      ...((await base()
        .whereNull('last_seen_at')
        .orderBy('sid', 'desc')
        .offset(from.seen === NO_SEEN ? from.skip : 0)
        .limit(count - rows.length)
        .select([...COLUMNS])) as SessionRow[]),
    );
  }
  return rows;
}

/**
 * One page of the user's signed-in sessions (shared/pagination.ts): the one in use first on the first
 * page, then the others, the most recently seen first.
 */
export async function listSessions(db: Db, userId: number, currentSid: string, page: PageQuery = {}, now = Date.now()): Promise<Paged<AccountSessionDto>> {
  const limit = pageLimit(page.limit);
  const from = page.cursor ? decodeSessionsCursor(page.cursor) : FROM_THE_TOP;
  const current = page.cursor
    ? undefined
    : ((await db('sessions').where({ sid: currentSid, user_id: userId }).andWhere('expires_at', '>', now).first([...COLUMNS])) as SessionRow | undefined);
  const wanted = limit - (current ? 1 : 0);
  const read = await otherSessions(db, userId, currentSid, from, wanted + 1, now);
  const others = read.slice(0, wanted);
  const items = [...(current ? [current] : []), ...others].map((r) => toDto(r, currentSid));
  if (read.length <= wanted) return new Paged(items, null);
  // The next page starts after the last session shown, counting past those seen at the same time.
  const last = others[others.length - 1];
  if (!last) return new Paged(items, encodeCursor([from.seen, from.skip]));
  const seenOf = (r: SessionRow) => (r.last_seen_at === null || r.last_seen_at === undefined ? NO_SEEN : Number(r.last_seen_at));
  const seen = seenOf(last);
  const sameTime = others.filter((r) => seenOf(r) === seen).length;
  return new Paged(items, encodeCursor([seen, sameTime + (seen === from.seen ? from.skip : 0)]));
}

/** Every signed-in session of the user, in the list's order: for the download of the account's data. */
export async function everySession(db: Db, userId: number, currentSid: string, now = Date.now()): Promise<AccountSessionDto[]> {
  const rows = (await db('sessions').where({ user_id: userId }).andWhere('expires_at', '>', now).select([...COLUMNS])) as SessionRow[];
  const list = rows.map((r) => toDto(r, currentSid));
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

