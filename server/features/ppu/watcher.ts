import type { Db } from '../../db/index';
import type { Logger } from '../../logger';
import type { Metrics } from '../../metrics';
import type { Config } from '../../config';
import type { LocalChains } from '../../blockfrost/chain';
import type { TxDetails } from '../../../shared/chain';
import { sandboxOf } from '../../../shared/networks';
import { httpSource, sandboxSource, type ChainSource } from '../webhooks/index';
import { forgetComponentState, reportComponentState } from '../status/index';
import { WatchedOrderIndex } from './order-index';
import { anyWatchedOrder, creditConfirmed, expireOrders, ppuSettings, recordBlock, rollBackTo, watchCursor, watchedOrdersAt, type SeenPayment } from './ppu';

/** Blocks read per tick at most, so a watcher far behind catches up in steps. */
const MAX_BLOCKS_PER_TICK = 200;

export interface WatchResult {
  blocks: number;
  payments: number;
  credited: number;
  /** Orders whose credit a rollback reversed. */
  reversed?: number;
  /** Blocks between the tip and the last block read. */
  behind: number;
}

/** How far back the watcher looks for the fork of a rollback. */
const MAX_ROLLBACK = 100;

/**
 * One pass of the payment watcher over a network's chain: records payments to order addresses in
 * each new block (block by block, each with the cursor), credits orders with enough confirmations and
 * expires unpaid ones. Safe to run in several processes at once: payments are keyed by
 * (tx, output) and an order moves to paid once.
 */
export async function watchTick(db: Db, source: ChainSource, opts: { network: string; confirmations: number; now?: number; index?: WatchedOrderIndex }): Promise<WatchResult> {
  const { index } = opts;
  const now = opts.now ?? Date.now();
  const tip = await source.tipHeight();
  let cursor = await watchCursor(db, opts.network);
  if (!cursor) {
    // First start: begin a few blocks back, so an order paid while the watcher was starting is seen.
    const start = await source.blockAt(Math.max(0, tip - 10));
    if (!start) return { blocks: 0, payments: 0, credited: 0, behind: tip };
    cursor = { height: start.height ?? Math.max(0, tip - 10), hash: start.hash };
    await recordBlock(db, opts.network, cursor, [], now);
  }
  // A rollback: the block under the cursor is no longer the chain's. Walk back to the fork and undo
  // what the rolled-back blocks paid (or credited).
  let reversed = 0;
  const under = await source.blockAt(cursor.height);
  if ((under && under.hash !== cursor.hash) || (!under && tip < cursor.height)) {
    // Payments recorded in blocks the chain no longer has are undone; the blocks above the fork are
    // read again (MAX_ROLLBACK deep, as payment-free blocks leave no hash to compare), so a payment the
    // chain took again in another block is found there.
    const recorded = await db('ppu_payments').where('height', '>', cursor.height - MAX_ROLLBACK).distinct('height', 'block_hash');
    const gone: number[] = [];
    for (const r of recorded as Array<{ height: number; block_hash: string }>) {
      const onChain = await source.blockAt(Number(r.height));
      if (!onChain || onChain.hash !== r.block_hash) gone.push(Number(r.height));
    }
    const forkHeight = Math.max(0, Math.min(cursor.height - MAX_ROLLBACK, ...gone.map((h) => h - 1)));
    const fork = await source.blockAt(forkHeight);
    if (!fork) throw new Error(`pay as you go: block ${forkHeight} cannot be read after a rollback`);
    reversed = await rollBackTo(db, opts.network, gone, { height: forkHeight, hash: fork.hash }, now);
    cursor = { height: forkHeight, hash: fork.hash };
    // Orders the rollback reopened may have left the index: read it all again.
    index?.invalidate();
  }
  // With no order watched, a block's transactions are not even read (an upstream answers them with
  // several calls). Otherwise the block's output addresses are looked up in the watcher's index of
  // watched orders (in memory), or without one by the database's address index.
  if (index) await index.refresh(now);
  const watching = index ? index.size > 0 : await anyWatchedOrder(db, opts.network, now);
  let blocks = 0;
  let payments = 0;
  let read = cursor.height;
  // A block that pays an order is recorded at once, with the cursor; the cursor passes blocks that pay
  // none in one write at the end of the pass (at a block every few hundred milliseconds, a write per
  // block would keep the database busy for nothing). A crash reads those blocks again: they pay nothing.
  let unrecorded: { height: number; hash: string } | null = null;
  for (let h = cursor.height + 1; h <= tip && blocks < MAX_BLOCKS_PER_TICK; h++) {
    const found = await source.blockAt(h);
    if (!found) break;
    read = h;
    const block = { height: found.height ?? h, hash: found.hash, tx_count: found.tx_count };
    const seen = watching && block.tx_count > 0 ? await paymentsIn(db, opts.network, block, await source.blockTxDetails(block.hash), now, index) : [];
    if (seen.length > 0) await recordBlock(db, opts.network, block, seen, now);
    unrecorded = seen.length > 0 ? null : block;
    blocks++;
    payments += seen.length;
  }
  if (unrecorded) await recordBlock(db, opts.network, unrecorded, [], now);
  const credited = await creditConfirmed(db, opts.network, tip, opts.confirmations, now);
  if (!index) await expireOrders(db, opts.network, now);
  else {
    const due = index.due(now);
    if (due.length > 0) {
      await expireOrders(db, opts.network, now, due);
      index.settled(due);
    }
  }
  return { blocks, payments, credited, reversed, behind: Math.max(0, tip - read) };
}

