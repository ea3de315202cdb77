// npm run bench:sandbox — the sandbox chain as a long-running devnet: a chain of 100,000 simulated
// blocks (BENCH_SANDBOX_BLOCKS) on loopback HTTP, every GET path of the OpenAPI walk
// (tests/unit/server/sandbox/chain/walk/) after its groups have submitted their transactions.
//
//   latency: each walked request 5 times to warm up, then 40 times, the chain making a block before
//     every fourth: its p95. Target ≤ 10 ms for every one; the baseline of the same run is GET /health.
//     Beside it, the p95 of the process's CPU time per request (user + system, the server and the
//     client being this one process): on a machine busy with other work the wall-clock figure counts
//     the time other processes held the cores, the CPU time much less so.
//   first calls: /addresses/{address} of 30 addresses of the world never asked for before: p95 of
//     those first calls. Target ≤ 10 ms.
//   last pages: every list of the OpenAPI document (tests/unit/server/sandbox/chain/walk/lists.ts)
//     read past its end and at its last page holding data, in both orders, with count 100: the
//     slowest page of each list, and the event loop's longest pause over all of them (what every
//     other request waits at most behind a list). Targets ≤ 50 ms for the slowest page of any list,
//     ≤ 100 ms of pause. Beside them, the longest
//     turn of the event loop in the server thread's own CPU time (walk/busy.ts), which the time
//     other processes held the cores does not lengthen, and the server thread's CPU time during a
//     page. The chain has a sweep worker, as a gateway's shared chains do (server/sandbox/chain/
//     sweep.ts; BENCH_SANDBOX_SWEEP=off: none, as a devnet), which sums the totals the lists' pages
//     read and indexes the transactions by hash in another thread from the chain's creation. Before
//     the lists, the chain's prepare({ lists: true }) waits for it (without a worker: sums them in
//     the server's thread); BENCH_SANDBOX_LISTS=cold prepares the chain once as a gateway does
//     before it serves (prepare({ start: true })) and reads the pages at once, those the sweep has
//     not reached making what they read in the server's thread (first reads).
//     BENCH_SANDBOX_ONLY=lists runs this part alone (after the chain is built and the groups prepared).
//   deep votes of a long history: a shared chain at the defaults on the last day of 2026 (some 3
//     million blocks, 100,000 epochs), prepared once as a gateway's chains are before it serves
//     (their committee's votes and proposals counted), then a first request (/blocks/latest: the
//     tip's segment made, once), then the committee's, a pool's (counted by its first deep page)
//     and the proposals, each at its last page and past it in both orders, on the same loopback
//     HTTP. The slowest page of each, and its server-thread CPU. Target ≤ 50 ms a page.
//   memory: the heap after garbage collection, before and after the chain moves 3,000 blocks
//     (BENCH_SANDBOX_STEPS) with a follower's reads at every block (the tip, its transactions in
//     full), after unmeasured ones that fill the bounded caches: as many again, and at least enough
//     to fill the transaction index's places (some 26,000 blocks; BENCH_SANDBOX_WARM): growth per
//     block. Target < 2 KB.
//   The bench runs in a child process with the server's V8 flags (server/node-flags.ts), so the
//   collector's young generation is the one a gateway runs with.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import nodePath from 'node:path';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createSandboxChain, memoryLedgerStore, sandboxRouter, type SandboxChain } from '../../server/sandbox/chain/index';
import { TX_POSITIONS_KEPT } from '../../server/sandbox/chain/hashes';
import { SERVER_NODE_FLAGS } from '../../server/node-flags';
import { GROUPS } from '../unit/server/sandbox/chain/walk/groups';
import type { WalkFixture } from '../unit/server/sandbox/chain/walk/types';
import { catalogPaths, lastPages, listPaths } from '../unit/server/sandbox/chain/walk/lists';
import { busyClock, now, threadCpuMs } from '../unit/server/sandbox/chain/walk/busy';
import { machine, ms, percentile, ratio, row, table } from './lib/report';

