// Prometheus metrics: one registry per process, every series labelled with the role that produced
// it (gateway, worker; process-wide series carry the process's role, `all` when one process runs
// every part). The request path only adds to plain numbers of children bound once at start (no label
// hashing or string building per request); the registry turns them into text when scraped. Gauges
// that need the database read it at scrape time, at most once per GAUGE_CACHE_MS.
import crypto from 'node:crypto';
import http from 'node:http';
import { collectDefaultMetrics, Gauge, Registry, type Metric } from 'prom-client';

export type ProcessRole = 'all' | 'web' | 'gateway' | 'worker';
type Labels = Record<string, string>;

/** A database-backed gauge is read at most this often; scrapes in between get the last value. */
export const GAUGE_CACHE_MS = 5000;

/** Latency buckets, in seconds: from a cached answer (1 ms) to a backend near its timeout. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

interface MetricValue {
  value: number;
  labels: Labels;
  metricName?: string;
}

/** A counter child: `inc` adds to a number, nothing else. */
export class CounterChild {
  value = 0;
  constructor(readonly labels: Labels) {}
  inc(by = 1): void {
    this.value += by;
  }
}

/** A histogram child: a count per bucket, the sum and the count. */
export class HistogramChild {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }
  observe(v: number): void {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && v > b[i]!) i++;
    this.counts[i]!++;
    this.sum += v;
    this.count++;
  }
}