/**
 * The outputs of a block's transactions paid to watched order addresses: the block's addresses are
 * looked up in the watcher's index (in memory), and only those it holds are asked of the database
 * (by the address index), which decides whether their order is still watched. Without an index every
 * address is asked of the database.
 */
export async function paymentsIn(db: Db, network: string, block: { height: number; hash: string }, txs: TxDetails[], now = Date.now(), index?: WatchedOrderIndex): Promise<SeenPayment[]> {
  const addresses = new Set<string>();
  for (const { outputs } of txs) for (const out of outputs) addresses.add(out.address);
  const asked = index ? index.candidates(addresses) : [...addresses];
  if (asked.length === 0) return [];
  const orders = await watchedOrdersAt(db, network, asked, now);
  const seen: SeenPayment[] = [];
  if (orders.size === 0) return seen;
  for (const { tx, outputs } of txs) {
    for (const out of outputs) {
      const orderId = orders.get(out.address);
      if (orderId === undefined) continue;
      const lovelace = BigInt(out.amount.find((a) => a.unit === 'lovelace')?.quantity ?? '0');
      seen.push({ txHash: tx.hash, outputIndex: out.output_index, orderId, lovelace, height: block.height, blockHash: block.hash });
    }
  }
  return seen;
}

/** The watcher's time: the system's, or a test's that moves only when told. */
export interface WatcherClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemClock: WatcherClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** The longest wait between two tries while the payment chain cannot be read. */
export const WATCHER_MAX_BACKOFF_MS = 5 * 60_000;

/** The wait before the next pass: the interval, doubled with each failure in a row, up to the cap. */
export const watcherDelay = (intervalMs: number, failures: number, maxMs = WATCHER_MAX_BACKOFF_MS): number =>
  failures === 0 ? intervalMs : Math.min(maxMs, intervalMs * 2 ** Math.min(failures, 30));

/**
 * Runs the watcher every `intervalMs` (one pass at a time) until stopped. A pass that fails (the
 * payment chain's backend does not answer, or answers what cannot be read) is tried again after a
 * wait that doubles with each failure in a row, up to WATCHER_MAX_BACKOFF_MS. The failure is logged
 * once, and the recovery once with how long it lasted; the status page shows the watcher's state
 * and since when.
 */
