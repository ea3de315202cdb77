// npm run bench:webhooks — matching 10,000 webhooks of 5 conditions against a block of 300
// transactions, and delivery from the outbox to a local receiver. Each figure is printed next to a
// baseline measured in the same run, with the ratio; targets: matching ≤ 100 ms, delivery ≥ 500/s.
import { fork } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createSandboxChain } from '../../server/chain/sandbox/index';
import { matchBlock, type BlockInput, type MatchableWebhook } from '../../server/webhooks/matcher';
import { Dispatcher } from '../../server/webhooks/dispatcher';
import { parseAllowlist } from '../../server/webhooks/ssrf';
import { eventBody } from '../../server/webhooks/follower';
import { createDb, migrateLatest } from '../../server/db/index';
import { createLogger } from '../../server/logger';
import { devMailbox } from '../../server/mail/mailer';
import type { Condition } from '../../shared/webhooks';

const WEBHOOKS = 10_000;
const TXS = 300;
const EVENTS = 5_000;
const results: Array<{ name: string; pass: boolean }> = [];

// ---- 1. matching ----

function blockOf300(): BlockInput {
  const chain = createSandboxChain({ network: 'mainnet', now: () => Date.UTC(2026, 10, 1) });
  const txs: BlockInput['txs'] = [];
  let block = chain.latestBlock();
  for (let h = chain.tipHeight(); txs.length < TXS; h--) {
    const b = chain.blockAt(h)!;
    if (txs.length === 0) block = b;
    txs.push(...(chain.blockTxDetails(b.hash) ?? []));
  }
  txs.length = TXS;
  return { block: { ...block, tx_count: TXS }, txs, epochSwitch: null };
}

/** A realistic mix: every webhook watches something specific (an address, stake key or policy) and adds four more conditions. */
function webhooksFor(input: BlockInput, rng: () => number): MatchableWebhook[] {
  const addresses = [...new Set(input.txs.flatMap((t) => t.outputs.map((o) => o.address)))];
  const senders = [...new Set(input.txs.flatMap((t) => t.inputs.map((i) => i.address)))];
  const units = [...new Set(input.txs.flatMap((t) => t.outputs.flatMap((o) => o.amount.map((a) => a.unit)).filter((u) => u !== 'lovelace')))];
  const pick = <T>(xs: T[]) => xs[Math.floor(rng() * xs.length)]!;
  const out: MatchableWebhook[] = [];
  for (let i = 0; i < WEBHOOKS; i++) {
    const anchor: Condition =
      i % 3 === 0
        ? { type: 'recipient', operator: '=', value: rng() < 0.5 ? pick(addresses) : `addr1q${crypto.randomBytes(20).toString('hex')}` }
        : i % 3 === 1
          ? { type: 'sender', operator: '=', value: pick(senders) }
          : { type: 'policyId', operator: '=', value: pick(units).slice(0, 56) };
    out.push({
      id: `w${i}`,
      type: 'transaction',
      conditions: [
        anchor,
        { type: 'quantity', operator: '>', value: String(Math.floor(rng() * 5_000_000)) },
        { type: 'fingerprint', operator: '!=', value: 'asset1' + crypto.randomBytes(16).toString('hex') },
        { type: 'assetHex', operator: '!=', value: pick(units) },
        { type: 'jsonPath', operator: '>=', value: String(Math.floor(rng() * 300_000)), selector: '$.tx.fees' },
      ],
    });
  }
  return out;
}

function timeIt(fn: () => void, runs: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times.sort((a, b) => a - b);
}

function benchMatching() {
  let seed = 42;
  const rng = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const input = blockOf300();
  const webhooks = webhooksFor(input, rng);
  // Baseline: the least any matcher must do — look at every transaction once per webhook.
  let sink = 0;
  const baseline = timeIt(() => {
    for (let w = 0; w < WEBHOOKS; w++) for (const t of input.txs) sink += t.outputs.length;
  }, 7);
  let matched = 0;
  const times = timeIt(() => {
    matched = matchBlock(webhooks, input).length;
  }, 7);
  const median = times[3]!;
  const base = baseline[3]!;
  console.log(`matching: ${WEBHOOKS} webhooks × 5 conditions vs a block of ${TXS} transactions (${matched} webhooks matched)`);
  console.log(`  baseline (touch every tx per webhook): median ${base.toFixed(1)} ms`);
  console.log(`  matchBlock:                            median ${median.toFixed(1)} ms, worst ${times.at(-1)!.toFixed(1)} ms  (ratio ${(median / base).toFixed(2)}× baseline)`);
  const pass = median <= 100;
  console.log(`  target ≤ 100 ms: ${pass ? 'PASS' : 'FAIL'}`);
  results.push({ name: 'matching ≤ 100 ms', pass });
  return sink;
}

