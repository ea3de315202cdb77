import session from 'express-session';
import type { Db } from '../db/index';

/** How long a session nobody has signed in to lives after its last request. */
export const ANONYMOUS_SESSION_TTL_MS = 60 * 60 * 1000;

/**
 * A session's expiry is written again only once it would move by at least this much: express-session
 * touches the session on every request (its answer waits for that write), and a write per request
 * a large part of what a signed-in dashboard call cost. The stored expiry lags by a minute at most.
 */
export const TOUCH_AFTER_MS = 60 * 1000;

const signedIn = (sess: session.SessionData): boolean => (sess as { passport?: { user?: unknown } }).passport?.user !== undefined;

/** express-session store on our own database, so a signed-in user stays signed in across restarts. */
export class DbSessionStore extends session.Store {
  private sweeper: NodeJS.Timeout | undefined;
  /** Per session id, the expiry this process last read or wrote (bounded: forgetting one only costs a write). */
  private readonly stored = new Map<string, number>();

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

  override get(sid: string, cb: (err: unknown, session?: session.SessionData | null) => void): void {
    this.db('sessions')
      .where({ sid })
      .andWhere('expires_at', '>', Date.now())
      .first('sess', 'expires_at')
      .then((row: { sess: string; expires_at: number | string } | undefined) => {
        if (!row) {
          this.stored.delete(sid);
          return cb(null, null);
        }
        this.remember(sid, Number(row.expires_at));
        cb(null, JSON.parse(row.sess) as session.SessionData);
      })
      .catch((e: unknown) => cb(e));
  }

  override set(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    const expiresAt = this.expiresAt(sess);
    this.stored.delete(sid);
    this.db('sessions')
      .insert({ sid, sess: JSON.stringify(sess), expires_at: expiresAt })
      .onConflict('sid')
      .merge()
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
    this.db('sessions')
      .where({ sid })
      .update({ expires_at: expiresAt })
      .then(() => {
        this.remember(sid, expiresAt);
        cb?.();
      })
      .catch((e: unknown) => cb?.(e));
  }

  override destroy(sid: string, cb?: (err?: unknown) => void): void {
    this.stored.delete(sid);
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
