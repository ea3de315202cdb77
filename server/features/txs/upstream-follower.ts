// Follows the chain of a network served by a Blockfrost-compatible upstream for the transactions
// submitted to it through the gateway, as the webhook followers follow a sandbox chain: a cursor in
// the database (chain_cursors at UPSTREAM_CURSOR_DEPTH, its recent blocks in chain_blocks), each new
// block read once and its transactions matched with the tracker's functions, a rollback found by the
// cursor's block leaving the upstream's chain. It follows a network only while transactions are open
// on it, one gateway at a time (leads()), with its reads paced and backing off when the upstream fails
// or asks it to wait.
import type { Knex } from 'knex';
import type { Db } from '../../db/index';
import type { Logger } from '../../logger';
import { SerialTicker } from '../../ticker';
import { UpstreamError, type UpstreamReader } from '../../gateway/upstream-reader';
import type { Block } from '../../../shared/chain';
import { openTxStates } from '../../../shared/txs';
import { UNLANDED_STATES, UPSTREAM_CURSOR_DEPTH } from './store';
import { advanceTracked, rollBackTracked, type FollowedBlock, type TxChange } from './tracker';

/** Blocks remembered behind the cursor, to find where a rollback forked. */
const KEEP_BLOCKS = 200;
/** Blockfrost's largest page: the blocks one read brings, and the hashes of one page of a block's transactions. */
const PAGE = 100;
/**
 * A follower that starts (or starts again after it had nothing open) begins at the newest block made
 * this long before the earliest open transaction became open: a transaction cannot be in an older one,
 * whatever the clocks of the chain and of this server differ by.
 */
const START_SLACK_MS = 5 * 60_000;
/** The longest wait after failures in a row (an upstream's Retry-After is waited out in full). */
export const MAX_BACKOFF_MS = 5 * 60_000;
const UNLANDED = UNLANDED_STATES;

interface Cursor {
  height: number;
  hash: string;
  epoch: number | null;
  updatedAt: number;
}

/** Another process moved the cursor between this one's read and its write: its work counts, this one's is dropped. */
class CursorMoved extends Error {}

export interface UpstreamTxFollowerOptions {
  /** The network's Secure Webhooks id (tracked_txs.network). */
  network: number;
  /** Its gateway slug, for the logs. */
  slug: string;
  reader: UpstreamReader;
  /** Whether this gateway follows the network now (one of several does); absent: it always does. */
  leads?: () => Promise<boolean>;
  /** What else changes bring, in their transaction: the 'tx_status' webhook events (from the composition root). Answers how many. */
  withChanges?: (trx: Knex.Transaction, network: number, changes: TxChange[], at: { height: number; hash: string }) => Promise<number>;
  /** Told of the changes once their write committed, with the webhook events they made. */
  onChanges?: (changes: TxChange[], events: number) => void;
  /** The most requests per second this follower sends the upstream, beside the shared tip read. */
  requestsPerSecond: number;
  /** The wait after a first failure, doubled with each one in a row (the tick interval by default). */
  backoffMs: number;
  now?: () => number;
}

