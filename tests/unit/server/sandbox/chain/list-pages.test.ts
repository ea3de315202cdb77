// Every list of Blockfrost's OpenAPI document (a 200 answer that is an array, paged by `page`) over
// a running sandbox on loopback HTTP, at its last page holding data and past its end (page
// 21474836), in both orders: no answer may hold the event loop more than 100 ms, since while it does
// the process serves no one else, and a client asking /health all along never waits on more than
// 100 ms of the server's work. Both are judged in the server thread's own CPU time (walk/busy.ts),
// so a machine busy with other work neither fails the walk nor hides a long answer: the longest
// turn of the event loop during each page, and the server's CPU time during each /health wait. /health
// is asked from a worker thread, so the client is not held by the loop it measures. The path
// parameters name the chain's own addresses, stake addresses, pools and assets (chain.catalog()), so
// each list has data; the rest come from the OpenAPI walk's groups. A list's length is found from
// pages of one item (lastPages' probe 1), so of its pages of 100 only the last one holding data and
// the one after it are read: what the walk checks of each list, without a dozen full pages on the way.
//
// The chain is 30 days old (4,320 epochs): a longer history makes the walk's pages of epochs and
// blocks no deeper (they are found by their totals) and the suite longer. The same walk runs again
// on a shared chain's kind, with a sweep worker started with the chain (server/sandbox/chain/sweep.ts),
// on three days (the worker's sweep is some 8 s of a second core).
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GENESIS_TIME, memoryLedgerStore } from '../../../../../server/sandbox/chain/index';
import { DAY_MS } from '../../../../../shared/time';
import { serve, testChain } from './support';
import { GROUPS } from './walk/groups';
import type { WalkFixture } from './walk/types';
import { catalogPaths, lastPages, listPaths } from './walk/lists';
import { busyClock, now } from './walk/busy';

const MAX_PAUSE_MS = 100;
/** How late the /health client's own 1 ms clock may run in a wait that is judged. */
const CLIENT_LATE_MS = 20;

describe('the last pages of every list, on a running sandbox', () => walkEveryList({ days: 30 }));

// A shared chain's, with its sweep worker (server/sandbox/chain/sweep.ts) started with the chain: the
// deep pages the sweep has not reached make what they read here, beside it. Three days: the worker
// sweeps in the background while the walk runs, and a shorter history bounds what it costs the suite.
describe('the last pages of every list, on a running sandbox with a sweep worker', () => walkEveryList({ days: 3, sweep: { dir: null } }));

