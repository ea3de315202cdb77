// The metering's counting and writing, run in the gateway's metering worker thread
// (metering-worker.ts): requests come in as compact records from the gateway's thread (metering.ts),
// are counted here per project, bucket and dimension, and each flush turns the counts into parts of
// plain SQL that the gateway's thread runs on its database connection, one transaction per part.
import geoip from 'geoip-country';
import { UAParser } from 'ua-parser-js';
import { LATENCY_BINS, LATENCY_BINS_PER_ROW, RECENT_FAILURES_KEPT, latencyBin } from '../../shared/insight';
import { DAY_MS } from './limiter';
import { isPrivateIp } from '../../shared/ip';
import { PRIVATE_NETWORK_DIMENSION, PRIVATE_NETWORK_VALUE } from '../../shared/usage';

const HOUR = 3_600_000;
const CACHE_LIMIT = 50_000;
/** Rows per statement. */
const CHUNK = 200;
/** About this many rows go in one transaction; a bigger batch is written in parts. */
const PART_ROWS = 1000;
/**
 * Days older than this many days before today are not added to the 30-day window (the statistics
 * service moves a window at most to 29 days before its own today, so what is added always lies
 * inside it, with a day to spare for clocks).
 */
const WINDOW_FLOOR_DAYS = 28;
/** Pause between parts, so a big flush is spread out instead of taking a whole core in one burst. */
const PART_GAP_MS = 40;

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

const privateIp = memo(isPrivateIp);

/** The browser's name; for API clients (curl, SDKs) the first product token of the user agent. */
export const browserOf = memo((ua: string) => {
  if (!ua) return 'unknown';
  const name = new UAParser(ua).getBrowser().name;
  if (name) return name;
  const product = /^([\w.@-]+)/.exec(ua)?.[1];
  return product ? product.slice(0, 64) : 'unknown';
});

const add = <K>(m: Map<K, number>, k: K, n = 1) => m.set(k, (m.get(k) ?? 0) + n);

/** One UTC day's total and dimensions. Country and browser are derived at flush time. */
interface DayCounts {
  total: number;
  endpoint: Map<string, number>;
  status: Map<number, number>;
  ip: Map<string, number>;
  ua: Map<string, number>;
}

/**
 * One hour's latency histogram: requests per latency bin (shared/insight.ts), added to the stored
 * one at flush. Only hours are written; the retention pass moves past days' hours into day rows
 * (services/insight.ts compactLatency), so the flush writes one histogram, not two.
 */
interface HourLatency {
  n: number;
  bins: Uint32Array;
}

/** A failed request (status 400 and above) for the project's bounded recent log. */
interface Failure {
  at: number;
  endpoint: string;
  status: number;
  ip: string;
}

/** One project's counts since the last flush, keyed by raw values so recording stays cheap. */
interface ProjectCounts {
  hours: Map<number, number>;
  days: Map<number, DayCounts>;
  hourLatency: Map<number, HourLatency>;
  /** 4xx and 5xx answers per hour, keyed by the hour's start plus the class (4 or 5): hour starts are multiples of 3,600,000. */
  errorHours: Map<number, number>;
  /**
   * The interval's last RECENT_FAILURES_KEPT failed requests, a ring: while it is not full they are
   * in order; once full, `failureHead` is the oldest (and the next to be overwritten).
   */
  failures: Failure[];
  failureHead: number;
}

interface Pending {
  projects: Map<number, ProjectCounts>;
  /** `${ownerId}|${day}` → admitted requests. */
  quota: Map<string, number>;
}

const empty = (): Pending => ({ projects: new Map(), quota: new Map() });

function projectIn(pending: Pending, projectId: number): ProjectCounts {
  let p = pending.projects.get(projectId);
  if (!p) {
    p = { hours: new Map(), days: new Map(), hourLatency: new Map(), errorHours: new Map(), failures: [], failureHead: 0 };
    pending.projects.set(projectId, p);
  }
  return p;
}