const BLOCKS = Number(process.env.BENCH_SANDBOX_BLOCKS ?? 100_000);
const STEPS = Number(process.env.BENCH_SANDBOX_STEPS ?? 3_000);
/** Blocks followed before the heap is measured: the transaction index holds TX_POSITIONS_KEPT positions, some ten a block. */
const WARM = Number(process.env.BENCH_SANDBOX_WARM ?? Math.max(STEPS, Math.ceil(TX_POSITIONS_KEPT / 10)));
/** `lists`: only the last pages of every list. */
const ONLY = process.env.BENCH_SANDBOX_ONLY;
if (ONLY !== undefined && ONLY !== 'lists') throw new Error(`BENCH_SANDBOX_ONLY is 'lists' or unset, not '${ONLY}'`);
/** `cold`: the lists read without their totals summed ahead (what a first read costs then). */
const COLD_LISTS = process.env.BENCH_SANDBOX_LISTS === 'cold';
/** `off`: no sweep worker (a devnet's chain); otherwise one, as a gateway's shared chains have. */
const SWEEP = process.env.BENCH_SANDBOX_SWEEP !== 'off';
const REPEAT = 40;
const TARGET_MS = 10;
const TARGET_BYTES_PER_BLOCK = 2048;
const TARGET_PAUSE_MS = 100;
const TARGET_PAGE_MS = 50;

const gc = (globalThis as { gc?: () => void }).gc;
// The memory measure needs the garbage collector at hand: run again with --expose-gc (and the server's
// flags) if it is not.
if (!gc && !process.env.BENCH_SANDBOX_CHILD) {
  const run = spawnSync(process.execPath, [...process.execArgv, ...SERVER_NODE_FLAGS, '--expose-gc', import.meta.filename], { stdio: 'inherit', env: { ...process.env, BENCH_SANDBOX_CHILD: '1' } });
  process.exit(run.status ?? 1);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function timedGet(base: string, path: string): Promise<{ status: number; ms: number; cpuMs: number }> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  return new Promise((resolve, reject) => {
    http
      .get(base + path, { agent }, (res) => {
        res.resume();
        res.on('end', () => {
          const cpu = process.cpuUsage(c0);
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000 });
        });
      })
      .on('error', reject);
  });
}