/** A counter whose children are bound once (the registry reads them with get()). */
class HotCounter {
  readonly type = 'counter';
  readonly aggregator = 'sum';
  private readonly children = new Map<string, CounterChild>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  child(labels: Labels): CounterChild {
    const key = JSON.stringify(labels);
    let c = this.children.get(key);
    if (!c) this.children.set(key, (c = new CounterChild(labels)));
    return c;
  }
  get() {
    const values: MetricValue[] = [...this.children.values()].map((c) => ({ value: c.value, labels: c.labels }));
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

class HotHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly children = new Map<string, HistogramChild>();
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[] = LATENCY_BUCKETS,
  ) {}
  child(labels: Labels): HistogramChild {
    const key = JSON.stringify(labels);
    let c = this.children.get(key);
    if (!c) this.children.set(key, (c = new HistogramChild(labels, this.bounds)));
    return c;
  }
  get() {
    const values: MetricValue[] = [];
    for (const c of this.children.values()) {
      // A child nothing was observed in yet says nothing a query could use: a scrape of every
      // network x answerer pair would be mostly empty buckets, and the text costs the request path.
      if (c.count === 0) continue;
      let cumulative = 0;
      for (let i = 0; i <= this.bounds.length; i++) {
        cumulative += c.counts[i]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { ...c.labels, le: i < this.bounds.length ? String(this.bounds[i]) : '+Inf' }, value: cumulative });
      }
      values.push({ metricName: `${this.name}_sum`, labels: c.labels, value: c.sum });
      values.push({ metricName: `${this.name}_count`, labels: c.labels, value: c.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

/** How long a scrape waits for a gauge's database read before answering with the last value. */
const GAUGE_WAIT_MS = 1000;

/**
 * A value read at scrape time, at most once per GAUGE_CACHE_MS. A scrape never waits long on the
 * database: a read still under way, slower than GAUGE_WAIT_MS or failing leaves the last value
 * (nothing before the first read succeeds), so a busy connection pool cannot stall /metrics.
 */
function cached<T>(read: () => Promise<T> | T, ms = GAUGE_CACHE_MS): () => Promise<T | undefined> {
  let value: T | undefined;
  let at = -Infinity;
  let pending: Promise<void> | null = null;
  return async () => {
    if (pending === null && performance.now() - at >= ms) {
      at = performance.now();
      pending = (async () => {
        try {
          value = await read();
        } catch {
          // The database is busy or down: the last value stands until the next read.
        }
        pending = null;
      })();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([pending, new Promise<void>((resolve) => (timer = setTimeout(resolve, GAUGE_WAIT_MS)))]);
      clearTimeout(timer);
    }
    return value;
  };
}

/** How a gateway answer is counted: one of these per network and backend, bound at start. */
export interface AnswerSlot {
  /** By status class: [1xx, 2xx, 3xx, 4xx, 5xx]. */
  byClass: CounterChild[];
  latency: HistogramChild;
}

export type RefusalReason = 'rate_limited' | 'over_quota' | 'banned';

/** What the gateway counts on its request path. */
export interface GatewayInstruments {
  /** The slot of a request to `network` (undefined: none named yet) answered by the gateway itself or by the network's backend. */
  slot(network: string | undefined, reachedBackend: boolean): AnswerSlot;
  refusals: Record<RefusalReason, CounterChild>;
}

/** Knex's connection pool (tarn), as much of it as the gauges read. */
interface Pool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly gatewayRequests = new HotCounter('cairn_gateway_requests_total', 'Gateway answers by network, status class and what answered (gateway: refused or answered by the gateway itself; else the backend kind).');
  private readonly gatewayLatency = new HotHistogram('cairn_gateway_request_duration_seconds', 'Gateway latency from arrival until the answer has gone out, by network and what answered.');
  private readonly gatewayRefusals = new HotCounter('cairn_gateway_limiter_refusals_total', 'Requests the limiter refused, by reason (rate_limited 429, over_quota 402, banned 418).');
  private readonly meteringFlushSeconds = new HotHistogram('cairn_metering_flush_duration_seconds', 'How long a metering flush took (counting, building and writing its rows).', [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
  private readonly meteringRows = new HotCounter('cairn_metering_flush_rows_total', 'Rollup rows the metering flushes wrote (upserted).');
  private readonly meteringFlushes = new HotCounter('cairn_metering_flushes_total', 'Metering flushes, by result (ok, failed: its counts are kept for the next).');
  private readonly deliveryAttempts = new HotCounter('cairn_webhook_delivery_attempts_total', 'Webhook delivery attempts by result: delivered, retry (to be sent again on the schedule) or failed (no more attempts).');
  private readonly deliverySeconds = new HotHistogram('cairn_webhook_delivery_duration_seconds', 'How long a webhook delivery attempt took, until the endpoint answered or the attempt failed.');
  private readonly eventSeconds = new HotHistogram('cairn_webhook_event_delivery_seconds', 'From an event entering the outbox until it was delivered (retries included).', [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200]);
  private readonly followerLag = new Gauge({ name: 'cairn_webhook_follower_lag_blocks', help: 'Blocks between the chain tip and the webhook follower, per network (the deepest confirmation depth in use).', labelNames: ['role', 'network'], registers: [] });
  private readonly watcherLag = new Gauge({ name: 'cairn_ppu_watcher_lag_blocks', help: 'Blocks between the payment chain tip and the payment watcher.', labelNames: ['role', 'network'], registers: [] });
  private readonly watcherPassed = new Map<string, number>();
  private readonly watcherPass = (() => {
    const passed = this.watcherPassed;
    return new Gauge({
      name: 'cairn_ppu_watcher_last_pass_seconds',
      help: 'Seconds since the payment watcher last read the payment chain successfully.',
      labelNames: ['role', 'network'],
      registers: [],
      collect() {
        for (const [network, at] of passed) this.set({ role: 'worker', network }, (Date.now() - at) / 1000);
      },
    });
  })();

  constructor(readonly processRole: ProcessRole) {
    collectDefaultMetrics({ register: this.registry, labels: { role: processRole } });
    for (const m of [this.gatewayRequests, this.gatewayLatency, this.gatewayRefusals, this.meteringFlushSeconds, this.meteringRows, this.meteringFlushes, this.deliveryAttempts, this.deliverySeconds, this.eventSeconds]) {
      this.registry.registerMetric(m as unknown as Metric);
    }
    this.registry.registerMetric(this.followerLag);
    this.registry.registerMetric(this.watcherLag);
    this.registry.registerMetric(this.watcherPass);
  }

  /** A gauge read at scrape time (cached for GAUGE_CACHE_MS); `read` answers one value per label set. */
  private gauge(name: string, help: string, labelNames: string[], read: () => Promise<Array<[Labels, number]>> | Array<[Labels, number]>, ms = GAUGE_CACHE_MS): void {
    const get = cached(read, ms);
    const existing = this.registry.getSingleMetric(name) as Gauge | undefined;
    // A second source of the same gauge (two gateways in one process): both are read.
    const reads: Array<() => Promise<Array<[Labels, number]> | undefined>> = (existing as unknown as { reads?: typeof reads } | undefined)?.reads ?? [];
    reads.push(get);
    if (existing) return;
    const gauge = new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const r of reads) for (const [labels, v] of (await r()) ?? []) this.inc(labels, v);
      },
    });
    (gauge as unknown as { reads: typeof reads }).reads = reads;
  }

