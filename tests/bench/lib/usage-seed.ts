// Usage of one project as the gateway's meter would have written it: rollups per hour and day,
// per-day dimension counts and the 30-day windows, over
// the last `dayCount` UTC days (today so far included), every table adding up to exactly `total` requests.
import type { Db } from '../../../server/db/index';
import { HISTORY_DAYS, PRIVATE_NETWORK_DIMENSION, PRIVATE_NETWORK_VALUE } from '../../../shared/usage';
import { isPrivateIp } from '../../../shared/ip';
import { DAY_MS } from '../../../shared/time';

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** Deterministic PRNG (mulberry32), so every run seeds the same data. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Splits `total` into integers proportional to `weights` (largest remainder): they sum to `total` exactly. */
export function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0);
  const exact = weights.map((w) => (w / sum) * total);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((a, n) => a + n, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((x, y) => y[0] - x[0]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) out[order[k]![1]] = out[order[k]![1]]! + 1;
  return out;
}

/** Zipf-like weights with a little per-day jitter: a few values carry most of the traffic. */
const zipf = (n: number, s: number, random: () => number) => Array.from({ length: n }, (_, i) => (1 / (i + 1) ** s) * (0.85 + 0.3 * random()));

const COUNTRIES = (
  'US DE GB FR NL JP SG CA IN BR KR AU CH SE IE ES IT PL FI NO DK AT BE CZ PT HK TW ZA AR MX ' +
  'TR UA RO HU GR IL AE NZ CL CO VN TH MY ID PH NG KE EG SK unknown'
).split(' ');
const ENDPOINTS = [
  '/blocks/latest', '/epochs/latest', '/addresses/{address}', '/addresses/{address}/transactions', '/addresses/{address}/utxos',
  '/txs/{hash}', '/txs/{hash}/utxos', '/txs/{hash}/metadata', '/tx/submit', '/accounts/{stake_address}',
  '/accounts/{stake_address}/rewards', '/accounts/{stake_address}/addresses', '/assets/{asset}', '/assets/{asset}/addresses',
  '/assets/policy/{policy_id}', '/blocks/{hash_or_number}', '/blocks/{hash_or_number}/txs', '/blocks/{hash_or_number}/next',
  '/epochs/{number}', '/epochs/latest/parameters', '/pools/{pool_id}', '/pools/{pool_id}/history', '/pools/{pool_id}/delegators',
  '/pools', '/pools/extended', '/network', '/network/eras', '/genesis', '/health', '/health/clock', '/metadata/txs/labels/{label}',
  '/scripts/{script_hash}', '/scripts/datum/{datum_hash}', '/utils/txs/evaluate', '/mempool', '/mempool/{hash}',
  '/governance/dreps', '/governance/proposals', '/accounts/{stake_address}/delegations', '/',
];
const BROWSERS = [
  'blockfrost-js', 'axios', 'node-fetch', 'Chrome', 'python-requests', 'curl', 'Firefox', 'Safari', 'Go-http-client', 'okhttp',
  'Edge', 'Mobile Safari', 'Dart', 'Java-http-client', 'unknown',
];
const STATUSES: Array<[string, number]> = [['200', 0.93], ['404', 0.03], ['400', 0.015], ['429', 0.015], ['403', 0.006], ['500', 0.004]];

const IP_POOL = 12_000;
const REGULAR_IPS = 400;
const IPS_PER_DAY = 2_000;

export interface SeedSummary {
  rollupRows: number;
  dimensionRows: number;
  days: number;
  /** Requests of the last 30 days (today included): what /stats and /history add up to. */
  lastMonth: number;
  /** Of those, requests from private addresses, counted from the IP rows one by one: what /stats says is 'Private network'. */
  privateLastMonth: number;
}

