// Every list of Blockfrost's OpenAPI document (a 200 answer that is an array, paged by `page`) over
// a running sandbox on loopback HTTP, at its last page holding data and past its end, in both
// orders: no page may take over 50 ms from request to answer, nor hold the event loop more than
// 100 ms, since while it does the process serves no one else. On a busy machine every stretch of
// work takes longer on the wall clock than it costs: both limits grow by the most a reference of
// 20 ms of CPU work took in the same run. The path parameters name the chain's own addresses, stake
// addresses, pools and assets (chain.catalog()), so each list has data; the rest come from the
// OpenAPI walk's groups.
//
// The chain's indexes are built ahead first (indexAhead: every closed epoch's sums, the governance
// lists' running counts, the address window), as a served chain builds them once it starts; that
// work is what a chain's age costs, about 10 ms of CPU per hour of chain (one 60-block segment
// simulated per 20 minutes), so the chain here is CHAIN_DAYS old (LIST_PAGES_DAYS to change it).
// Answers read through the indexes are checked against the same answers computed without them.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GENESIS_TIME, indexAhead, memoryLedgerStore } from '../../../../../server/sandbox/chain/index';
import { DAY_MS } from '../../../../../shared/time';
import { serve, testChain } from './support';
import { GROUPS } from './walk/groups';
import type { WalkFixture } from './walk/types';
import { catalogPaths, lastPages, listPaths } from './walk/lists';

const MAX_PAUSE_MS = 100;
const MAX_PAGE_MS = 50;
const CHAIN_DAYS = Number(process.env.LIST_PAGES_DAYS ?? 30);

describe('the last pages of every list, on a running sandbox', () => {
  const now = DEFAULT_GENESIS_TIME + CHAIN_DAYS * DAY_MS;
  const { chain, clock } = testChain({ network: 'preprod', now: () => now, store: memoryLedgerStore() });
  const f = { network: 'preprod', chain, clock, made: {} } as WalkFixture;
  const loop = monitorEventLoopDelay({ resolution: 5 });

  beforeAll(async () => {
    Object.assign(f, { http: await serve(chain) });
    for (const group of GROUPS) await group.prepare?.(f);
    // Without rest between slices: the test waits for it, and no request comes meanwhile.
    await indexAhead(chain, { restMs: 0 });
    loop.enable();
  }, 300_000);
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

  /** The answer's length, how long it took, and the event loop's longest pause while it was made. */
  const measured = async (path: string): Promise<{ items: number; pauseMs: number; ms: number }> => {
    loop.reset();
    const t0 = performance.now();
    const res = await f.http.get(path);
    const ms = performance.now() - t0;
    const pauseMs = loop.max / 1e6;
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return { items: Array.isArray(res.body) ? res.body.length : -1, pauseMs, ms };
  };

  it('walks every list of the document, at its last page and past it, in both orders, each page within 50 ms, never pausing the event loop over 100 ms', async () => {
    const paths = catalogPaths(f);
    const lists = listPaths();
    expect(lists.length).toBeGreaterThan(60);
    const pages: Array<{ path: string; pauseMs: number; ms: number; stretch: number }> = [];
    let withData = 0;
    let stretch = wallPerCpu();
    for (const { template, ordered } of lists) {
      const base = paths.get(template);
      expect(base, `${template} has a request`).toBeDefined();
      for (const order of ordered ? (['asc', 'desc'] as const) : (['asc'] as const)) {
        const last = await lastPages(async (page) => {
          const path = `${base}?count=100&page=${page}${ordered ? `&order=${order}` : ''}`;
          const r = await measured(path);
          pages.push({ path, pauseMs: r.pauseMs, ms: r.ms, stretch });
          expect(r.items, `${path} answers a list`).toBeGreaterThanOrEqual(0);
          return r.items;
        });
        if (last > 0) withData++;
      }
      // The machine's slowness now, for the pages of the next list, and for the whole walk at most.
      stretch = wallPerCpu();
      for (const p of pages) p.stretch = Math.max(p.stretch, stretch);
    }
    // Nearly every list and order holds data here (a few, like an account's MIRs, are empty on this chain).
    expect(withData).toBeGreaterThan(lists.length);
    const over = (limit: number, of: (p: (typeof pages)[number]) => number) =>
      pages.filter((p) => of(p) > limit * p.stretch).map((p) => `${p.path} ${of(p).toFixed(0)} ms (limit ${(limit * p.stretch).toFixed(0)})`);
    const most = Math.max(...pages.map((p) => p.stretch)).toFixed(1);
    expect(over(MAX_PAUSE_MS, (p) => p.pauseMs), `answers that held the event loop over 100 ms (the machine stretched 20 ms of work up to ${most}×)`).toEqual([]);
    expect(over(MAX_PAGE_MS, (p) => p.ms), `pages that took over 50 ms (the machine stretched 20 ms of work up to ${most}×)`).toEqual([]);
  }, 600_000);

  it('answers deep governance pages through the running counts as the walk from the other end does', async () => {
    const pool = chain.catalog().pools[0]!;
    // Items of one block keep their own order in both directions (the Blockfrost order is by block,
    // then by place in the block, the same for these): compare each block's items as a set.
    const byBlock = (items: Array<Record<string, unknown>>) => {
      const out: string[][] = [];
      let height: unknown = Symbol('none');
      for (const item of items) {
        if (item.block_height !== height || item.block_height === undefined) out.push([]);
        height = item.block_height;
        out[out.length - 1]!.push(JSON.stringify(item));
      }
      return out.map((group) => group.sort());
    };
    for (const base of ['/governance/committee/votes', '/governance/proposals', `/pools/${pool}/votes`]) {
      // The deepest page of the ascending list goes through the running counts; the first
      // descending page walks epochs back from the tip: together they hold the list's last items.
      const last = await lastPages(async (page) => ((await f.http.get(`${base}?count=100&page=${page}&order=asc`)).body as unknown[]).length);
      expect(last, base).toBeGreaterThan(2);
      const asc = (await f.http.get(`${base}?count=100&page=${last}&order=asc`)).body as Array<Record<string, unknown>>;
      const desc = (await f.http.get(`${base}?count=100&page=1&order=desc`)).body as Array<Record<string, unknown>>;
      expect(asc.length).toBeGreaterThan(0);
      const mirrored = desc.slice(0, asc.length).reverse();
      if (asc[0]!.block_height === undefined) expect(asc.map((x) => JSON.stringify(x)).sort(), base).toEqual(mirrored.map((x) => JSON.stringify(x)).sort());
      else expect(byBlock(asc), base).toEqual(byBlock(mirrored));
    }
  }, 120_000);
  it('answers the same epochs through the epoch index as a chain that sums their blocks afresh', async () => {
    const fresh = testChain({ network: 'preprod', now: () => now, store: memoryLedgerStore() }).chain;
    const current = chain.latestEpoch().epoch;
    // Two deep pages of each neighbour list, far below the tip (the walk's transactions are near it).
    const answers: Array<[string, Array<{ epoch: number }>]> = [];
    for (const path of ['/epochs/0/next?page=3', `/epochs/${current}/previous?page=${Math.floor(current / 100) - 1}`]) {
      const res = await f.http.get(path);
      expect(res.status).toBe(200);
      answers.push([path, res.body as Array<{ epoch: number }>]);
    }
    for (const [path, epochs] of answers) {
      expect(epochs).toHaveLength(100);
      expect(epochs, path).toEqual(epochs.map((e) => fresh.epoch(e.epoch)));
    }
  }, 120_000);

});
