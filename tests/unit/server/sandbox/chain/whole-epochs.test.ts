// An index's whole epochs written out and installed into another (server/sandbox/chain/totals.ts),
// as a devnet's history store keeps them between loads: the epochs read the same sums, the segments
// all of whose epochs are whole count as summed, and a segment summed later beside an installed
// epoch adds its blocks only to the epochs not whole yet.
import { describe, expect, it } from 'vitest';
import { TotalsIndex } from '../../../../../server/sandbox/chain/totals';

const L = 60;
/** Segment s's columns: block b holds (s + b) % 7 transactions, output 1e12 + s·1000 + b, fees 170,000 + b. */
const columns = (s: number) => {
  const counts = new Uint8Array(L);
  const money = new Float64Array(2 * L);
  for (let b = 0; b < L; b++) {
    counts[b] = (s + b) % 7;
    money[2 * b] = 1e12 + s * 1000 + b;
    money[2 * b + 1] = 170_000 + b;
  }
  return { counts, money };
};
const summed = (blocksPerEpoch: number, segments: number[]): TotalsIndex => {
  const t = new TotalsIndex(L, blocksPerEpoch, 16);
  for (const s of segments) t.addEpochSums(s, columns(s));
  return t;
};
const epochs = (t: TotalsIndex, n: number) => Array.from({ length: n }, (_, e) => t.epoch(e));

describe('whole epochs written out and installed', () => {
  it('read the same sums, and the segments within them count as summed', () => {
    // Epochs of 30 blocks: each segment holds two.
    const from = summed(30, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(from.wholeCount).toBe(20);
    const to = new TotalsIndex(L, 30, 16);
    to.installWholeEpochs(from.wholeEpochs(), 100);
    expect(to.wholeCount).toBe(20);
    expect(epochs(to, 21)).toEqual(epochs(from, 21));
    expect(epochs(to, 21)[20]).toBeNull();
    for (let s = 0; s < 10; s++) expect(to.summed(s)).toBe(true);
    expect(to.summed(10)).toBe(false);
    // Written out again: the same bytes' sums.
    const again = new TotalsIndex(L, 30, 16);
    again.installWholeEpochs(to.wholeEpochs(), 100);
    expect(epochs(again, 21)).toEqual(epochs(from, 21));
  });

  it('leave out the epochs past the last one asked, and install nothing from malformed bytes', () => {
    const from = summed(30, [0, 1, 2, 3]);
    const to = new TotalsIndex(L, 30, 16);
    to.installWholeEpochs(from.wholeEpochs(), 4);
    expect(to.wholeCount).toBe(5);
    expect(to.epoch(5)).toBeNull();
    // Segment 2 holds epochs 4 and 5: 5 is not installed, so 2 is not summed.
    expect([0, 1, 2].map((s) => to.summed(s))).toEqual([true, true, false]);
    const bad = new TotalsIndex(L, 30, 16);
    bad.installWholeEpochs(new Uint8Array(47), 100);
    expect(bad.wholeCount).toBe(0);
  });

  it('beside a segment shared with an epoch not whole, count that segment\'s blocks once', () => {
    // Epochs of 90 blocks: segment 1 (blocks 60–119) holds the end of epoch 0 and the start of epoch 1.
    const whole = summed(90, [0, 1, 2, 3, 4, 5]);
    // Epoch 1's record alone: its number, then its five sums.
    const records = new Float64Array(whole.wholeEpochs().slice().buffer);
    const at = records.findIndex((v, i) => i % 6 === 0 && v === 1);
    const only1 = records.slice(at, at + 6);
    const to = new TotalsIndex(L, 90, 16);
    to.installWholeEpochs(new Uint8Array(only1.buffer), 100);
    expect(to.wholeCount).toBe(1);
    expect([0, 1, 2].map((s) => to.summed(s))).toEqual([false, false, true]);
    // Segments 0 and 1 summed now: epoch 0 is whole with its blocks, epoch 1 keeps its installed sums.
    to.addEpochSums(0, columns(0));
    to.addEpochSums(1, columns(1));
    expect(to.wholeCount).toBe(2);
    expect(epochs(to, 2)).toEqual(epochs(whole, 2));
  });
});
