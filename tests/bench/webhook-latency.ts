// npm run bench:webhook-latency — webhooks end to end: from a block reaching the chain follower to the
// receiver's 200 for each of its events, with the worker role's own webhook set-up (startWebhookWorker:
// follower, outbox, dispatcher, notices; configured from the environment as `--role worker` is) in
// separate processes: two on PostgreSQL with 10,000 webhooks, one on SQLite with 3,334.
//
// The chain: blocks of 300 transactions (the sandbox chain's transactions, deterministic), published
// one every BENCH_LATENCY_BLOCK_MS (1,000) on the wall clock; each worker's follower reads them
// through its ChainSource, polling at CHAIN_POLL_MS (the production default unless set). The webhooks
// watch a recipient, a sender or a policy each, with a quantity floor and a JSONPath fee condition; one
// anchor in 20 is a value of the chain, so a block matches a few per cent of the webhooks (the counts
// are printed). Every webhook posts to one loopback receiver that answers 200 at once.
//
// What is measured, per event of the measured blocks:
//   latency = the wall-clock time at which the receiver answered 200 to the event's first request
//           − the wall-clock time at which a follower first read the event's block from its chain
//             source (blockAt answered it; with two workers, the earlier of the two reads).
// So it covers matching, the outbox write, the dispatcher's claim, signing and the POST, and not how
// long a block waits in the source for the follower's next poll (printed apart: publication → 200).
// Both times come from performance.timeOrigin + performance.now() in processes of one machine.
// BENCH_LATENCY_WARMUP_BLOCKS (5) blocks are delivered but not measured, then BENCH_LATENCY_BLOCKS (30)
// are. Targets: p50 ≤ 100 ms and p99 ≤ 500 ms on each engine, every matched event received once.
// Environment: DATABASE_URL (else postgres://postgres@127.0.0.1:5432/test when reachable).
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb, migrateLatest, type Db } from '../../server/db/index';
import { compileWebhooks, matchBlock } from '../../shared/webhook-matcher';
import { SERVER_NODE_FLAGS } from '../../server/node-flags';
import { buildChain, FIRST_HEIGHT, TXS_PER_BLOCK, wallMs, webhooksFor, writeChain, type LatencyChain } from './lib/latency-chain';
import { machine, ms, percentile, row } from './lib/report';
import { postgresEngine } from './lib/scratch-db';

const BLOCK_MS = Number(process.env.BENCH_LATENCY_BLOCK_MS ?? 1000);
const WARMUP_BLOCKS = Number(process.env.BENCH_LATENCY_WARMUP_BLOCKS ?? 5);
const MEASURED_BLOCKS = Number(process.env.BENCH_LATENCY_BLOCKS ?? 30);
/** Which engines to run: 'sqlite', 'postgres' or both (the default), comma-separated. */
const ENGINES = (process.env.BENCH_LATENCY_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim().toLowerCase());
/** Extra node flags for the worker processes, space-separated (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof). */
const WORKER_FLAGS = (process.env.BENCH_LATENCY_WORKER_FLAGS ?? '').split(' ').filter(Boolean);
const P50_TARGET = 100;
const P99_TARGET = 500;

const nextMessage = <T>(child: ChildProcess, accept: (m: unknown) => boolean = () => true) =>
  new Promise<T>((resolve) => {
    const on = (m: unknown) => {
      if (!accept(m)) return;
      child.off('message', on);
      resolve(m as T);
    };
    child.on('message', on);
  });

function forkTs(file: string, env: Record<string, string | undefined>, serverFlags: boolean) {
  return fork(path.join(import.meta.dirname, file), [], { execArgv: ['--import', 'tsx', ...(serverFlags ? [...SERVER_NODE_FLAGS, ...WORKER_FLAGS] : [])], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: env as NodeJS.ProcessEnv });
}

interface Case {
  engine: 'SQLite' | 'PostgreSQL';
  workers: number;
  webhooks: number;
  db: Db;
  /** The worker processes' database settings. */
  env: { DATABASE_URL?: string; DATA_DIR?: string };
}