async function main() {
  console.log(`bench:sandbox on ${machine()}`);
  const interval = 20_000;
  const clock = { now: Date.UTC(2026, 2, 1, 12) };
  const genesisTime = clock.now - BLOCKS * interval;
  const sweepDir = SWEEP ? mkdtempSync(nodePath.join(tmpdir(), 'cairn-bench-sweep-')) : null;
  const created = [now(), process.cpuUsage()] as const;
  const chain = createSandboxChain({ network: 'preprod', blockIntervalMs: interval, genesisTime, store: memoryLedgerStore(), now: () => clock.now, ...(sweepDir ? { sweep: { dir: sweepDir } } : {}) });
  await chain.ready();
  const { base, close } = await served(chain);
  try {
    const f = { network: 'preprod', chain, clock, made: {}, http: { base, close: async () => undefined, get: async () => ({ status: 0, headers: new Headers(), body: null }) } } as WalkFixture;
    for (const group of GROUPS) await group.prepare?.(f);
    console.log(`A chain of ${chain.tipHeight().toLocaleString('en')} blocks (${GROUPS.map((g) => g.name).join(', ')} prepared).`);
    if (COLD_LISTS) {
      // Prepared once, as a gateway prepares its chains before it serves (startSandboxSync), and read at once.
      const [t0, c0] = [now(), threadCpuMs()];
      await chain.prepare({ start: true });
      console.log(`The chain prepared once as a gateway's before it serves (prepare({ start: true })): ${ms(threadCpuMs() - c0)} of CPU in ${ms(now() - t0)}.`);
    } else {
      // The lists' totals summed ahead: by the sweep worker from the chain's creation (as a gateway's
      // shared chains), or without one in the server's thread, as prepare() does once a list reads the history.
      const [t0, c0] = [now(), threadCpuMs()];
      await chain.prepare({ lists: true });
      const all = process.cpuUsage(created[1]);
      console.log(
        SWEEP
          ? `The sweep worker's totals ready (prepare({ lists: true }) waited for them): ${((now() - created[0]) / 1000).toFixed(1)} s after the chain was created, the process's CPU meanwhile ${((all.user + all.system) / 1e6).toFixed(1)} s (both threads, the walk's groups included); the server thread's CPU during the wait ${((threadCpuMs() - c0) / 1000).toFixed(2)} s.`
          : `The lists' totals summed ahead (prepare({ lists: true })): ${((threadCpuMs() - c0) / 1000).toFixed(1)} s of CPU in ${((now() - t0) / 1000).toFixed(1)} s.`,
      );
    }
    if (ONLY === 'lists') {
      const lists = await lastPagesOfLists(base, f);
      listRow(lists, '');
      await deepVotesOfALongHistory();
      return;
    }

    // First calls: addresses of the world no request has asked about.
    const catalog = chain.catalog();
    const fresh = catalog.addresses.slice(-30).map((a) => a.address);
    const firsts: number[] = [];
    for (const address of fresh) {
      const r = await timedGet(base, `/addresses/${address}`);
      if (r.status !== 200 && r.status !== 404) throw new Error(`/addresses/${address} answered ${r.status}`);
      firsts.push(r.ms);
    }
    firsts.sort((a, b) => a - b);

    const results: Array<{ template: string; p95: number; p50: number; cpuP95: number }> = [];
    const requests: Array<[string, string]> = [['/health', '/health'], ...GROUPS.flatMap((g) => Object.entries(g.requests).map(([t, r]) => [t, r.path(f)] as [string, string]))];
    for (const [template, path] of requests) {
      const times: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < 5 + REPEAT; i++) {
        // The chain moves while it is read: a new block before every fourth request, so the p95
        // includes what a new tip costs (rebuilt sets, new segments).
        if (i % 4 === 0) clock.now += interval;
        const r = await timedGet(base, path);
        // A transaction waiting in the mempool is in a block once the chain moves: then 404.
        if (r.status !== 200 && !(r.status === 404 && template.startsWith('/mempool/'))) throw new Error(`${path} answered ${r.status}`);
        if (i >= 5) {
          times.push(r.ms);
          cpu.push(r.cpuMs);
        }
      }
      times.sort((a, b) => a - b);
      cpu.sort((a, b) => a - b);
      results.push({ template, p50: percentile(times, 50), p95: percentile(times, 95), cpuP95: percentile(cpu, 95) });
    }
    const health = results[0]!;
    const walked = results.slice(1).sort((a, b) => b.p95 - a.p95);
    console.log(`\nThe ten slowest of ${walked.length} walked paths (p95 of ${REPEAT} after 5 warm-up requests):`);
    console.log(table(['path', 'p50', 'p95', 'CPU p95'], walked.slice(0, 10).map((r) => [r.template, ms(r.p50), ms(r.p95), ms(r.cpuP95)])));
    const over = walked.filter((r) => r.p95 > TARGET_MS);
    if (over.length) console.log(`Over ${TARGET_MS} ms: ${over.map((r) => `${r.template} ${ms(r.p95)}`).join(', ')}`);
    const byCpu = results.slice(1).sort((a, b) => b.cpuP95 - a.cpuP95);
    const overCpu = byCpu.filter((r) => r.cpuP95 > TARGET_MS);
    console.log(`CPU time per request: ${overCpu.length} paths over ${TARGET_MS} ms at p95; the most: ${byCpu.slice(0, 3).map((r) => `${r.template} ${ms(r.cpuP95)}`).join(', ')} (/health ${ms(health.cpuP95)}).`);

    const lists = await lastPagesOfLists(base, f);

    // Memory per block, as a follower reads the chain block after block.
    let bytesPerBlock = NaN;
    const follow = (blocks: number) => {
      for (let i = 0; i < blocks; i++) {
        clock.now += interval;
        chain.latestBlock();
        chain.blockTxDetails(chain.tipHeight());
      }
    };
    if (gc) {
      // First blocks unmeasured, so the bounded caches (segments, sets, the transaction index) are full.
      follow(WARM);
      gc();
      gc();
      const before = process.memoryUsage().heapUsed;
      follow(STEPS);
      gc();
      gc();
      bytesPerBlock = (process.memoryUsage().heapUsed - before) / STEPS;
      console.log(`Heap growth over ${STEPS.toLocaleString('en')} blocks after ${WARM.toLocaleString('en')} unmeasured: ${(bytesPerBlock / 1024).toFixed(2)} KB per block.`);
    } else {
      console.log('Memory per block not measured: the garbage collector is not exposed (--expose-gc).');
    }

    console.log();
    const worst = walked[0]!;
    row({ bench: 'sandbox', measure: `every walked path's p95, ${chain.tipHeight().toLocaleString('en')}-block chain (worst: ${worst.template})`, figure: ms(worst.p95), baseline: `${ms(health.p95)} /health`, ratio: ratio(worst.p95, health.p95), target: `≤ ${TARGET_MS} ms each (${over.length} over)`, pass: over.length === 0 });
    const firstP95 = percentile(firsts, 95);
    row({ bench: 'sandbox', measure: 'first /addresses/{address} call for an address never asked for, p95 of 30', figure: ms(firstP95), baseline: `${ms(health.p95)} /health`, ratio: ratio(firstP95, health.p95), target: `≤ ${TARGET_MS} ms`, pass: firstP95 <= TARGET_MS });
    listRow(lists, `${ms(health.p95)} /health`, ratio(lists.pauseMs, health.p95));
    row({ bench: 'sandbox', measure: `heap growth per simulated block over ${STEPS.toLocaleString('en')} blocks`, figure: Number.isFinite(bytesPerBlock) ? `${(bytesPerBlock / 1024).toFixed(2)} KB` : 'not measured', baseline: '', ratio: '', target: '< 2 KB', pass: bytesPerBlock < TARGET_BYTES_PER_BLOCK });
    await deepVotesOfALongHistory();
  } finally {
    agent.destroy();
    await close();
    await chain.close();
    if (sweepDir) rmSync(sweepDir, { recursive: true, force: true });
  }
}

