// The load generator (forked by LoadGenerator): keep-alive HTTP requests to loopback URLs, latency
// of each request from process.hrtime.bigint. Every run stops by itself: its length is fixed by
// warm-up, slices and rounds, and each target has a cap on requests.
import http from 'node:http';
import type { LoadResult, LoadRun, LoadTarget } from './load-protocol';
import { percentile, summarize } from './report';

const MAX_OPEN_IN_FLIGHT = 2_000;
/** After a slice ends, answers still on their way are waited for at most this long. */
const DRAIN_LIMIT_MS = 5_000;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

const nowNs = (() => {
  const t0 = process.hrtime.bigint();
  return () => Number(process.hrtime.bigint() - t0);
})();

/** One target's connections and tallies, kept across its slices. */
class TargetLoad {
  readonly agent: http.Agent;
  /** One per server of the target, taken in turn. */
  private readonly options: http.RequestOptions[];
  private readonly keys: string[];
  private keyIndex = 0;
  private readonly body: Buffer | null;
  readonly latencies: Float64Array;
  recorded = 0;
  completed = 0;
  measuredNs = 0;
  sent = 0;
  inFlight = 0;
  skipped = 0;
  /** p99 of each measured slice, to show how much it moves from one slice to the next. */
  readonly sliceP99: number[] = [];
  readonly statuses: Record<string, number> = {};

  constructor(
    readonly target: LoadTarget,
    sockets: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
    this.options = [target.url, ...(target.alsoUrls ?? [])].map((u) => {
      const url = new URL(u);
      if (!LOOPBACK.has(url.hostname)) throw new Error(`refusing a non-loopback target: ${url.hostname}`);
      return { agent: this.agent, host: url.hostname, port: Number(url.port), path: url.pathname + url.search, method: target.body === undefined ? 'GET' : 'POST' };
    });
    this.body = target.body === undefined ? null : Buffer.from(target.body);
    this.keys = target.keys ?? [];
    this.latencies = new Float64Array(target.maxRequests);
  }

  get capped() {
    return this.sent >= this.target.maxRequests;
  }

  /** Sends one request; `window` is the measured slice, or null during warm-up. */
  send(window: { start: number; end: number } | null, done: () => void) {
    this.sent += 1;
    this.inFlight += 1;
    const headers: http.OutgoingHttpHeaders = this.keys.length ? { ...this.target.headers, project_id: this.keys[this.keyIndex++ % this.keys.length] } : { ...this.target.headers };
    if (this.body) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = this.body.length;
    }
    const begin = nowNs();
    const settle = (status: number) => {
      const end = nowNs();
      this.inFlight -= 1;
      if (window && end >= window.start && end <= window.end) {
        this.completed += 1;
        this.statuses[status] = (this.statuses[status] ?? 0) + 1;
        // Only requests wholly inside the slice count towards latency.
        if (begin >= window.start) this.latencies[this.recorded++] = (end - begin) / 1e6;
      }
      done();
    };
    const req = http.request({ ...this.options[this.sent % this.options.length], headers }, (res) => {
      res.on('end', () => settle(res.statusCode ?? 0));
      res.on('error', () => settle(0));
      res.resume();
    });
    req.on('error', () => settle(0));
    if (this.body) req.end(this.body);
    else req.end();
  }

  result(): LoadResult {
    return {
      rps: this.measuredNs > 0 ? this.completed / (this.measuredNs / 1e9) : 0,
      latency: summarize(this.latencies.subarray(0, this.recorded)),
      sliceP99: this.sliceP99,
      statuses: this.statuses,
      skipped: this.skipped,
      capped: this.capped,
    };
  }
}

/**
 * Loads the given targets together for `ms`, then waits for their answers still in flight. Closed
 * mode runs `concurrency` loops per target; open mode sends `rate` requests per second to each
 * target, alternating between them request by request, so a stall of the machine lands on all of
 * them at the same moment.
 */
function slice(ts: TargetLoad[], r: LoadRun, ms: number, measured: boolean): Promise<void> {
  const start = nowNs();
  const end = start + ms * 1e6;
  const window = measured ? { start, end } : null;
  const firstSample = ts.map((t) => t.recorded);
  return new Promise((resolve) => {
    let over = false;
    const finish = () => {
      if (over) return;
      over = true;
      // A capped target stopped early: only the time it was loaded counts.
      if (measured) for (const t of ts) t.measuredNs += Math.min(nowNs(), end) - start;
      const drainUntil = nowNs() + DRAIN_LIMIT_MS * 1e6;
      const done = () => {
        if (measured) ts.forEach((t, i) => t.sliceP99.push(percentile(t.latencies.slice(firstSample[i], t.recorded).sort(), 99)));
        resolve();
      };
      const drain = () => (ts.every((t) => t.inFlight === 0) || nowNs() > drainUntil ? done() : setTimeout(drain, 2));
      drain();
    };
    const stopped = () => nowNs() >= end || ts.every((t) => t.capped);

    if (r.mode === 'closed') {
      let loops = r.concurrency * ts.length;
      for (const t of ts) {
        const loop = () => {
          if (nowNs() >= end || t.capped) {
            if (--loops === 0) finish();
            return;
          }
          t.send(window, loop);
        };
        for (let i = 0; i < r.concurrency; i++) loop();
      }
      return;
    }

    // Open loop: request i is due at start + i / (rate × targets), whatever the answers; each timer
    // tick sends everything that has come due since the last one. The requests go out in groups of
    // one per target, and the order within a group turns by one from each group to the next: a target
    // always sent last would always reach the shared upstream last (behind the others' forwarded
    // requests whenever it is busy), a bias of its own that A/A runs showed (+0.2 to +0.4 ms at p99
    // for the second of two identical proxies). Turned, each target takes each place equally often.
    const n = ts.length;
    const rate = (r.rate ?? 1000) * n;
    let due = 0;
    const noop = () => undefined;
    const tick = () => {
      if (stopped()) return finish();
      const target = Math.floor(((nowNs() - start) / 1e9) * rate);
      for (; due < target; due++) {
        const t = ts[((due % n) + Math.floor(due / n)) % n]!;
        if (t.capped) continue;
        if (t.inFlight >= MAX_OPEN_IN_FLIGHT) t.skipped += 1;
        else t.send(window, noop);
      }
      setTimeout(tick, 1);
    };
    tick();
  });
}

async function run(r: LoadRun): Promise<LoadResult[]> {
  const loads = r.targets.map((t) => new TargetLoad(t, r.concurrency));
  try {
    if (r.together) {
      await slice(loads, r, r.warmupMs, false);
      for (let round = 0; round < r.rounds; round++) await slice(loads, r, r.sliceMs, true);
    } else {
      for (const t of loads) await slice([t], r, r.warmupMs, false);
      for (let round = 0; round < r.rounds; round++) for (const t of loads) await slice([t], r, r.sliceMs, true);
    }
    return loads.map((t) => t.result());
  } finally {
    for (const t of loads) t.agent.destroy();
  }
}

process.on('message', (r: LoadRun) => {
  run(r).then(
    (results) => process.send!({ kind: 'result', results }),
    (err: unknown) => process.send!({ kind: 'error', message: (err as Error).message }),
  );
});
process.on('disconnect', () => process.exit(0));
