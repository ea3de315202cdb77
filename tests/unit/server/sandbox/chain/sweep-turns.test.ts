// The turns of a process's shared chains' workers (server/sandbox/chain/sweep.ts): one sums its
// history at a time, in the order the chains were made, except that a chain whose cold page of
// epochs a client reads takes the turn, so the network in use is summed next rather than after every
// chain made before it; the worker whose turn it was stops its own pass.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { segmentSumsOf } from '../../../../../server/sandbox/chain/chain';
import { sliced } from '../../../../../server/sandbox/chain/budget';
import { SweepClient } from '../../../../../server/sandbox/chain/sweep';
import { sumColumns } from '../../../../../server/sandbox/chain/totals';
import { sweepWorkerData, testChain } from './support';

describe('the turns of the shared chains\' workers', () => {
  const now = Date.UTC(2026, 2, 1, 12);
  /** A chain of `blocks` blocks and a sums-only worker for it, and the segments whose sums it has sent. */
  const withWorker = (network: 'mainnet' | 'preprod', blocks: number) => {
    const { chain } = testChain({ network, genesisTime: now - blocks * 20_000, blockIntervalMs: 20_000, now: () => now });
    const p = chain.params;
    const sent = new Set<number>();
    const client = new SweepClient(
      sweepWorkerData(p),
      { segment: () => undefined, sums: (s) => void sent.add(s.index) },
      true,
    );
    client.tip(chain.tipHeight());
    return { chain, client, sent };
  };
  /** The turns given and taken: each call's worker and what it was told. */
  const background = vi.spyOn(SweepClient.prototype, 'background');
  const told = () => background.mock.calls.map(([work], i) => ({ client: background.mock.contexts[i], work }));
  // The first chain's history is long enough that its turn lasts the whole test (some 100,000 segments).
  const first = withWorker('mainnet', 6_000_000);
  const read = withWorker('preprod', 2_000_000);
  afterAll(async () => {
    background.mockRestore();
    await Promise.all([first.client.close(), read.client.close()]);
  });

  it('gives the turn to the chain whose cold page of epochs is read, and stops the pass of the one that had it', async () => {
    await Promise.all([first.client.ready(), read.client.ready()]);
    // Ready, the second chain's worker has sent its warm-up's sums and waits for its turn.
    expect(told().filter((t) => t.client === read.client)).toEqual([]);
    const warm = read.sent.size;

    // A cold page in the middle of its history, summed by both threads.
    const from = 15_000;
    const to = from + 49;
    await sliced(() =>
      read.client.assist.sum(from, to, (s) => read.sent.has(s), (s) => {
        sumColumns(segmentSumsOf(read.chain, s));
        read.sent.add(s);
      }),
    );
    // Its worker now sums its history on its own, the newest first, and the one whose turn it was stops.
    expect(told().some((t) => t.client === read.client && t.work === 'sums')).toBe(true);
    expect(told().some((t) => t.client !== read.client && t.work === 'off')).toBe(true);
    const stopped = first.sent.size;
    await expect.poll(() => read.sent.size, { timeout: 30_000 }).toBeGreaterThan(warm + 50 + 500);
    // Meanwhile the first chain's worker sent at most the batch it was summing when told (32 segments).
    expect(first.sent.size - stopped).toBeLessThanOrEqual(32);
  }, 90_000);
});
