// The devnets this process holds in memory: a project's chain is loaded from the database on its
// first request, kept while it is used, and unloaded once idle for DEVNET_IDLE_MS (it then lives in
// the database only and wakes where it was). Several processes (gateways, the dashboard's API) may
// hold the same devnet: each request compares the devnet's version in the database with the one
// held and rebuilds the chain when another process changed it, and reads the ledger entries others
// appended; every steering call writes its new state through the database (on PostgreSQL under the
// devnet's advisory lock; on SQLite under the devnet's lease, taken before anything is written), so
// calls of several processes run in turn, and a refused call changed nothing.
import { randomUUID } from 'node:crypto';
import { isPostgres, type Db } from '../../db/index';
import type { Logger } from '../../logger';
import { DEFAULT_DEVNET_MAX_LOADED } from '../../config';
import { AppError, Conflict } from '../../errors';
import { devnetGenesisSchema, type DevnetGenesisSettings } from '../../../shared/devnets';
import type { DevnetChain, DevnetEngine, DevnetStateJson } from './engine';
import { claimSteering, devnetFreshness, devnetVersion, insertDevnet, readDevnet, releaseSteering, saveDevnetState } from './store';

interface Held {
  devnetId: number;
  version: number;
  chain: DevnetChain;
  lastUsed: number;
  /** The freshness check in flight, shared by the requests that arrive meanwhile. */
  checking: Promise<void> | null;
}

export interface DevnetRegistryOptions {
  db: Db;
  engine: DevnetEngine;
  logger: Logger;
  /** How long a devnet stays in memory without a request (DEVNET_IDLE_MS). */
  idleMs: number;
  /** How many devnets this process holds at most (DEVNET_MAX_LOADED); past it the least recently used go first. */
  maxLoaded?: number;
  /** On SQLite, how long a steering call waits for another process's call to finish before it is refused (5 s). */
  steeringWaitMs?: number;
  now?: () => number;
}

/** The first key of the devnets' advisory locks (the second is the project id). */
const DEVNET_LOCK_SPACE = 0x64766e74;

export const CHANGED_MEANWHILE = 'The devnet was changed by another call at the same moment: send the call again.';
export const STEERED_ELSEWHERE = 'Another call is changing the devnet: send the call again in a moment.';

/**
 * How long a steering call on SQLite holds the devnet's lease at most: a process that died holding it
 * blocks the devnet this long. Far above what a call takes (10,000 blocks: well under a second).
 */
const STEERING_LEASE_MS = 60_000;
const DEFAULT_STEERING_WAIT_MS = 5_000;

export class DevnetRegistry {
  private readonly held = new Map<number, Held>();
  private readonly loading = new Map<number, Promise<Held>>();
  /** Steering calls of a devnet run one after another in this process. */
  private readonly locks = new Map<number, Promise<unknown>>();
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;
  private readonly steeredListeners = new Set<(projectId: number) => void>();
  private followed = new Set<number>();

  constructor(private readonly o: DevnetRegistryOptions) {
    this.now = o.now ?? Date.now;
    this.timer = setInterval(() => this.unloadIdle(), Math.max(1000, Math.min(60_000, Math.floor(o.idleMs / 4))));
    this.timer.unref();
  }

  /** The devnets held in memory now (project ids). */
  loaded(): number[] {
    return [...this.held.keys()];
  }

  /** The devnets used in this process within the idle time (project ids): a follower's reads are no use. */
  inUse(): number[] {
    const cutoff = this.now() - this.o.idleMs;
    return [...this.held].filter(([, h]) => h.lastUsed >= cutoff).map(([projectId]) => projectId);
  }

  /** The devnets a webhook follower of this process reads now: kept in memory however idle (project ids). */
  hold(projectIds: Iterable<number>): void {
    this.followed = new Set(projectIds);
  }

  /** A project's chain, current with the database: loaded (or created with the default genesis) on first use. */
  async chainOf(projectId: number): Promise<{ devnetId: number; chain: DevnetChain }> {
    const h = await this.fresh(projectId);
    return { devnetId: h.devnetId, chain: h.chain };
  }

  /**
   * A project's chain as chainOf gives it, for a reader that does not count as a use (a webhook
   * follower): a chain only it reads is unloaded once idle all the same. `db` is the reader's own
   * connection, which its freshness check asks (the registry's by default).
   */
  async readChainOf(projectId: number, db?: Db): Promise<{ devnetId: number; chain: DevnetChain }> {
    const h = await this.fresh(projectId, false, db);
    return { devnetId: h.devnetId, chain: h.chain };
  }