function dayIn(p: ProjectCounts, dayStart: number): DayCounts {
  let d = p.days.get(dayStart);
  if (!d) {
    d = { total: 0, endpoint: new Map(), status: new Map(), ip: new Map(), ua: new Map() };
    p.days.set(dayStart, d);
  }
  return d;
}

function hourLatencyIn(p: ProjectCounts, hourStart: number): HourLatency {
  let h = p.hourLatency.get(hourStart);
  if (!h) {
    h = { n: 0, bins: new Uint32Array(LATENCY_BINS) };
    p.hourLatency.set(hourStart, h);
  }
  return h;
}

/** Notes a failed request in the project's ring, overwriting the oldest once it holds RECENT_FAILURES_KEPT. */
function noteFailure(p: ProjectCounts, at: number, endpoint: string, status: number, ip: string): void {
  if (p.failures.length < RECENT_FAILURES_KEPT) {
    p.failures.push({ at, endpoint, status, ip });
    return;
  }
  const f = p.failures[p.failureHead]!;
  f.at = at;
  f.endpoint = endpoint;
  f.status = status;
  f.ip = ip;
  p.failureHead = (p.failureHead + 1) % RECENT_FAILURES_KEPT;
}

/** The ring's failures, oldest first. */
const failuresInOrder = (p: ProjectCounts): Failure[] => (p.failureHead === 0 ? p.failures : [...p.failures.slice(p.failureHead), ...p.failures.slice(0, p.failureHead)]);

/** Sets every count to 0 and forgets the entries that were already 0 (unused for a whole interval). Answers whether any was in use. */
function zero<K>(m: Map<K, number>): boolean {
  let used = false;
  for (const [k, n] of m) {
    if (n === 0) m.delete(k);
    else {
      m.set(k, 0);
      used = true;
    }
  }
  return used;
}

/**
 * Empties a written project's counts for the buffer's next turn while keeping its maps and keys:
 * the same projects, IPs and endpoints come back interval after interval, and re-creating their
 * maps every flush made thousands of objects live just long enough to be promoted and collected by
 * full garbage collections in the gateway. What went unused for a whole interval is let go. Answers
 * whether the project counted anything in the interval (if not, the caller lets it go too).
 */
function resetProject(p: ProjectCounts): boolean {
  let used = zero(p.hours);
  zero(p.errorHours);
  for (const [hour, h] of p.hourLatency) {
    if (h.n === 0) p.hourLatency.delete(hour);
    else {
      h.n = 0;
      h.bins.fill(0);
    }
  }
  p.failures.length = 0;
  p.failureHead = 0;
  for (const [day, d] of p.days) {
    if (d.total === 0) {
      p.days.delete(day);
      continue;
    }
    d.total = 0;
    zero(d.endpoint);
    zero(d.status);
    zero(d.ip);
    zero(d.ua);
    used = true;
  }
  return used;
}

/** Empties a written buffer for its next turn (resetProject for each project, letting go of idle ones). */
function reset(batch: Pending): void {
  for (const [projectId, p] of batch.projects) if (!resetProject(p)) batch.projects.delete(projectId);
  zero(batch.quota);
}

/**
 * About how many rows a project's counts become (country and browser at most one per IP and user
 * agent; the windowed dimensions twice, by day and in the window; a few rows of latency bins per
 * hour; the failed requests, one row each).
 */
function rowsOf(p: ProjectCounts): number {
  let n = p.hours.size + 2 * p.hourLatency.size + p.errorHours.size + p.failures.length;
  for (const d of p.days.values()) n += 1 + 2 * d.endpoint.size + d.status.size + 4 * d.ip.size + 2 * d.ua.size;
  return n;
}

