// The payment watcher against a payment chain's backend that answers what cannot be read, then
// recovers: it waits longer after each failure (doubling, up to a cap) instead of retrying every
// interval, logs the failure once and the recovery once, and the status page shows its state and
// since when. Time is a clock the test moves: no sleeps.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db-template';
import { createLogger } from '../../server/logger';
import { httpSource } from '../../server/features/webhooks/index';
import { startPaymentWatcher, WATCHER_MAX_BACKOFF_MS, type WatcherClock } from '../../server/features/ppu/watcher';
import { statusReporter } from '../../server/features/status/index';

let database: TestDatabase;
let upstream: http.Server;
let upstreamUrl = '';
const state = { broken: true, tipRequests: 0 };

beforeAll(async () => {
  database = await freshDatabase(inject('dbTemplate'));
  upstream = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (url === '/blocks/latest') {
      state.tipRequests++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ height: 20, hash: 'b'.repeat(64), tx_count: 0 }));
      return;
    }
    const m = /^\/blocks\/(\d+)$/.exec(url);
    if (m && state.broken) {
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html>Bad gateway</html>');
      return;
    }
    if (m && Number(m[1]) <= 20) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ height: Number(m[1]), hash: m[1]!.padStart(64, '0'), tx_count: 0 }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => upstream?.close(resolve));
  await database?.drop();
});

/** A clock that moves only when the test says: next() jumps to the one pending wait and ends it. */
function manualClock(start: number) {
  let now = start;
  let pending: { at: number; fn: () => void; id: number } | null = null;
  let ids = 0;
  const waits: number[] = [];
  const clock: WatcherClock = {
    now: () => now,
    setTimeout(fn, ms) {
      if (pending) throw new Error('the watcher scheduled two passes at once');
      waits.push(ms);
      pending = { at: now + ms, fn, id: ++ids };
      return pending.id;
    },
    clearTimeout(handle) {
      if (pending?.id === handle) pending = null;
    },
  };
  return {
    clock,
    waits,
    now: () => now,
    /** Waits for the pass in progress to schedule the next one, then moves time to it and starts it. */
    async next() {
      await expect.poll(() => pending !== null, { timeout: 5000, interval: 5 }).toBe(true);
      const due = pending!;
      pending = null;
      now = due.at;
      due.fn();
    },
    settled: () => expect.poll(() => pending !== null, { timeout: 5000, interval: 5 }).toBe(true),
  };
}

describe('payment watcher against a backend that fails, then recovers', () => {
  it('backs off exponentially up to the cap, logs once down and once up, and shows it on the status page', async () => {
    const { db } = database;
    const lines: Array<{ level: number; msg: string; downForMs?: number; attempts?: number }> = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const start = 1_800_000_000_000;
    const time = manualClock(start);
    const intervalMs = 1000;
    const report = statusReporter({ db, probes: new Map(), networks: [], now: time.now });
    const statusOf = async () => {
      // The worker that runs the watcher is alive, and so is the gateway.
      for (const role of ['worker', 'gateway']) {
        await db('service_heartbeats').insert({ instance: `${role}-test`, role, started_at: start, beat_at: time.now() }).onConflict('instance').merge(['beat_at']);
      }
      return report();
    };

    const watcher = startPaymentWatcher({ db, logger, source: httpSource({ url: upstreamUrl, auth: null }, 2000), network: 'preprod', confirmations: 2, intervalMs, clock: time.clock });
    try {
      // The first pass and 15 more, all failing.
      await time.settled();
      for (let i = 0; i < 15; i++) await time.next();
      await time.settled();
      expect(state.tipRequests).toBe(16);
      const expected = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16].map((n) => Math.min(WATCHER_MAX_BACKOFF_MS, intervalMs * 2 ** n));
      expect(time.waits).toEqual(expected);
      expect(expected.at(-1)).toBe(WATCHER_MAX_BACKOFF_MS);
      const errors = lines.filter((l) => l.level >= 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.msg).toMatch(/payment watcher failed/);

      const down = await statusOf();
      expect(down.overall).toBe('degraded');
      expect(down.services).toContainEqual({ name: 'Payment watcher', state: 'down', since: start });

      // The backend recovers: the next pass reads it, says so once with how long it was down, and the
      // watcher goes back to its interval.
      state.broken = false;
      const downFor = time.now() + time.waits.at(-1)! - start;
      await time.next();
      await time.settled();
      const recovered = lines.filter((l) => /reads the payment chain again/.test(l.msg));
      expect(recovered).toEqual([expect.objectContaining({ level: 30, downForMs: downFor, attempts: 16 })]);
      expect(time.waits.at(-1)).toBe(intervalMs);
      const recoveredAt = time.now();
      await time.next();
      await time.settled();
      expect(state.tipRequests).toBe(18);
      expect(lines.filter((l) => l.level >= 50)).toHaveLength(1);
      expect(lines.filter((l) => /reads the payment chain again/.test(l.msg))).toHaveLength(1);

      const up = await statusOf();
      expect(up.services).toContainEqual({ name: 'Payment watcher', state: 'operational', since: recoveredAt });
      expect(up.overall).toBe('operational');
    } finally {
      await watcher.stop();
    }
    // A stopped watcher is no longer listed (a new reporter: the old one keeps its answer a few seconds).
    const after = await statusReporter({ db, probes: new Map(), networks: [], now: time.now })();
    expect(after.services.map((s) => s.name)).not.toContain('Payment watcher');
  });
});
