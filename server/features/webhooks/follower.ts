import type { Knex } from 'knex';
import { SerialTicker } from '../../ticker';
import { isPostgres, type Db } from '../../db/index';
import type { Logger } from '../../logger';
import type { Block } from '../../../shared/chain';
import type { ChainSource } from './chain-source';
import { compileWebhook, matchBlock, WebhookSet, type CompiledWebhook, type EpochPayload } from '../../../shared/webhook-matcher';
import { parseConditions } from './webhooks';
import { yieldsList } from '../../../shared/webhooks';
import * as outbox from './outbox';
import { writeTxStatusEvents } from './tx-status-events';
import { advanceTracked, landPassed, mayAdvanceTracked, openTracked, rollBackTracked, UPSTREAM_CURSOR_DEPTH, type FollowedBlock, type TxChange } from '../txs/index';

const KEEP_BLOCKS = 200;
/** The blocks kept past KEEP_BLOCKS are deleted once every this many blocks, not at every write. */
const PRUNE_EVERY = 50;
/** Depth 0 followed for the tracked transactions alone. */
const NO_WEBHOOKS = new WebhookSet([]);
/** A batch of matched blocks is written at the latest this long after its first block was read. */
const MAX_BATCH_MS = 1000;
/**
 * Near the tip (this many blocks or fewer from it), a block with events is written at once rather than
 * with the blocks after it, so its events are not held back while the next block is read and matched;
 * catching up on many blocks still writes them together.
 */
const NEAR_TIP_BLOCKS = 3;
/** The webhooks are read in full at least this often, even when their summary says nothing changed. */
const FULL_READ_MS = 60_000;

type BlockMatch = ReturnType<typeof matchBlock>[number];

/** Consecutive blocks matched at one depth, not yet written, and the cursor they follow. */
interface Batch {
  from: Cursor;
  blocks: Array<{ block: Block; matches: BlockMatch[]; txHashes: string[] | null }>;
  startedAt: number;
}

interface Cursor {
  height: number;
  hash: string;
  epoch: number | null;
}

export interface FollowerOptions {
  /** The network's Secure Webhooks id. */
  network: number;
  /**
   * One project's own chain on the network (a devnet): its cursors are kept under `key` (never a
   * network's id), and it matches the webhooks naming the project and advances the project's tracked
   * transactions only. Absent: the network's one chain, for every workspace.
   */
  chain?: { key: number; projectId: number };
  pollMs?: number;
  /** Blocks matched per confirmation depth and tick, so one tick never runs for long. */
  maxBlocksPerTick?: number;
  /** Told after each tick how many blocks the follower is behind the tip (the deepest depth in use). */
  onLag?: (blocks: number) => void;
  /**
   * Whether this follower follows its network now (FollowerLeadership: one worker of several does);
   * a tick that does not lead does nothing. Absent: it always leads.
   */
  leads?: () => Promise<boolean>;
  /** Told when a write committed events to the outbox that are left for the dispatchers to claim (how many), e.g. to wake this worker's at once. */
  onEvents?: (count: number) => void;
  /**
   * This worker's dispatcher, which takes up to `capacity().count` of a write's events straight from
   * it: they are written claimed for it, and handed to it as soon as the write holds the cursor,
   * before the events are inserted, with their webhooks' targets (read beside the write) and whether
   * the write committed (the dispatcher records their attempts only then).
   */
  /**
   * Advance the transactions submitted through the gateway on this network (server/features/txs) with
   * the blocks at the tip: the follower then always follows depth 0, webhooks or not.
   */
  trackTxs?: boolean;
  /** Told of each change of a tracked transaction once its write committed. */
  onTxChanges?: (changes: TxChange[]) => void;
  handOff?: {
    capacity(): outbox.HandOff;
    take(events: outbox.ClaimedEvent[], targets: Promise<Map<string, outbox.Target>>, committed: Promise<boolean>): void;
  };
}

// The event body's shape lives with the outbox; re-exported for the follower's callers.
export { eventBody } from './outbox';

/**
 * Follows one network's chain for its webhooks. For each confirmation depth in use it keeps a cursor
 * (the last block matched at that depth) and walks forward while tip − depth allows, so an event is
 * only written once its block has the webhook's confirmations. A block whose previous hash does not
 * match the cursor means a rollback: the cursor steps back to the fork, pending events of the
 * abandoned blocks are cancelled, and the new blocks are matched again. Events are written to the
 * outbox in the same transaction that advances the cursor, so a restart neither loses nor repeats
 * them.
 */
