import session from 'express-session';
import type { Db } from '../db/index';

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
    return Number.isFinite(exp) ? exp : Date.now() + this.defaultMaxAgeMs;
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
