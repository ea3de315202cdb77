import pg from 'pg';
import { isPostgres, type Db } from '../../db/index';
import type { Logger } from '../../logger';

/**
 * Which worker follows each network's chain, when several share a PostgreSQL database: the one that
 * holds the network's advisory lock (pg_try_advisory_lock), taken on a connection of the worker's
 * own. The others skip their follower's ticks, so a block is matched once rather than by every
 * worker (their dispatchers still deliver the events the leader leaves to the lanes). A worker that
 * stops or dies closes its connection and so gives its networks up; another worker's next tick
 * takes them. The lock only saves work: the cursor's row lock still decides which write of a block
 * counts, so two followers for a moment (a connection lost while its worker still runs) write each
 * event once. On SQLite, where a database has one worker, every follower leads.
 */
export class FollowerLeadership {
  private client: pg.Client | null = null;
  private readonly held = new Set<number>();
  private closed = false;
  private lostLogged = false;

  /**
   * `lock`: the name of the advisory locks taken (one per network); a holder of other work (the
   * gateways' follower of submitted transactions) names its own, so it never waits on the webhooks'.
   */
  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly lock = 'cairn:chain-follower',
  ) {}

  /** The followers' questions, one at a time on the one connection. */
  private queue: Promise<unknown> = Promise.resolve();

  /** Whether this worker follows the network now (taking it if no other worker does). */
  async leads(network: number): Promise<boolean> {
    if (!isPostgres(this.db)) return true;
    const asked = this.queue.then(() => this.ask(network));
    this.queue = asked.catch(() => undefined);
    return asked;
  }

  private async ask(network: number): Promise<boolean> {
    if (this.closed) return false;
    // One question at a time, so at most one connection is being made.
    const client = this.client ?? (await this.connect());
    if (!client) return false;
    if (this.held.has(network)) return true;
    try {
      const { rows } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(hashtext($1), $2::int) AS ok`, [this.lock, network]);
      if (rows[0]?.ok) this.held.add(network);
      return rows[0]?.ok === true;
    } catch {
      return false;
    }
  }

  private async connect(): Promise<pg.Client | null> {
    const { connection } = this.db.client.config as { connection: string | pg.ClientConfig };
    const client = new pg.Client(typeof connection === 'string' ? { connectionString: connection } : connection);
    const lost = (err?: Error) => {
      // The locks went with the session: the next tick connects again and asks for them anew.
      if (this.client === client) this.client = null;
      this.held.clear();
      client.removeAllListeners('end');
      void client.end().catch(() => undefined);
      if (err && !this.closed && !this.lostLogged) {
        this.lostLogged = true;
        this.logger.warn({ lock: this.lock, err: { message: err.message } }, 'chain followers: lost their leadership connection; they ask for it again at their next tick');
      }
    };
    client.on('error', lost);
    client.on('end', () => lost(new Error('connection ended')));
    try {
      await client.connect();
    } catch (err) {
      lost(err instanceof Error ? err : new Error(String(err)));
      return null;
    }
    if (this.closed) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      return null;
    }
    this.lostLogged = false;
    this.client = client;
    return client;
  }

  /** Gives every network up (the session ends, and its locks with it). */
  async close(): Promise<void> {
    this.closed = true;
    // A question under way (a connection being made) ends first.
    await this.queue;
    const client = this.client;
    this.client = null;
    this.held.clear();
    if (!client) return;
    client.removeAllListeners('end');
    await client.end().catch(() => undefined);
  }
}