// ---- 2. delivery ----

async function benchDelivery() {
  const receiver = fork(path.join(import.meta.dirname, 'webhook-receiver.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => receiver.once('message', (m: { port: number }) => resolve(m.port)));
  const url = `http://127.0.0.1:${port}/hook`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-webhooks-'));
  const db = createDb({ sqliteFile: path.join(dir, 'cairn.sqlite') });
  try {
    await migrateLatest(db);
    const body = JSON.stringify({ hello: 'x'.repeat(1500) });

    // Baseline: the same number of POSTs straight at the receiver, 32 at a time, no database.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    const post = () =>
      new Promise<void>((resolve, reject) => {
        const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end(body);
      });
    let t = Date.now();
    let next = 0;
    await Promise.all(Array.from({ length: 32 }, async () => {
      while (next++ < EVENTS) await post();
    }));
    const baselineRate = EVENTS / ((Date.now() - t) / 1000);
    agent.destroy();

    const now = Date.now();
    await db('users').insert({ id: 1, email: 'bench@example.com', created_at: now, updated_at: now });
    await db('workspaces').insert({ id: 1, name: 'bench', owner_id: 1, created_at: now, updated_at: now });
    const webhookId = crypto.randomUUID();
    await db('webhooks').insert({ id: webhookId, workspace_id: 1, name: 'bench', network: 0, type: 'block', target_url: url, confirmations: 0, status: 'enabled', conditions: '[]', auth_token: 'b'.repeat(64), created_at: now, updated_at: now });
    const rows = Array.from({ length: EVENTS }, () => {
      const id = crypto.randomUUID();
      return { id, webhook_id: webhookId, type: 'block', network: 0, block_height: 1, block_hash: 'a'.repeat(64), body: eventBody(id, webhookId, Math.floor(now / 1000), 'block', JSON.parse(body)), created: Math.floor(now / 1000), status: 'pending', attempts: 0, next_attempt_at: now, test: false, created_at: now };
    });
    for (let i = 0; i < rows.length; i += 200) await db('webhook_events').insert(rows.slice(i, i + 200));

    const dispatcher = new Dispatcher(db, createLogger('silent'), devMailbox(createLogger('silent')), {
      allowlist: parseAllowlist('127.0.0.1'),
      timeoutMs: 15_000,
      retrySchedule: [0, 5000],
      publicUrl: 'http://localhost:3000',
      concurrency: 64,
    });
    t = Date.now();
    while ((await dispatcher.runOnce()) > 0);
    const seconds = (Date.now() - t) / 1000;
    await dispatcher.stop();
    const delivered = Number((await db('webhook_events').where({ status: 'delivered' }).count({ n: '*' }))[0]!.n);
    const rate = delivered / seconds;
    console.log(`delivery: ${EVENTS} signed events from the SQLite outbox to a local receiver`);
    console.log(`  baseline (plain POSTs, no outbox):  ${baselineRate.toFixed(0)} req/s`);
    console.log(`  dispatcher (claim, sign, POST, record): ${rate.toFixed(0)} events/s, ${delivered} delivered  (ratio ${(rate / baselineRate).toFixed(2)}× baseline)`);
    const pass = delivered === EVENTS && rate >= 500;
    console.log(`  target ≥ 500 events/s, all delivered: ${pass ? 'PASS' : 'FAIL'}`);
    results.push({ name: 'delivery ≥ 500 events/s', pass });
  } finally {
    await db.destroy();
    receiver.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}`);
benchMatching();
await benchDelivery();
const failed = results.filter((r) => !r.pass);
console.log(failed.length === 0 ? 'all webhook targets met' : `missed: ${failed.map((f) => f.name).join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
