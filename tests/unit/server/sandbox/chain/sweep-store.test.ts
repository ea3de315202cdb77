// The sweep worker's chunks (server/sandbox/chain/sweep-store.ts): a transaction's place is found by
// the first 32 bits of its hash whether its chunk is still open, kept in memory or written to a file,
// equal keys included where they straddle the keys the worker keeps in memory; a restart reads the
// chunks' totals back and ignores a file that is not whole.
import { mkdtempSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_SEGMENTS, SweepStore, type SweptSegment } from '../../../../../server/sandbox/chain/sweep-store';

const L = 4;
const dir = mkdtempSync(path.join(tmpdir(), 'cairn-sweep-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Segment `index`: 20 transactions, 13 of them under key RUN (so equal keys cross fences), the rest under keys of their own spread on both sides of it. */
const RUN = 0x80000000;
function segmentOf(index: number): SweptSegment {
  const keys = new Uint32Array(20);
  const places = new Uint32Array(20);
  for (let i = 0; i < 20; i++) {
    keys[i] = i % 3 !== 0 ? RUN : Math.imul(index * 64 + i + 1, 2654435761) >>> 0 || 1;
    places[i] = (index * L + (i % L)) * 128 + i;
  }
  const counts = Uint8Array.from({ length: L }, (_, b) => index + b);
  const sizes = Uint32Array.from({ length: L }, (_, b) => 1000 * index + b);
  const money = Float64Array.from({ length: 2 * L }, (_, j) => 2 ** 40 + index * 10 + j);
  return { index, counts, sizes, money, distribution: index.toString(16).padStart(64, '0'), keys, places };
}

const placesOf = (segments: SweptSegment[], key: number): number[] => segments.flatMap((s) => [...s.keys].flatMap((k, i) => (k === key ? [s.places[i]!] : []))).sort((a, b) => a - b);

describe('the sweep store', () => {
  const segments = Array.from({ length: CHUNK_SEGMENTS + 3 }, (_, i) => segmentOf(i));

  for (const where of ['memory', 'file'] as const) {
    it(`finds every place of a key, open chunk or whole (${where})`, () => {
      const store = new SweepStore(where === 'file' ? path.join(dir, 'find') : null, L);
      for (const s of segments) store.add(s);
      // 832 entries of key RUN among a chunk's 64 × 20 = 1,280, some 224 smaller keys before them: they
      // begin before the fence at 512 and straddle it and the one at 1,024 (the worker keeps every 512th key).
      for (const key of [RUN, segments[5]!.keys[0]!, segments[CHUNK_SEGMENTS + 1]!.keys[3]!, 8]) {
        expect(store.find(key).sort((a, b) => a - b), `key ${key}`).toEqual(placesOf(segments, key));
      }
      expect(store.has(CHUNK_SEGMENTS + 2)).toBe(true);
      expect(store.has(CHUNK_SEGMENTS + 3)).toBe(false);
    });
  }

  it('reads a restart\'s chunks back, and ignores one that is not whole', () => {
    const again = new SweepStore(path.join(dir, 'find'), L);
    const loaded = [...again.load()].flat();
    expect(loaded.map((s) => s.index)).toEqual(segments.slice(0, CHUNK_SEGMENTS).map((s) => s.index));
    expect(loaded[9]).toMatchObject({ counts: segments[9]!.counts, sizes: segments[9]!.sizes, money: segments[9]!.money, distribution: segments[9]!.distribution });
    expect(again.find(RUN).sort((a, b) => a - b)).toEqual(placesOf(segments.slice(0, CHUNK_SEGMENTS), RUN));
    // Only the whole chunk was written; the open one is swept again after a restart.
    expect(again.has(CHUNK_SEGMENTS)).toBe(false);
    const file = path.join(dir, 'find', readdirSync(path.join(dir, 'find')).find((f) => f.startsWith('chunk-'))!);
    truncateSync(file, 100);
    const broken = new SweepStore(path.join(dir, 'find'), L);
    expect([...broken.load()]).toEqual([]);
    expect(broken.has(0)).toBe(false);
  });
});