export async function seedUsage(db: Db, projectId: number, total: number, now = Date.now(), dayCount = HISTORY_DAYS): Promise<SeedSummary> {
  const random = rng(20261122);
  const today = now - (now % DAY_MS);
  const from = today - (dayCount - 1) * DAY_MS;
  const lastMinute = now - (now % MINUTE);

  // Per-minute traffic: growing over the month, busier in the European/US afternoon, with noise.
  const minutes: number[] = [];
  const weights: number[] = [];
  for (let t = from; t <= lastMinute; t += MINUTE) {
    const dayIndex = (t - from) / DAY_MS;
    const hourOfDay = (t % DAY_MS) / HOUR;
    minutes.push(t);
    weights.push((1 + dayIndex / 30) * (1.2 + Math.sin(((hourOfDay - 9) / 24) * 2 * Math.PI)) * (0.7 + 0.6 * random()));
  }
  const perMinute = apportion(total, weights);

  const hours = new Map<number, number>();
  const days = new Map<number, number>();
  const rollups: Array<{ project_id: number; granularity: string; bucket_ms: number; requests: number }> = [];
  minutes.forEach((t, i) => {
    const n = perMinute[i]!;
    hours.set(t - (t % HOUR), (hours.get(t - (t % HOUR)) ?? 0) + n);
    days.set(t - (t % DAY_MS), (days.get(t - (t % DAY_MS)) ?? 0) + n);
  });
  for (const [t, n] of hours) if (n > 0) rollups.push({ project_id: projectId, granularity: 'h', bucket_ms: t, requests: n });
  for (const [t, n] of days) if (n > 0) rollups.push({ project_id: projectId, granularity: 'd', bucket_ms: t, requests: n });

  // A pool of client addresses, v4 and some v6: a steady core seen every day plus a changing crowd.
  const ipPool = Array.from({ length: IP_POOL }, (_, i) =>
    i % 9 === 0
      ? `2a01:4f8:${(random() * 0xffff) | 0}:${(random() * 0xffff) | 0}::${(i + 1).toString(16)}`
      : `${11 + ((random() * 180) | 0)}.${(random() * 256) | 0}.${(random() * 256) | 0}.${1 + ((random() * 254) | 0)}`,
  );

  const dimensions: Array<{ project_id: number; dimension: string; day_ms: number; value: string; requests: number }> = [];
  const split = (day: number, dimension: string, values: string[], w: number[], dayTotal: number) => {
    apportion(dayTotal, w).forEach((n, i) => {
      if (n > 0) dimensions.push({ project_id: projectId, dimension, day_ms: day, value: values[i]!, requests: n });
    });
  };
  for (const [day, dayTotal] of days) {
    split(day, 'country', COUNTRIES, zipf(COUNTRIES.length, 1.3, random), dayTotal);
    split(day, 'endpoint', ENDPOINTS, zipf(ENDPOINTS.length, 1.1, random), dayTotal);
    split(day, 'browser', BROWSERS, zipf(BROWSERS.length, 1.4, random), dayTotal);
    split(day, 'status', STATUSES.map((s) => s[0]), STATUSES.map((s) => s[1] * (0.9 + 0.2 * random())), dayTotal);
    const todays = new Set<number>(Array.from({ length: REGULAR_IPS }, (_, i) => i));
    while (todays.size < IPS_PER_DAY) todays.add(REGULAR_IPS + Math.floor(random() * (IP_POOL - REGULAR_IPS)));
    const before = dimensions.length;
    split(day, 'ip', [...todays].map((i) => ipPool[i]!), zipf(IPS_PER_DAY, 1.0, random), dayTotal);
    // The flush's per-day count of private, loopback and CGNAT clients (some of the pool's 100.64/10, 127/8, 172.16/12).
    const privateRequests = dimensions.slice(before).reduce((a, r) => (isPrivateIp(r.value) ? a + r.requests : a), 0);
    if (privateRequests > 0) dimensions.push({ project_id: projectId, dimension: PRIVATE_NETWORK_DIMENSION, day_ms: day, value: PRIVATE_NETWORK_VALUE, requests: privateRequests });
  }

  await db.transaction(async (trx) => {
    for (let i = 0; i < rollups.length; i += 500) await trx('usage_rollups').insert(rollups.slice(i, i + 500));
    for (let i = 0; i < dimensions.length; i += 500) await trx('usage_dimensions').insert(dimensions.slice(i, i + 500));
    // The 30-day windows as the metering flush leaves them: every day it wrote, added up. The project
    // has no window start yet, so the first /stats moves its window (subtracting the older days).
    await trx.raw(
      `insert into usage_window (project_id, dimension, value, requests)
       select project_id, dimension, value, sum(requests) from usage_dimensions
       where project_id = ? and dimension in ('country', 'ip', 'endpoint', 'browser', ?) group by project_id, dimension, value`,
      [projectId, PRIVATE_NETWORK_DIMENSION],
    );
  });
  const monthFrom = today - (HISTORY_DAYS - 1) * DAY_MS;
  const lastMonth = [...days].reduce((a, [t, n]) => (t >= monthFrom ? a + n : a), 0);
  const privateLastMonth = dimensions.reduce((a, r) => (r.dimension === 'ip' && r.day_ms >= monthFrom && isPrivateIp(r.value) ? a + r.requests : a), 0);
  return { rollupRows: rollups.length, dimensionRows: dimensions.length, days: days.size, lastMonth, privateLastMonth };
}
