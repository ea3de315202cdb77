import type { Db } from '../db/index';
import type { Logger } from '../logger';
import type { Config } from '../config';
import type { SandboxChain, SandboxNetwork } from '../chain/sandbox/index';
import { sandboxOf } from '../../shared/networks';
import { httpSource, sandboxSource, type ChainSource } from '../webhooks/chain-source';
import { creditConfirmed, expireOrders, ppuSettings, recordBlock, rollBackTo, watchCursor, watchedAddresses, type SeenPayment } from '../services/ppu';

/** Blocks read per tick at most, so a watcher far behind catches up in steps. */
const MAX_BLOCKS_PER_TICK = 200;

export interface WatchResult {
  blocks: number;
  payments: number;
  credited: number;
  /** Orders whose credit a rollback reversed. */
  reversed?: number;
}

/** How far back the watcher looks for the fork of a rollback. */
const MAX_ROLLBACK = 100;

/**
 * One pass of the payment watcher over a network's chain: records payments to order addresses in
 * each new block (block by block, with the cursor), credits orders with enough confirmations and
 * expires unpaid ones. Safe to run in several processes at once: payments are keyed by
 * (tx, output) and an order moves to paid once.
 */
export async function watchTick(db: Db, source: ChainSource, opts: { network: string; confirmations: number; now?: number }): Promise<WatchResult> {
  const now = opts.now ?? Date.now();
  const tip = await source.tipHeight();
  let cursor = await watchCursor(db, opts.network);
  if (!cursor) {
    // First start: begin a few blocks back, so an order paid while the watcher was starting is seen.
    const start = await source.blockAt(Math.max(0, tip - 10));
    if (!start) return { blocks: 0, payments: 0, credited: 0 };
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
  }
  const addresses = await watchedAddresses(db, opts.network, now);
  let blocks = 0;
  let payments = 0;
  for (let h = cursor.height + 1; h <= tip && blocks < MAX_BLOCKS_PER_TICK; h++) {
    const found = await source.blockAt(h);
    if (!found) break;
    const block = { height: found.height ?? h, hash: found.hash, tx_count: found.tx_count };
    const seen: SeenPayment[] = [];
    if (addresses.size > 0 && block.tx_count > 0) {
      for (const { tx, outputs } of await source.blockTxDetails(block.hash)) {
        for (const out of outputs) {
          const orderId = addresses.get(out.address);
          if (orderId === undefined) continue;
          const lovelace = BigInt(out.amount.find((a) => a.unit === 'lovelace')?.quantity ?? '0');
          seen.push({ txHash: tx.hash, outputIndex: out.output_index, orderId, lovelace, height: block.height, blockHash: block.hash });
        }
      }
    }
    await recordBlock(db, opts.network, block, seen, now);
    blocks++;
    payments += seen.length;
  }
  const credited = await creditConfirmed(db, opts.network, tip, opts.confirmations, now);
  await expireOrders(db, opts.network, now);
  return { blocks, payments, credited, reversed };
}

/** Runs the watcher every `intervalMs` (one pass at a time) until stopped. */
export function startPaymentWatcher(deps: { db: Db; logger: Logger; source: ChainSource; network: string; confirmations: number; intervalMs: number }): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = watchTick(deps.db, deps.source, { network: deps.network, confirmations: deps.confirmations })
      .then((r) => {
        if (r.payments > 0 || r.credited > 0) deps.logger.info({ network: deps.network, ...r }, 'pay as you go: payments seen');
      })
      .catch((err: unknown) => deps.logger.error({ err: { message: (err as Error).message } }, 'pay as you go: the payment watcher failed; retrying'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, deps.intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * The chain the operator takes payments on, through the webhook follower's chain sources: the
 * configured Blockfrost-compatible upstream of PPU_NETWORK, else its sandbox chain; null when neither.
 */
export function paymentChainSource(config: Config, chains: Partial<Record<SandboxNetwork, SandboxChain>>): ChainSource | null {
  const network = config.ppu.network;
  const upstream = config.gateway.upstreams[network];
  if (upstream) return httpSource(upstream, config.gateway.upstreamTimeoutMs);
  const chain = chains[sandboxOf(network)!];
  return chain ? sandboxSource(chain) : null;
}

/** Starts the payment watcher of the worker role (main.ts and the tests), or answers null when pay as you go is off. */
export function startPaymentWatcherFor(deps: { config: Config; db: Db; logger: Logger; chains: Partial<Record<SandboxNetwork, SandboxChain>>; intervalMs?: number }) {
  const settings = ppuSettings(deps.config);
  const source = paymentChainSource(deps.config, deps.chains);
  if (!settings.enabled || !source) return null;
  return startPaymentWatcher({
    db: deps.db,
    logger: deps.logger,
    source,
    network: settings.network,
    confirmations: settings.confirmations,
    intervalMs: deps.intervalMs ?? Math.min(deps.config.webhooks.chainPollMs, Math.max(250, Math.floor(deps.config.gateway.sandboxBlockIntervalMs / 4))),
  });
}
