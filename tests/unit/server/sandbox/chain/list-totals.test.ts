// The totals the lists of blocks and epochs read, and the committee's votes per epoch, summed ahead
// by prepare() (server/sandbox/chain/totals.ts): the pages read from them answer what a chain that
// simulates their blocks on the read answers, live transactions included, and a first read of a
// deep page costs the server thread little CPU once they are summed (walk/busy.ts: its own CPU
// time, which other processes holding the cores do not lengthen), where without them it simulates
// the segments of a hundred epochs.
import { describe, expect, it } from 'vitest';
import type { SandboxChain } from '../../../../../server/sandbox/chain/index';
import { testChain } from './support';
import { threadCpuMs } from './walk/busy';

const BLOCKS = 4_400;
/** The target of a page's answer; the CPU time of a page read from the totals is a few milliseconds. */
const PAGE_CPU_MS = 50;

function chainOf(): ReturnType<typeof testChain> {
  const now = Date.UTC(2026, 2, 1, 12);
  return testChain({ genesisTime: now - BLOCKS * 20_000, blockIntervalMs: 20_000, now: () => now });
}

const cpuOf = <T>(read: () => T): { value: T; ms: number } => {
  const t0 = threadCpuMs();
  const value = read();
  return { value, ms: threadCpuMs() - t0 };
};

describe('the lists\' totals summed ahead', () => {
  it('answer the pages of epochs and blocks as the blocks simulated on the read do, live transactions included', async () => {
    const prepared = chainOf();
    const cold = chainOf();
    await prepared.chain.prepare({ lists: true });
    // A live transaction in the next block of both, then the chains move on: the prepared one sums the new segments too.
    for (const c of [prepared, cold]) {
      await c.chain.faucet({ address: c.chain.catalog().addresses[3]!.address, lovelace: 7_000_000n });
      c.clock.now += 150 * c.chain.params.blockIntervalMs;
    }
    await prepared.chain.prepare({ lists: true });
    const tip = cold.chain.tipHeight();
    const lastEpoch = cold.chain.epochOfHeight(tip);
    const liveHeight = BLOCKS + 1;
    expect(cold.chain.blockAt(liveHeight)!.tx_count).toBeGreaterThan(0);
    for (let e = 0; e <= lastEpoch; e++) expect(prepared.chain.epoch(e), `epoch ${e}`).toEqual(cold.chain.epoch(e));
    // An epoch's sums are its blocks' (read from a third chain, block by block).
    const third = chainOf();
    await third.chain.faucet({ address: third.chain.catalog().addresses[3]!.address, lovelace: 7_000_000n });
    third.clock.now = cold.clock.now;
    for (const e of [0, 17, third.chain.epochOfHeight(liveHeight)]) {
      const blocks = Array.from({ length: third.chain.params.blocksPerEpoch }, (_, i) => third.chain.blockAt(e * third.chain.params.blocksPerEpoch + i)!);
      const epoch = prepared.chain.epoch(e)!;
      expect(epoch.tx_count).toBe(blocks.reduce((n, b) => n + b.tx_count, 0));
      expect(BigInt(epoch.fees!)).toBe(blocks.reduce((n, b) => n + BigInt(b.fees ?? 0), 0n));
      expect(BigInt(epoch.output!)).toBe(blocks.reduce((n, b) => n + BigInt(b.output ?? 0), 0n));
    }
    const pages = (c: SandboxChain) => [
      c.epochNext(0, { count: 100, page: 1, order: 'asc' }),
      c.epochPrevious(lastEpoch, { count: 100, page: 1, order: 'asc' }),
      c.blockNext(1_000, { count: 100, page: 7, order: 'asc' }),
      c.blockPrevious(tip, { count: 100, page: 1, order: 'asc' }),
      c.governance().committeeVotes({ count: 100, page: 3, order: 'asc' }),
      c.governance().committeeVotes({ count: 100, page: 3, order: 'desc' }),
    ];
    expect(pages(prepared.chain)).toEqual(pages(cold.chain));
  }, 120_000);

  it('make a first read of a deep page of epochs, blocks or committee votes cheap in CPU time', async () => {
    const { chain } = chainOf();
    await chain.prepare({ lists: true });
    const lastEpoch = chain.epochOfHeight(chain.tipHeight());
    const reads: Array<[string, () => unknown[] | null | undefined]> = [
      ['/epochs/0/next', () => chain.epochNext(0, { count: 100, page: 1, order: 'asc' })],
      [`/epochs/${lastEpoch}/previous`, () => chain.epochPrevious(lastEpoch, { count: 100, page: 1, order: 'asc' })],
      ['/blocks/0/next page 20', () => chain.blockNext(0, { count: 100, page: 20, order: 'asc' })],
      ['/blocks/{tip}/previous page 30', () => chain.blockPrevious(chain.tipHeight(), { count: 100, page: 30, order: 'asc' })],
      ['/governance/committee/votes page 4', () => chain.governance().committeeVotes({ count: 100, page: 4, order: 'asc' })],
      ['/governance/committee/votes page 2 desc', () => chain.governance().committeeVotes({ count: 100, page: 2, order: 'desc' })],
    ];
    for (const [name, read] of reads) {
      const { value, ms } = cpuOf(read);
      expect(value, name).toHaveLength(100);
      expect(ms, `${name}: ${ms.toFixed(1)} ms of CPU`).toBeLessThan(PAGE_CPU_MS);
    }
    // Without them, the same first read simulates the segments of a hundred epochs.
    const cold = chainOf().chain;
    expect(cpuOf(() => cold.epochNext(0, { count: 100, page: 1, order: 'asc' })).ms).toBeGreaterThan(PAGE_CPU_MS);
  }, 120_000);

  it('are summed a few slices a prepare() once a list has read the history, and not at all before', async () => {
    const { chain } = chainOf();
    const epochCpu = (e: number): number => cpuOf(() => chain.epoch(e)).ms;
    for (let i = 0; i < 30; i++) await chain.prepare();
    // Nothing read yet: an epoch of the history still costs its segment's simulation.
    expect(epochCpu(50)).toBeGreaterThan(5);
    // That read the history: each prepare() now sums a few slices of it, newest first, while epochs
    // read here from the oldest up sum their own; where the two meet an epoch costs nothing to read.
    let e = 2;
    let calls = 0;
    for (; calls < 1_000; calls++) {
      const t0 = threadCpuMs();
      await chain.prepare();
      // A few slices of about 10 ms (each may end a transaction late).
      expect(threadCpuMs() - t0).toBeLessThan(200);
      if (calls % 4 === 3 && epochCpu((e += 2)) < 2) break;
    }
    expect(calls).toBeGreaterThan(3);
    expect(calls).toBeLessThan(1_000);
    expect(e).toBeLessThan(chain.epochOfHeight(chain.tipHeight()) - 10);
  }, 120_000);
});