/** Cuts a batch into parts of about PART_ROWS rows (whole projects; the quota rows go with the first). */
function split(batch: Pending): Pending[] {
  const parts: Pending[] = [{ projects: new Map(), quota: batch.quota }];
  let rows = batch.quota.size;
  for (const [projectId, p] of batch.projects) {
    const n = rowsOf(p);
    if (rows > 0 && rows + n > PART_ROWS) {
      parts.push({ projects: new Map(), quota: new Map() });
      rows = 0;
    }
    parts[parts.length - 1]!.projects.set(projectId, p);
    rows += n;
  }
  return parts;
}

/**
 * A text value as an SQL string literal: quotes doubled, NUL dropped (PostgreSQL's text cannot hold
 * it). The same literal reads the same on SQLite and on PostgreSQL, where each part sets
 * standard_conforming_strings (backslashes are plain characters) for its own transaction.
 */
export const text = (s: string): string => `'${s.replace(/\0/g, '').replace(/'/g, "''")}'`;

/**
 * Multi-row upserts into one table that add to the stored counts (the same text on SQLite and
 * PostgreSQL), CHUNK rows to a statement. Every value is written into the statement (integers
 * checked, texts quoted): the part goes to the database as one script with nothing to bind, so the
 * gateway's thread does no per-row work at all. Without `sums` the rows are plain inserts (the
 * failed-request log).
 */
class Upserts {
  private tuples: string[] = [];
  private readonly head: string;
  private readonly tail: string;

  constructor(
    table: string,
    columns: readonly string[],
    keys: readonly string[],
    private readonly out: string[],
    sums: readonly string[] = ['requests'],
  ) {
    this.head = `insert into ${table} (${columns.join(', ')}) values `;
    this.tail = sums.length === 0 ? '' : ` on conflict (${keys.join(', ')}) do update set ${sums.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')}`;
  }

  add(tuple: string): void {
    this.tuples.push(tuple);
    if (this.tuples.length >= CHUNK) this.send();
  }

  /**
   * Adds the rows so far to the script as one statement. No statement carries more than CHUNK rows,
   * however many one busy project added.
   */
  send(): void {
    if (this.tuples.length === 0) return;
    this.out.push(this.head + this.tuples.join(', ') + this.tail);
    this.tuples = [];
  }
}

/** An integer written into a statement: checked, so nothing but digits ever reaches the SQL. */
const int = (n: number): string => {
  if (!Number.isSafeInteger(n)) throw new Error(`metering: not an integer: ${n}`);
  return String(n);
};

/** The dimensions of the statistics page, whose 30-day totals the flush keeps in usage_window. */
const WINDOWED = new Set(['country', 'ip', 'endpoint', 'browser', PRIVATE_NETWORK_DIMENSION]);

/**
 * The tables one part of a flush writes. To extend the flush (another rollup), add its Upserts here
 * and its rows in appendRows: chunking, parts and retries apply to it unchanged.
 */
interface Tables {
  rollups: Upserts;
  dims: Upserts;
  /** 30-day totals per dimension and value (services/usage.ts reads them and moves the window). */
  window: Upserts;
  quota: Upserts;
  /** Latency histograms per hour, LATENCY_BINS_PER_ROW bins to a row (request insight). */
  latency: Upserts;
  /** 4xx and 5xx answers per hour (today's hourly chart). */
  errorHours: Upserts;
  /** The failed-request log (plain inserts; the part trims each project's log to RECENT_FAILURES_KEPT afterwards). */
  failures: Upserts;
}

/** The bin columns of a usage_latency row. */
const BIN_COLUMNS = Array.from({ length: LATENCY_BINS_PER_ROW }, (_, i) => `b${i}`);

