import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RedisLimiter, REDIS_COMMAND_TIMEOUT_MS } from '../../server/gateway/redis-limiter';
import type { AdmitRequest } from '../../server/gateway/limiter';
import { createLogger } from '../../server/logger';
import { startOwnRedis, type OwnRedis } from '../helpers/redis-server';

// A Redis that hangs (SIGSTOP: its connections stay open, nothing answers) rather than dies: a
// request waits REDIS_COMMAND_TIMEOUT_MS for it at most, then the limiter applies its own share, and
// it shares the limits again once Redis answers.

const BAN = { threshold: 1_000_000, windowSeconds: 60, seconds: 60 };
let redis: OwnRedis;

beforeAll(async () => {
  redis = await startOwnRedis();
});
afterAll(async () => {
  await redis?.stop();
});

describe('a Redis that hangs', () => {
  it(`costs a request at most ${REDIS_COMMAND_TIMEOUT_MS} ms of waiting, is logged once, and is left once it answers`, { timeout: 30_000 }, async () => {
    const entries: Array<{ msg: string; redis?: { outageMs?: number; reason?: string } }> = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        entries.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    const states: string[] = [];
    const prefix = `cairn-hang-${crypto.randomBytes(3).toString('hex')}:`;
    const limiter = new RedisLimiter(redis.url, BAN, prefix, { logger: createLogger('info', sink), onState: (s) => states.push(s) });
    const r: AdmitRequest = { ip: '10.0.0.1', bucketKey: 'k', rate: 10, burst: 500, quotaKey: 'owner', day: 1, quotaLimit: 1_000, quotaBase: 0 };
    try {
      expect(await limiter.admit(r)).toBe('ok');
      redis.signal('SIGSTOP');
      const t0 = performance.now();
      const verdicts = await Promise.all(Array.from({ length: 20 }, () => limiter.admit(r)));
      const waited = performance.now() - t0;
      expect(verdicts.every((v) => v === 'ok')).toBe(true);
      // The timeout plus the turn of the event loop it waits for; far less than any retry would take.
      expect(waited).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS + 150);
      expect(limiter.status.state).toBe('down');
      // While down, requests are not sent to Redis at all.
      const t1 = performance.now();
      await limiter.admit(r);
      expect(performance.now() - t1).toBeLessThan(20);

      redis.signal('SIGCONT');
      await vi.waitFor(() => expect(limiter.status.state).toBe('operational'), { timeout: 2_000, interval: 20 });
      expect(states).toEqual(['operational', 'down', 'operational']);
      const logged = entries.filter((e) => e.msg.startsWith('redis:'));
      expect(logged.map((e) => e.msg.split(' (')[0]!.split(' after')[0])).toEqual(['redis: not answering', 'redis: answering again']);
      expect(logged[0]!.redis?.reason).toMatch(/no answer for \d+ ms/);
      expect(logged[1]!.redis?.outageMs).toBeGreaterThan(0);
      // The 21 requests admitted alone were added to Redis's quota counter, after the one call Redis
      // ran late once it resumed: the first of the 20 went out alone, and the 19 that came while it was
      // out waited for it and were admitted alone once the circuit opened, never sent. Its request had
      // stopped waiting: counted twice, never lost.
      const control = new Redis(redis.url);
      try {
        expect(await control.get(`${prefix}quota:owner:1`)).toBe(String(1 + 1 + 21));
      } finally {
        control.disconnect();
      }
    } finally {
      redis.signal('SIGCONT');
      await limiter.close();
    }
  });

  it.each([
    ['the daily quota', { quotaLimit: 10 }],
    ['a pay-as-you-go balance', { quotaLimit: 0, balanceKey: 'workspace', balanceCredited: 10, balanceSpentBase: 0 }],
  ] as const)('never admits past %s over two outages, the second sharing what is left after the first', { timeout: 30_000 }, async (_, limits) => {
    const prefix = `cairn-hang-${crypto.randomBytes(3).toString('hex')}:`;
    const limiter = new RedisLimiter(redis.url, BAN, prefix);
    const r: AdmitRequest = { ip: '10.0.0.2', bucketKey: 'k', rate: 1_000, burst: 1_000, quotaKey: 'owner', day: 1, quotaBase: 0, ...limits };
    let admitted = 0;
    const admit = async (n: number) => {
      for (let i = 0; i < n; i++) if ((await limiter.admit(r)) === 'ok') admitted++;
    };
    try {
      await admit(1);
      redis.signal('SIGSTOP');
      // Five admitted alone, then handed to Redis once it answers again.
      await admit(5);
      expect(admitted).toBe(6);
      redis.signal('SIGCONT');
      await vi.waitFor(() => expect(limiter.status.state).toBe('operational'), { timeout: 2_000, interval: 20 });
      // A second outage: its share starts from the counter (or the balance spent) with those five, not from the count seen before them.
      redis.signal('SIGSTOP');
      await admit(20);
      expect(admitted).toBeLessThanOrEqual(10);
    } finally {
      redis.signal('SIGCONT');
      await limiter.close();
    }
  });
});
