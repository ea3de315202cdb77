import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RedisLimiter } from '../../server/gateway/redis-limiter';
import type { AdmitRequest } from '../../server/gateway/limiter';
import { startOwnRedis, type OwnRedis } from '../helpers/redis-server';

// Far from its limits a request is admitted without waiting for Redis, and its take reaches Redis in
// the gateway's next call; near them, and for a banned client, Redis decides.

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BAN = { threshold: 1_000_000, windowSeconds: 60, seconds: 60 };
// A bucket of 500 that refills one token in 1,000 s: what the bucket admits in a test is its burst.
const request = (bucketKey: string, quotaKey: string, ip = '10.1.0.1'): AdmitRequest => ({ ip, bucketKey, rate: 0.001, burst: 500, quotaKey, day: 1, quotaLimit: 1_000_000, quotaBase: 0 });
const fresh = () => `cairn-at-once:${crypto.randomBytes(4).toString('hex')}:`;

/** Closes the limiters, then removes the test's keys from the shared Redis. */
async function cleanUp(limiters: RedisLimiter[], control: Redis, prefix: string) {
  for (const l of limiters) await l.close();
  const keys = await control.keys(`${prefix}*`);
  if (keys.length > 0) await control.del(...keys);
  control.disconnect();
}

let own: OwnRedis;
beforeAll(async () => {
  own = await startOwnRedis();
});
afterAll(async () => {
  own?.signal('SIGCONT');
  await own?.stop();
});

describe('admitting at once through Redis', () => {
  it('does not wait for Redis far from the limits, and Redis still counts every request', { timeout: 20_000 }, async () => {
    const prefix = fresh();
    const limiter = new RedisLimiter(own.url, BAN, prefix, { commandTimeoutMs: 100 });
    const r = request('k', 'owner');
    try {
      // The first request of a bucket asks Redis: nothing is known of it yet.
      expect(await limiter.admit(r)).toBe('ok');
      own.signal('SIGSTOP');
      const t0 = performance.now();
      const verdicts = await Promise.all(Array.from({ length: 10 }, () => limiter.admit(r)));
      // Far less than the 100 ms a request waits on a Redis that answers nothing.
      expect(performance.now() - t0).toBeLessThan(50);
      expect(verdicts).toEqual(Array(10).fill('ok'));
      own.signal('SIGCONT');
      await vi.waitFor(() => expect(limiter.status.state).toBe('operational'), { timeout: 5_000, interval: 20 });
      const control = new Redis(own.url);
      try {
        // Every request is in the shared counter: the takes sent while Redis hung ran when it resumed,
        // and were also counted again once it answered (counted twice rather than lost).
        await vi.waitFor(async () => expect(Number(await control.get(`${prefix}quota:owner:1`))).toBeGreaterThanOrEqual(11), { timeout: 3_000 });
      } finally {
        control.disconnect();
      }
    } finally {
      own.signal('SIGCONT');
      await limiter.close();
    }
  });

  it('loads its script again into a Redis that forgot it, without taking that for an outage', async () => {
    const limiter = new RedisLimiter(own.url, BAN, fresh(), { commandTimeoutMs: 2_000 });
    const control = new Redis(own.url);
    try {
      const r = { ...request('k', 'owner'), burst: 1 };
      expect(await limiter.admit(r)).toBe('ok');
      await control.script('FLUSH');
      // A bucket of one, now empty: Redis's decision, through the script loaded again.
      expect(await limiter.admit(r)).toBe('rate_limited');
      expect(limiter.status.state).toBe('operational');
    } finally {
      control.disconnect();
      await limiter.close();
    }
  });

  it('two limiters draining one bucket from full admit its burst, overdrawn at most by what the other had in flight', async () => {
    const prefix = fresh();
    const a = new RedisLimiter(REDIS_URL, BAN, prefix, { commandTimeoutMs: 2_000 });
    const b = new RedisLimiter(REDIS_URL, BAN, prefix, { commandTimeoutMs: 2_000 });
    const control = new Redis(REDIS_URL);
    try {
      const r = request('one-bucket', 'owner');
      const verdicts: string[] = [];
      let sent = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (sent < 900) verdicts.push(await (sent++ % 2 ? a : b).admit(r));
        }),
      );
      const admitted = verdicts.filter((v) => v === 'ok').length;
      // A take admitted at once reaches Redis after the requests Redis checked meanwhile: while the
      // bucket runs out, what the other limiter admitted at once and had not yet sent (at most its 8
      // requests in flight) can overdraw it.
      expect(admitted).toBeGreaterThanOrEqual(500);
      expect(admitted).toBeLessThanOrEqual(508);
      expect(verdicts.filter((v) => v === 'rate_limited')).toHaveLength(900 - admitted);
      await Promise.all([a.close(), b.close()]);
      // Redis holds every admitted request: the takes of those admitted at once too.
      expect(Number(await control.get(`${prefix}quota:owner:1`))).toBe(admitted);
      expect(Math.round(Number(await control.hget(`${prefix}bucket:one-bucket`, 'tokens')))).toBe(500 - admitted);
    } finally {
      await cleanUp([a, b], control, prefix);
    }
  });

  it('stops admitting a client at once as soon as another limiter bans it', async () => {
    const prefix = fresh();
    const ban = { threshold: 5, windowSeconds: 60, seconds: 60 };
    const a = new RedisLimiter(REDIS_URL, ban, prefix, { commandTimeoutMs: 2_000 });
    const b = new RedisLimiter(REDIS_URL, ban, prefix, { commandTimeoutMs: 2_000 });
    const control = new Redis(REDIS_URL);
    try {
      const ip = '10.2.0.7';
      // a knows this bucket far from empty: its next requests are admitted at once.
      expect(await a.admit(request('roomy', 'owner', ip))).toBe('ok');
      expect(await a.admit(request('roomy', 'owner', ip))).toBe('ok');
      // Through b, the same client empties a bucket of one and is refused until banned.
      const tiny: AdmitRequest = { ...request('tiny', 'owner', ip), burst: 1 };
      const onB: string[] = [];
      for (let i = 0; i < 10 && !onB.includes('banned'); i++) onB.push(await b.admit(tiny));
      expect(onB).toContain('banned');
      // a heard of the ban: the roomy bucket no longer admits this client.
      await vi.waitFor(async () => expect(await a.admit(request('roomy', 'owner', ip))).toBe('banned'), { timeout: 2_000, interval: 10 });
      // Another client of the same bucket is still admitted.
      expect(await a.admit(request('roomy', 'owner', '10.2.0.8'))).toBe('ok');
    } finally {
      await cleanUp([a, b], control, prefix);
    }
  });
});