  /**
   * Runs one steering call on a project's chain, then writes the chain's state with a new version.
   * Calls of one devnet run in turn here; another process's change in between is a 409.
   */
  steer<T>(projectId: number, action: (chain: DevnetChain, devnetId: number) => Promise<T>): Promise<T> {
    return this.locked(projectId, () => this.acrossProcesses(projectId, async () => {
      const h = await this.fresh(projectId);
      let result: T;
      try {
        result = await action(h.chain, h.devnetId);
      } catch (err) {
        // Refused before any change (a bad amount, an unknown snapshot) the chain is as it was; anything
        // else may have left it half-changed: the next request reads it again from the database.
        if (!(err instanceof RangeError) && !(err instanceof AppError)) this.held.delete(projectId);
        throw err;
      }
      await this.save(projectId, h, h.chain.steering.state());
      this.steered(projectId);
      return result;
    }));
  }

  /** A new chain from `genesis` for the project, in place of the one it had (its ledger forgotten). */
  replace(projectId: number, genesis: DevnetGenesisSettings): Promise<{ devnetId: number; chain: DevnetChain }> {
    return this.locked(projectId, () => this.acrossProcesses(projectId, async () => {
      const state = this.o.engine.genesisState(genesis, this.now());
      const row = await readDevnet(this.o.db, projectId);
      if (!row) {
        const created = await insertDevnet(this.o.db, projectId, state, this.o.engine.running(state), this.now());
        this.held.delete(projectId);
        const h = await this.fresh(projectId);
        this.steered(projectId);
        return { devnetId: created.id, chain: h.chain };
      }
      await this.o.engine.forget(row.id);
      if (!(await saveDevnetState(this.o.db, row.id, row.version, state, this.o.engine.running(state), this.now()))) throw new Conflict(CHANGED_MEANWHILE);
      this.held.delete(projectId);
      const h = await this.fresh(projectId);
      this.steered(projectId);
      return { devnetId: h.devnetId, chain: h.chain };
    }));
  }

  /** Tells `listener` of each steering call of this process, once its change is saved; answers how to stop. */
  onSteered(listener: (projectId: number) => void): () => void {
    this.steeredListeners.add(listener);
    return () => this.steeredListeners.delete(listener);
  }

  private steered(projectId: number): void {
    for (const l of this.steeredListeners) l(projectId);
  }

  /** Unloads the devnets no request reached for idleMs; they wake on their next request. */
  unloadIdle(): number {
    const cutoff = this.now() - this.o.idleMs;
    let n = 0;
    for (const [projectId, h] of this.held) {
      if (h.lastUsed < cutoff && this.unloadable(projectId, h)) {
        this.held.delete(projectId);
        n++;
      }
    }
    if (n > 0) this.o.logger.debug({ unloaded: n, held: this.held.size }, 'devnets: unloaded idle chains');
    return n;
  }

  /** Whether a held devnet may leave memory now: no check or steering call on it, no follower reading it. */
  private unloadable(projectId: number, h: Held): boolean {
    return h.checking === null && !this.locks.has(projectId) && !this.followed.has(projectId);
  }

  /**
   * Past maxLoaded devnets held, unloads the least recently used that may leave (`keep`, the one just
   * loaded, stays): memory stays bounded however many devnets wake within the idle time.
   */
  private unloadOverCap(keep: number): void {
    const max = this.o.maxLoaded ?? DEFAULT_DEVNET_MAX_LOADED;
    if (this.held.size <= max) return;
    const candidates = [...this.held].filter(([projectId, h]) => projectId !== keep && this.unloadable(projectId, h)).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    let n = 0;
    for (const [projectId] of candidates) {
      if (this.held.size <= max) break;
      this.held.delete(projectId);
      n++;
    }
    if (n > 0) this.o.logger.debug({ unloaded: n, held: this.held.size }, 'devnets: unloaded the least recently used chains past DEVNET_MAX_LOADED');
  }

  /** Drops a project's chain from memory and its ledger entries (its project is gone). */
  async forget(projectId: number, devnetId: number): Promise<void> {
    this.held.delete(projectId);
    await this.o.engine.forget(devnetId);
  }

  close(): void {
    clearInterval(this.timer);
    this.held.clear();
  }

