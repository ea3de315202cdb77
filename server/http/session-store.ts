import session from 'express-session';
import type { Db } from '../db/index';

/** How long a session nobody has signed in to lives after its last request. */
export const ANONYMOUS_SESSION_TTL_MS = 60 * 60 * 1000;

const signedIn = (sess: session.SessionData): boolean => (sess as { passport?: { user?: unknown } }).passport?.user !== undefined;

/** express-session store on our own database, so a signed-in user stays signed in across restarts. */
export class DbSessionStore extends session.Store {
  private sweeper: NodeJS.Timeout | undefined;

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

  override get(sid: string, cb: (err: unknown, session?: session.SessionData | null) => void): void {
    this.db('sessions')
      .where({ sid })
      .andWhere('expires_at', '>', Date.now())
      .first('sess')
      .then((row: { sess: string } | undefined) => cb(null, row ? (JSON.parse(row.sess) as session.SessionData) : null))
      .catch((e: unknown) => cb(e));
  }

  override set(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    this.db('sessions')
      .insert({ sid, sess: JSON.stringify(sess), expires_at: this.expiresAt(sess) })
      .onConflict('sid')
      .merge()
      .then(() => cb?.())
      .catch((e: unknown) => cb?.(e));
  }

  override touch(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    this.db('sessions')
      .where({ sid })
      .update({ expires_at: this.expiresAt(sess) })
      .then(() => cb?.())
      .catch((e: unknown) => cb?.(e));
  }

  override destroy(sid: string, cb?: (err?: unknown) => void): void {
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
