// The webhook followers of devnets (each cardano-devnet project's own chain). A devnet with something
// to follow for (an enabled webhook naming its project, or a tracked transaction still open: pending,
// in a block, rolled back) is followed while anything can happen on it that they must hear of:
// - it is active: used in this process or steered (by any process) within the idle time;
// - or its clock runs: blocks keep coming without anyone using it;
// - or its follower has not reached its tip yet (a steering call made many blocks).
// A paused devnet, idle, with its follower at its tip, is let go: only a steering call, which makes it
// active again, can change it. While followed, its chain is kept in memory (the registry's hold), so
// its follower never reads a chain that another sweep just unloaded. So the cost grows with the
// devnets in use or running, not with all of them. Each follower keeps its cursors under the devnet's own key (devnetCursorKey),
// which go with the devnet: its follower deletes them when it stops for good, the retention pass
// any left (pruneDevnetCursors).
import type { Db } from '../../db/index';
import type { Logger } from '../../logger';
import type { ChainSource } from './chain-source';
import { ChainFollower, type FollowerOptions } from './follower';
import { devnetNetwork } from '../../../shared/networks';
import type { DevnetChain } from '../devnets/index';
import { devnetCursorKey, landedOn } from '../txs/index';

/** What the followers need of the devnets' registry. */
export interface DevnetChains {
  /** A project's chain without counting as a use of it; its freshness checked through `db` (the follower's connection) when given. */
  readChainOf(projectId: number, db?: Db): Promise<{ devnetId: number; chain: DevnetChain }>;
  /** The projects whose chains were used in this process within the idle time. */
  inUse(): number[];
  /** The projects followed now: their chains stay in memory, however idle. */
  hold(projectIds: Iterable<number>): void;
}

export { devnetCursorKey };

const OPEN_STATES = ['pending', 'in_block', 'rolled_back'];

/**
 * A devnet's chain as a follower reads it: each tip read takes the chain as the database has it now,
 * asking through `db` (the follower's own connection) when given.
 */
export function devnetSource(chains: DevnetChains, projectId: number, db?: Db): ChainSource {
  let chain: DevnetChain | null = null;
  const current = async () => (chain ??= (await chains.readChainOf(projectId, db)).chain);
  return {
    tipHeight: async () => {
      chain = (await chains.readChainOf(projectId, db)).chain;
      return chain.local.tipHeight();
    },
    blockAt: async (h) => (await current()).local.blockAt(h),
    blockTxDetails: async (hash) => (await current()).local.blockTxDetails(hash) ?? [],
    blockTxHashes: async (hash) => ((await current()).local.blockTxDetails(hash) ?? []).map((d) => d.tx.hash),
    epoch: async (n) => (await current()).local.epoch(n),
    epochStart: async (n) => {
      const c = (await current()).local;
      return c.epoch(n) ? c.epochBounds(n) : null;
    },
    inMempool: async (hashes) => {
      const c = await current();
      return new Set(hashes.filter((h) => c.waiting(h)));
    },
    // The chain the last read loaded (a follower reads the tip first).
    txBlock: (hash) => (chain ? landedOn(chain.local)(hash) : null),
  };
}

/**
 * The cursors (chain_cursors, chain_blocks) of devnets that no longer exist: they are keyed
 * devnetCursorKey(id), minus the devnet's id, with no foreign key to it. Called by the retention pass.
 */
export async function pruneDevnetCursors(db: Db): Promise<number> {
  let n = 0;
  for (const table of ['chain_cursors', 'chain_blocks'] as const) {
    n += await db(table)
      .where('network', '<', 0)
      .whereNotExists((q) => q.select(db.raw('1')).from('devnets').whereRaw(`devnets.id = -${table}.network`))
      .delete();
  }
  return n;
}

export interface DevnetFollowersOptions {
  db: Db;
  logger: Logger;
  chains: DevnetChains;
  /** How long a devnet steered by another process counts as active (DEVNET_IDLE_MS). */
  idleMs: number;
  /** How often the active devnets are listed again. */
  scanMs?: number;
  /** Each follower's options beyond its network and chain (poll interval, leadership, hand-off). */
  follower: (key: number) => Omit<FollowerOptions, 'network' | 'chain'>;
  now?: () => number;
}