  /** The gateway's request-path instruments; `backends` names the backend kind of each network it serves. */
  gateway(backends: ReadonlyMap<string, string>, networks: readonly string[]): GatewayInstruments {
    const role = 'gateway';
    const make = (network: string, backend: string): AnswerSlot => ({
      byClass: ['1xx', '2xx', '3xx', '4xx', '5xx'].map((c) => this.gatewayRequests.child({ role, network, status_class: c, backend })),
      latency: this.gatewayLatency.child({ role, network, backend }),
    });
    const slots = new Map<string, { self: AnswerSlot; backend: AnswerSlot }>();
    for (const n of networks) {
      const self = make(n, 'gateway');
      slots.set(n, { self, backend: make(n, backends.get(n) ?? 'none') });
    }
    const unknown = make('unknown', 'gateway');
    return {
      slot(network, reached) {
        const s = network === undefined ? undefined : slots.get(network);
        if (!s) return unknown;
        return reached ? s.backend : s.self;
      },
      refusals: {
        rate_limited: this.gatewayRefusals.child({ role, reason: 'rate_limited' }),
        over_quota: this.gatewayRefusals.child({ role, reason: 'over_quota' }),
        banned: this.gatewayRefusals.child({ role, reason: 'banned' }),
      },
    };
  }

  /** The key cache's size and how long ago it last read the change feed. */
  keyCache(keys: { readonly size: number; readonly lastPolledAt: number }): void {
    this.gauge('cairn_gateway_key_cache_keys', 'Project keys in the gateway\'s key cache.', ['role'], () => [[{ role: 'gateway' }, keys.size]], 0);
    this.gauge('cairn_gateway_key_cache_poll_lag_seconds', 'Seconds since the key cache last read the change feed successfully (it polls every 250 ms).', ['role'], () => [[{ role: 'gateway' }, (Date.now() - keys.lastPolledAt) / 1000]], 0);
  }

  /** For the meter: called when a flush is over. */
  meteringFlushed(seconds: number, rows: number, ok: boolean): void {
    this.meteringFlushSeconds.child({ role: 'gateway' }).observe(seconds);
    this.meteringRows.child({ role: 'gateway' }).inc(rows);
    this.meteringFlushes.child({ role: 'gateway', result: ok ? 'ok' : 'failed' }).inc();
  }

  /** The dispatcher's instruments. */
  delivery(): { attempts: Record<'delivered' | 'retry' | 'failed', CounterChild>; duration: HistogramChild; eventLatency: HistogramChild } {
    const role = 'worker';
    return {
      attempts: {
        delivered: this.deliveryAttempts.child({ role, result: 'delivered' }),
        retry: this.deliveryAttempts.child({ role, result: 'retry' }),
        failed: this.deliveryAttempts.child({ role, result: 'failed' }),
      },
      duration: this.deliverySeconds.child({ role }),
      eventLatency: this.eventSeconds.child({ role }),
    };
  }