  /**
   * Several processes may steer one devnet (gateways, the control plane): on PostgreSQL a steering
   * call holds the devnet's advisory lock from its freshness check to its save; on SQLite it takes the
   * devnet's lease first (claimSteering), waiting for another process's call to finish. Either way
   * the calls run one after the other, and one refused (the lease not free in time) wrote nothing.
   */
  private acrossProcesses<T>(projectId: number, fn: () => Promise<T>): Promise<T> {
    if (!isPostgres(this.o.db)) return this.leased(projectId, fn);
    return this.o.db.transaction(async (trx) => {
      await trx.raw('select pg_advisory_xact_lock(?, ?)', [DEVNET_LOCK_SPACE, projectId]);
      return fn();
    });
  }

  private async leased<T>(projectId: number, fn: () => Promise<T>): Promise<T> {
    const { db } = this.o;
    if ((await devnetVersion(db, projectId)) === null) await this.insertDefault(projectId);
    const token = randomUUID();
    // The lease is wall-clock time whatever clock the chains run on: processes compare it with each other's.
    const deadline = Date.now() + (this.o.steeringWaitMs ?? DEFAULT_STEERING_WAIT_MS);
    while (!(await claimSteering(db, projectId, token, Date.now(), Date.now() + STEERING_LEASE_MS))) {
      if (Date.now() >= deadline) throw new Conflict(STEERED_ELSEWHERE);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    try {
      return await fn();
    } finally {
      await releaseSteering(db, projectId, token);
    }
  }

  private async locked<T>(projectId: number, fn: () => Promise<T>): Promise<T> {
    const before = this.locks.get(projectId) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.locks.set(projectId, tail);
    try {
      return await run;
    } finally {
      if (this.locks.get(projectId) === tail) this.locks.delete(projectId);
    }
  }

  private async save(projectId: number, h: Held, state: DevnetStateJson): Promise<void> {
    if (await saveDevnetState(this.o.db, h.devnetId, h.version, state, this.o.engine.running(state), this.now())) {
      h.version += 1;
      return;
    }
    this.held.delete(projectId);
    throw new Conflict(CHANGED_MEANWHILE);
  }

  /** The held chain after comparing its version with the database's (one check at a time per devnet). */
  private async fresh(projectId: number, use = true, db = this.o.db): Promise<Held> {
    const held = this.held.get(projectId);
    const h = held ?? (await this.load(projectId, use));
    if (use) h.lastUsed = this.now();
    // Loaded from the database for this call (or one it waited on): a check would read the same.
    if (!held) return h;
    if (!h.checking) {
      h.checking = this.check(projectId, h, db).finally(() => {
        h.checking = null;
      });
    }
    await h.checking;
    // The check dropped the chain held (its project gone, or its reload failed): this request loads it again.
    return this.held.get(projectId) === h ? h : this.fresh(projectId, use, db);
  }

  private async check(projectId: number, h: Held, db: Db): Promise<void> {
    // One statement: the version, and whether the ledger has entries past those read (another
    // process accepted transactions), read only then.
    const now = await devnetFreshness(db, projectId, this.o.engine.ledgerKey(h.devnetId));
    const version = now?.version ?? null;
    if (version === h.version) {
      if (now!.seq > h.chain.ledgerSeq()) await h.chain.sync();
      return;
    }
    // Another process steered it: take its state (the ledger with it), keeping the chain object.
    const row = version === null ? null : await readDevnet(this.o.db, projectId);
    if (!row) {
      this.held.delete(projectId);
      return;
    }
    try {
      await h.chain.reload(row.state);
      h.version = row.version;
    } catch (err) {
      // A chain from a new genesis (another seed) is not this one's to reload: it is built anew.
      this.o.logger.debug({ projectId, err: { message: (err as Error).message } }, 'devnets: a chain another process changed is built again');
      this.held.delete(projectId);
    }
  }

  /** A project's devnet from the default genesis (its first request was before any genesis of its own). */
  private insertDefault(projectId: number) {
    const state = this.o.engine.genesisState(devnetGenesisSchema.parse({}), this.now());
    return insertDevnet(this.o.db, projectId, state, this.o.engine.running(state), this.now());
  }

  private load(projectId: number, use: boolean): Promise<Held> {
    let p = this.loading.get(projectId);
    if (!p) {
      p = (async () => {
        const row = (await readDevnet(this.o.db, projectId)) ?? (await this.insertDefault(projectId));
        const chain = await this.o.engine.open(row.id, row.state);
        // Loaded for a reader that is no use (a follower), it is not in use until a request comes.
        const h: Held = { devnetId: row.id, version: row.version, chain, lastUsed: use ? this.now() : 0, checking: null };
        this.held.set(projectId, h);
        this.unloadOverCap(projectId);
        return h;
      })().finally(() => this.loading.delete(projectId));
      this.loading.set(projectId, p);
    }
    return p;
  }
}
