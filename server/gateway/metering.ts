import geoip from 'geoip-country';
import { UAParser } from 'ua-parser-js';
import type { Db } from '../db/index';
import type { Logger } from '../logger';
import { DAY_MS } from './limiter';

export interface MeteredRequest {
  projectId: number;
  ownerId: number;
  /** Endpoint template, e.g. /addresses/{address}. */
  endpoint: string;
  status: number;
  ip: string;
  userAgent: string | undefined;
  /** Admitted past rate limit and quota: counts toward the daily quota. */
  admitted: boolean;
  at: number;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const MINUTES_KEPT_MS = 2 * DAY_MS;
const CACHE_LIMIT = 50_000;
const CHUNK = 300;

/** A small bounded memo: geolocation and user-agent parsing are far costlier than a Map lookup. */
function memo<T>(fn: (k: string) => T): (k: string) => T {
  const cache = new Map<string, T>();
  return (k) => {
    let v = cache.get(k);
    if (v === undefined) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      v = fn(k);
      cache.set(k, v);
    }
    return v;
  };
}

export const countryOf = memo((ip: string) => geoip.lookup(ip.startsWith('::ffff:') ? ip.slice(7) : ip)?.country ?? 'unknown');

/** The browser's name; for API clients (curl, SDKs) the first product token of the user agent. */
export const browserOf = memo((ua: string) => {
  if (!ua) return 'unknown';
  const name = new UAParser(ua).getBrowser().name;
  if (name) return name;
  const product = /^([\w.@-]+)/.exec(ua)?.[1];
  return product ? product.slice(0, 64) : 'unknown';
});

interface Pending {
  rollups: Map<string, number>;
  dimensions: Map<string, number>;
  quota: Map<string, number>;
}

const empty = (): Pending => ({ rollups: new Map(), dimensions: new Map(), quota: new Map() });
const add = (m: Map<string, number>, k: string, n = 1) => m.set(k, (m.get(k) ?? 0) + n);

/**
 * Counts requests in memory and flushes them every interval as upserts into rollup tables (per
 * minute, hour and day, per dimension, and the subscription's daily quota usage): rows per bucket,
 * never a row per request. A failed flush keeps its counts for the next one; a crash loses at most
 * one interval.
 */
export class Meter {
  private pending = empty();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | null = null;
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly flushMs: number,
  ) {}

  record(r: MeteredRequest): void {
    const p = this.pending;
    const day = r.at - (r.at % DAY_MS);
    add(p.rollups, `${r.projectId}|m|${r.at - (r.at % MINUTE)}`);
    add(p.rollups, `${r.projectId}|h|${r.at - (r.at % HOUR)}`);
    add(p.rollups, `${r.projectId}|d|${day}`);
    add(p.dimensions, `${r.projectId}|endpoint|${day}|${r.endpoint}`);
    add(p.dimensions, `${r.projectId}|status|${day}|${r.status}`);
    add(p.dimensions, `${r.projectId}|ip|${day}|${r.ip}`);
    add(p.dimensions, `${r.projectId}|country|${day}|${countryOf(r.ip)}`);
    add(p.dimensions, `${r.projectId}|browser|${day}|${browserOf(r.userAgent ?? '')}`);
    if (r.admitted) add(p.quota, `${r.ownerId}|${day}`);
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left (on shutdown). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  flush(): Promise<void> {
    // One flush at a time; a call during a flush waits for it and then writes what came in since.
    const run = (this.flushing ?? Promise.resolve()).then(() => this.write());
    this.flushing = run.finally(() => {
      if (this.flushing === run) this.flushing = null;
    });
    return run;
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    if (batch.rollups.size === 0 && batch.quota.size === 0) return;
    this.pending = empty();
    try {
      await this.db.transaction(async (trx) => {
        const rollups = [...batch.rollups].map(([k, requests]) => {
          const [project, granularity, bucket] = k.split('|');
          return { project_id: Number(project), granularity, bucket_ms: Number(bucket), requests };
        });
        for (let i = 0; i < rollups.length; i += CHUNK) {
          await trx('usage_rollups')
            .insert(rollups.slice(i, i + CHUNK))
            .onConflict(['project_id', 'granularity', 'bucket_ms'])
            .merge({ requests: trx.raw('usage_rollups.requests + excluded.requests') });
        }
        const dims = [...batch.dimensions].map(([k, requests]) => {
          const i1 = k.indexOf('|');
          const i2 = k.indexOf('|', i1 + 1);
          const i3 = k.indexOf('|', i2 + 1);
          return { project_id: Number(k.slice(0, i1)), dimension: k.slice(i1 + 1, i2), day_ms: Number(k.slice(i2 + 1, i3)), value: k.slice(i3 + 1, i3 + 256), requests };
        });
        for (let i = 0; i < dims.length; i += CHUNK) {
          await trx('usage_dimensions')
            .insert(dims.slice(i, i + CHUNK))
            .onConflict(['project_id', 'dimension', 'day_ms', 'value'])
            .merge({ requests: trx.raw('usage_dimensions.requests + excluded.requests') });
        }
        const quota = [...batch.quota].map(([k, requests]) => {
          const [user, day] = k.split('|');
          return { user_id: Number(user), day_ms: Number(day), requests };
        });
        for (let i = 0; i < quota.length; i += CHUNK) {
          await trx('quota_usage')
            .insert(quota.slice(i, i + CHUNK))
            .onConflict(['user_id', 'day_ms'])
            .merge({ requests: trx.raw('quota_usage.requests + excluded.requests') });
        }
      });
    } catch (err) {
      // Put the counts back so the next flush writes them; nothing counted is dropped.
      for (const [k, n] of batch.rollups) add(this.pending.rollups, k, n);
      for (const [k, n] of batch.dimensions) add(this.pending.dimensions, k, n);
      for (const [k, n] of batch.quota) add(this.pending.quota, k, n);
      this.logger.warn({ err: { message: (err as Error).message } }, 'metering: flush failed, will retry');
      return;
    }
    const now = Date.now();
    if (now - this.lastPrune > HOUR) {
      this.lastPrune = now;
      await this.db('usage_rollups').where({ granularity: 'm' }).andWhere('bucket_ms', '<', now - MINUTES_KEPT_MS).delete().catch(() => undefined);
    }
  }
}

/** Today's admitted requests per subscription owner, as flushed so far (the quota's starting point after a restart). */
export async function loadQuotaBase(db: Db, now = Date.now()): Promise<Map<number, number>> {
  const day = now - (now % DAY_MS);
  const rows = await db('quota_usage').where({ day_ms: day }).select('user_id', 'requests');
  return new Map(rows.map((r) => [r.user_id as number, Number(r.requests)]));
}
