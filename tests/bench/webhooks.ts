// npm run bench:webhooks — matching 10,000 webhooks of 5 conditions against a block of 300
// transactions, and delivery from the outbox to a local receiver. Each figure is printed next to a
// baseline measured in the same run, with the ratio. Targets: matching ≤ 50 ms median and
// ≤ 100 ms worst; delivery ≥ 1,000 events/s from SQLite with one worker process and ≥ 2,000 events/s
// from PostgreSQL with two, each ≥ half the plain-POST baseline, every event received exactly once.
// Environment: BENCH_WEBHOOK_EVENTS (10,000), BENCH_WEBHOOK_WARMUP (2,000 delivered before the clock starts), DATABASE_URL (else postgres://postgres@127.0.0.1:5432/test when reachable).
import { fork } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createSandboxChain } from '../../server/sandbox/chain/index';
import { compileWebhooks, matchBlock, type BlockInput, type MatchableWebhook } from '../../shared/webhook-matcher';
import { enqueue } from '../../server/features/webhooks/outbox';
import { createDb, migrateLatest, type Db } from '../../server/db/index';
import { machine, ratio, row } from './lib/report';
import { postgresEngine } from './lib/scratch-db';
import { writeGrowthChart } from './lib/chart';
import { SERVER_NODE_FLAGS } from '../../server/node-flags';
import type { Condition } from '../../shared/webhooks';

