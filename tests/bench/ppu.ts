// npm run bench:ppu — the pay-as-you-go payment watcher's cost per block: one watcher pass (watchTick)
// per new block of 300 transactions, as the worker runs it (with its in-memory index of the watched
// orders, loaded on the first pass, outside the figure), with 10,000 open orders, against the same
// blocks with 40 open orders (the baseline: the watcher's work per block that does not grow with the
// orders). Two figures per engine: blocks that pay none of the orders (the common case: the block's
// transactions read and looked up, the cursor moved), and the same blocks each paying one order and
// crediting another (two database transactions more). Target: under 20 ms per block. On
// SQLite, and on PostgreSQL when one answers (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test).
// Environment: BENCH_PPU_ORDERS (10,000), BENCH_PPU_BLOCKS (40).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSandboxChain, type Block, type TxDetails } from '../../server/sandbox/chain/index';
import { createDb, migrateLatest, type Db } from '../../server/db/index';
import type { ChainSource } from '../../server/features/webhooks/chain-source';
import { watchTick } from '../../server/features/ppu/watcher';
import { WatchedOrderIndex } from '../../server/features/ppu/order-index';
import { accountXpubOfMnemonic, addressDeriver, DEV_PAYMENT_MNEMONIC, parseAccountXpub } from '../../server/features/ppu/addresses';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { machine, percentile, ratio, row } from './lib/report';
import { postgresEngine } from './lib/scratch-db';

const ORDERS = Number(process.env.BENCH_PPU_ORDERS ?? 10_000);
const BLOCKS = Number(process.env.BENCH_PPU_BLOCKS ?? 40);
const TXS = 300;
const NETWORK = 'cardano-mainnet';
const CONFIRMATIONS = 3;

/** BLOCKS blocks of 300 transactions each, cut from the sandbox chain's simulated traffic (real shapes: addresses, assets, several outputs). */
function blocksOf300(): TxDetails[][] {
  const chain = createSandboxChain({ network: 'mainnet', now: () => Date.UTC(2026, 10, 1) });
  const all: TxDetails[] = [];
  for (let h = chain.tipHeight(); all.length < TXS * BLOCKS && h > 0; h--) all.push(...(chain.blockTxDetails(h) ?? []));
  if (all.length < TXS * BLOCKS) throw new Error(`the sandbox chain holds only ${all.length} transactions`);
  return Array.from({ length: BLOCKS }, (_, b) => all.slice(b * TXS, (b + 1) * TXS));
}

/** Copies of the blocks in which one transaction per block pays an order (its first output goes to the order's address). */
function withPayments(blocks: TxDetails[][], pay: Array<{ address: string; lovelace: string }>): TxDetails[][] {
  return blocks.map((txs, b) => {
    const p = pay[b % pay.length]!;
    const copy = txs.slice();
    const t = copy[b % TXS]!;
    copy[b % TXS] = { ...t, tx: { ...t.tx, hash: crypto.createHash('sha256').update(`bench-payment-${b}`).digest('hex') }, outputs: t.outputs.map((o, i) => (i === 0 ? { ...o, address: p.address, amount: [{ unit: 'lovelace', quantity: p.lovelace }] } : o)) };
    return copy;
  });
}

/** A chain the bench extends block by block, behind the watcher's ChainSource interface. */
function benchChain(blocks: TxDetails[][]) {
  let tip = 0;
  const hashOf = (h: number) => crypto.createHash('sha256').update(`bench-block-${h}`).digest('hex');
  const byHash = new Map<string, number>();
  for (let h = 0; h <= blocks.length; h++) byHash.set(hashOf(h), h);
  const source: ChainSource = {
    tipHeight: async () => tip,
    blockAt: async (h) => (h < 0 || h > tip ? null : ({ height: h, hash: hashOf(h), tx_count: h === 0 ? 0 : TXS } as Block)),
    blockTxDetails: async (hash) => {
      const h = byHash.get(hash);
      return h === undefined || h === 0 ? [] : blocks[h - 1]!;
    },
    epoch: async () => null,
    epochStart: async () => null,
  };
  return { source, next: () => void tip++ };
}

/** `count` open orders of one workspace, each on its own derived address (as createOrder makes them). */
async function openOrders(db: Db, count: number, derive: (i: number) => string): Promise<Array<{ address: string; lovelace: string }>> {
  const owner = await makeUser(db, `bench-ppu-${crypto.randomBytes(3).toString('hex')}@example.com`);
  const ws = await makeWorkspace(db, owner.id, []);
  const now = Date.now();
  const rows = Array.from({ length: count }, (_, i) => ({
    workspace_id: ws,
    user_id: owner.id,
    network: NETWORK,
    address: derive(i),
    requests: 1_000_000,
    price_per_unit_eur: 0.0000024,
    ada_eur_rate: 0.535,
    total_eur: 2.4,
    lovelace: 4_483_900,
    status: 'awaiting_payment',
    created_at: now,
    expires_at: now + 3_600_000,
  }));
  for (let i = 0; i < rows.length; i += 500) await db('ppu_orders').insert(rows.slice(i, i + 500));
  return rows.map((r) => ({ address: r.address, lovelace: String(r.lovelace) }));
}