async function seed(db: Db, chain: LatencyChain, count: number, url: string) {
  await migrateLatest(db);
  const now = Date.now();
  const [user] = await db('users').insert({ email: `bench-${crypto.randomUUID()}@example.com`, created_at: now, updated_at: now }).returning('id');
  const userId = typeof user === 'object' ? (user as { id: number }).id : (user as number);
  const [ws] = await db('workspaces').insert({ name: 'bench', owner_id: userId, created_at: now, updated_at: now }).returning('id');
  const workspaceId = typeof ws === 'object' ? (ws as { id: number }).id : (ws as number);
  const hooks = webhooksFor(chain, count);
  for (let i = 0; i < hooks.length; i += 500) {
    await db('webhooks').insert(
      hooks.slice(i, i + 500).map((w, k) => ({ id: w.id, workspace_id: workspaceId, name: `bench ${i + k}`, network: 0, type: w.type, target_url: url, confirmations: 0, status: 'enabled', conditions: JSON.stringify(w.conditions), auth_token: crypto.randomBytes(32).toString('hex'), created_at: now, updated_at: now })),
    );
  }
  // What the followers must deliver: the same matcher over the same blocks (block 0 is the tip they start at).
  const set = compileWebhooks(hooks);
  return chain.blocks.map((block, i) => (i === 0 ? 0 : matchBlock(set, { block, txs: chain.txs[i]!, epochSwitch: null }).length));
}

async function runCase(c: Case, chain: LatencyChain, chainFile: string, receiver: ChildProcess, url: string) {
  const expected = await seed(c.db, chain, c.webhooks, url);
  const measuredFrom = FIRST_HEIGHT + 1 + WARMUP_BLOCKS;
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'development', WEBHOOK_ALLOWLIST: '127.0.0.1/32', BENCH_CHAIN_FILE: chainFile, BENCH_BLOCK_MS: String(BLOCK_MS), ...(process.env.CHAIN_POLL_MS ? { CHAIN_POLL_MS: process.env.CHAIN_POLL_MS } : {}), ...c.env };
  const workers = Array.from({ length: c.workers }, () => forkTs('lib/webhook-latency-worker.ts', env, true));
  const firstRead = new Map<number, number>();
  for (const w of workers) {
    w.on('message', (m: { read?: [number, number] }) => {
      if (!m.read) return;
      const [height, at] = m.read;
      firstRead.set(height, Math.min(at, firstRead.get(height) ?? Infinity));
    });
  }
  await Promise.all(workers.map((w) => nextMessage(w, (m) => m === 'ready')));
  receiver.send('count');
  await nextMessage(receiver);
  // Block 0 is the tip when the workers start; block i is published at start + i × BLOCK_MS.
  const start = wallMs() + 500;
  for (const w of workers) w.send({ go: start });
  const lastPublished = start + (chain.blocks.length - 1) * BLOCK_MS;
  const deadline = lastPublished + 60_000;
  let seen = 0;
  while (wallMs() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    receiver.send('peek');
    seen = (await nextMessage<{ distinct: number }>(receiver, (m) => typeof m === 'object' && m !== null && 'distinct' in m)).distinct;
    // The followers start at the tip they first see (its events are not theirs), then match every block after it.
    const startedAt = Math.min(...firstRead.keys()) - FIRST_HEIGHT;
    const due = expected.slice(startedAt + 1).reduce((a, b) => a + b, 0);
    if (wallMs() > lastPublished && seen >= due) break;
  }
  await Promise.all(workers.map((w) => new Promise((resolve) => { w.once('exit', resolve); w.send('stop'); })));
  receiver.send('times');
  const { times } = await nextMessage<{ times: Array<[string, number]> }>(receiver, (m) => typeof m === 'object' && m !== null && 'times' in m);
  receiver.send('count');
  const counted = await nextMessage<{ total: number; distinct: number }>(receiver, (m) => typeof m === 'object' && m !== null && 'total' in m);
  const arrived = new Map(times);

  const events = (await c.db('webhook_events').select('id', 'block_height')) as Array<{ id: string; block_height: number | string }>;
  const fromRead: number[] = [];
  const fromPublished: number[] = [];
  let measuredEvents = 0;
  let missing = 0;
  for (const e of events) {
    const height = Number(e.block_height);
    if (height < measuredFrom) continue;
    measuredEvents++;
    const at = arrived.get(e.id);
    const read = firstRead.get(height);
    if (at === undefined || read === undefined) {
      missing++;
      continue;
    }
    fromRead.push(at - read);
    fromPublished.push(at - (start + (height - FIRST_HEIGHT) * BLOCK_MS));
  }
  const expectedMeasured = expected.slice(measuredFrom - FIRST_HEIGHT).reduce((a, b) => a + b, 0);
  fromRead.sort((a, b) => a - b);
  fromPublished.sort((a, b) => a - b);
  const p = (xs: number[], q: number) => percentile(xs, q);
  const label = `${c.engine}, ${c.workers} worker${c.workers > 1 ? 's' : ''}, ${c.webhooks.toLocaleString('en')} webhooks`;
  console.log(`${label}: ${MEASURED_BLOCKS} blocks of ${TXS_PER_BLOCK} txs, one every ${BLOCK_MS} ms (after ${WARMUP_BLOCKS} warm-up blocks)`);
  console.log(`  events per measured block: ${Math.min(...expected.slice(measuredFrom - FIRST_HEIGHT))}–${Math.max(...expected.slice(measuredFrom - FIRST_HEIGHT))}, ${expectedMeasured} in all; in the outbox ${measuredEvents}, received ${fromRead.length}, missing ${missing}; the receiver saw ${counted.total} requests for ${counted.distinct} events (warm-up included)`);
  console.log(`  block read by the follower → receiver's 200: p50 ${ms(p(fromRead, 50), 1)}, p95 ${ms(p(fromRead, 95), 1)}, p99 ${ms(p(fromRead, 99), 1)}, max ${ms(fromRead.at(-1) ?? NaN, 1)}`);
  console.log(`  block published in the source → receiver's 200 (adds the wait for the follower's poll): p50 ${ms(p(fromPublished, 50), 1)}, p95 ${ms(p(fromPublished, 95), 1)}, p99 ${ms(p(fromPublished, 99), 1)}`);
  const complete = missing === 0 && measuredEvents === expectedMeasured && fromRead.length === expectedMeasured;
  row({ bench: 'webhook-latency', measure: `${label}: block at the follower → receiver's 200, p50 (${fromRead.length} events)`, figure: ms(p(fromRead, 50), 1), baseline: '', ratio: '', target: `≤ ${P50_TARGET} ms`, pass: complete && p(fromRead, 50) <= P50_TARGET });
  row({ bench: 'webhook-latency', measure: `${label}: block at the follower → receiver's 200, p99 (p95 ${ms(p(fromRead, 95), 1)})`, figure: ms(p(fromRead, 99), 1), baseline: '', ratio: '', target: `≤ ${P99_TARGET} ms`, pass: complete && p(fromRead, 99) <= P99_TARGET });
  row({ bench: 'webhook-latency', measure: `${label}: every matched event received once`, figure: `${fromRead.length} of ${expectedMeasured} measured, ${counted.total - counted.distinct} repeats`, baseline: '', ratio: '', target: `${expectedMeasured} once each`, pass: complete && counted.total === counted.distinct });
}

