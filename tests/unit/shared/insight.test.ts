import { describe, expect, it } from 'vitest';
import {
  LATENCY_BINS,
  LATENCY_FLOOR_MS,
  LATENCY_RESOLUTION,
  binLowerMs,
  binValueMs,
  formatLatency,
  latencyBin,
  percentileFromBins,
  statusClassOf,
} from '../../../shared/insight';

/** A small seeded generator, so a failure can be replayed. */
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Nearest rank, the definition percentileFromBins follows: the smallest value with at least p of all values at or below it. */
function exactPercentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(1, Math.ceil(p * sorted.length)) - 1]!;
}

const histogramOf = (values: readonly number[]) => {
  const bins = new Uint32Array(LATENCY_BINS);
  for (const v of values) bins[latencyBin(v)]! += 1;
  return bins;
};

/** Within the stated resolution: a share of the exact value, or half the floor below it. */
function expectWithinResolution(estimate: number | null, exact: number) {
  expect(estimate).not.toBeNull();
  const allowed = exact >= LATENCY_FLOOR_MS ? exact * LATENCY_RESOLUTION * (1 + 1e-9) : LATENCY_FLOOR_MS / 2;
  expect(Math.abs(estimate! - exact), `estimate ${estimate} vs exact ${exact}`).toBeLessThanOrEqual(allowed);
}

const QUANTILES = [0.5, 0.9, 0.95, 0.99, 0.999, 1];

describe('latency percentiles from log-scale bins', () => {
  it('states a resolution of about 4.4 %', () => {
    expect(LATENCY_RESOLUTION).toBeGreaterThan(0.044);
    expect(LATENCY_RESOLUTION).toBeLessThan(0.045);
  });

  it('puts every latency in the bin whose bounds hold it, bins in increasing order', () => {
    const random = mulberry32(7);
    for (let i = 0; i < 20_000; i++) {
      const v = Math.exp(random() * 22) * 0.01; // 0.01 ms … about 36 s
      const k = latencyBin(v);
      // Floating point may land a value sitting on a bound in the neighbouring bin; allow that much.
      expect(v).toBeGreaterThanOrEqual(binLowerMs(k) * (1 - 1e-12));
      if (k < LATENCY_BINS - 1) expect(v).toBeLessThan(binLowerMs(k + 1) * (1 + 1e-12));
      expect(binLowerMs(k)).toBeLessThanOrEqual(binValueMs(k));
    }
    expect(latencyBin(0)).toBe(0);
    expect(latencyBin(-3)).toBe(0);
    expect(latencyBin(Number.NaN)).toBe(0);
    expect(latencyBin(1e12)).toBe(LATENCY_BINS - 1);
  });

  const distributions: Array<[string, (r: () => number) => number]> = [
    // A typical API: most answers in a few ms, a long tail (log-normal).
    ['log-normal around 3 ms', (r) => Math.exp(Math.log(3) + 0.9 * Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r()))],
    // Cached answers and backend calls: two modes far apart.
    ['bimodal 0.3 ms / 120 ms', (r) => (r() < 0.8 ? 0.2 + 0.2 * r() : 80 + 80 * r())],
    ['uniform 0 … 2 s', (r) => 2000 * r()],
    // Below the floor too.
    ['sub-millisecond 0.01 … 0.5 ms', (r) => 0.01 + 0.49 * r()],
  ];

  for (const [name, draw] of distributions) {
    it(`matches exact percentiles within the resolution: ${name}`, () => {
      for (const seed of [1, 2, 3, 4, 5]) {
        const random = mulberry32(seed * 1013 + name.length);
        const n = 1 + Math.floor(random() * 50_000);
        const values = Array.from({ length: n }, () => draw(random));
        const sorted = [...values].sort((a, b) => a - b);
        const bins = histogramOf(values);
        for (const p of QUANTILES) expectWithinResolution(percentileFromBins(bins, p), exactPercentile(sorted, p));
      }
    });
  }

  it('gives the same percentiles from 30 days of histograms merged as from all values at once', () => {
    const random = mulberry32(30);
    const days = Array.from({ length: 30 }, (_, d) => Array.from({ length: 200 + Math.floor(random() * 2000) }, () => (d % 7 === 0 ? 50 : 2) * Math.exp(random() * 3)));
    const merged = new Float64Array(LATENCY_BINS);
    for (const day of days) histogramOf(day).forEach((n, k) => (merged[k]! += n));
    const sorted = days.flat().sort((a, b) => a - b);
    for (const p of QUANTILES) {
      expect(percentileFromBins(merged, p)).toBe(percentileFromBins(histogramOf(sorted), p));
      expectWithinResolution(percentileFromBins(merged, p), exactPercentile(sorted, p));
    }
  });

  it('answers null for an empty histogram and the one value for a single request', () => {
    expect(percentileFromBins(new Uint32Array(LATENCY_BINS), 0.5)).toBeNull();
    const one = histogramOf([12.5]);
    for (const p of QUANTILES) expectWithinResolution(percentileFromBins(one, p), 12.5);
  });
});

describe('status classes and latency text', () => {
  it('classes 2xx to 5xx and nothing else', () => {
    expect([200, 204, 301, 404, 429, 500, 503].map(statusClassOf)).toEqual(['2xx', '2xx', '3xx', '4xx', '4xx', '5xx', '5xx']);
    expect(statusClassOf(101)).toBeNull();
    expect(statusClassOf(600)).toBeNull();
  });

  it('formats latencies for people', () => {
    expect(formatLatency(0.4243)).toBe('0.42 ms');
    expect(formatLatency(12.34)).toBe('12.3 ms');
    expect(formatLatency(345.6)).toBe('346 ms');
    expect(formatLatency(1250)).toBe('1.25 s');
  });
});