function walkEveryList(o: { days: number; sweep?: { dir: null } }): void {
  const { chain, clock } = testChain({ network: 'preprod', now: () => DEFAULT_GENESIS_TIME + o.days * DAY_MS, store: memoryLedgerStore(), ...(o.sweep ? { sweep: o.sweep } : {}) });
  const f = { network: 'preprod', chain, clock, made: {} } as WalkFixture;

  beforeAll(async () => {
    Object.assign(f, { http: await serve(chain) });
    for (const group of GROUPS) await group.prepare?.(f);
    // The tip's transactions read once, as by a client's first request: the tip's segment made whole
    // and hashed, some 100 ms of CPU in slices the first time a process does it (much of it V8
    // compiling the simulation), which is no list's and would fall on whichever list the walk reads first.
    expect((await f.http.get('/blocks/latest/txs')).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await f.http?.close();
    await chain.close();
  });

  /** How many items the page held (-1: not a list). */
  const items = async (path: string): Promise<number> => {
    const res = await f.http.get(path);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return Array.isArray(res.body) ? res.body.length : -1;
  };

  it('walks every list of the document, at its last page and past it, in both orders, never pausing the event loop over 100 ms', async () => {
    const health = healthMonitor(`${f.http.base}/health`);
    const busy = busyClock();
    // Which page was in flight when: each /health wait is charged to the pages it overlapped.
    const spans: Array<{ path: string; from: number; to: number }> = [];
    const paths = catalogPaths(f);
    const lists = listPaths();
    expect(lists.length).toBeGreaterThan(60);
    let withData = 0;
    try {
      for (const { template, ordered } of lists) {
        const base = paths.get(template);
        expect(base, `${template} has a request`).toBeDefined();
        for (const order of ordered ? (['asc', 'desc'] as const) : (['asc'] as const)) {
          const last = await lastPages(async (page, count) => {
            const path = `${base}?count=${count}&page=${page}${ordered ? `&order=${order}` : ''}`;
            const from = now();
            const n = await items(path);
            spans.push({ path, from, to: now() });
            expect(n, `${path} answers a list`).toBeGreaterThanOrEqual(0);
            return n;
          }, 1);
          if (last > 0) withData++;
        }
      }
    } finally {
      busy.stop();
      await health.stop();
    }
    const waits = health.waits();
    expect(waits.length).toBeGreaterThan(lists.length);
    // Nearly every list and order holds data here (a few, like an account's MIRs, are empty on this chain).
    expect(withData).toBeGreaterThan(lists.length);
    const slow = spans.map((s) => ({ ...s, ms: busy.longestTurn(s.from, s.to) })).filter((s) => s.ms > MAX_PAUSE_MS);
    expect(slow.map((s) => `${s.path}: ${s.ms.toFixed(0)} ms of CPU in one turn (${(s.to - s.from).toFixed(0)} ms to answer)`), `answers that held the event loop over ${MAX_PAUSE_MS} ms`).toEqual([]);
    const during = (w: { at: number; ms: number }): string => spans.filter((s) => s.from < w.at + w.ms && s.to > w.at).map((s) => s.path).join(' / ') || 'between pages';
    // A wait during which the client's own thread went without a core for a while (its clock late by
    // CLIENT_LATE_MS: on two cores the walk's server and client hold one, the suite's other threads
    // share the second) was partly the client's: not judged, and most waits must not be such.
    const judged = waits.filter((w) => w.late < CLIENT_LATE_MS);
    expect(judged.length, 'waits in which the /health client had a core').toBeGreaterThan(waits.length / 2);
    const waited = judged.map((w) => ({ ...w, cpu: busy.cpuDuring(w.at, w.at + w.ms) })).filter((w) => w.cpu > MAX_PAUSE_MS);
    expect(waited.map((w) => `/health waited ${w.ms.toFixed(0)} ms, ${w.cpu.toFixed(0)} ms of the server's CPU, during ${during(w)}`), `/health waits on over ${MAX_PAUSE_MS} ms of the server's work`).toEqual([]);
  }, 600_000);
}

/**
 * A client that asks for /health all along from a worker thread, on a connection of its own, 5 ms
 * after each answer: every wait (from its start, in now()'s time) is the server's, never its own
 * event loop's.
 */
function healthMonitor(url: string): { stop: () => Promise<void>; waits: () => Array<{ at: number; ms: number; late: number }> } {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    let walking = true;
    const waits = [];
    parentPort.on('message', () => { walking = false; });
    // This thread's own lateness: a 1 ms timer that fires late means the thread had no core.
    let tick = performance.now();
    let late = 0;
    const clock = setInterval(() => {
      const t = performance.now();
      late = Math.max(late, t - tick - 1);
      tick = t;
    }, 1);
    (async () => {
      while (walking) {
        const at = performance.timeOrigin + performance.now();
        [tick, late] = [performance.now(), 0];
        const res = await fetch(workerData.url);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error('/health answered ' + res.status);
        waits.push({ at, ms: performance.timeOrigin + performance.now() - at, late });
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      clearInterval(clock);
      parentPort.postMessage(waits);
    })().catch((err) => { throw err; });`,
    { eval: true, workerData: { url } },
  );
  let waits: Array<{ at: number; ms: number; late: number }> = [];
  const done = new Promise<void>((resolve, reject) => {
    worker.once('message', (w: Array<{ at: number; ms: number; late: number }>) => {
      waits = w;
      resolve();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the /health monitor exited with ${code}`)));
  });
  return {
    async stop() {
      worker.postMessage('stop');
      await done;
      await worker.terminate();
    },
    waits: () => waits,
  };
}