/** A histogram as rows of usage_latency, one per LATENCY_BINS_PER_ROW bins that hold any request. */
function histogramRows(latency: Upserts, pid: string, hour: number, bins: Uint32Array): void {
  for (let from = 0; from < LATENCY_BINS; from += LATENCY_BINS_PER_ROW) {
    let any = false;
    for (let k = from; k < from + LATENCY_BINS_PER_ROW; k++) {
      if (bins[k] !== 0) {
        any = true;
        break;
      }
    }
    if (!any) continue;
    let tuple = `(${pid}, 'h', ${int(hour)}, ${from}`;
    for (let k = from; k < from + LATENCY_BINS_PER_ROW; k++) tuple += `, ${bins[k]!}`;
    latency.add(tuple + ')');
  }
}

/**
 * One project's counts as rows; country and browser come from each distinct IP and user agent.
 * Days from `windowFloor` on are also added to the project's 30-day window; an older day (only
 * counts held back by weeks of failed flushes) goes to the daily tables alone.
 */
function appendRows(projectId: number, p: ProjectCounts, t: Tables, windowFloor: number): void {
  const { rollups, dims, window, latency } = t;
  const pid = int(projectId);
  for (const [bucket, n] of p.hours) if (n > 0) rollups.add(`(${pid}, 'h', ${int(bucket)}, ${int(n)})`);
  for (const [hour, h] of p.hourLatency) if (h.n > 0) histogramRows(latency, pid, hour, h.bins);
  for (const [key, n] of p.errorHours) {
    if (n <= 0) continue;
    const statusClass = key % HOUR;
    t.errorHours.add(`(${pid}, ${int(key - statusClass)}, ${int(statusClass)}, ${int(n)})`);
  }
  for (const f of failuresInOrder(p)) t.failures.add(`(${pid}, ${int(f.at)}, ${text(f.endpoint.slice(0, 255))}, ${int(f.status)}, ${text(f.ip.slice(0, 64))})`);
  for (const [day, d] of p.days) {
    if (d.total === 0) continue;
    rollups.add(`(${pid}, 'd', ${int(day)}, ${int(d.total)})`);
    const country = new Map<string, number>();
    const browser = new Map<string, number>();
    const privateNetwork = new Map<string, number>();
    for (const [ip, n] of d.ip) {
      if (n <= 0) continue;
      add(country, countryOf(ip), n);
      if (privateIp(ip)) add(privateNetwork, PRIVATE_NETWORK_VALUE, n);
    }
    for (const [ua, n] of d.ua) if (n > 0) add(browser, browserOf(ua), n);
    for (const [dimension, m] of [
      ['endpoint', d.endpoint],
      ['status', d.status],
      ['ip', d.ip],
      ['country', country],
      ['browser', browser],
      [PRIVATE_NETWORK_DIMENSION, privateNetwork],
    ] as const) {
      const windowed = day >= windowFloor && WINDOWED.has(dimension);
      for (const [value, n] of m as Map<string | number, number>) {
        if (n <= 0) continue;
        const v = text(String(value).slice(0, 255));
        dims.add(`(${pid}, '${dimension}', ${int(day)}, ${v}, ${int(n)})`);
        if (windowed) window.add(`(${pid}, '${dimension}', ${v}, ${int(n)})`);
      }
    }
  }
}

/** One request as the gateway's thread hands it over (metering.ts packs these into records). */
export interface CountedRequest {
  projectId: number;
  ownerId: number;
  endpoint: string;
  status: number;
  ip: string;
  userAgent: string;
  admitted: boolean;
  at: number;
  latencyMs: number;
}

/** One flush as the gateway's thread runs it (metering.ts). */
export interface FlushScripts {
  /** Each part's statements as one script, to run in one transaction each, in order. */
  parts: string[];
  /** Pause between parts, in milliseconds (0: at once). */
  gapMs: number;
}

/**
 * Runs a flush's scripts on the gateway's database connection and answers the index of the first
 * part that was not written (parts.length when all were) with the reason; it never rejects.
 */
export type RunFlush = (scripts: FlushScripts) => Promise<{ written: number; error: string | null }>;

