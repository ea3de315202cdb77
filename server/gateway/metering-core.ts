// The metering's counting and writing, run in the gateway's metering worker thread
// (metering-worker.ts): requests come in as compact records from the gateway's thread (metering.ts),
// are counted here per project, bucket and dimension, and each flush turns the counts into parts of
// statements with bound values, one transaction per part, which the worker writes through a
// connection of its own.
import { REFUSED_BY, REFUSED_DIMENSION } from '../../shared/allow-list';
import geoip from 'geoip-country';
import { UAParser } from 'ua-parser-js';
import { LATENCY_BINS, LATENCY_BINS_PER_ROW, RECENT_FAILURES_KEPT, latencyBin } from '../../shared/insight';
import { isPrivateIp } from '../../shared/ip';
import { PRIVATE_NETWORK_DIMENSION, PRIVATE_NETWORK_VALUE } from '../../shared/usage';
import { DAY_MS, dayStartOf } from '../../shared/time';

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
  /** Requests an allow-list refused, by list (REFUSED_BY's names). */
  refused: Map<string, number>;
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
  /** What the answer said ('' when it said nothing readable). */
  message: string;
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
    d = { total: 0, endpoint: new Map(), status: new Map(), ip: new Map(), ua: new Map(), refused: new Map() };
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
function noteFailure(p: ProjectCounts, at: number, endpoint: string, status: number, ip: string, message: string): void {
  if (p.failures.length < RECENT_FAILURES_KEPT) {
    p.failures.push({ at, endpoint, status, ip, message });
    return;
  }
  const f = p.failures[p.failureHead]!;
  f.at = at;
  f.endpoint = endpoint;
  f.status = status;
  f.ip = ip;
  f.message = message;
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
    zero(d.refused);
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
  for (const d of p.days.values()) n += 1 + 2 * d.endpoint.size + d.status.size + 4 * d.ip.size + 2 * d.ua.size + d.refused.size;
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
 * A text value as the flush stores it: NUL dropped (PostgreSQL's text cannot hold it), cut to `max`
 * UTF-16 units, and made well-formed (a lone surrogate, sent or left by the cut, becomes U+FFFD), so
 * both engines store the same text and texts that read the same are counted as one.
 */
export const clean = (s: string, max: number): string => {
  const t = s.includes('\0') ? s.replace(/\0/g, '') : s;
  return (t.length > max ? t.slice(0, max) : t).toWellFormed();
};

/** One statement of a part, with its values bound (never written into the SQL), in the driver's own placeholders (`?` on SQLite, `$n` on PostgreSQL). */
export interface Statement {
  sql: string;
  bindings: Array<string | number | Array<string | number>>;
  /** Rows the statement writes (the metrics count them). */
  rows?: number;
}

/** A column of a flushed table and its PostgreSQL type (the type of its unnest array). */
type Column = readonly [name: string, type: 'bigint' | 'text'];

/**
 * SQLite binds at most 999 variables in one statement in builds before 3.32 (32,766 after): rows
 * per statement are cut to stay within the smaller.
 */
const SQLITE_VARIABLES = 999;
/** PostgreSQL: rows per statement (one array per column, whatever the number of rows). */
const PG_CHUNK = 5000;

/**
 * Multi-row upserts into one table that add to the stored counts, with bound values. PostgreSQL
 * gets one array per column and inserts their unnest, so a statement has as many parameters as the
 * table has columns; SQLite gets a multi-row VALUES with a placeholder per value, as many rows to a
 * statement as its variable limit allows (at most CHUNK). Without `sums` the rows are plain inserts
 * (the failed-request log).
 */
class Upserts {
  private values: Array<string | number> = [];
  private rows = 0;
  private readonly head: string;
  private readonly tail: string;
  private readonly perStatement: number;
  private readonly tuple: string;

  constructor(
    private readonly engine: 'pg' | 'sqlite',
    table: string,
    private readonly columns: readonly Column[],
    keys: readonly string[],
    private readonly out: Statement[],
    sums: readonly string[] = ['requests'],
  ) {
    const names = columns.map(([name]) => name).join(', ');
    this.head =
      engine === 'pg'
        ? `insert into ${table} (${names}) select * from unnest(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})`
        : `insert into ${table} (${names}) values `;
    this.tail = sums.length === 0 ? '' : ` on conflict (${keys.join(', ')}) do update set ${sums.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')}`;
    this.perStatement = engine === 'pg' ? PG_CHUNK : Math.min(CHUNK, Math.floor(SQLITE_VARIABLES / columns.length));
    this.tuple = `(${columns.map(() => '?').join(', ')})`;
  }

  /** Adds one row: its values in the order of the columns. */
  add(...row: Array<string | number>): void {
    for (const v of row) this.values.push(v);
    if (++this.rows >= this.perStatement) this.send();
  }

  /** Adds the rows so far to the part as one statement. */
  send(): void {
    if (this.rows === 0) return;
    const { values, rows } = this;
    if (this.engine === 'pg') {
      // Row-major values into one array per column.
      const width = this.columns.length;
      const arrays = this.columns.map(() => new Array<string | number>(rows));
      for (let r = 0; r < rows; r++) for (let c = 0; c < width; c++) arrays[c]![r] = values[r * width + c]!;
      this.out.push({ sql: this.head + this.tail, bindings: arrays, rows });
    } else {
      this.out.push({ sql: this.head + new Array<string>(rows).fill(this.tuple).join(', ') + this.tail, bindings: values, rows });
    }
    this.values = [];
    this.rows = 0;
  }
}

/** An integer bound as a value: checked, so a bad count fails the part instead of storing nonsense. */
const int = (n: number): number => {
  if (!Number.isSafeInteger(n)) throw new Error(`metering: not an integer: ${n}`);
  return n;
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
function histogramRows(latency: Upserts, pid: number, hour: number, bins: Uint32Array): void {
  for (let from = 0; from < LATENCY_BINS; from += LATENCY_BINS_PER_ROW) {
    let any = false;
    for (let k = from; k < from + LATENCY_BINS_PER_ROW; k++) {
      if (bins[k] !== 0) {
        any = true;
        break;
      }
    }
    if (!any) continue;
    latency.add(pid, 'h', int(hour), from, ...bins.subarray(from, from + LATENCY_BINS_PER_ROW));
  }
}

/** Longest stored dimension value and failed request endpoint; longest stored IP of a failed request. */
const VALUE_MAX = 255;
const IP_MAX = 64;
/** Longest stored message of a failed request. */
const MESSAGE_MAX = 200;

/**
 * One project's counts as rows; country and browser come from each distinct IP and user agent.
 * Days from `windowFloor` on are also added to the project's 30-day window; an older day (only
 * counts held back by weeks of failed flushes) goes to the daily tables alone. Values are counted
 * under their stored (clean) text, so two texts that are stored alike make one row, never two rows
 * of the same key in one statement (which PostgreSQL refuses).
 */
function appendRows(projectId: number, p: ProjectCounts, t: Tables, windowFloor: number): void {
  const { rollups, dims, window, latency } = t;
  const pid = int(projectId);
  for (const [bucket, n] of p.hours) if (n > 0) rollups.add(pid, 'h', int(bucket), int(n));
  for (const [hour, h] of p.hourLatency) if (h.n > 0) histogramRows(latency, pid, hour, h.bins);
  for (const [key, n] of p.errorHours) {
    if (n <= 0) continue;
    const statusClass = key % HOUR;
    t.errorHours.add(pid, int(key - statusClass), int(statusClass), int(n));
  }
  for (const f of failuresInOrder(p)) t.failures.add(pid, int(f.at), clean(f.endpoint, VALUE_MAX), int(f.status), clean(f.ip, IP_MAX), clean(f.message, MESSAGE_MAX));
  /** The window's rows of every day of this part, added up by dimension and value. */
  const windowed = new Map<string, Map<string, number>>();
  for (const [day, d] of p.days) {
    if (d.total === 0) continue;
    rollups.add(pid, 'd', int(day), int(d.total));
    const country = new Map<string, number>();
    const browser = new Map<string, number>();
    const privateNetwork = new Map<string, number>();
    for (const [ip, n] of d.ip) {
      if (n <= 0) continue;
      add(country, countryOf(ip), n);
      if (privateIp(ip)) add(privateNetwork, PRIVATE_NETWORK_VALUE, n);
    }
    for (const [ua, n] of d.ua) if (n > 0) add(browser, browserOf(ua), n);
    const inWindow = day >= windowFloor;
    for (const [dimension, m] of [
      ['endpoint', d.endpoint],
      ['status', d.status],
      ['ip', d.ip],
      ['country', country],
      ['browser', browser],
      [PRIVATE_NETWORK_DIMENSION, privateNetwork],
      [REFUSED_DIMENSION, d.refused],
    ] as const) {
      const values = new Map<string, number>();
      for (const [value, n] of m as Map<string | number, number>) if (n > 0) add(values, clean(String(value), VALUE_MAX), n);
      let w = inWindow && WINDOWED.has(dimension) ? windowed.get(dimension) : undefined;
      if (inWindow && WINDOWED.has(dimension) && !w) windowed.set(dimension, (w = new Map()));
      for (const [v, n] of values) {
        dims.add(pid, dimension, int(day), v, int(n));
        if (w) add(w, v, n);
      }
    }
  }
  for (const [dimension, values] of windowed) for (const [v, n] of values) window.add(pid, dimension, v, int(n));
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
  /** Which allow-list refused it (REFUSED_BY's index), 0 for none. */
  refused: number;
  at: number;
  latencyMs: number;
  /** A failed request's error message ('' for none). */
  message?: string;
}

/** One flush's statements, as the worker writes them. */
export interface FlushParts {
  /** Each part's statements, to run in one transaction each, in order. */
  parts: Statement[][];
  /** Pause between parts, in milliseconds (0: at once). */
  gapMs: number;
}

/**
 * Runs a flush's parts and answers the index of the first
 * part that was not written (parts.length when all were) with the reason; it never rejects.
 */
export type RunFlush = (flush: FlushParts) => Promise<{ written: number; error: string | null }>;

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
    const dayStart = dayStartOf(r.at);
    const hourStart = r.at - (r.at % HOUR);
    add(p.hours, hourStart);
    const d = dayIn(p, dayStart);
    d.total += 1;
    add(d.endpoint, r.endpoint);
    add(d.status, r.status);
    add(d.ip, r.ip);
    add(d.ua, r.userAgent);
    if (r.refused > 0) add(d.refused, REFUSED_BY[r.refused] ?? 'unknown');
    // Request insight: a latency bin of the hour's histogram, errors per hour, and the failed
    // request itself in the project's ring of recent failures.
    const h = hourLatencyIn(p, hourStart);
    h.n += 1;
    h.bins[latencyBin(r.latencyMs)]! += 1;
    if (r.status >= 400) {
      const statusClass = (r.status / 100) | 0;
      if (statusClass === 4 || statusClass === 5) add(p.errorHours, hourStart + statusClass);
      noteFailure(p, r.at, r.endpoint, r.status, r.ip, r.message ?? '');
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
      const statements = parts.map((part) => this.statements(part, now));
      const { written, error } = await run({ parts: statements, gapMs: paced ? Math.min(PART_GAP_MS, this.flushMs / 5 / parts.length) : 0 });
      // Put the counts of the parts not written back so the next flush writes them; nothing counted is dropped or doubled.
      for (const part of parts.slice(written)) this.restore(part);
      return error;
    } finally {
      reset(batch);
    }
  }

  /** One part's statements (run in one transaction). */
  statements(part: Pending, now: number): Statement[] {
    const windowFloor = dayStartOf(now) - WINDOW_FLOOR_DAYS * DAY_MS;
    const out: Statement[] = [];
    const e = this.engine;
    const big = (name: string): Column => [name, 'bigint'];
    const str = (name: string): Column => [name, 'text'];
    const t: Tables = {
      rollups: new Upserts(e, 'usage_rollups', [big('project_id'), str('granularity'), big('bucket_ms'), big('requests')], ['project_id', 'granularity', 'bucket_ms'], out),
      dims: new Upserts(e, 'usage_dimensions', [big('project_id'), str('dimension'), big('day_ms'), str('value'), big('requests')], ['project_id', 'dimension', 'day_ms', 'value'], out),
      window: new Upserts(e, 'usage_window', [big('project_id'), str('dimension'), str('value'), big('requests')], ['project_id', 'dimension', 'value'], out),
      quota: new Upserts(e, 'quota_usage', [big('user_id'), big('day_ms'), big('requests')], ['user_id', 'day_ms'], out),
      latency: new Upserts(
        e,
        'usage_latency',
        [big('project_id'), str('granularity'), big('bucket_ms'), big('first_bin'), ...BIN_COLUMNS.map(big)],
        ['project_id', 'granularity', 'bucket_ms', 'first_bin'],
        out,
        BIN_COLUMNS,
      ),
      errorHours: new Upserts(e, 'usage_error_hours', [big('project_id'), big('hour_ms'), big('status_class'), big('requests')], ['project_id', 'hour_ms', 'status_class'], out),
      failures: new Upserts(e, 'failed_requests', [big('project_id'), big('at_ms'), str('endpoint'), big('status'), str('ip'), str('message')], [], out, []),
    };
    const failing: number[] = [];
    for (const [projectId, p] of part.projects) {
      appendRows(projectId, p, t, windowFloor);
      if (p.failures.length > 0) failing.push(projectId);
    }
    for (const [k, requests] of part.quota) {
      if (requests === 0) continue;
      const bar = k.indexOf('|');
      t.quota.add(int(Number(k.slice(0, bar))), int(Number(k.slice(bar + 1))), int(requests));
    }
    for (const table of Object.values(t)) table.send();
    // Each project's failed-request log keeps its newest RECENT_FAILURES_KEPT rows; only the
    // projects this part added to are trimmed, so the log stays bounded without a pass of its own.
    for (let i = 0; i < failing.length; i += CHUNK) {
      const ids = failing.slice(i, i + CHUNK).map(int);
      const param = e === 'pg' ? (n: number) => `$${n + 1}` : () => '?';
      out.push({
        sql: `delete from failed_requests where id in (select id from (select id, row_number() over (partition by project_id order by at_ms desc, id desc) as age
           from failed_requests where project_id in (${ids.map((_, n) => param(n)).join(', ')})) ranked where age > ${param(ids.length)})`,
        bindings: [...ids, RECENT_FAILURES_KEPT],
      });
    }
    return out;
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
        merge(e.refused, d.refused);
      }
    }
    merge(this.pending.quota, batch.quota);
    this.counted = true;
  }
}
