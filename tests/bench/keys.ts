// npm run bench:keys — the gateway with a million project keys in the database.
//
//   start: the gateway process, forked on a database of BENCH_KEYS projects (default 1,000,000), until
//     it listens with every key loaded and answers its first request 200. Target ≤ 15 s.
//   memory: the key cache's heap per key, in a process of its own (the heap it grew by loading every
//     key, after garbage collection, divided by the keys), at 1 %, 10 % and all of the keys (a growth
//     chart, docs/benchmarks/keys-growth.svg). Target ≤ 250 bytes.
//   a new key: a project created (createProject, the service the dashboard's API calls) for a second
//     customer while the gateway runs; its key's first call must answer 200 (the gateway catches up
//     on a well-formed key it does not know yet), and the bench prints how long that call took.
//   throughput: a closed loop over 2,000 of the million keys (drawn evenly by id) against the same
//     gateway bench with 2,000 keys in all, run in alternating rounds (the baseline of the same run).
//     Target ≥ 0.95×.
//
// Environment: BENCH_KEYS (1000000), BENCH_BASE_KEYS (2000), BENCH_CLOSED_ROUNDS (5), BENCH_SLICE_MS
// (2000), BENCH_CONCURRENCY (32).
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createDb } from '../../server/db/index';
import { createProject } from '../../server/features/projects/projects';
import { membershipOf } from '../../server/features/workspaces/index';
import { SERVER_NODE_FLAGS } from '../../server/node-flags';
import { plans } from '../../shared/plans';
import { makeUser } from '../helpers/workspace-fixture';
import { forkServer, type ChildServer } from './lib/child-server';
import type { GatewayServerInfo } from './lib/gateway-server';
import type { KeyCacheHeap } from './lib/key-cache-heap';
import { seedKeys } from './lib/keys-seed';
import { LoadGenerator, type LoadTarget } from './lib/load-protocol';
import { machine, ms, ratio, row, table } from './lib/report';
import { writeGrowthChart } from './lib/chart';

const KEYS = Number(process.env.BENCH_KEYS ?? 1_000_000);
const BASE_KEYS = Number(process.env.BENCH_BASE_KEYS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_CLOSED_ROUNDS ?? 5);
const SLICE_MS = Number(process.env.BENCH_SLICE_MS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const PATH = '/blocks/latest';
const START_TARGET_MS = 15_000;
const BYTES_TARGET = 250;
const THROUGHPUT_TARGET = 0.95;

setTimeout(() => {
  console.error('bench:keys: gave up after 20 minutes');
  process.exit(2);
}, 20 * 60_000).unref();

const get = (url: string, headers: Record<string, string> = {}) =>
  new Promise<number>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });

function heapOf(dataDir: string): Promise<KeyCacheHeap> {
  const child = fork(path.join(import.meta.dirname, 'lib/key-cache-heap.ts'), [], {
    execArgv: [...process.execArgv, '--expose-gc', '--max-old-space-size=4096'],
    env: { ...process.env, BENCH_DATA_DIR: dataDir },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: KeyCacheHeap) => resolve(m));
    child.once('exit', (code) => reject(new Error(`key-cache-heap exited (${code}) without a result`)));
  });
}

