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

const add = <K>(m: Map<K, number>, k: K, n = 1) => m.set(k, (m.get(k) ?? 0) + n);

/** One project's counts since the last flush, keyed by raw values so recording stays cheap. */
interface ProjectCounts {
  minutes: Map<number, number>;
  hours: Map<number, number>;
  /** Per UTC day: the day's total and its dimensions. Country and browser are derived at flush time. */
  days: Map<number, { total: number; endpoint: Map<string, number>; status: Map<number, number>; ip: Map<string, number>; ua: Map<string, number> }>;
}

interface Pending {
  projects: Map<number, ProjectCounts>;
  /** `${ownerId}|${day}` → admitted requests. */
  quota: Map<string, number>;
}

const empty = (): Pending => ({ projects: new Map(), quota: new Map() });

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
    let p = this.pending.projects.get(r.projectId);
    if (!p) {
      p = { minutes: new Map(), hours: new Map(), days: new Map() };
      this.pending.projects.set(r.projectId, p);
    }
    const dayStart = r.at - (r.at % DAY_MS);
    add(p.minutes, r.at - (r.at % MINUTE));
    add(p.hours, r.at - (r.at % HOUR));
    let d = p.days.get(dayStart);
    if (!d) {
      d = { total: 0, endpoint: new Map(), status: new Map(), ip: new Map(), ua: new Map() };
      p.days.set(dayStart, d);
    }
    d.total += 1;
    add(d.endpoint, r.endpoint);
    add(d.status, r.status);
    add(d.ip, r.ip);
    add(d.ua, r.userAgent ?? '');
    if (r.admitted) add(this.pending.quota, `${r.ownerId}|${dayStart}`);
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

  /** Turns the counts into rows; country and browser come from each distinct IP and user agent. */
  private rows(batch: Pending) {
    const rollups: Array<{ project_id: number; granularity: string; bucket_ms: number; requests: number }> = [];
    const dims: Array<{ project_id: number; dimension: string; day_ms: number; value: string; requests: number }> = [];
    for (const [project_id, p] of batch.projects) {
      for (const [bucket_ms, requests] of p.minutes) rollups.push({ project_id, granularity: 'm', bucket_ms, requests });
      for (const [bucket_ms, requests] of p.hours) rollups.push({ project_id, granularity: 'h', bucket_ms, requests });
      for (const [day_ms, d] of p.days) {
        rollups.push({ project_id, granularity: 'd', bucket_ms: day_ms, requests: d.total });
        const country = new Map<string, number>();
        const browser = new Map<string, number>();
        for (const [ip, n] of d.ip) add(country, countryOf(ip), n);
        for (const [ua, n] of d.ua) add(browser, browserOf(ua), n);
        const push = (dimension: string, m: Map<string | number, number>) => {
          for (const [value, requests] of m) dims.push({ project_id, dimension, day_ms, value: String(value).slice(0, 255), requests });
        };
        push('endpoint', d.endpoint);
        push('status', d.status);
        push('ip', d.ip);
        push('country', country);
        push('browser', browser);
      }
    }
    const quota = [...batch.quota].map(([k, requests]) => {
      const [user, day] = k.split('|');
      return { user_id: Number(user), day_ms: Number(day), requests };
    });
    return { rollups, dims, quota };
  }

  private async write(): Promise<void> {
    const batch = this.pending;
    if (batch.projects.size === 0 && batch.quota.size === 0) return;
    this.pending = empty();
    const { rollups, dims, quota } = this.rows(batch);
    try {
      await this.db.transaction(async (trx) => {
        const upsert = async (table: string, rows: object[], keys: string[]) => {
          for (let i = 0; i < rows.length; i += CHUNK) {
            await trx(table)
              .insert(rows.slice(i, i + CHUNK))
              .onConflict(keys)
              .merge({ requests: trx.raw(`${table}.requests + excluded.requests`) });
            // Building a chunk's SQL takes the event loop; let requests through between chunks.
            await new Promise((r) => setImmediate(r));
          }
        };
        await upsert('usage_rollups', rollups, ['project_id', 'granularity', 'bucket_ms']);
        await upsert('usage_dimensions', dims, ['project_id', 'dimension', 'day_ms', 'value']);
        await upsert('quota_usage', quota, ['user_id', 'day_ms']);
      });
    } catch (err) {
      // Put the counts back so the next flush writes them; nothing counted is dropped.
      this.restore(batch);
      this.logger.warn({ err: { message: (err as Error).message } }, 'metering: flush failed, will retry');
      return;
    }
    const now = Date.now();
    if (now - this.lastPrune > HOUR) {
      this.lastPrune = now;
      await this.db('usage_rollups').where({ granularity: 'm' }).andWhere('bucket_ms', '<', now - MINUTES_KEPT_MS).delete().catch(() => undefined);
    }
  }

  private restore(batch: Pending) {
    const merge = <K>(into: Map<K, number>, from: Map<K, number>) => {
      for (const [k, n] of from) add(into, k, n);
    };
    for (const [projectId, p] of batch.projects) {
      let q = this.pending.projects.get(projectId);
      if (!q) {
        q = { minutes: new Map(), hours: new Map(), days: new Map() };
        this.pending.projects.set(projectId, q);
      }
      merge(q.minutes, p.minutes);
      merge(q.hours, p.hours);
      for (const [day, d] of p.days) {
        const e = q.days.get(day);
        if (!e) q.days.set(day, d);
        else {
          e.total += d.total;
          merge(e.endpoint, d.endpoint);
          merge(e.status, d.status);
          merge(e.ip, d.ip);
          merge(e.ua, d.ua);
        }
      }
    }
    merge(this.pending.quota, batch.quota);
  }
}

/** Today's admitted requests per subscription owner, as flushed so far (the quota's starting point after a restart). */
export async function loadQuotaBase(db: Db, now = Date.now()): Promise<Map<number, number>> {
  const day = now - (now % DAY_MS);
  const rows = await db('quota_usage').where({ day_ms: day }).select('user_id', 'requests');
  return new Map(rows.map((r) => [r.user_id as number, Number(r.requests)]));
}
