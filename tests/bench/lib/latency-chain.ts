// The chain of bench:webhook-latency: blocks of 300 transactions built from the sandbox chain's
// transactions (deterministic), the webhooks that watch them, and the chain source the worker
// processes follow, which publishes one block per interval on a shared clock and records when a
// follower first read each block.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createSandboxChain } from '../../../server/sandbox/chain/index';
import type { ChainSource } from '../../../server/features/webhooks/chain-source';
import type { Block, TxDetails } from '../../../shared/chain';
import type { Condition } from '../../../shared/webhooks';
import type { MatchableWebhook } from '../../../shared/webhook-matcher';

export const TXS_PER_BLOCK = 300;
/** Height of the chain's first block (the one the followers start their cursors at). */
export const FIRST_HEIGHT = 5_000_000;

export interface LatencyChain {
  blocks: Block[];
  txs: TxDetails[][];
}

/** `count` consecutive blocks of 300 transactions each, taken in turn from the sandbox chain's transactions. */
export function buildChain(count: number): LatencyChain {
  const sandbox = createSandboxChain({ network: 'mainnet', now: () => Date.UTC(2026, 10, 1) });
  const pool: TxDetails[] = [];
  // Enough distinct transactions that consecutive blocks share none.
  for (let h = sandbox.tipHeight(); pool.length < 4 * TXS_PER_BLOCK && h > 0; h--) {
    const b = sandbox.blockAt(h)!;
    pool.push(...(sandbox.blockTxDetails(b.hash) ?? []));
  }
  const template = sandbox.latestBlock();
  const blocks: Block[] = [];
  const txs: TxDetails[][] = [];
  let previous: string | null = crypto.createHash('sha256').update('bench-genesis').digest('hex');
  for (let i = 0; i < count; i++) {
    const height = FIRST_HEIGHT + i;
    const hash = crypto.createHash('sha256').update(`bench-block-${height}`).digest('hex');
    const body = Array.from({ length: TXS_PER_BLOCK }, (_, k) => {
      const t = pool[(i * TXS_PER_BLOCK + k) % pool.length]!;
      // Each transaction its own hash and block, as on a real chain.
      const txHash = crypto.createHash('sha256').update(`${height}-${k}`).digest('hex');
      return { ...t, tx: { ...t.tx, hash: txHash, block: hash, block_height: height, index: k } };
    });
    blocks.push({ ...template, height, hash, previous_block: previous, next_block: null, slot: height * 20, time: 1_700_000_000 + i * 20, epoch: 500, tx_count: TXS_PER_BLOCK, confirmations: 0 });
    txs.push(body);
    previous = hash;
  }
  return { blocks, txs };
}

/**
 * Webhooks as customers set them up: each watches something specific (a recipient or sender address,
 * or a policy) and adds a quantity floor and a fee condition. Most watched things are rare: 1 in 20
 * anchors is drawn from the chain's own values, the rest watch addresses and policies that never
 * appear, so a block matches a small fraction of the webhooks, as on a busy network.
 */
export function webhooksFor(chain: LatencyChain, count: number, seed = 42): MatchableWebhook[] {
  let s = seed;
  const rng = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const all = chain.txs.flat();
  const addresses = [...new Set(all.flatMap((t) => t.outputs.map((o) => o.address)))];
  const senders = [...new Set(all.flatMap((t) => t.inputs.map((i) => i.address)))];
  const policies = [...new Set(all.flatMap((t) => t.outputs.flatMap((o) => o.amount.map((a) => a.unit)).filter((u) => u !== 'lovelace').map((u) => u.slice(0, 56))))];
  const pick = <T>(xs: T[]) => xs[Math.floor(rng() * xs.length)]!;
  const seen = () => rng() < 1 / 20;
  const out: MatchableWebhook[] = [];
  for (let i = 0; i < count; i++) {
    const anchor: Condition =
      i % 3 === 0
        ? { type: 'recipient', operator: '=', value: seen() ? pick(addresses) : `addr1q${crypto.randomBytes(28).toString('hex')}` }
        : i % 3 === 1
          ? { type: 'sender', operator: '=', value: seen() ? pick(senders) : `addr1q${crypto.randomBytes(28).toString('hex')}` }
          : { type: 'policyId', operator: '=', value: seen() ? pick(policies) : crypto.randomBytes(28).toString('hex') };
    out.push({
      id: crypto.randomUUID(),
      type: 'transaction',
      conditions: [anchor, { type: 'quantity', operator: '>', value: String(Math.floor(rng() * 2_000_000)) }, { type: 'jsonPath', operator: '>=', value: String(Math.floor(rng() * 200_000)), selector: '$.tx.fees' }],
    });
  }
  return out;
}

export function writeChain(file: string, chain: LatencyChain): void {
  fs.writeFileSync(file, JSON.stringify(chain));
}

export function readChain(file: string): LatencyChain {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as LatencyChain;
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable between processes of one machine. */
export const wallMs = () => performance.timeOrigin + performance.now();

/**
 * The chain as a follower sees it: block i is published at `startMs + i × intervalMs` (wall clock),
 * and the first time a follower reads a published block (blockAt) is handed to `onFirstRead`.
 */
export function scheduledSource(chain: LatencyChain, startMs: number, intervalMs: number, onFirstRead: (height: number, at: number) => void): ChainSource {
  const byHash = new Map(chain.blocks.map((b, i) => [b.hash, chain.txs[i]!]));
  const read = new Set<number>();
  const published = () => Math.min(chain.blocks.length - 1, Math.floor((wallMs() - startMs) / intervalMs));
  return {
    tipHeight: async () => FIRST_HEIGHT + Math.max(0, published()),
    async blockAt(height) {
      const i = height - FIRST_HEIGHT;
      if (i < 0 || i > Math.max(0, published())) return null;
      if (!read.has(height)) {
        read.add(height);
        onFirstRead(height, wallMs());
      }
      return chain.blocks[i]!;
    },
    blockTxDetails: async (hash) => byHash.get(hash) ?? [],
    epoch: async () => null,
    epochStart: async () => null,
  };
}