async function main() {
  console.log(`bench:keys on ${machine()}`);
  const stops: Array<() => Promise<void>> = [];
  const dirs: string[] = [];
  try {
    let t = performance.now();
    const bigDir = await seedKeys(KEYS);
    dirs.push(bigDir);
    const baseDir = await seedKeys(BASE_KEYS);
    dirs.push(baseDir);
    console.log(`Seeded ${KEYS.toLocaleString('en')} and ${BASE_KEYS.toLocaleString('en')} projects in ${ms(performance.now() - t)}.`);

    // The key cache at a hundredth, a tenth and all of the keys: heap and load time per key.
    const growth: KeyCacheHeap[] = [];
    for (const count of [KEYS / 100, KEYS / 10]) {
      const dir = await seedKeys(count);
      try {
        growth.push(await heapOf(dir));
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
    const heap = await heapOf(bigDir);
    growth.push(heap);
    for (const g of growth) console.log(`Key cache: ${g.keys.toLocaleString('en')} keys loaded in ${ms(g.loadMs)} (${((g.loadMs * 1000) / g.keys).toFixed(2)} µs each), ${g.bytesPerKey.toFixed(0)} bytes of heap per key.`);
    writeGrowthChart({
      name: 'keys-growth',
      title: "The gateway's key cache as keys grow",
      xs: growth.map((g) => g.keys),
      xLabel: (x) => `${x.toLocaleString('en')} keys`,
      xTitle: 'project keys in the database (1×, 10×, 100×)',
      yUnit: 'per key',
      series: [
        { name: 'heap, bytes per key', values: growth.map((g) => g.bytesPerKey) },
        { name: 'load, µs per key', values: growth.map((g) => (g.loadMs * 1000) / g.keys) },
      ],
    });

    const upstream = await forkServer('sandbox-upstream.ts');
    stops.push(upstream.stop);
    const flags = [...process.execArgv, ...SERVER_NODE_FLAGS];
    const gatewayOn = async (dataDir: string): Promise<{ server: ChildServer<GatewayServerInfo>; startMs: number }> => {
      const t0 = performance.now();
      const server = await forkServer<GatewayServerInfo>('gateway-server.ts', { BENCH_UPSTREAM: upstream.url, BENCH_DATA_DIR: dataDir, BENCH_REQUEST_KEYS: String(BASE_KEYS) }, flags);
      stops.push(server.stop);
      const status = await get(`${server.url}/api/v0${PATH}`, { project_id: server.info.keys[0]! });
      if (status !== 200) throw new Error(`the gateway answered ${status} to its first request`);
      return { server, startMs: performance.now() - t0 };
    };
    const big = await gatewayOn(bigDir);
    console.log(`Gateway on ${KEYS.toLocaleString('en')} keys: listening and answering 200 ${ms(big.startMs)} after it was forked.`);

    // A second customer creates a project while the gateway runs: its key works on the first call.
    const db = createDb({ sqliteFile: path.join(bigDir, 'cairn.sqlite') });
    let firstCall: { status: number; ms: number };
    try {
      const user = await makeUser(db, 'new-customer@example.com', 'ENTERPRISE');
      const ws = (await db('workspaces').where({ owner_id: user.id }).first('id')) as { id: number };
      const project = await createProject(db, await membershipOf(db, ws.id, user.id), 'First project', 0);
      t = performance.now();
      const status = await get(`${big.server.url}/api/v0${PATH}`, { project_id: project.project_id });
      firstCall = { status, ms: performance.now() - t };
    } finally {
      await db.destroy();
    }
    console.log(`A key created while the gateway runs: first call ${firstCall.status} in ${ms(firstCall.ms)}.`);

    const base = await gatewayOn(baseDir);
    const plan = plans.ENTERPRISE;
    const cap = Math.min(BASE_KEYS * Math.floor(plan.limitBurst / 2), plan.requestLimit / 2);
    const targets: Array<LoadTarget & { name: string }> = [
      { name: `gateway, ${BASE_KEYS.toLocaleString('en')} keys`, url: `${base.server.url}/api/v0${PATH}`, keys: base.server.info.keys, maxRequests: cap },
      { name: `gateway, ${KEYS.toLocaleString('en')} keys`, url: `${big.server.url}/api/v0${PATH}`, keys: big.server.info.keys, maxRequests: cap },
    ];
    const load = new LoadGenerator();
    stops.push(() => load.close());
    const [b, c] = await load.run({ targets, mode: 'closed', concurrency: CONCURRENCY, warmupMs: 1000, sliceMs: SLICE_MS, rounds: ROUNDS });
    console.log(`\nThroughput: closed loop, ${CONCURRENCY} keep-alive connections, ${BASE_KEYS.toLocaleString('en')} keys in rotation, ${ROUNDS} alternating rounds of ${SLICE_MS / 1000} s`);
    console.log(
      table(
        ['target', 'req/s', 'p50', 'p99', 'answers'],
        [b!, c!].map((r, i) => [targets[i]!.name, String(Math.round(r.rps)), ms(r.latency.p50), ms(r.latency.p99), Object.entries(r.statuses).map(([s, n]) => `${n}×${s}`).join(' ')]),
      ),
    );
    const valid = [b!, c!].every((r) => Object.keys(r.statuses).every((s) => s === '200') && !r.capped);

    console.log();
    row({ bench: 'keys', measure: `gateway start with ${KEYS.toLocaleString('en')} keys (forked to first 200)`, figure: ms(big.startMs), baseline: '', ratio: '', target: `≤ ${START_TARGET_MS / 1000} s`, pass: big.startMs <= START_TARGET_MS });
    row({ bench: 'keys', measure: 'key cache heap per key', figure: `${heap.bytesPerKey.toFixed(0)} B`, baseline: '', ratio: '', target: `≤ ${BYTES_TARGET} B`, pass: heap.bytesPerKey <= BYTES_TARGET });
    row({ bench: 'keys', measure: 'a key created while the gateway runs, first call', figure: `${firstCall.status} in ${ms(firstCall.ms)}`, baseline: '', ratio: '', target: '200', pass: firstCall.status === 200 });
    row({ bench: 'keys', measure: 'valid throughput run (every answer 200, no cap)', figure: valid ? 'yes' : 'no', baseline: '', ratio: '', target: 'yes', pass: valid });
    row({
      bench: 'keys',
      measure: `gateway throughput with ${KEYS.toLocaleString('en')} keys (closed loop)`,
      figure: `${Math.round(c!.rps)} req/s`,
      baseline: `${Math.round(b!.rps)} req/s with ${BASE_KEYS.toLocaleString('en')} keys`,
      ratio: ratio(c!.rps, b!.rps),
      target: `≥ ${THROUGHPUT_TARGET.toFixed(2)}×`,
      pass: c!.rps >= THROUGHPUT_TARGET * b!.rps,
    });
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
