// Every list of Blockfrost's OpenAPI document (a 200 answer that is an array, paged by `page`) over
// a running sandbox on loopback HTTP, at its last page holding data and past its end (page
// 21474836), in both orders: no answer may hold the event loop more than 100 ms, since while it does
// the process serves no one else, and a client asking /health all along never waits more than
// 100 ms for it. On a busy machine every stretch of work takes longer on the wall clock than
// it costs: the limit grows by the most a reference of 20 ms of CPU work took in the same run. The path parameters name the chain's own addresses, stake addresses, pools
// and assets (chain.catalog()), so each list has data; the rest come from the OpenAPI walk's groups.
//
// The chain is 30 days old (4,320 epochs): on it the first deep page of a governance vote list
// counts every epoch's votes, a few seconds of work done in slices (server/sandbox/chain/budget.ts);
// a year would make that the better part of a minute of this suite without testing anything more.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GENESIS_TIME, memoryLedgerStore } from '../../../../../server/sandbox/chain/index';
import { DAY_MS } from '../../../../../shared/time';
import { serve, testChain } from './support';
import { GROUPS } from './walk/groups';
import type { WalkFixture } from './walk/types';
import { catalogPaths, lastPages, listPaths } from './walk/lists';

const MAX_PAUSE_MS = 100;

describe('the last pages of every list, on a running sandbox', () => {
  const { chain, clock } = testChain({ network: 'preprod', now: () => DEFAULT_GENESIS_TIME + 30 * DAY_MS, store: memoryLedgerStore() });
  const f = { network: 'preprod', chain, clock, made: {} } as WalkFixture;
  const loop = monitorEventLoopDelay({ resolution: 5 });

  beforeAll(async () => {
    Object.assign(f, { http: await serve(chain) });
    for (const group of GROUPS) await group.prepare?.(f);
    loop.enable();
  }, 120_000);
  afterAll(async () => {
    loop.disable();
    await f.http?.close();
  });

  /** How much longer than its CPU time 20 ms of CPU work takes on the wall clock now. */
  const wallPerCpu = (): number => {
    const [t0, c0] = [performance.now(), process.cpuUsage()];
    let cpu = 0;
    while (cpu < 20) {
      const c = process.cpuUsage(c0);
      cpu = (c.user + c.system) / 1000;
    }
    return (performance.now() - t0) / cpu;
  };

  /** The answer, and the event loop's longest pause while it was made. */
  const measured = async (path: string): Promise<{ items: number; pauseMs: number }> => {
    loop.reset();
    const res = await f.http.get(path);
    const pauseMs = loop.max / 1e6;
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return { items: Array.isArray(res.body) ? res.body.length : -1, pauseMs };
  };

  it('walks every list of the document, at its last page and past it, in both orders, never pausing the event loop over 100 ms', async () => {
    // /health asked all along, on a connection of its own: each wait is charged to the list page in flight.
    let current = '';
    let walking = true;
    const healthWaits: Array<{ path: string; ms: number }> = [];
    const poller = (async () => {
      while (walking) {
        const during = current;
        const t0 = performance.now();
        const res = await fetch(`${f.http.base}/health`);
        await res.arrayBuffer();
        healthWaits.push({ path: during === current ? during : `${during} / ${current}`, ms: performance.now() - t0 });
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const paths = catalogPaths(f);
    const lists = listPaths();
    expect(lists.length).toBeGreaterThan(60);
    const pauses: Array<{ path: string; pauseMs: number }> = [];
    let withData = 0;
    let stretch = 1;
    for (const { template, ordered } of lists) {
      const base = paths.get(template);
      expect(base, `${template} has a request`).toBeDefined();
      for (const order of ordered ? (['asc', 'desc'] as const) : (['asc'] as const)) {
        const last = await lastPages(async (page) => {
          const path = `${base}?count=100&page=${page}${ordered ? `&order=${order}` : ''}`;
          current = path;
          const r = await measured(path);
          pauses.push({ path, pauseMs: r.pauseMs });
          expect(r.items, `${path} answers a list`).toBeGreaterThanOrEqual(0);
          return r.items;
        });
        if (last > 0) withData++;
      }
      stretch = Math.max(stretch, wallPerCpu());
    }
    walking = false;
    await poller;
    expect(healthWaits.length).toBeGreaterThan(lists.length);
    // Nearly every list and order holds data here (a few, like an account's MIRs, are empty on this chain).
    expect(withData).toBeGreaterThan(lists.length);
    const limit = MAX_PAUSE_MS * stretch;
    const slow = pauses.filter((p) => p.pauseMs > limit).map((p) => `${p.path} ${p.pauseMs.toFixed(0)} ms`);
    expect(slow, `answers that held the event loop over ${limit.toFixed(0)} ms (the machine stretched 20 ms of work up to ${stretch.toFixed(1)}×)`).toEqual([]);
    const waited = healthWaits.filter((w) => w.ms > limit).map((w) => `/health waited ${w.ms.toFixed(0)} ms during ${w.path}`);
    expect(waited, `/health waits over ${limit.toFixed(0)} ms`).toEqual([]);
  }, 600_000);
});
