// The gateway's metering, as its request path sees it. Each answered request becomes one packed
// record (a few numbers, its texts numbered once) in a buffer that goes to the metering worker
// thread (metering-worker.ts) whenever it fills and at each flush. The worker counts them and turns
// a flush into parts of statements with bound values (metering-core.ts), which it writes through a
// database connection of its own, PostgreSQL's or the SQLite file's, and answers only that the flush
// is over: no statement of a flush runs on this thread (docs/decisions/metering-sqlite-writer.md).
import { Worker } from 'node:worker_threads';
import { type Db, isPostgres, sqliteFileOf } from '../db/index';
import type { Logger } from '../logger';
import { FIELD, FIELDS, type MeteringWorkerData, type ToMain, type ToWorker } from './metering-protocol';
import { dayStartOf } from '../../shared/time';

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
  /** Refused by one of the project's allow-lists (index into metering-core's REFUSED_BY: 1 origin, 2 ip, 3 method). */
  refused?: number;
  /** A failed request's error message (Blockfrost's `message`), kept with it in request insight. */
  message?: string | undefined;
  at: number;
  /**
   * performance.now() when the request reached the gateway: record() takes the latency (arrival
   * until the answer has gone out) as the difference from its own clock.
   */
  started: number;
}

/**
 * The worker thread's entry. From the sources (tsx) it is metering-worker.mjs, which registers tsx for the
 * thread (a worker runs no loader of its parent); in the build every module of the server is bundled into
 * dist/server, beside metering-worker.js (server/build.ts).
 */
const METERING_WORKER = new URL(import.meta.url.endsWith('.ts') ? './metering-worker.mjs' : './metering-worker.js', import.meta.url);

/** Records per buffer: sent to the worker when full (about 300 KB), or sooner at a flush. */
const RECORDS = 4096;
/** Numbered texts kept before the numbering starts again (IPs of a busy gateway are unbounded). */
const STRINGS_KEPT = 100_000;

/**
 * Counts requests and flushes them every interval as upserts into rollup tables (per hour and
 * day, per dimension, the latency histograms and failed requests of request insight, and the
 * subscription's daily quota usage): rows per bucket, never a row per request. A failed flush keeps
 * its counts for the next one; a crash loses at most one interval (plus a paced flush still under
 * way, which ends within a fifth of an interval).
 */
export class Meter {
  private worker: Worker | null = null;
  private buffer = new Float64Array(RECORDS * FIELDS);
  private count = 0;
  private readonly numbers = new Map<string, number>();
  /** Texts numbered since the last message. */
  private fresh: string[] = [];
  private restart = false;
  private readonly flushes = new Map<number, (ok: boolean, rows: number) => void>();
  private closed: (() => void) | null = null;
  private nextFlush = 1;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly engine: 'pg' | 'sqlite';
  /** Told when a flush is over: its duration, the rows it wrote and whether it wrote everything (the metrics). */
  onFlushed: ((seconds: number, rows: number, ok: boolean) => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly flushMs: number,
    private readonly now: () => number = Date.now,
    /** Numbered texts kept before the numbering starts again (tests make it small). */
    private readonly stringsKept = STRINGS_KEPT,
  ) {
    this.engine = isPostgres(db) ? 'pg' : 'sqlite';
  }

  /** Counts one answered request; `finished` is performance.now() when its answer went out (now, by default). */
  record(r: MeteredRequest, finished = performance.now()): void {
    if (this.stopped) return;
    // Room for this record's four texts, or the numbering starts again before any of them is numbered.
    if (this.numbers.size > this.stringsKept - 4) this.renumber();
    const endpoint = this.number(r.endpoint);
    const ip = this.number(r.ip);
    const userAgent = this.number(r.userAgent ?? '');
    const message = this.number(r.status >= 400 ? (r.message ?? '') : '');
    const b = this.buffer;
    const o = this.count * FIELDS;
    b[o + FIELD.projectId] = r.projectId;
    b[o + FIELD.ownerId] = r.ownerId;
    b[o + FIELD.endpoint] = endpoint;
    b[o + FIELD.status] = r.status;
    b[o + FIELD.ip] = ip;
    b[o + FIELD.userAgent] = userAgent;
    b[o + FIELD.admitted] = r.admitted ? 1 : 0;
    b[o + FIELD.at] = r.at;
    b[o + FIELD.latencyMs] = finished - r.started;
    b[o + FIELD.refused] = r.refused ?? 0;
    b[o + FIELD.message] = message;
    if (++this.count === RECORDS) this.send();
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.flushMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left (on shutdown), at once; then the worker ends. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush({ paced: false });
    this.stopped = true;
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    // The worker closes its own database connection before it ends.
    worker.ref();
    await new Promise<void>((resolve) => {
      this.closed = resolve;
      worker.postMessage({ t: 'close' } satisfies ToWorker);
    });
    await worker.terminate();
  }