/** One upstream-served network's follower of submitted transactions; tick() is one pass. */
export class UpstreamTxFollower {
  private failures = 0;
  private resumeAt = 0;
  private nextSlot = 0;
  /** Reads of blocks, transactions and the mempool it sent (beside the shared tip): the tests count them. */
  reads = 0;
  /** Passes begun (the tests wait for them). */
  passes = 0;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly o: UpstreamTxFollowerOptions,
  ) {}

  private get now(): number {
    return (this.o.now ?? Date.now)();
  }

  /** When the next pass may read the upstream (after failures); 0 when it need not wait. */
  get waitingUntil(): number {
    return this.resumeAt;
  }

  /**
   * One pass: nothing while it backs off or nothing is open on the network; otherwise the blocks from
   * the cursor towards the tip (a page at most) are read and written, or a rollback is undone. Answers
   * whether more is waiting (the ticker then runs again at once). A failure is not thrown: it makes the
   * follower wait, twice as long after each one in a row, or as long as a 429 asked.
   */
  async tick(): Promise<boolean> {
    this.passes++;
    if (this.now < this.resumeAt) return false;
    try {
      const more = await this.pass();
      if (this.failures > 0) this.logger.info({ network: this.o.slug, failures: this.failures }, 'txs: the upstream answers again; following its submitted transactions');
      this.failures = 0;
      return more;
    } catch (err) {
      if (err instanceof CursorMoved) return false;
      this.failures++;
      const asked = err instanceof UpstreamError ? err.retryAfterMs : null;
      const wait = asked ?? Math.min(MAX_BACKOFF_MS, this.o.backoffMs * 2 ** Math.min(this.failures - 1, 20));
      this.resumeAt = this.now + wait;
      if (this.failures === 1 || asked !== null) {
        this.logger.warn({ network: this.o.slug, waitMs: wait, err: { message: (err as Error).message } }, 'txs: following the upstream for submitted transactions failed; waiting before the next read');
      }
      return false;
    }
  }

  private async pass(): Promise<boolean> {
    const { network } = this.o;
    // Only a network with open transactions is followed: a row of the (network, state) index.
    if (!(await this.db('tracked_txs').where({ network }).whereIn('state', openTxStates).first('id'))) return false;
    if (this.o.leads && !(await this.o.leads())) return false;
    const tip = await this.o.reader.latest();
    const cursor = await this.place(await this.cursor(), tip);
    if (tip.hash === cursor.hash) return false;
    const ahead = (tip.height ?? cursor.height) - cursor.height;
    const next = await this.read<Block[]>(`/blocks/${cursor.hash}/next?count=${Math.min(PAGE, Math.max(1, ahead))}`);
    // The cursor's block is no longer on the upstream's chain, or what follows it is another branch's.
    if (next === null || (next.length > 0 && next[0]!.previous_block !== cursor.hash)) {
      await this.rollBack(cursor, tip);
      return true;
    }
    if (next.length === 0) {
      // Nothing follows the cursor although the tip is another block: the tip was read before the
      // cursor moved past it, or the chain got shorter (a rollback with no new block yet).
      const there = await this.read<Block>(`/blocks/${cursor.height}`);
      if (there?.hash === cursor.hash) return false;
      await this.rollBack(cursor, tip);
      return true;
    }
    const blocks: Block[] = [];
    let previous = cursor.hash;
    for (const b of next) {
      if (b.previous_block !== previous) break;
      blocks.push(b);
      previous = b.hash;
    }
    // A block's transactions are read only while some transaction waits to land.
    const unlanded = Boolean(await this.db('tracked_txs').where({ network }).whereIn('state', UNLANDED).first('id'));
    const followed: FollowedBlock[] = [];
    for (const [i, b] of blocks.entries()) {
      followed.push({ height: b.height ?? cursor.height + i + 1, hash: b.hash, slot: b.slot, txHashes: !unlanded ? null : b.tx_count > 0 ? await this.txHashes(b.hash) : [] });
    }
    await this.write(cursor, blocks, followed);
    return followed.at(-1)!.height < (tip.height ?? 0);
  }

  /** One read for this follower, paced to `requestsPerSecond`. */
  private async read<T>(path: string): Promise<T | null> {
    await this.pace();
    this.reads++;
    return this.o.reader.get<T>(path);
  }

  private async pace(): Promise<void> {
    const now = this.now;
    const at = Math.max(now, this.nextSlot);
    this.nextSlot = at + 1000 / this.o.requestsPerSecond;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }

  /** Every transaction hash of a block, a page of a hundred at a time. */
  private async txHashes(hash: string): Promise<string[]> {
    const out: string[] = [];
    for (let page = 1; ; page++) {
      const batch = (await this.read<string[]>(`/blocks/${hash}/txs?count=${PAGE}&page=${page}`)) ?? [];
      out.push(...batch);
      if (batch.length < PAGE) return out;
    }
  }

  private async cursor(): Promise<Cursor | null> {
    const row = await this.db('chain_cursors').where({ network: this.o.network, confirmations: UPSTREAM_CURSOR_DEPTH }).first('height', 'hash', 'epoch', 'updated_at');
    return row ? { height: Number(row.height), hash: row.hash, epoch: row.epoch ?? null, updatedAt: Number(row.updated_at) } : null;
  }

  /**
   * Where to read from: the cursor, unless there is none or it stood still since before every open
   * transaction was open with none in a block (nothing was followed meanwhile, so no block in between
   * can hold one): then from the newest block older than the earliest of them (at most a page behind
   * the tip), the blocks remembered before forgotten.
   */
  private async place(cursor: Cursor | null, tip: Block): Promise<Cursor> {
    const { network } = this.o;
    const since = await this.db('tracked_txs').where({ network }).whereIn('state', UNLANDED).min({ at: 'updated_at' }).first();
    const openSince = since?.at === null || since?.at === undefined ? null : Number(since.at);
    if (cursor) {
      if (openSince === null || cursor.updatedAt >= openSince - START_SLACK_MS) return cursor;
      if (await this.db('tracked_txs').where({ network, state: 'in_block' }).first('id')) return cursor;
    }
    const start = await this.startBlock(tip, openSince);
    const height = start.height ?? tip.height ?? 0;
    if (cursor && height <= cursor.height) return cursor;
    const now = Date.now();
    await this.db.transaction(async (trx) => {
      const key = { network, confirmations: UPSTREAM_CURSOR_DEPTH };
      const moved = cursor
        ? await trx('chain_cursors').where({ ...key, height: cursor.height, hash: cursor.hash }).update({ height, hash: start.hash, epoch: start.epoch, updated_at: now })
        : (await trx('chain_cursors').insert({ ...key, height, hash: start.hash, epoch: start.epoch, updated_at: now }).onConflict(['network', 'confirmations']).ignore().returning('height')).length;
      if (moved !== 1) throw new CursorMoved();
      await trx('chain_blocks').where(key).delete();
      await trx('chain_blocks').insert({ ...key, height, hash: start.hash });
    });
    this.logger.info({ network: this.o.slug, height }, 'txs: following the upstream for submitted transactions');
    return { height, hash: start.hash, epoch: start.epoch, updatedAt: now };
  }

  /** The newest block made before `openSince` less the slack, looking at most a page behind the tip. */
  private async startBlock(tip: Block, openSince: number | null): Promise<Block> {
    if (openSince === null) return tip;
    const before = openSince - START_SLACK_MS;
    if (tip.time * 1000 < before) return tip;
    const page = ((await this.read<Block[]>(`/blocks/${tip.hash}/previous?count=${PAGE}`)) ?? []).sort((a, b) => (b.height ?? 0) - (a.height ?? 0));
    return page.find((b) => b.time * 1000 < before) ?? page.at(-1) ?? tip;
  }

  /**
   * Writes a run of blocks after `from` in one transaction: the cursor moves (only from where this pass
   * read it: a second follower's write makes this one's drop), the tracked transactions advance, their
   * webhook events are written, and the blocks are remembered for finding a fork.
   */
  private async write(from: Cursor, blocks: Block[], followed: FollowedBlock[]): Promise<void> {
    const { network } = this.o;
    const key = { network, confirmations: UPSTREAM_CURSOR_DEPTH };
    const last = followed.at(-1)!;
    const now = Date.now();
    let changes: TxChange[] = [];
    let events = 0;
    await this.db.transaction(async (trx) => {
      const moved = await trx('chain_cursors').where({ ...key, height: from.height, hash: from.hash }).update({ height: last.height, hash: last.hash, epoch: blocks.at(-1)!.epoch, updated_at: now });
      if (moved !== 1) throw new CursorMoved();
      changes = await advanceTracked(trx, network, followed, now);
      events = (await this.o.withChanges?.(trx, network, changes, last)) ?? 0;
      await trx('chain_blocks').insert(followed.map((b) => ({ ...key, height: b.height, hash: b.hash }))).onConflict(['network', 'confirmations', 'height']).merge();
      await trx('chain_blocks').where(key).andWhere('height', '<', last.height - KEEP_BLOCKS).delete();
    });
    if (changes.length > 0) this.o.onChanges?.(changes, events);
  }

  /**
   * The cursor's block left the upstream's chain: walks back from the tip, a page of blocks at a time,
   * to the newest block remembered that is still on it (the fork), rolls back the transactions of the
   * blocks after it (those the upstream's mempool holds again go back to pending, and those of projects
   * that resubmit are sent to it again while valid), and moves the cursor there.
   */
  private async rollBack(cursor: Cursor, tip: Block): Promise<void> {
    const { network } = this.o;
    const key = { network, confirmations: UPSTREAM_CURSOR_DEPTH };
    const seen: Array<{ height: number; hash: string }> = (await this.db('chain_blocks').where(key).orderBy('height', 'desc').select('height', 'hash')).map((r) => ({ height: Number(r.height), hash: r.hash }));
    const remembered = new Map(seen.map((s) => [s.height, s.hash]));
    const lowest = seen.at(-1)?.height ?? cursor.height;
    let fork: Block | null = remembered.get(tip.height ?? -1) === tip.hash ? tip : null;
    let deepest: Block = tip;
    for (let ref = tip.hash; !fork && (deepest.height ?? 0) > lowest; ) {
      const page = ((await this.read<Block[]>(`/blocks/${ref}/previous?count=${PAGE}`)) ?? []).sort((a, b) => (b.height ?? 0) - (a.height ?? 0));
      if (page.length === 0) break;
      fork = page.find((b) => b.height !== null && remembered.get(b.height) === b.hash) ?? null;
      deepest = page.at(-1)!;
      ref = deepest.hash;
    }
    // Deeper than what is remembered: every remembered block is abandoned, and the new branch is read from the deepest block reached.
    const to = fork ?? deepest;
    const toHeight = to.height ?? 0;
    const abandoned = [...new Set([...seen.filter((s) => s.height > toHeight || !fork).map((s) => s.hash), cursor.hash])].filter((h) => h !== to.hash);
    this.logger.warn({ network: this.o.slug, from: cursor.height, to: toHeight, abandoned: abandoned.length }, 'txs: rollback on the upstream; rolling back the submitted transactions of the abandoned blocks');
    const waiting = await this.waitingAgain(abandoned);
    const resubmission = {
      resubmit: async (cbor: Uint8Array) => {
        await this.pace();
        return (await this.o.reader.post('/tx/submit', cbor)).status === 200;
      },
      slot: tip.slot,
    };
    const now = Date.now();
    let changes: TxChange[] = [];
    let events = 0;
    await this.db.transaction(async (trx) => {
      const moved = await trx('chain_cursors').where({ ...key, height: cursor.height, hash: cursor.hash }).update({ height: toHeight, hash: to.hash, epoch: to.epoch, updated_at: now });
      if (moved !== 1) throw new CursorMoved();
      changes = await rollBackTracked(trx, network, abandoned, async (hashes) => new Set(hashes.filter((h) => waiting.has(h))), now, resubmission);
      events = (await this.o.withChanges?.(trx, network, changes, { height: toHeight, hash: to.hash })) ?? 0;
      await trx('chain_blocks').where(key).andWhere((q) => q.where('height', '>=', toHeight).orWhereIn('hash', abandoned)).delete();
      await trx('chain_blocks').insert({ ...key, height: toHeight, hash: to.hash });
    });
    if (changes.length > 0) this.o.onChanges?.(changes, events);
  }

  /**
   * Which transactions of the abandoned blocks the upstream's mempool holds again (GET /mempool/{hash}),
   * asked before the write so that no upstream read but a resubmission runs inside it.
   */
  private async waitingAgain(abandoned: string[]): Promise<Set<string>> {
    const hashes: string[] = [];
    for (let i = 0; i < abandoned.length; i += 500) {
      hashes.push(...(await this.db('tracked_txs').where({ network: this.o.network }).whereIn('state', ['in_block', 'confirmed']).whereIn('block_hash', abandoned.slice(i, i + 500)).distinct().pluck('tx_hash')));
    }
    const waiting = new Set<string>();
    for (const h of hashes) if (await this.read<unknown>(`/mempool/${h}`)) waiting.add(h);
    return waiting;
  }
}

