// Request insight of a project (GET /api/workspaces/{id}/projects/{uuid}/insight): latency
// percentiles and the error rate by status class over the statistics' 30 days, today by the hour,
// and the most recent failed requests. Latencies are kept as log-scale histograms (never a row per
// request); the percentiles are read off the merged histogram to the resolution stated here.
import { z } from 'zod';

/** Latencies below this go to the first bin, [0, 0.1 ms). */
export const LATENCY_FLOOR_MS = 0.1;
/** Each doubling of latency is cut into this many bins of equal ratio (2^(1/8) ≈ 1.0905). */
const LATENCY_BINS_PER_OCTAVE = 8;
/** Octaves above the floor: the last bin starts at 0.1 ms × 2^21.875 ≈ 6.4 minutes and is open-ended. */
const LATENCY_OCTAVES = 22;
export const LATENCY_BINS = LATENCY_BINS_PER_OCTAVE * LATENCY_OCTAVES;
/**
 * Storage: a row of usage_latency holds this many consecutive bins (two octaves, columns b0 … b15,
 * starting at its `first_bin`), so a project's day or hour is a few rows whatever its traffic.
 */
export const LATENCY_BINS_PER_ROW = 16;
/**
 * A percentile read from the bins is the geometric middle of the bin holding it, so it is within
 * this share of the exact value (2^(1/16) − 1 ≈ 4.43 %); below 0.1 ms it is 0.05 ms, within 0.05 ms.
 */
export const LATENCY_RESOLUTION = 2 ** (1 / (2 * LATENCY_BINS_PER_OCTAVE)) - 1;

/**
 * The endpoint a request to a path Blockfrost does not define is counted under (metering keeps the
 * templates of Blockfrost's document, /addresses/{address}, never a path as it came).
 */
export const UNKNOWN_ENDPOINT = '(unknown path)';

/** How many failed requests each project keeps (trimmed at every metering flush). */
export const RECENT_FAILURES_KEPT = 100;

/** The bin of a latency in milliseconds: 0 below the floor, then LATENCY_BINS_PER_OCTAVE bins per doubling. */
export function latencyBin(ms: number): number {
  if (!(ms >= LATENCY_FLOOR_MS)) return 0;
  const k = Math.floor(Math.log2(ms / LATENCY_FLOOR_MS) * LATENCY_BINS_PER_OCTAVE) + 1;
  return k < LATENCY_BINS ? k : LATENCY_BINS - 1;
}

/** The lower bound of a bin, in milliseconds. */
export const binLowerMs = (k: number): number => (k === 0 ? 0 : LATENCY_FLOOR_MS * 2 ** ((k - 1) / LATENCY_BINS_PER_OCTAVE));

/** The value a bin stands for: its geometric middle (half the floor for the first bin). */
export const binValueMs = (k: number): number => (k === 0 ? LATENCY_FLOOR_MS / 2 : LATENCY_FLOOR_MS * 2 ** ((k - 0.5) / LATENCY_BINS_PER_OCTAVE));

/**
 * The `p`-th quantile (0 < p ≤ 1, nearest rank: the smallest value with at least p of all values at
 * or below it) of a histogram of counts per bin, as the value its bin stands for; null when empty.
 */
export function percentileFromBins(counts: ArrayLike<number>, p: number): number | null {
  let n = 0;
  for (let k = 0; k < counts.length; k++) n += counts[k]!;
  if (n <= 0) return null;
  const rank = Math.max(1, Math.ceil(p * n));
  let seen = 0;
  for (let k = 0; k < counts.length; k++) {
    seen += counts[k]!;
    if (seen >= rank) return binValueMs(k);
  }
  return binValueMs(counts.length - 1);
}

/** A latency for people: 0.42 ms, 12.3 ms, 1.25 s. */
export function formatLatency(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

/** '2xx' … '5xx' for a status code; null for anything else (1xx, nonsense). */
export function statusClassOf(status: number): StatusClass | null {
  const c = Math.floor(status / 100);
  return c >= 2 && c <= 5 ? (`${c}xx` as StatusClass) : null;
}

const count = z.number().int().nonnegative();
const ms = z.number().nonnegative();

const insightHourSchema = z.object({
  /** The hour's start, epoch ms (UTC). */
  time: z.number().int(),
  requests: count,
  errors4xx: count,
  errors5xx: count,
  /** null when the hour had no request. */
  p95Ms: ms.nullable(),
});

const failedRequestSchema = z.object({
  /** When the request arrived, epoch ms. */
  time: z.number().int(),
  /** The endpoint template, e.g. /addresses/{address} (a JSON-RPC call's method). */
  endpoint: z.string(),
  status: z.number().int(),
  ip: z.string(),
  /** What the answer said (Blockfrost's error message, at most 200 characters); null when it said nothing readable. */
  message: z.string().nullable(),
});

export const projectInsightSchema = z.object({
  /** Start of the first of the 30 UTC days (today included), epoch ms. */
  from: z.number().int(),
  latency: z.object({
    /** Requests whose latency was measured over the 30 days (from arrival at the gateway until the answer went out). */
    requests: count,
    p50Ms: ms.nullable(),
    p95Ms: ms.nullable(),
    p99Ms: ms.nullable(),
    /** Each percentile is within this share of the exact value (LATENCY_RESOLUTION). */
    resolution: z.number(),
  }),
  /** Requests of the 30 days by status class. */
  statusClasses: z.object({ '2xx': count, '3xx': count, '4xx': count, '5xx': count }),
  requests: count,
  /** Requests of the 30 days the project's allow-lists refused (403 before any limit; among the 4xx above), by list. */
  refused: z.object({ origin: count, ip: count, method: count }),
  /** Share of 4xx and 5xx answers among the 30 days' requests, 0 … 1; null without requests. */
  errorRate: z.number().min(0).max(1).nullable(),
  /** Today (UTC) by the hour: 24 hours, the hours still to come with zeros. */
  today: z.object({ day: z.number().int(), hours: z.array(insightHourSchema) }),
  /** The most recent failed requests (status 400 and above), newest first, at most RECENT_FAILURES_KEPT. */
  recentFailures: z.array(failedRequestSchema),
});

export type InsightHour = z.infer<typeof insightHourSchema>;
export type FailedRequest = z.infer<typeof failedRequestSchema>;
export type ProjectInsight = z.infer<typeof projectInsightSchema>;