interface ListsRun {
  count: number;
  pauseMs: number;
  turnCpuMs: number;
  /** The list whose page was the slowest of all, and that page's time. */
  worst: string;
  worstMs: number;
}

function listRow(lists: ListsRun, baseline: string, against = ''): void {
  row({ bench: 'sandbox', measure: `slowest page of every list (${lists.count} lists and orders) at its last page and past it (${lists.worst})`, figure: ms(lists.worstMs), baseline: '', ratio: '', target: `≤ ${TARGET_PAGE_MS} ms`, pass: lists.worstMs <= TARGET_PAGE_MS });
  row({ bench: 'sandbox', measure: `event loop's longest pause while every list (${lists.count} lists and orders) is read at its last page and past it (worst page: ${lists.worst} ${ms(lists.worstMs)}; longest turn in CPU time ${ms(lists.turnCpuMs)})`, figure: ms(lists.pauseMs), baseline, ratio: against, target: `≤ ${TARGET_PAUSE_MS} ms`, pass: lists.pauseMs <= TARGET_PAUSE_MS });
}

/** Every list at its last page and past it, in both orders: each list's slowest page, and the event loop's longest pause. */
async function lastPagesOfLists(base: string, f: WalkFixture): Promise<ListsRun> {
  const paths = catalogPaths(f);
  // The client runs in the server's thread: its first fetch() loads and compiles undici, tens of
  // milliseconds that would be charged to the first list's page.
  await (await fetch(`${base}/health`)).json();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const slowest: Array<{ list: string; ms: number; page: number; pages: number; turnCpuMs: number; cpuMs: number; workMs: number }> = [];
  const busy = busyClock();
  loop.enable();
  for (const { template, ordered } of listPaths()) {
    for (const order of ordered ? ['asc', 'desc'] : ['asc']) {
      const entry = { list: `${template}${ordered ? ` ${order}` : ''}`, ms: 0, page: 0, pages: 0, turnCpuMs: 0, cpuMs: 0, workMs: 0 };
      entry.pages = await lastPages(async (page, count) => {
        const t0 = now();
        const res = await fetch(`${base}${paths.get(template)}?count=${count}&page=${page}${ordered ? `&order=${order}` : ''}`);
        const body = (await res.json()) as unknown[];
        const took = now() - t0;
        if (res.status !== 200) throw new Error(`${template} page ${page} answered ${res.status}`);
        if (took > entry.ms) Object.assign(entry, { ms: took, page });
        entry.cpuMs = Math.max(entry.cpuMs, busy.cpuDuring(t0, now()));
        entry.workMs = Math.max(entry.workMs, busy.workDuring(t0, now()));
        entry.turnCpuMs = Math.max(entry.turnCpuMs, busy.longestTurn(t0, now()));
        return body.length;
      });
      slowest.push(entry);
    }
  }
  loop.disable();
  busy.stop();
  slowest.sort((a, b) => b.ms - a.ms);
  console.log(`\nThe ten slowest of ${slowest.length} lists and orders at their last page or past it (count 100; the slowest page of each, of the last page holding data):`);
  console.log(table(['list', 'slowest page', 'took', 'page CPU', 'in work turns', 'longest turn (CPU)', 'last page'], slowest.slice(0, 10).map((e) => [e.list, String(e.page), ms(e.ms), ms(e.cpuMs), ms(e.workMs), ms(e.turnCpuMs), e.pages.toLocaleString('en')])));
  const byCpu = [...slowest].sort((a, b) => b.cpuMs - a.cpuMs);
  console.log(`The most CPU of the server thread during one page: ${byCpu.slice(0, 5).map((e) => `${e.list} ${ms(e.cpuMs)}`).join(', ')}.`);
  // A page that waits for the sweep worker spans many idle turns of the busy clock's own 1 ms timer.
  const byWork = [...slowest].sort((a, b) => b.workMs - a.workMs);
  console.log(`The same in turns of 0.2 ms or more (without the busy clock's idle turns): ${byWork.slice(0, 5).map((e) => `${e.list} ${ms(e.workMs)}`).join(', ')}.`);
  const pauseMs = loop.max / 1e6;
  const turns = [...slowest].sort((a, b) => b.turnCpuMs - a.turnCpuMs);
  console.log(`The event loop's longest pause meanwhile: ${ms(pauseMs)}; its longest turn in the server thread's CPU time: ${ms(turns[0]!.turnCpuMs)} (${turns[0]!.list}).`);
  return { count: slowest.length, pauseMs, turnCpuMs: turns[0]!.turnCpuMs, worst: slowest[0]!.list, worstMs: slowest[0]!.ms };
}