/** Starts and stops one ChainFollower per active devnet with webhooks or open tracked transactions. */
export class DevnetFollowers {
  private readonly running = new Map<number, { devnetId: number; follower: ChainFollower }>();
  private timer: NodeJS.Timeout | null = null;
  private scanning: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly o: DevnetFollowersOptions) {}

  start(): void {
    const tick = () => {
      this.scanning = this.scan()
        .catch((err: unknown) => this.o.logger.warn({ err: { message: (err as Error).message } }, 'webhooks: listing the active devnets failed'))
        .finally(() => {
          this.scanning = null;
          if (!this.stopped) this.timer = setTimeout(tick, this.o.scanMs ?? 2000);
        });
    };
    tick();
  }

  /** The projects whose devnets are followed now. */
  followed(): number[] {
    return [...this.running.keys()];
  }

  /** Lists the devnets to follow (see above), and starts and stops followers to match. */
  async scan(): Promise<void> {
    const now = (this.o.now ?? Date.now)();
    const cutoff = now - this.o.idleMs;
    const inUse = new Set(this.o.chains.inUse());
    const candidates = [...inUse, ...this.running.keys()];
    const { db } = this.o;
    const rows = (await db('devnets as d')
      .where((q) => {
        q.where('d.updated_at', '>=', cutoff).orWhere('d.running', true);
        for (let i = 0; i < candidates.length; i += 500) q.orWhereIn('d.project_id', candidates.slice(i, i + 500));
      })
      .andWhere((q) =>
        q
          .whereExists(db('webhooks as w').whereRaw('w.project_id = d.project_id').andWhere({ 'w.status': 'enabled', 'w.network': devnetNetwork.webhookId }).select(db.raw('1')))
          .orWhereExists(db('tracked_txs as t').whereRaw('t.project_id = d.project_id').whereIn('t.state', OPEN_STATES).select(db.raw('1'))),
      )
      .select('d.id', 'd.project_id', 'd.updated_at', 'd.running')) as Array<{ id: number | string; project_id: number | string; updated_at: number | string; running: boolean | number }>;
    const active = new Map<number, number>();
    for (const r of rows) {
      const projectId = Number(r.project_id);
      const devnetId = Number(r.id);
      const live = Boolean(r.running) || Number(r.updated_at) >= cutoff || inUse.has(projectId);
      // Followed, neither running nor active: followed on until its follower has caught up with its tip.
      if (live || (this.running.get(projectId)?.devnetId === devnetId && !(await this.caughtUp(projectId, devnetId)))) active.set(projectId, devnetId);
    }
    if (this.stopped) return;
    for (const [projectId, f] of this.running) {
      if (active.get(projectId) === f.devnetId) continue;
      this.running.delete(projectId);
      await f.follower.stop();
      // A devnet gone with its project takes its cursors along; an idle one keeps them to resume there.
      if (!(await db('devnets').where({ id: f.devnetId }).first('id'))) {
        const key = devnetCursorKey(f.devnetId);
        await db('chain_cursors').where({ network: key }).delete();
        await db('chain_blocks').where({ network: key }).delete();
      }
    }
    const starting: ChainFollower[] = [];
    for (const [projectId, devnetId] of active) {
      if (this.running.has(projectId)) continue;
      const key = devnetCursorKey(devnetId);
      const follower = new ChainFollower(db, this.o.logger, devnetSource(this.o.chains, projectId, db), { ...this.o.follower(key), network: devnetNetwork.webhookId, chain: { key, projectId }, trackTxs: true });
      this.running.set(projectId, { devnetId, follower });
      starting.push(follower);
    }
    // Held before their followers first read them.
    this.o.chains.hold(this.running.keys());
    for (const f of starting) f.start();
  }

  /** Whether every cursor of a devnet's follower (whichever worker leads it) is where its depth lets it be at the tip. */
  private async caughtUp(projectId: number, devnetId: number): Promise<boolean> {
    const tip = (await this.o.chains.readChainOf(projectId, this.o.db)).chain.local.tipHeight();
    const cursors = (await this.o.db('chain_cursors').where({ network: devnetCursorKey(devnetId) }).andWhere('confirmations', '>=', 0).select('confirmations', 'height')) as Array<{ confirmations: number | string; height: number | string }>;
    return cursors.length > 0 && cursors.every((c) => Number(c.height) >= tip - Number(c.confirmations));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.scanning;
    await Promise.all([...this.running.values()].map((f) => f.follower.stop()));
    this.running.clear();
    this.o.chains.hold([]);
  }
}