export function startPaymentWatcher(deps: {
  db: Db;
  logger: Logger;
  source: ChainSource;
  network: string;
  confirmations: number;
  intervalMs: number;
  clock?: WatcherClock;
  maxBackoffMs?: number;
  /** Told after each successful pass how many blocks the watcher is behind the tip (the metrics). */
  onPass?: (behind: number) => void;
}): { stop(): Promise<void> } {
  const clock = deps.clock ?? systemClock;
  const maxBackoffMs = deps.maxBackoffMs ?? WATCHER_MAX_BACKOFF_MS;
  const index = new WatchedOrderIndex(deps.db, deps.network);
  let running: Promise<void> | null = null;
  let timer: unknown;
  let stopped = false;
  let failures = 0;
  let downSince: number | null = null;
  let shown: 'operational' | 'down' | null = null;

  const show = async (state: 'operational' | 'down', since: number) => {
    if (shown === state) return;
    try {
      await reportComponentState(deps.db, { name: 'Payment watcher', state, since }, clock.now());
      shown = state;
    } catch {
      // The database is what failed: the next pass tries again.
    }
  };

  const pass = async (): Promise<void> => {
    try {
      const r = await watchTick(deps.db, deps.source, { network: deps.network, confirmations: deps.confirmations, index });
      if (downSince !== null) {
        deps.logger.info({ network: deps.network, downForMs: clock.now() - downSince, attempts: failures }, 'pay as you go: the payment watcher reads the payment chain again');
      }
      failures = 0;
      downSince = null;
      deps.onPass?.(r.behind);
      await show('operational', clock.now());
      if (r.payments > 0 || r.credited > 0) deps.logger.info({ network: deps.network, ...r }, 'pay as you go: payments seen');
    } catch (err) {
      failures++;
      if (downSince === null) {
        downSince = clock.now();
        deps.logger.error(
          { network: deps.network, err: { message: (err as Error).message } },
          'pay as you go: the payment watcher failed; retrying with a growing wait, and logging again once it works',
        );
      }
      await show('down', downSince);
    }
  };

  const run = () => {
    if (stopped) return;
    running = pass().finally(() => {
      running = null;
      if (!stopped) timer = clock.setTimeout(run, watcherDelay(deps.intervalMs, failures, maxBackoffMs));
    });
  };
  run();
  return {
    async stop() {
      stopped = true;
      clock.clearTimeout(timer);
      await running;
      await forgetComponentState(deps.db, 'Payment watcher').catch(() => undefined);
    },
  };
}

/**
 * The chain the operator takes payments on, through the webhook follower's chain sources: the
 * configured Blockfrost-compatible upstream of PPU_NETWORK, else its sandbox chain; null when neither.
 */
export function paymentChainSource(config: Config, chains: LocalChains): ChainSource | null {
  const network = config.ppu.network;
  const upstream = config.gateway.upstreams[network];
  if (upstream) return httpSource(upstream, config.gateway.upstreamTimeoutMs);
  const chain = chains[sandboxOf(network)!];
  return chain ? sandboxSource(chain) : null;
}

/** Starts the payment watcher of the worker role (main.ts and the tests), or answers null when pay as you go is off. */
export function startPaymentWatcherFor(deps: { config: Config; db: Db; logger: Logger; chains: LocalChains; intervalMs?: number; clock?: WatcherClock; metrics?: Metrics }) {
  const settings = ppuSettings(deps.config);
  const source = paymentChainSource(deps.config, deps.chains);
  if (!settings.enabled || !source) return null;
  return startPaymentWatcher({
    db: deps.db,
    logger: deps.logger,
    source,
    network: settings.network,
    confirmations: settings.confirmations,
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(deps.metrics ? { onPass: (behind: number) => deps.metrics!.watcherRead(settings.network, behind) } : {}),
    intervalMs: deps.intervalMs ?? Math.min(deps.config.webhooks.chainPollMs, Math.max(250, Math.floor(deps.config.gateway.sandboxBlockIntervalMs / 4))),
  });
}