/** A chain's Blockfrost routes on a loopback port: their base URL, and how to close the server. */
async function served(chain: SandboxChain): Promise<{ base: string; close: () => Promise<void> }> {
  const app = express();
  app.use('/api/v0', sandboxRouter(chain));
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v0`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The vote lists' deepest pages on a shared chain at the defaults late in 2026, read before anything counted them. */
async function deepVotesOfALongHistory(): Promise<void> {
  const chain = createSandboxChain({ network: 'preprod', store: memoryLedgerStore(), now: () => Date.UTC(2026, 11, 31, 12) });
  await chain.ready();
  const [t0, c0] = [now(), threadCpuMs()];
  await chain.prepare({ start: true });
  const prepared = `the first prepare({ start: true }) ${ms(threadCpuMs() - c0)} of CPU in ${ms(now() - t0)}`;
  const { base, close } = await served(chain);
  const busy = busyClock();
  try {
    const [t1, c1] = [now(), threadCpuMs()];
    if ((await fetch(`${base}/blocks/latest`)).status !== 200) throw new Error('/blocks/latest did not answer 200');
    const first = `the first request ${ms(now() - t1)} (${ms(threadCpuMs() - c1)} of CPU)`;
    const pool = chain.catalog().pools[0]!;
    const rows: string[][] = [];
    let worst = { list: '', ms: 0, cpuMs: 0 };
    for (const path of ['/governance/committee/votes', `/pools/${pool}/votes`, '/governance/proposals']) {
      for (const order of ['asc', 'desc']) {
        const entry = { list: `${path.replace(pool, '{pool_id}')} ${order}`, ms: 0, cpuMs: 0, page: 0 };
        const pages = await lastPages(async (page, count) => {
          const t0 = now();
          const res = await fetch(`${base}${path}?count=${count}&page=${page}&order=${order}`);
          const body = (await res.json()) as unknown[];
          const took = now() - t0;
          if (res.status !== 200) throw new Error(`${path} page ${page} answered ${res.status}`);
          if (took > entry.ms) Object.assign(entry, { ms: took, page, cpuMs: busy.cpuDuring(t0, now()) });
          return body.length;
        });
        rows.push([entry.list, String(entry.page), ms(entry.ms), ms(entry.cpuMs), pages.toLocaleString('en')]);
        if (entry.ms > worst.ms) worst = entry;
      }
    }
    console.log(`\nThe vote lists of a shared chain at the defaults (${chain.tipHeight().toLocaleString('en')} blocks, ${chain.epochOfHeight(chain.tipHeight()).toLocaleString('en')} epochs; ${prepared}, ${first}), count 100, the slowest page of each:`);
    console.log(table(['list', 'slowest page', 'took', 'page CPU', 'last page'], rows));
    row({ bench: 'sandbox', measure: `slowest page of the vote lists of a ${chain.epochOfHeight(chain.tipHeight()).toLocaleString('en')}-epoch history (${worst.list}; server-thread CPU ${ms(worst.cpuMs)})`, figure: ms(worst.ms), baseline: '', ratio: '', target: `≤ ${TARGET_PAGE_MS} ms`, pass: worst.ms <= TARGET_PAGE_MS });
  } finally {
    busy.stop();
    await close();
    await chain.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