const WEBHOOKS = 10_000;
const TXS = 300;
const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
/** Delivered before the clock starts, so the workers are measured warm (BENCH_WEBHOOK_WARMUP). */
const WARMUP_EVENTS = Number(process.env.BENCH_WEBHOOK_WARMUP ?? 2_000);
/** Plain-POST baseline's parallel requests: as many connections as the dispatcher keeps to one endpoint. */
const CONCURRENCY = 64;

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
function webhooksFor(input: BlockInput, rng: () => number, count = WEBHOOKS): MatchableWebhook[] {
  const addresses = [...new Set(input.txs.flatMap((t) => t.outputs.map((o) => o.address)))];
  const senders = [...new Set(input.txs.flatMap((t) => t.inputs.map((i) => i.address)))];
  const units = [...new Set(input.txs.flatMap((t) => t.outputs.flatMap((o) => o.amount.map((a) => a.unit)).filter((u) => u !== 'lovelace')))];
  const pick = <T>(xs: T[]) => xs[Math.floor(rng() * xs.length)]!;
  const out: MatchableWebhook[] = [];
  for (let i = 0; i < count; i++) {
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
  // As in production: the chain follower compiles its webhooks when it loads them (and again only
  // those that change), then matches block after block against the compiled set. Every one of the
  // 7 rounds counts, the first (cold code, empty address memo) included.
  const compileStart = performance.now();
  const set = compileWebhooks(webhooks);
  const compileMs = performance.now() - compileStart;
  let matched = 0;
  const times = timeIt(() => {
    matched = matchBlock(set, input).length;
  }, 7);
  const median = times[3]!;
  const base = baseline[3]!;
  console.log(`matching: ${WEBHOOKS} webhooks × 5 conditions vs a block of ${TXS} transactions (${matched} webhooks matched)`);
  console.log(`  baseline (touch every tx per webhook): median ${base.toFixed(1)} ms`);
  console.log(`  compiling the ${WEBHOOKS} webhooks (once, when the follower loads them; not per block): ${compileMs.toFixed(1)} ms`);
  console.log(`  matchBlock:                            median ${median.toFixed(1)} ms, worst ${times.at(-1)!.toFixed(1)} ms  (ratio ${(median / base).toFixed(2)}× baseline)`);
  const worst = times.at(-1)!;
  row({ bench: 'webhooks', measure: `matching ${WEBHOOKS} webhooks × 5 conditions vs ${TXS} txs, median of 7`, figure: `${median.toFixed(1)} ms`, baseline: `${base.toFixed(1)} ms touch every tx`, ratio: ratio(median, base), target: '≤ 50 ms', pass: median <= 50 });
  row({ bench: 'webhooks', measure: 'matching, worst of 7', figure: `${worst.toFixed(1)} ms`, baseline: `${baseline.at(-1)!.toFixed(1)} ms`, ratio: ratio(worst, baseline.at(-1)!), target: '≤ 100 ms', pass: worst <= 100 });
  benchMatchingGrowth(input);
  return sink;
}

/** Matching at a tenth, once and ten times the webhooks: the median per block and per webhook, drawn as a growth chart. */
function benchMatchingGrowth(input: BlockInput) {
  const counts = [WEBHOOKS / 10, WEBHOOKS, WEBHOOKS * 10];
  const medians: number[] = [];
  for (const count of counts) {
    let seed = 7;
    const rng = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const set = compileWebhooks(webhooksFor(input, rng, count));
    medians.push(timeIt(() => void matchBlock(set, input), 7)[3]!);
  }
  const perWebhookUs = medians.map((m, i) => (m * 1000) / counts[i]!);
  console.log(`  growth: ${counts.map((c, i) => `${c.toLocaleString('en')} webhooks ${medians[i]!.toFixed(1)} ms (${perWebhookUs[i]!.toFixed(2)} µs each)`).join(', ')}`);
  writeGrowthChart({
    name: 'webhooks-matching-growth',
    title: `Matching a block of ${TXS} transactions: cost per webhook`,
    xs: counts,
    xLabel: (x) => `${x.toLocaleString('en')} webhooks`,
    xTitle: 'webhooks on the network (1×, 10×, 100×)',
    yUnit: 'µs per webhook (median of 7)',
    series: [{ name: 'matchBlock, µs per webhook', values: perWebhookUs }],
  });
  const flat = perWebhookUs[2]! <= 2 * perWebhookUs[0]!;
  row({ bench: 'webhooks', measure: `matching cost per webhook at ${counts[2]!.toLocaleString('en')} webhooks (growth)`, figure: `${perWebhookUs[2]!.toFixed(2)} µs`, baseline: `${perWebhookUs[0]!.toFixed(2)} µs at ${counts[0]!.toLocaleString('en')}`, ratio: ratio(perWebhookUs[2]!, perWebhookUs[0]!), target: '≤ 2.00× (flat)', pass: flat });
}

// ---- 2. delivery ----


/** Workers run with the server's own V8 flags (server/node-flags.ts), as `npm start` runs them. */
function forkTs(file: string, env: Record<string, string> = {}) {
  const worker = file.includes('worker');
  const flags = worker ? [...SERVER_NODE_FLAGS, ...(process.env.BENCH_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF_DIR}`] : [])] : [];
  return fork(path.join(import.meta.dirname, file), [], { execArgv: ['--import', 'tsx', ...flags], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...env } });
}
const nextMessage = <T>(child: ReturnType<typeof fork>) => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));

/** Plain keep-alive POSTs of the same bodies straight at the receiver, CONCURRENCY at a time, no database: the floor. */
async function plainPosts(url: string, bodies: string[]): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const post = (body: string) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(body);
    });
  const t = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < bodies.length) await post(bodies[next++]!);
  }));
  const rate = bodies.length / ((performance.now() - t) / 1000);
  agent.destroy();
  return rate;
}

interface DeliveryCase {
  engine: 'SQLite' | 'PostgreSQL';
  workers: number;
  target: number;
  db: Db;
  /** What the worker processes connect to. */
  location: string;
}

async function deliveryCase(c: DeliveryCase, receiver: ReturnType<typeof fork>, url: string) {
  const { db } = c;
  await migrateLatest(db);
  const now = Date.now();
  const [user] = await db('users').insert({ email: `bench-${crypto.randomUUID()}@example.com`, created_at: now, updated_at: now }).returning('id');
  const userId = typeof user === 'object' ? (user as { id: number }).id : (user as number);
  const [ws] = await db('workspaces').insert({ name: 'bench', owner_id: userId, created_at: now, updated_at: now }).returning('id');
  const workspaceId = typeof ws === 'object' ? (ws as { id: number }).id : (ws as number);
  const webhookId = crypto.randomUUID();
  await db('webhooks').insert({ id: webhookId, workspace_id: workspaceId, name: 'bench', network: 0, type: 'block', target_url: url, confirmations: 0, status: 'enabled', conditions: '[]', auth_token: 'b'.repeat(64), created_at: now, updated_at: now });
  const payload = { hello: 'x'.repeat(1500) };
  const enqueueEvents = (trx: Db, n: number) => enqueue(trx, Array.from({ length: n }, () => ({ webhookId, type: 'block' as const, network: 0, blockHeight: 1, blockHash: 'a'.repeat(64), payload })), Date.now());
  const deliveredCount = async () => Number((await db('webhook_events').where({ status: 'delivered' }).count({ n: '*' }))[0]!.n);

  // Warm-up events: the baseline's client posts their bodies, and the workers deliver them before the
  // clock starts, so both sides are measured warm, as a long-running worker is (a fresh worker spends
  // several times as much per event on its first thousand or two while its code is compiled).
  await db.transaction(async (trx) => {
    for (let i = 0; i < WARMUP_EVENTS; i += 1000) await enqueueEvents(trx, Math.min(1000, WARMUP_EVENTS - i));
  });
  if (c.engine === 'PostgreSQL') await db.raw('ANALYZE webhook_events');
  const warmBodies = await db('webhook_events').limit(WARMUP_EVENTS).pluck('body');
  // Baseline of this case, measured just before it, on the same receiver, with as many bodies of the same size.
  const baselineRate = await plainPosts(url, Array.from({ length: EVENTS }, (_, i) => warmBodies[i % warmBodies.length]!));

  const workers = Array.from({ length: c.workers }, () => forkTs('lib/webhook-worker.ts', { BENCH_DB: c.location }));
  await Promise.all(workers.map((w) => nextMessage(w)));
  for (const w of workers) w.send('go');
  const warmDeadline = Date.now() + 60_000;
  while ((await deliveredCount()) < WARMUP_EVENTS && Date.now() < warmDeadline) await new Promise((resolve) => setTimeout(resolve, 20));
  // Forget what the receiver counted so far (baseline and warm-up); the running workers now wait for events.
  receiver.send('count');
  await nextMessage(receiver);

  // The measured events arrive at once, as a block's do: the clock starts before their transaction commits.
  let t = 0;
  await db.transaction(async (trx) => {
    for (let i = 0; i < EVENTS; i += 1000) await enqueueEvents(trx, Math.min(1000, EVENTS - i));
    t = performance.now();
  });
  // Watch the receiver (cheap) until every event arrived, then the outbox until every attempt is recorded.
  const deadline = Date.now() + 120_000;
  for (let seen = 0; seen < EVENTS && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    receiver.send('peek');
    seen = (await nextMessage<{ distinct: number }>(receiver)).distinct;
  }
  let delivered = 0;
  while (Date.now() < deadline) {
    delivered = (await deliveredCount()) - WARMUP_EVENTS;
    if (delivered >= EVENTS) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const seconds = (performance.now() - t) / 1000;
  await Promise.all(workers.map((w) => new Promise((resolve) => { w.once('exit', resolve); w.send('stop'); })));
  receiver.send('count');
  const seen = await nextMessage<{ total: number; distinct: number }>(receiver);
  const rate = delivered / seconds;
  console.log(`delivery, ${c.engine} outbox, ${c.workers} worker process(es): ${EVENTS} signed events of ~1.6 KB to a local receiver`);
  console.log(`  baseline (plain keep-alive POSTs of the same bodies, ${CONCURRENCY} at a time, no database): ${baselineRate.toFixed(0)} req/s`);
  console.log(`  dispatcher (claim, sign, POST, record): ${rate.toFixed(0)} events/s, ${delivered} delivered in ${seconds.toFixed(2)} s; the receiver saw ${seen.total} requests for ${seen.distinct} events`);
  const label = `${c.engine} delivery, ${c.workers} worker${c.workers > 1 ? 's' : ''}`;
  row({
    bench: 'webhooks',
    measure: `${label} (events/s)`,
    figure: `${rate.toFixed(0)} events/s`,
    baseline: `${baselineRate.toFixed(0)} req/s plain POST`,
    ratio: ratio(rate, baselineRate),
    target: `≥ ${c.target} /s and ≥ 0.50×`,
    pass: rate >= c.target && rate >= 0.5 * baselineRate,
  });
  row({
    bench: 'webhooks',
    measure: `${label}: every event exactly once`,
    figure: `${seen.distinct} of ${EVENTS} events, ${seen.total - seen.distinct} repeats`,
    baseline: '',
    ratio: '',
    target: `${EVENTS} once each`,
    pass: delivered === EVENTS && seen.distinct === EVENTS && seen.total === EVENTS,
  });
}

async function benchDelivery() {
  const receiver = forkTs('webhook-receiver.ts');
  const { port } = await nextMessage<{ port: number }>(receiver);
  const url = `http://127.0.0.1:${port}/hook`;
  try {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-webhooks-'));
    const file = path.join(dir, 'cairn.sqlite');
    const sqlite = createDb({ sqliteFile: file });
    try {
      await deliveryCase({ engine: 'SQLite', workers: 1, target: 1000, db: sqlite, location: file }, receiver, url);
    } finally {
      await sqlite.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }

    const scratch = await postgresEngine('webhooks');
    if (!scratch) return;
    const pg = createDb({ databaseUrl: scratch.databaseUrl! });
    try {
      await deliveryCase({ engine: 'PostgreSQL', workers: 2, target: 2000, db: pg, location: scratch.databaseUrl! }, receiver, url);
    } finally {
      await pg.destroy();
      await scratch.drop();
    }
  } finally {
    receiver.kill();
  }
}

console.log(`bench:webhooks on ${machine()}`);
benchMatching();
await benchDelivery();