  /** Events waiting in the webhook outbox (read at scrape time). */
  outboxDepth(read: () => Promise<number>): void {
    this.gauge('cairn_webhook_outbox_pending_events', 'Webhook events waiting in the outbox to be sent (first attempt or a retry).', ['role'], async () => [[{ role: 'worker' }, await read()]]);
  }

  followerLagged(network: string, blocks: number): void {
    this.followerLag.set({ role: 'worker', network }, blocks);
  }

  watcherRead(network: string, blocks: number): void {
    this.watcherLag.set({ role: 'worker', network }, blocks);
    this.watcherPassed.set(network, Date.now());
  }

  /** Bytes the IPFS store keeps (read at scrape time). */
  ipfsStore(read: () => Promise<number>): void {
    this.gauge('cairn_ipfs_store_bytes', 'Bytes of the objects the IPFS store keeps: pinned or queued CIDs and adds within the garbage-collection grace period, each CID once.', ['role'], async () => [[{ role: 'gateway' }, await read()]], 15_000);
  }

  /** The database connection pool: connections in use, idle, and callers waiting for one. */
  databasePool(pool: Pool | undefined): void {
    if (!pool) return;
    const role = this.processRole;
    this.gauge(
      'cairn_db_pool_connections',
      'Database pool connections by state: used, idle, and pending (callers waiting for a connection).',
      ['role', 'state'],
      () => [
        [{ role, state: 'used' }, pool.numUsed()],
        [{ role, state: 'idle' }, pool.numFree()],
        [{ role, state: 'pending' }, pool.numPendingAcquires()],
      ],
      0,
    );
    this.gauge('cairn_db_pool_max_connections', 'The database pool\'s size.', ['role'], () => [[{ role }, pool.max]], 0);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}

/** The role label of a process started with `--role` (api is the web app). */
export const processRole = (role: 'all' | 'api' | 'gateway' | 'worker'): ProcessRole => (role === 'api' ? 'web' : role);

/** Loopback addresses, also as IPv4-mapped IPv6 (::ffff:127.0.0.1). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

const digest = (s: string) => crypto.createHash('sha256').update(s).digest();

/**
 * Who may read the metrics: a request with `Authorization: Bearer <METRICS_TOKEN>` (compared in
 * constant time), or without any Authorization header a loopback client. A wrong token is refused
 * even from loopback. The socket's address decides, never X-Forwarded-For.
 */
export function metricsAccess(remoteAddress: string | undefined, authorization: string | undefined, token: string | undefined): 200 | 401 | 403 {
  if (authorization !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!token || !m) return 401;
    return crypto.timingSafeEqual(digest(m[1]!), digest(token)) ? 200 : 401;
  }
  if (isLoopback(remoteAddress)) return 200;
  return token ? 401 : 403;
}

/** GET /metrics on a listener of its own (never on the gateway, whose /metrics is a Blockfrost path). */
export async function startMetricsServer(opts: { metrics: Metrics; port: number; host: string; token?: string | undefined }): Promise<{ server: http.Server; url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method not allowed\n');
      return;
    }
    const access = metricsAccess(req.socket.remoteAddress, req.headers.authorization, opts.token);
    if (access === 401) {
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="cairn-metrics"', 'content-type': 'text/plain; charset=utf-8' }).end('Unauthorized: send Authorization: Bearer <METRICS_TOKEN>\n');
      return;
    }
    if (access === 403) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('Forbidden: metrics answer loopback clients, or a bearer token when METRICS_TOKEN is set\n');
      return;
    }
    opts.metrics.text().then(
      (body) => res.writeHead(200, { 'content-type': opts.metrics.registry.contentType }).end(req.method === 'HEAD' ? undefined : body),
      () => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be collected\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, resolve);
  });
  const { port } = server.address() as { port: number };
  return {
    server,
    url: `http://127.0.0.1:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