/** One watcher pass per new block; answers the milliseconds of each pass and what the passes credited. */
async function run(db: Db, blocks: TxDetails[][]): Promise<{ times: number[]; credited: number; payments: number }> {
  await db('ppu_watch_cursors').where({ network: NETWORK }).delete();
  const chain = benchChain(blocks);
  // As the worker runs it: one index of the watched orders, loaded on the first pass.
  const opts = { network: NETWORK, confirmations: CONFIRMATIONS, index: new WatchedOrderIndex(db, NETWORK) };
  await watchTick(db, chain.source, opts); // the cursor starts at block 0
  const times: number[] = [];
  let credited = 0;
  let payments = 0;
  for (let b = 0; b < blocks.length; b++) {
    chain.next();
    const t = performance.now();
    const r = await watchTick(db, chain.source, opts);
    times.push(performance.now() - t);
    if (r.blocks !== 1) throw new Error(`a pass read ${r.blocks} blocks, not 1`);
    credited += r.credited;
    payments += r.payments;
  }
  return { times: times.sort((a, b) => a - b), credited, payments };
}

async function benchEngine(engine: string, db: Db, blocks: TxDetails[][], derive: (i: number) => string) {
  await migrateLatest(db);
  const reset = async () => {
    await db('ppu_orders').delete();
    await db('ppu_balances').delete();
  };
  // Baselines: the same blocks, with only as many orders open as there are blocks: the watcher's
  // work per block that does not depend on how many orders are open.
  const few = await openOrders(db, BLOCKS, (i) => derive(ORDERS + i));
  const baseScan = await run(db, blocks);
  const basePay = await run(db, withPayments(blocks, few));
  await reset();
  const many = await openOrders(db, ORDERS, derive);
  // 1. Blocks that pay none of the 10,000 orders (the common case): the block's 300 transactions
  //    read and looked up, the cursor moved.
  const scan = await run(db, blocks);
  // 2. The same blocks, each paying one order and (after the confirmations) crediting another: two
  //    database transactions more per block.
  const pay = await run(db, withPayments(blocks, many));
  const open = Number((await db('ppu_orders').whereIn('status', ['awaiting_payment', 'confirming']).count({ n: '*' }).first())?.n ?? 0);
  if (scan.payments !== 0 || pay.payments !== BLOCKS || pay.credited !== BLOCKS - CONFIRMATIONS + 1) {
    throw new Error(`the watcher saw ${scan.payments} and ${pay.payments} payments and credited ${pay.credited} orders; expected 0, ${BLOCKS} and ${BLOCKS - CONFIRMATIONS + 1}`);
  }
  for (const [what, fig, base] of [
    ['paying no order', scan, baseScan],
    ['each paying one order and crediting one', pay, basePay],
  ] as const) {
    const median = percentile(fig.times, 50);
    const p95 = percentile(fig.times, 95);
    const baseMedian = percentile(base.times, 50);
    console.log(`${engine}: ${BLOCKS} blocks of ${TXS} txs ${what}, ${ORDERS} open orders: median ${median.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, worst ${fig.times.at(-1)!.toFixed(2)} ms per block; with ${BLOCKS} open orders: median ${baseMedian.toFixed(2)} ms`);
    row({
      bench: 'ppu',
      measure: `${engine} watcher per block of ${TXS} txs ${what}, ${ORDERS.toLocaleString('en-US')} open orders, median of ${BLOCKS}`,
      figure: `${median.toFixed(2)} ms (p95 ${p95.toFixed(2)})`,
      baseline: `${baseMedian.toFixed(2)} ms ${BLOCKS} open orders`,
      ratio: ratio(median, baseMedian),
      target: '< 20 ms',
      pass: median < 20,
    });
  }
  console.log(`${engine}: ${open} orders still open at the end`);
}

console.log(`bench:ppu on ${machine()}`);
const blocks = blocksOf300();
const derive = addressDeriver(parseAccountXpub(accountXpubOfMnemonic(DEV_PAYMENT_MNEMONIC)), NETWORK);
const t0 = performance.now();
const addresses = Array.from({ length: ORDERS + BLOCKS }, (_, i) => derive(i));
console.log(`derived ${addresses.length} order addresses in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const addressOf = (i: number) => addresses[i]!;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-ppu-'));
const sqlite = createDb({ sqliteFile: path.join(dir, 'cairn.sqlite') });
try {
  await benchEngine('SQLite', sqlite, blocks, addressOf);
} finally {
  await sqlite.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}

const scratch = await postgresEngine('ppu');
if (scratch) {
  const pg = createDb({ databaseUrl: scratch.databaseUrl! });
  try {
    await benchEngine('PostgreSQL', pg, blocks, addressOf);
  } finally {
    await pg.destroy();
    await scratch.drop();
  }
}