/**
 * Counts requests in memory and flushes them on request as upserts into rollup tables (per hour
 * and day, per dimension, latency histograms, errors per hour, the failed-request log and the
 * subscription's daily quota usage): rows per bucket, never a row per request. A failed flush keeps
 * its counts for the next one.
 */
export class MeterCore {
  /** Where requests are counted now. */
  private pending = empty();
  /** The other buffer: written out by a flush, then zeroed and swapped back in by the next one. */
  private spare = empty();
  /** Anything counted in `pending` since the last swap. */
  private counted = false;
  private flushing: Promise<string | null> | null = null;

  constructor(
    private readonly engine: 'pg' | 'sqlite',
    private readonly flushMs: number,
  ) {}

  /** Counts one answered request. */
  count(r: CountedRequest): void {
    const p = projectIn(this.pending, r.projectId);
    const dayStart = r.at - (r.at % DAY_MS);
    const hourStart = r.at - (r.at % HOUR);
    add(p.hours, hourStart);
    const d = dayIn(p, dayStart);
    d.total += 1;
    add(d.endpoint, r.endpoint);
    add(d.status, r.status);
    add(d.ip, r.ip);
    add(d.ua, r.userAgent);
    // Request insight: a latency bin of the hour's histogram, errors per hour, and the failed
    // request itself in the project's ring of recent failures.
    const h = hourLatencyIn(p, hourStart);
    h.n += 1;
    h.bins[latencyBin(r.latencyMs)]! += 1;
    if (r.status >= 400) {
      const statusClass = (r.status / 100) | 0;
      if (statusClass === 4 || statusClass === 5) add(p.errorHours, hourStart + statusClass);
      noteFailure(p, r.at, r.endpoint, r.status, r.ip);
    }
    if (r.admitted) add(this.pending.quota, `${r.ownerId}|${dayStart}`);
    this.counted = true;
  }

  /**
   * Writes what was counted since the last flush through `run`; `now` is the gateway's clock.
   * `paced` spreads a big batch over a part of the interval; shutdown writes it in one go. One
   * flush at a time: a call during a flush waits for it and then writes what came in since.
   * Answers the failure's message when a part could not be written (its counts are kept).
   */
  flush(run: RunFlush, now: number, paced: boolean): Promise<string | null> {
    const next = (this.flushing ?? Promise.resolve(null)).then(() => this.write(run, now, paced));
    this.flushing = next.finally(() => {
      if (this.flushing === next) this.flushing = null;
    });
    return next;
  }

  /**
   * Writes one batch, in parts of about PART_ROWS rows, each in its own transaction: a part is
   * written whole or not at all, and one that fails goes back into the counts with every part
   * after it, for the next flush. Between parts the flush pauses (at most a fifth of the interval
   * in all), so thousands of rows never take the machine in one burst, and the database connection is
   * free for others between parts.
   */
  private async write(run: RunFlush, now: number, paced: boolean): Promise<string | null> {
    if (!this.counted) return null;
    const batch = this.pending;
    this.pending = this.spare;
    this.spare = batch;
    this.counted = false;
    try {
      const parts = split(batch);
      const scripts = parts.map((part) => this.script(part, now));
      const { written, error } = await run({ parts: scripts, gapMs: paced ? Math.min(PART_GAP_MS, this.flushMs / 5 / parts.length) : 0 });
      // Put the counts of the parts not written back so the next flush writes them; nothing counted is dropped or doubled.
      for (const part of parts.slice(written)) this.restore(part);
      return error;
    } finally {
      reset(batch);
    }
  }