export class ChainFollower {
  private ticker: SerialTicker | undefined;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly source: ChainSource,
    private readonly opts: FollowerOptions,
  ) {}

  /** Where this chain's cursors and seen blocks are kept: the network's id, or a devnet's own key. */
  private get key(): number {
    return this.opts.chain?.key ?? this.opts.network;
  }

  /** The enabled webhooks this follower matches (tx_status ones aside): the network's, or those naming its project. */
  private hooks() {
    const q = this.db('webhooks').where({ network: this.opts.network, status: 'enabled' }).whereNot('type', 'tx_status');
    return this.opts.chain ? q.andWhere('project_id', this.opts.chain.projectId) : q;
  }

  start(): void {
    this.ticker = new SerialTicker(
      () => this.tick(),
      this.opts.pollMs ?? 2000,
      (err) => this.logger.warn({ network: this.opts.network, err: { message: err.message } }, 'webhooks: chain follower tick failed'),
    );
    // The first tick at once, the next ones at a phase of the interval of this follower's own: followers
    // started together (twenty devnets' at a worker's start) would otherwise all tick in the same
    // moment, every one of their statements queued at once on the database's connection.
    this.ticker.start({ phaseMs: Math.floor(Math.random() * (this.opts.pollMs ?? 2000)) });
  }

  async stop(): Promise<void> {
    await this.ticker?.stop();
  }

  /** Each enabled webhook compiled for matching, with the conditions text it was compiled from: recompiled only when that changes. */
  private compiled = new Map<string, { type: string; conditions: string; compiled: CompiledWebhook }>();
  /** The last sets handed to the matcher per depth, reused while none of their webhooks changed. */
  private sets = new Map<number, WebhookSet>();

  /** The summary of the enabled webhooks when they were last read in full, and when that was. */
  private lastRead: { summary: string; at: number } | null = null;

  /**
   * What changes when a webhook the follower matches changes: how many are enabled on the network, and
   * the latest and the sum of their updated_at (every change of a webhook's type, conditions,
   * confirmations or status sets it; a deleted, disabled or added one changes the count). One row,
   * so a tick does not read and parse every webhook while none changed.
   */
  private async summary(): Promise<string> {
    const row = await this.hooks().first(this.db.raw('count(*) AS n'), this.db.raw('max(updated_at) AS latest'), this.db.raw('CAST(sum(updated_at) AS TEXT) AS total'));
    return `${row?.n}/${row?.latest}/${row?.total}`;
  }

  private async webhooksByDepth(): Promise<Map<number, WebhookSet>> {
    const summary = await this.summary();
    const now = Date.now();
    if (this.lastRead && this.lastRead.summary === summary && now - this.lastRead.at < FULL_READ_MS) return this.sets;
    // 'tx_status' webhooks match a tracked transaction's changes, not blocks (txStatusEvents).
    const rows = await this.hooks().select('id', 'type', 'conditions', 'confirmations');
    const byDepth = new Map<number, CompiledWebhook[]>();
    const seen = new Map<string, { type: string; conditions: string; compiled: CompiledWebhook }>();
    for (const r of rows) {
      let entry = this.compiled.get(r.id);
      if (!entry || entry.type !== r.type || entry.conditions !== r.conditions) {
        entry = { type: r.type, conditions: r.conditions, compiled: compileWebhook({ id: r.id, type: r.type, conditions: parseConditions(r.conditions) }) };
      }
      seen.set(r.id, entry);
      const list = byDepth.get(r.confirmations) ?? [];
      list.push(entry.compiled);
      byDepth.set(r.confirmations, list);
    }
    this.compiled = seen;
    const out = new Map<number, WebhookSet>();
    for (const [depth, list] of byDepth) {
      const last = this.sets.get(depth);
      const same = last !== undefined && last.compiled.length === list.length && last.compiled.every((c, k) => c === list[k]);
      out.set(depth, same ? last : new WebhookSet(list));
    }
    this.sets = out;
    // The summary read before the rows: a change made in between is read again on the next tick.
    this.lastRead = { summary, at: now };
    return out;
  }

  /** The depths in use when unused cursors were last forgotten (null: not yet). */
  private depthsSwept: string | null = null;

  /**
   * Each depth's cursor as this follower last wrote it, on SQLite, where one worker follows a chain
   * and so nothing else moves its cursors: the next tick need not read it again. Forgotten whenever a
   * tick fails (a write refused because the cursor moved, a database error).
   */
  private cursors = new Map<number, Cursor>();

  /** One pass: every depth in use moves forward as far as the tip allows (bounded per tick). */
  async tick(): Promise<void> {
    try {
      await this.pass();
    } catch (err) {
      this.cursors.clear();
      throw err;
    }
  }

  private async pass(): Promise<void> {
    if (this.opts.leads && !(await this.opts.leads())) {
      this.cursors.clear();
      return;
    }
    const network = this.key;
    const webhooks = await this.webhooksByDepth();
    const byDepth = this.opts.trackTxs && !webhooks.has(0) ? new Map([...webhooks, [0, NO_WEBHOOKS]]) : webhooks;
    // A depth nobody uses forgets its cursor, so a webhook created later starts at the tip, not in the
    // past: checked on the first tick and whenever the depths in use change, not on every tick.
    const depths = [...byDepth.keys()].sort((a, b) => a - b).join(',');
    if (depths !== this.depthsSwept) {
      // The gateway's follower of an upstream-served network keeps its own cursor beside these (UPSTREAM_CURSOR_DEPTH).
      await this.db('chain_cursors').where({ network }).whereNotIn('confirmations', [...byDepth.keys(), UPSTREAM_CURSOR_DEPTH]).delete();
      await this.db('chain_blocks').where({ network }).whereNotIn('confirmations', [...byDepth.keys(), UPSTREAM_CURSOR_DEPTH]).delete();
      for (const depth of this.cursors.keys()) if (!byDepth.has(depth)) this.cursors.delete(depth);
      this.depthsSwept = depths;
    }
    if (byDepth.size === 0) {
      this.behind.clear();
      return this.opts.onLag?.(0);
    }
    const tip = await this.source.tipHeight();
    for (const depth of this.behind.keys()) if (!byDepth.has(depth)) this.behind.delete(depth);
    for (const [depth, webhooks] of byDepth) await this.advance(depth, webhooks, tip);
  }

  /** Blocks each depth is behind its target, as last seen: reported (the deepest) after every write, so a slow tick still shows its lag. */
  private behind = new Map<number, number>();
  private reportLag(depth: number, blocks: number): void {
    if (!this.opts.onLag) return;
    this.behind.set(depth, blocks);
    this.opts.onLag(Math.max(...this.behind.values()));
  }

  private async loadCursor(depth: number): Promise<Cursor | null> {
    const kept = this.cursors.get(depth);
    if (kept) return kept;
    const row = await this.db('chain_cursors').where({ network: this.key, confirmations: depth }).first('height', 'hash', 'epoch');
    return row ? { height: Number(row.height), hash: row.hash, epoch: row.epoch ?? null } : null;
  }

  /** Keeps a depth's cursor as just written (SQLite only: see `cursors`). */
  private wrote(depth: number, cursor: Cursor): void {
    if (!isPostgres(this.db)) this.cursors.set(depth, cursor);
  }

  /**
   * A follower starting at the tip (a devnet's, started for its first submitted transaction) never
   * reads the blocks before it: the open transactions a block up to there already holds land now,
   * with their webhook events, in the transaction that writes the cursor. Only a chain read in
   * process can say where a transaction is (txBlock).
   */
  private async landPassed(trx: Knex.Transaction, depth: number, target: number, start: Block): Promise<{ changes: TxChange[]; events: number }> {
    if (depth !== 0 || !this.opts.trackTxs || !this.source.txBlock) return { changes: [], events: 0 };
    const now = Date.now();
    const open = await openTracked(trx, this.opts.network, this.opts.chain?.projectId);
    const changes = await landPassed(trx, open, (h) => this.source.txBlock!(h), target, now);
    const events = await writeTxStatusEvents(trx, this.opts.network, changes, { height: start.height ?? target, hash: start.hash }, now);
    return { changes, events };
  }

  /** Moves one depth's cursor towards tip − depth, reporting how far behind it is as it goes. */
  private async advance(depth: number, webhooks: WebhookSet, tip: number): Promise<void> {
    const target = tip - depth;
    const stored = await this.loadCursor(depth);
    if (!stored) {
      const start = await this.source.blockAt(target);
      if (!start) return;
      const landed = await this.db.transaction(async (trx) => {
        await trx('chain_cursors').insert({ network: this.key, confirmations: depth, height: target, hash: start.hash, epoch: start.epoch, updated_at: Date.now() });
        await trx('chain_blocks').insert({ network: this.key, confirmations: depth, height: target, hash: start.hash }).onConflict(['network', 'confirmations', 'height']).merge();
        return this.landPassed(trx, depth, target, start);
      });
      this.wrote(depth, { height: target, hash: start.hash, epoch: start.epoch });
      if (landed.changes.length > 0) this.opts.onTxChanges?.(landed.changes);
      if (landed.events > 0) this.opts.onEvents?.(landed.events);
      return this.reportLag(depth, 0);
    }
    let cursor: Cursor = stored;
    // The chain is shorter than where this depth is (a rollback with no new block yet, as a devnet's
    // steering makes): the cursor's block is gone or another one, so step back to the fork now.
    if (cursor.height > target) {
      const at = await this.source.blockAt(cursor.height);
      if (!at || at.hash !== cursor.hash) cursor = await this.rollBack(depth, cursor);
    }
    const limit = this.opts.maxBlocksPerTick ?? 50;
    this.reportLag(depth, Math.max(0, target - cursor.height));
    // Blocks matched since the last write: written together, so a tick that catches up on many blocks
    // costs one transaction, not one per block (the database is shared with the gateway's key cache,
    // the dispatcher and every other worker: at a block every few hundred milliseconds, statements per
    // block add up to more than one SQLite connection serves while the process is busy).
    let batch: Batch = { from: cursor, blocks: [], startedAt: performance.now() };
    const flush = async () => {
      if (batch.blocks.length > 0) {
        await this.write(depth, batch);
        this.wrote(depth, cursor);
      }
      this.reportLag(depth, Math.max(0, target - cursor.height));
      batch = { from: cursor, blocks: [], startedAt: performance.now() };
    };
    for (let n = 0; n < limit && cursor.height < target; n++) {
      const block = await this.source.blockAt(cursor.height + 1);
      if (!block) break;
      if (block.previous_block !== cursor.hash) {
        await flush();
        cursor = await this.rollBack(depth, cursor);
        batch.from = cursor;
        continue;
      }
      const matches = await this.match(webhooks, cursor, block);
      const txHashes = depth === 0 && this.opts.trackTxs ? await this.txHashesOf(block) : null;
      batch.blocks.push({ block, matches, txHashes });
      cursor = { height: block.height ?? cursor.height + 1, hash: block.hash, epoch: block.epoch };
      // A slow source (an upstream's transactions) does not hold matched events back for long.
      if (performance.now() - batch.startedAt >= MAX_BATCH_MS || (matches.length > 0 && target - cursor.height < NEAR_TIP_BLOCKS)) await flush();
    }
    await flush();
  }

  /** The hashes of a block's transactions, for the tracked ones. */
  private async txHashesOf(block: Block): Promise<string[]> {
    if (block.tx_count === 0) return [];
    if (this.source.blockTxHashes) return this.source.blockTxHashes(block.hash);
    return (await this.source.blockTxDetails(block.hash)).map((d) => d.tx.hash);
  }

  /** The block's matches (reading its transactions and the epochs only when a webhook needs them). */
  private async match(webhooks: WebhookSet, cursor: Cursor, block: Block): Promise<BlockMatch[]> {
    const needsTxs = webhooks.compiled.some(({ webhook: w }) => yieldsList(w.type));
    const txs = needsTxs && block.tx_count > 0 ? await this.source.blockTxDetails(block.hash) : [];
    let epochSwitch: EpochPayload | null = null;
    if (cursor.epoch !== null && block.epoch !== null && block.epoch > cursor.epoch && webhooks.compiled.some(({ webhook: w }) => w.type === 'epoch')) {
      const [previous, current] = await Promise.all([this.source.epoch(cursor.epoch), this.source.epochStart(block.epoch)]);
      if (previous && current) epochSwitch = { previous_epoch: previous, current_epoch: current };
    }
    return matchBlock(webhooks, { block, txs, epochSwitch });
  }

  /**
   * Writes a batch of consecutive blocks in one transaction: their events go to the outbox and the
   * cursor moves from the batch's start to its last block, so a restart neither loses nor repeats them.
   * Once the cursor is held, up to one dispatcher batch of the events goes to this worker's dispatcher
   * while the rest of the write runs. Each event's id derives from its block and its place among the
   * block's matches, so should the write not commit after they were sent (the process died), the
   * block matched again sends them again with the same ids (and a block that comes back after a
   * rollback brings its cancelled events back).
   */
  private async write(depth: number, batch: Batch): Promise<void> {
    const { from, blocks } = batch;
    const last = blocks.at(-1)!.block;
    const now = Date.now();
    const events = blocks.flatMap(({ block, matches }) =>
      matches.map((m, i) => ({ id: outbox.derivedEventId(`${this.key}:${depth}:${block.hash}:${i}:${m.webhookId}`), webhookId: m.webhookId, type: m.type, network: this.opts.network, blockHeight: block.height, blockHash: block.hash, payload: m.payload })),
    );
    const followed: FollowedBlock[] = blocks.map(({ block, txHashes }, i) => ({ height: block.height ?? from.height + i + 1, hash: block.hash, slot: block.slot, txHashes }));
    const tracking = depth === 0 && this.opts.trackTxs === true;
    if (events.length === 0 && !isPostgres(this.db) && !(tracking && (await mayAdvanceTracked(this.db, this.opts.network, followed, this.opts.chain?.projectId)))) return this.writeQuiet(depth, batch);
    const handOff = events.length > 0 ? this.opts.handOff?.capacity() : undefined;
    const handing = Math.min(handOff?.count ?? 0, events.length);
    // Read beside the write (on PostgreSQL on another connection), so the hand-off need not wait for it.
    const targets = handing > 0 ? outbox.targetsOf(this.db, events.slice(0, handing).map((e) => e.webhookId)) : null;
    targets?.catch(() => undefined);
    let settle!: (committed: boolean) => void;
    const committed = new Promise<boolean>((resolve) => (settle = resolve));
    let handed = 0;
    let txChanges: TxChange[] = [];
    let txEvents = 0;
    try {
      await this.db.transaction(async (trx) => {
        // The cursor first: its row lock keeps a second follower of this network (another worker) from
        // writing the same events meanwhile; that one waits here, finds the cursor moved and drops its work.
        const moving = this.moveCursor(trx, depth, batch, now).then((n) => n);
        // The bodies are encoded while the database takes the cursor's row (once the statement is sent);
        // with none to encode, the transaction does not wait a turn of the event loop holding the connection.
        if (events.length > 0) await new Promise((resolve) => setImmediate(resolve));
        const prepared = outbox.prepareEvents(events, now, handOff);
        const moved = await moving;
        // Another process moved this cursor meanwhile: drop this work (the transaction rolls back).
        if (moved !== 1) throw new Error('cursor moved by another follower');
        if (prepared.claimed.length > 0 && targets) {
          this.opts.handOff!.take(prepared.claimed, targets, committed);
          handed = prepared.claimed.length;
        }
        await outbox.insertEvents(trx, prepared);
        if (tracking) {
          txChanges = await advanceTracked(trx, this.opts.network, followed, now, this.opts.chain?.projectId);
          txEvents = await writeTxStatusEvents(trx, this.opts.network, txChanges, last, now);
        }
        await this.rememberBlocks(trx, depth, batch);
      });
    } catch (err) {
      settle(false);
      throw err;
    }
    settle(true);
    if (events.length > handed) this.opts.onEvents?.(events.length - handed);
    if (txChanges.length > 0) this.opts.onTxChanges?.(txChanges);
    if (txEvents > 0) this.opts.onEvents?.(txEvents);
  }

  /** Moves a depth's cursor from the batch's start to its last block; answers 1, or 0 when another follower moved it first. */
  private moveCursor(conn: Db | Knex.Transaction, depth: number, { from, blocks }: Batch, now: number) {
    const last = blocks.at(-1)!.block;
    return conn('chain_cursors')
      .where({ network: this.key, confirmations: depth, height: from.height, hash: from.hash })
      .update({ height: last.height ?? from.height + blocks.length, hash: last.hash, epoch: last.epoch, updated_at: now });
  }

  /** Records the batch's blocks (what a rollback is recognised by), keeping the last KEEP_BLOCKS at least. */
  private async rememberBlocks(conn: Db | Knex.Transaction, depth: number, { from, blocks }: Batch): Promise<void> {
    const lastHeight = blocks.at(-1)!.block.height ?? from.height + blocks.length;
    await conn('chain_blocks')
      .insert(blocks.map(({ block }, i) => ({ network: this.key, confirmations: depth, height: block.height ?? from.height + i + 1, hash: block.hash })))
      .onConflict(['network', 'confirmations', 'height'])
      .merge();
    if (Math.floor(lastHeight / PRUNE_EVERY) !== Math.floor(from.height / PRUNE_EVERY)) await conn('chain_blocks').where({ network: this.key, confirmations: depth }).andWhere('height', '<', lastHeight - KEEP_BLOCKS).delete();
  }

  /**
   * A batch with no event and no tracked transaction to change, on SQLite (where one worker follows a
   * chain): its blocks recorded, then the cursor moved, each one statement, with no transaction held
   * open across turns of the event loop on the process's one connection meanwhile. Should the process
   * stop between them, the blocks recorded above the cursor are read and recorded again.
   */
  private async writeQuiet(depth: number, batch: Batch): Promise<void> {
    await this.rememberBlocks(this.db, depth, batch);
    const moved = await this.moveCursor(this.db, depth, batch, Date.now());
    if (moved !== 1) throw new Error('cursor moved by another follower');
  }

  /** Steps back to the newest block this depth saw that is still on the chain. */
  private async rollBack(depth: number, cursor: Cursor): Promise<Cursor> {
    const seen = await this.db('chain_blocks').where({ network: this.key, confirmations: depth }).andWhere('height', '<', cursor.height).orderBy('height', 'desc').select('height', 'hash');
    let fork: { height: number; hash: string; epoch: number | null } | null = null;
    for (const s of seen) {
      const onChain = await this.source.blockAt(Number(s.height));
      if (onChain && onChain.hash === s.hash) {
        fork = { height: Number(s.height), hash: s.hash, epoch: onChain.epoch };
        break;
      }
    }
    if (!fork) {
      // Deeper than what we remember: restart from the current block at this height, or at the tip
      // when the chain is shorter now (a devnet reset or started again from a new genesis).
      const b = await this.source.blockAt(Math.min(cursor.height - 1, await this.source.tipHeight()));
      if (!b) return cursor;
      fork = { height: b.height ?? cursor.height - 1, hash: b.hash, epoch: b.epoch };
    }
    this.logger.warn({ network: this.opts.network, depth, from: cursor.height, to: fork.height }, 'webhooks: rollback detected, matching the new blocks again');
    const f = fork;
    let txChanges: TxChange[] = [];
    let txEvents = 0;
    const inMempool = (hashes: string[]) => this.source.inMempool?.(hashes) ?? Promise.resolve(new Set<string>());
    // Resubmission needs the chain's submit and the slot it is at now (a transaction no longer valid is left out).
    const resubmission = depth === 0 && this.opts.trackTxs && this.source.resubmit ? { resubmit: (cbor: Uint8Array) => this.source.resubmit!(cbor), slot: (await this.source.blockAt(await this.source.tipHeight()))?.slot ?? null } : undefined;
    await this.db.transaction(async (trx) => {
      const abandoned = await trx('chain_blocks').where({ network: this.key, confirmations: depth }).andWhere('height', '>', f.height).pluck('hash');
      if (abandoned.length > 0) await outbox.cancelRolledBack(trx, this.opts.network, abandoned);
      if (depth === 0 && this.opts.trackTxs) {
        txChanges = await rollBackTracked(trx, this.opts.network, abandoned, inMempool, Date.now(), resubmission, this.opts.chain?.projectId);
        txEvents = await writeTxStatusEvents(trx, this.opts.network, txChanges, { height: f.height, hash: f.hash }, Date.now());
      }
      await trx('chain_blocks').where({ network: this.key, confirmations: depth }).andWhere('height', '>', f.height).delete();
      await trx('chain_cursors').where({ network: this.key, confirmations: depth }).update({ height: f.height, hash: f.hash, epoch: f.epoch, updated_at: Date.now() });
    });
    this.wrote(depth, f);
    if (txChanges.length > 0) this.opts.onTxChanges?.(txChanges);
    if (txEvents > 0) this.opts.onEvents?.(txEvents);
    return f;
  }
}