export interface UpstreamTxFollowersOptions extends Omit<UpstreamTxFollowerOptions, 'network' | 'slug' | 'reader' | 'backoffMs' | 'leads'> {
  /** The networks served by an upstream: each one's Secure Webhooks id, slug and reader. */
  networks: Array<{ network: number; slug: string; reader: UpstreamReader }>;
  /** Whether this gateway follows the network now (FollowerLeadership); absent: it always does. */
  leads?: (network: number) => Promise<boolean>;
  /** How often each network is looked at (PUSH_UPSTREAM_TIP_MS: the tip's reads are shared with the push API). */
  intervalMs: number;
}

/** A follower per upstream-served network, each on a ticker of its own. */
export class UpstreamTxFollowers {
  readonly followers: UpstreamTxFollower[];
  private readonly tickers: SerialTicker[];

  constructor(db: Db, logger: Logger, o: UpstreamTxFollowersOptions) {
    const { networks, intervalMs, leads, ...rest } = o;
    this.followers = networks.map((n) => new UpstreamTxFollower(db, logger, { ...rest, ...n, backoffMs: intervalMs, ...(leads ? { leads: () => leads(n.network) } : {}) }));
    this.tickers = this.followers.map(
      (f, i) => new SerialTicker(() => f.tick(), intervalMs, (err) => logger.warn({ network: networks[i]!.slug, err: { message: err.message } }, 'txs: the upstream follower failed')),
    );
  }

  start(): void {
    for (const t of this.tickers) t.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.tickers.map((t) => t.stop()));
  }
}
