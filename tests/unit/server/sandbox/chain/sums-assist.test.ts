// A cold page of epochs summed by two threads (server/sandbox/chain/sums-assist.ts): the server's
// thread claims the page's segments from the oldest up, the sweep worker from the newest down,
// through shared memory, so each is summed once; the worker's sums arrive as its other sums do and
// are those of the segments' decisions. A worker that claimed a segment and sends nothing has it
// taken back; without a worker, or outside a time slice, the page sums them all itself.
import { afterAll, describe, expect, it } from 'vitest';
import { segmentSumsOf } from '../../../../../server/sandbox/chain/chain';
import { Awaiting, sliced } from '../../../../../server/sandbox/chain/budget';
import { SweepClient } from '../../../../../server/sandbox/chain/sweep';
import { assistBuffer, PageAssist, serveAssist, ASSIST_SLOTS } from '../../../../../server/sandbox/chain/sums-assist';
import { sumColumns } from '../../../../../server/sandbox/chain/totals';
import { sweepWorkerData, testChain } from './support';

const range = (first: number, last: number): number[] => Array.from({ length: last - first + 1 }, (_, i) => first + i);

describe('the claims of a page\'s segments', () => {
  /** A page's side over `buffer` whose worker is played here by `wake`; what each side summed. */
  const sides = (wake: (buffer: SharedArrayBuffer, done: Set<number>) => void, alive = true) => {
    const buffer = assistBuffer();
    const done = new Set<number>();
    const here: number[] = [];
    let arrivals = 0;
    const assist = new PageAssist(buffer, {
      wake: () => wake(buffer, done),
      alive: () => alive,
      arrival: (ms) => {
        arrivals++;
        return new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    const sum = (first: number, last: number) =>
      assist.sum(first, last, (s) => done.has(s), (s) => {
        here.push(s);
        done.add(s);
      });
    return { buffer, done, here, sum, arrivals: () => arrivals };
  };

  it('lets the worker take the newest first and the page the rest, none twice, those summed already by nobody', async () => {
    const workers: number[] = [];
    // The worker takes three segments as soon as it is told, then the page claims what is left.
    const { done, here, sum } = sides((buffer, done) => {
      let n = 0;
      serveAssist(buffer, (s) => {
        workers.push(s);
        done.add(s);
        if (++n === 3) throw new Error('the worker stops here');
      });
    });
    const wake = (): void => {
      try {
        sum(100, 139);
      } catch (err) {
        if (!(err instanceof Error) || err.message !== 'the worker stops here') throw err;
      }
    };
    done.add(101);
    await sliced(wake);
    await sliced(() => sum(100, 139));
    expect(workers).toEqual([139, 138, 137]);
    expect(here).toEqual(range(100, 136).filter((s) => s !== 101));
    expect([...done].sort((a, b) => a - b)).toEqual(range(100, 139));
  });

  it('takes back a segment the worker claimed and never sent', async () => {
    // The worker claims the newest and is never heard of again (a worker that starves or dies mid-sum).
    const { done, here, sum, arrivals } = sides((buffer) => {
      serveAssist(buffer, () => {
        throw new Error('gone');
      });
    });
    await sliced(() => {
      try {
        sum(0, 9);
      } catch (err) {
        if (!(err instanceof Error) || err.message !== 'gone') throw err;
        sum(0, 9);
      }
    });
    expect(arrivals()).toBeGreaterThan(0);
    expect(here).toEqual([...range(0, 8), 9]);
    expect(done.size).toBe(10);
  });

  it('sums everything itself outside a slice, or with the worker gone', async () => {
    const told: number[] = [];
    const outside = sides(() => told.push(1));
    outside.sum(0, ASSIST_SLOTS - 1);
    expect(outside.here).toEqual(range(0, ASSIST_SLOTS - 1));
    const gone = sides(() => told.push(1), false);
    await sliced(() => gone.sum(5, 20));
    expect(gone.here).toEqual(range(5, 20));
    expect(told).toEqual([]);
    expect(() => outside.sum(0, ASSIST_SLOTS)).toThrow(/at most/);
  });
});

describe('a cold page of epochs with a shared chain\'s sweep worker', () => {
  // Two million blocks: the worker's own summing, the newest first, is far from the page's segments for the whole test.
  const now = Date.UTC(2026, 2, 1, 12);
  const { chain } = testChain({ genesisTime: now - 2_000_000 * 20_000, blockIntervalMs: 20_000, now: () => now });
  const p = chain.params;
  const installed = new Map<number, { counts: number[]; money: number[] }>();
  /** Resolved as the worker's next sums arrive. */
  let arrived: () => void = () => undefined;
  const client = new SweepClient(
    sweepWorkerData(p),
    {
      segment: () => undefined,
      sums: (t) => {
        if (!installed.has(t.index)) installed.set(t.index, { counts: [...t.counts], money: [...t.money] });
        arrived();
      },
    },
  );
  client.tip(chain.tipHeight());
  afterAll(() => client.close());

  it('sums half of it in the worker, each segment as its decisions sum', async () => {
    // The worker is ready once its own summing has sent something.
    for (let i = 0; i < 600 && installed.size === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(installed.size).toBeGreaterThan(0);
    const first = 1_000;
    const last = first + 49;
    const here: number[] = [];
    const fromWorker = () => range(first, last).some((s) => installed.has(s) && !here.includes(s));
    await sliced(() =>
      client.assist.sum(first, last, (s) => installed.has(s), (s) => {
        here.push(s);
        const { counts, money } = sumColumns(segmentSumsOf(chain, s));
        installed.set(s, { counts: [...counts], money: [...money] });
        // After its first segment this thread waits, the event loop free, until the worker has sent
        // one of the page's (a thread at the lowest priority may wait long for a core beside a busy suite).
        if (!fromWorker()) throw new Awaiting(new Promise<void>((resolve) => (arrived = resolve)));
      }),
    );
    const byWorker = range(first, last).filter((s) => !here.includes(s));
    expect(here.length).toBeGreaterThan(0);
    expect(byWorker.length).toBeGreaterThan(0);
    // The worker's, from the newest down.
    expect(Math.min(...byWorker)).toBeGreaterThan(Math.max(...here));
    for (const s of range(first, last)) {
      const own = sumColumns(segmentSumsOf(chain, s));
      expect(installed.get(s), `segment ${s}`).toEqual({ counts: [...own.counts], money: [...own.money] });
    }
  }, 60_000);

  it('answers a page whose segments fill several requests as a chain without a worker answers it', async () => {
    // Epochs of 120 blocks: a page of a hundred is 200 segments, four requests of the worker.
    const at = Date.UTC(2026, 2, 1, 12);
    const options = { genesisTime: at - 30_000 * 20_000, blockIntervalMs: 20_000, blocksPerEpoch: 120, now: () => at };
    const plain = testChain(options).chain;
    const swept = testChain({ ...options, sweep: { dir: null } }).chain;
    try {
      const expected = plain.epochNext(10, { count: 100, page: 1, order: 'asc' });
      expect(expected).toHaveLength(100);
      expect(await sliced(() => swept.epochNext(10, { count: 100, page: 1, order: 'asc' }))).toEqual(expected);
      expect(await sliced(() => swept.epochPrevious(240, { count: 100, page: 1, order: 'asc' }))).toEqual(plain.epochPrevious(240, { count: 100, page: 1, order: 'asc' }));
    } finally {
      await swept.close();
    }
  }, 60_000);
});