  /** One part's statements as one script (run in one transaction). */
  script(part: Pending, now: number): string {
    const windowFloor = now - (now % DAY_MS) - WINDOW_FLOOR_DAYS * DAY_MS;
    const out: string[] = [];
    const t: Tables = {
      rollups: new Upserts('usage_rollups', ['project_id', 'granularity', 'bucket_ms', 'requests'], ['project_id', 'granularity', 'bucket_ms'], out),
      dims: new Upserts('usage_dimensions', ['project_id', 'dimension', 'day_ms', 'value', 'requests'], ['project_id', 'dimension', 'day_ms', 'value'], out),
      window: new Upserts('usage_window', ['project_id', 'dimension', 'value', 'requests'], ['project_id', 'dimension', 'value'], out),
      quota: new Upserts('quota_usage', ['user_id', 'day_ms', 'requests'], ['user_id', 'day_ms'], out),
      latency: new Upserts('usage_latency', ['project_id', 'granularity', 'bucket_ms', 'first_bin', ...BIN_COLUMNS], ['project_id', 'granularity', 'bucket_ms', 'first_bin'], out, BIN_COLUMNS),
      errorHours: new Upserts('usage_error_hours', ['project_id', 'hour_ms', 'status_class', 'requests'], ['project_id', 'hour_ms', 'status_class'], out),
      failures: new Upserts('failed_requests', ['project_id', 'at_ms', 'endpoint', 'status', 'ip'], [], out, []),
    };
    const failing: number[] = [];
    for (const [projectId, p] of part.projects) {
      appendRows(projectId, p, t, windowFloor);
      if (p.failures.length > 0) failing.push(projectId);
    }
    for (const [k, requests] of part.quota) {
      if (requests === 0) continue;
      const bar = k.indexOf('|');
      t.quota.add(`(${int(Number(k.slice(0, bar)))}, ${int(Number(k.slice(bar + 1)))}, ${int(requests)})`);
    }
    for (const table of Object.values(t)) table.send();
    // Each project's failed-request log keeps its newest RECENT_FAILURES_KEPT rows; only the
    // projects this part added to are trimmed, so the log stays bounded without a pass of its own.
    for (let i = 0; i < failing.length; i += CHUNK) {
      out.push(
        `delete from failed_requests where id in (select id from (select id, row_number() over (partition by project_id order by at_ms desc, id desc) as age
           from failed_requests where project_id in (${failing.slice(i, i + CHUNK).map(int).join(', ')})) ranked where age > ${int(RECENT_FAILURES_KEPT)})`,
      );
    }
    if (out.length === 0) return '';
    // PostgreSQL: the literals' backslashes are plain characters whatever the server's default.
    if (this.engine === 'pg') out.unshift('set local standard_conforming_strings = on');
    return out.join(';\n') + ';';
  }

  /** Adds a batch's counts back into the counting buffer (copied: the batch's maps are zeroed for reuse). */
  private restore(batch: Pending) {
    const merge = <K>(into: Map<K, number>, from: Map<K, number>) => {
      for (const [k, n] of from) if (n > 0) add(into, k, n);
    };
    for (const [projectId, p] of batch.projects) {
      const q = projectIn(this.pending, projectId);
      merge(q.hours, p.hours);
      merge(q.errorHours, p.errorHours);
      for (const [hour, h] of p.hourLatency) {
        if (h.n === 0) continue;
        const e = hourLatencyIn(q, hour);
        e.n += h.n;
        for (let k = 0; k < LATENCY_BINS; k++) e.bins[k]! += h.bins[k]!;
      }
      // The batch's failures are older than any counted since: they go first, the newest are kept.
      if (p.failures.length > 0) {
        q.failures = [...failuresInOrder(p).map((f) => ({ ...f })), ...failuresInOrder(q)].slice(-RECENT_FAILURES_KEPT);
        q.failureHead = 0;
      }
      for (const [day, d] of p.days) {
        if (d.total === 0) continue;
        const e = dayIn(q, day);
        e.total += d.total;
        merge(e.endpoint, d.endpoint);
        merge(e.status, d.status);
        merge(e.ip, d.ip);
        merge(e.ua, d.ua);
      }
    }
    merge(this.pending.quota, batch.quota);
    this.counted = true;
  }
}