  /**
   * Writes what was counted up to now. `paced` (the default) spreads a big batch over a part of the
   * interval; shutdown writes it in one go. Flushes run one at a time, in the order asked.
   */
  flush({ paced = true }: { paced?: boolean } = {}): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.send();
    const id = this.nextFlush++;
    const worker = this.worker ?? this.startWorker();
    const began = performance.now();
    return new Promise<void>((resolve) => {
      this.flushes.set(id, (ok, rows) => {
        this.onFlushed?.((performance.now() - began) / 1000, rows, ok);
        resolve();
      });
      // The worker is unreferenced (an idle meter never holds a process open) except while a flush is under way.
      worker.ref();
      this.post({ t: 'flush', id, now: this.now(), paced });
    });
  }

  /** Starts the numbering again; the records already numbered go first, under the old numbers. */
  private renumber(): void {
    this.send();
    this.numbers.clear();
    this.restart = true;
  }

  /** A text's number, given the first time it is seen (sent to the worker with the next records). */
  private number(s: string): number {
    let n = this.numbers.get(s);
    if (n === undefined) {
      n = this.numbers.size;
      this.numbers.set(s, n);
      this.fresh.push(s);
    }
    return n;
  }

  /** Sends the buffered records (the buffer's memory moves to the worker; a new one takes its place). */
  private send(): void {
    const { buffer, count } = this;
    if (count === 0 && this.fresh.length === 0 && !this.restart) return;
    this.post({ t: 'records', buffer: buffer.buffer as ArrayBuffer, count, strings: this.fresh, restart: this.restart }, [buffer.buffer as ArrayBuffer]);
    this.buffer = new Float64Array(RECORDS * FIELDS);
    this.count = 0;
    this.fresh = [];
    this.restart = false;
  }

  private post(m: ToWorker, transfer: ArrayBuffer[] = []): void {
    (this.worker ?? this.startWorker()).postMessage(m, transfer);
  }

  private startWorker(): Worker {
    const workerData: MeteringWorkerData =
      this.engine === 'pg'
        ? { engine: 'pg', flushMs: this.flushMs, connection: this.db.client.config.connection as string | Record<string, unknown> }
        : { engine: 'sqlite', flushMs: this.flushMs, file: sqliteFileOf(this.db)! };
    const worker = new Worker(METERING_WORKER, { workerData });
    worker.on('message', (m: ToMain) => {
      if (m.t === 'closed') {
        this.closed?.();
        this.closed = null;
        return;
      }
      if (m.error !== null) this.logger.warn({ err: { message: m.error } }, 'metering: flush failed, will retry');
      this.flushes.get(m.id)?.(m.error === null, m.rows);
      this.flushes.delete(m.id);
      if (this.flushes.size === 0) worker.unref();
    });
    worker.on('error', (err) => {
      // What it counted is lost, as in a crash; the next record starts a new worker.
      this.logger.error({ err: { message: err.message } }, 'metering: the worker failed; its counts since the last flush are lost');
      // A stop waiting for the worker to close its connection need not wait any more.
      this.closed?.();
      this.closed = null;
      if (this.worker !== worker) return;
      // A new worker starts with no numbers: number the texts again and drop the records that used the old ones.
      this.worker = null;
      this.numbers.clear();
      this.fresh = [];
      this.restart = false;
      this.count = 0;
      for (const done of this.flushes.values()) done(false, 0);
      this.flushes.clear();
    });
    // After the listeners: a 'message' listener added later would reference the worker again.
    worker.unref();
    this.worker = worker;
    return worker;
  }
}

/** Today's admitted requests per subscription owner, as flushed so far (the quota's starting point after a restart). */
export async function loadQuotaBase(db: Db, now = Date.now()): Promise<Map<number, number>> {
  const day = dayStartOf(now);
  const rows = await db('quota_usage').where({ day_ms: day }).select('user_id', 'requests');
  return new Map(rows.map((r) => [r.user_id as number, Number(r.requests)]));
}