console.log(`bench:webhook-latency on ${machine()}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-webhook-latency-'));
const chain = buildChain(1 + WARMUP_BLOCKS + MEASURED_BLOCKS);
const chainFile = path.join(dir, 'chain.json');
writeChain(chainFile, chain);
const receiver = forkTs('webhook-receiver.ts', { ...process.env, RECEIVER_TIMES: '1' }, false);
const { port } = await nextMessage<{ port: number }>(receiver);
const url = `http://127.0.0.1:${port}/hook`;
try {
  if (ENGINES.includes('sqlite')) {
    const sqliteDir = path.join(dir, 'sqlite');
    const sqlite = createDb({ sqliteFile: path.join(sqliteDir, 'cairn.sqlite') });
    try {
      await runCase({ engine: 'SQLite', workers: 1, webhooks: 3_334, db: sqlite, env: { DATA_DIR: sqliteDir } }, chain, chainFile, receiver, url);
    } finally {
      await sqlite.destroy();
    }
  }

  const scratch = ENGINES.includes('postgres') ? await postgresEngine('latency') : null;
  if (scratch) {
    const pg = createDb({ databaseUrl: scratch.databaseUrl! });
    try {
      await runCase({ engine: 'PostgreSQL', workers: 2, webhooks: 10_000, db: pg, env: { DATABASE_URL: scratch.databaseUrl! } }, chain, chainFile, receiver, url);
    } finally {
      await pg.destroy();
      await scratch.drop();
    }
  }
} finally {
  receiver.kill();
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
