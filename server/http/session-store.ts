import session from 'express-session';
import type { RequestHandler } from 'express';
import type { Db } from '../db/index';

/** Where and when a session was signed in to: written at sign-in, listed in Settings. */
export interface SessionClient {
  signedInAt: number;
  ip: string | null;
  userAgent: string | null;
  /** Signed in by the desktop app (its code exchange), not by a browser. */
  desktop: boolean;
  /** The name the desktop app gave its computer. */
  deviceName: string | null;
}

declare module 'express-session' {
  interface SessionData {
    client?: SessionClient;
  }
}

/** How long a session nobody has signed in to lives after its last request. */
export const ANONYMOUS_SESSION_TTL_MS = 60 * 60 * 1000;

/**
 * A session's expiry is written again only once it would move by at least this much: express-session
 * touches the session on every request (its answer waits for that write), and a write per request
 * a large part of what a signed-in dashboard call cost. The stored expiry lags by a minute at most.
 */
export const TOUCH_AFTER_MS = 60 * 1000;

const signedIn = (sess: session.SessionData): boolean => (sess as { passport?: { user?: unknown } }).passport?.user !== undefined;

const userIdOf = (sess: session.SessionData): number | null => {
  const user = (sess as { passport?: { user?: unknown } }).passport?.user;
  return typeof user === 'number' && Number.isSafeInteger(user) ? user : null;
};

/**
 * A signed-in session is inserted once, when its user signs in; after that, saving it only updates
 * its row. A request still running when its session was ended (signed out from Settings, the
 * account deleted) would otherwise write the session back when it finishes.
 */
export const INSERT_WINDOW_MS = 60 * 1000;

const IP_MAX = 64;
const USER_AGENT_MAX = 512;
const clip = (value: string | null | undefined, max: number): string | null => (value ? value.slice(0, max) : null);

interface Seen {
  ip: string | null;
  userAgent: string | null;
}

/** express-session store on our own database, so a signed-in user stays signed in across restarts. */
export class DbSessionStore extends session.Store {
  private sweeper: NodeJS.Timeout | undefined;
  /** Per session id, the expiry this process last read or wrote (bounded: forgetting one only costs a write). */
  private readonly stored = new Map<string, number>();
  /** Per signed-in session id, the client of its latest request here: written with the next write of the session. */
  private readonly seen = new Map<string, Seen>();

  constructor(
    private readonly db: Db,
    private readonly defaultMaxAgeMs: number,
    sweepEveryMs = 15 * 60 * 1000,
  ) {
    super();
    this.sweeper = setInterval(() => void this.sweep().catch(() => undefined), sweepEveryMs);
    this.sweeper.unref();
  }

  private expiresAt(sess: session.SessionData): number {
    const exp = sess.cookie?.expires ? new Date(sess.cookie.expires).getTime() : NaN;
    const full = Number.isFinite(exp) ? exp : Date.now() + this.defaultMaxAgeMs;
    // Nobody signed in (a CSRF token for the sign-in form, an OAuth redirect): an hour from its last
    // use, so anonymous requests cannot fill the table with month-long rows.
    return signedIn(sess) ? full : Math.min(full, Date.now() + ANONYMOUS_SESSION_TTL_MS);
  }

  private remember(sid: string, expiresAt: number): void {
    if (this.stored.size >= 10_000 && !this.stored.has(sid)) this.stored.clear();
    this.stored.set(sid, expiresAt);
  }

  /** Notes the address and user agent of a signed-in session's request; stored with its next write (at most a minute later). */
  noteRequest(sid: string, ip: string | null, userAgent: string | null): void {
    if (this.seen.size >= 10_000 && !this.seen.has(sid)) this.seen.clear();
    this.seen.set(sid, { ip: clip(ip, IP_MAX), userAgent: clip(userAgent, USER_AGENT_MAX) });
  }

  /** Middleware after the session's: remembers who is asking, for the listing of sessions in Settings. */
  requestNoter(): RequestHandler {
    return (req, _res, next) => {
      if (req.session && signedIn(req.session)) this.noteRequest(req.sessionID, req.ip ?? null, req.get('user-agent') ?? null);
      next();
    };
  }

  /** The columns that describe a signed-in session; all empty for one nobody signed in to. */
  private ownerColumns(sid: string, sess: session.SessionData, now: number) {
    const userId = userIdOf(sess);
    if (userId === null) return { user_id: null, ip: null, user_agent: null, device_name: null, desktop: false, signed_in_at: null, last_seen_at: null };
    const seen = this.seen.get(sid);
    const client = sess.client;
    return {
      user_id: userId,
      ip: seen?.ip ?? clip(client?.ip, IP_MAX),
      user_agent: seen?.userAgent ?? clip(client?.userAgent, USER_AGENT_MAX),
      device_name: clip(client?.deviceName, 100),
      desktop: client?.desktop ?? false,
      signed_in_at: client?.signedInAt ?? null,
      last_seen_at: now,
    };
  }

  override get(sid: string, cb: (err: unknown, session?: session.SessionData | null) => void): void {
    this.db('sessions')
      .where({ sid })
      .andWhere('expires_at', '>', Date.now())
      .first('sess', 'expires_at')
      .then((row: { sess: string; expires_at: number | string } | undefined) => {
        if (!row) {
          this.stored.delete(sid);
          this.seen.delete(sid);
          return cb(null, null);
        }
        this.remember(sid, Number(row.expires_at));
        cb(null, JSON.parse(row.sess) as session.SessionData);
      })
      .catch((e: unknown) => cb(e));
  }

  override set(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    const expiresAt = this.expiresAt(sess);
    const now = Date.now();
    this.stored.delete(sid);
    const row = { sid, sess: JSON.stringify(sess), expires_at: expiresAt, ...this.ownerColumns(sid, sess, now) };
    const signedInAt = sess.client?.signedInAt;
    const write =
      signedIn(sess) && signedInAt !== undefined && now - signedInAt > INSERT_WINDOW_MS
        ? this.db('sessions').where({ sid }).update(row)
        : this.db('sessions').insert(row).onConflict('sid').merge();
    write
      .then(() => {
        this.remember(sid, expiresAt);
        cb?.();
      })
      .catch((e: unknown) => cb?.(e));
  }

  override touch(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    const expiresAt = this.expiresAt(sess);
    const last = this.stored.get(sid);
    // Read or written moments ago with (nearly) the same expiry: nothing worth a write.
    if (last !== undefined && expiresAt >= last && expiresAt - last < TOUCH_AFTER_MS) {
      cb?.();
      return;
    }
    const userId = userIdOf(sess);
    const seen = this.seen.get(sid);
    // Last seen rides on this write, so it too is written at most once a minute.
    const activity = userId === null ? {} : { user_id: userId, last_seen_at: Date.now(), ...(seen ? { ip: seen.ip, user_agent: seen.userAgent } : {}) };
    this.db('sessions')
      .where({ sid })
      .update({ expires_at: expiresAt, ...activity })
      .then(() => {
        this.remember(sid, expiresAt);
        cb?.();
      })
      .catch((e: unknown) => cb?.(e));
  }

  override destroy(sid: string, cb?: (err?: unknown) => void): void {
    this.stored.delete(sid);
    this.seen.delete(sid);
    this.db('sessions')
      .where({ sid })
      .delete()
      .then(() => cb?.())
      .catch((e: unknown) => cb?.(e));
  }

  sweep(): Promise<number> {
    return this.db('sessions').where('expires_at', '<=', Date.now()).delete();
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
