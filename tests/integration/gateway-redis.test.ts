import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { call, startTestGateway } from '../helpers/gateway';
import type { RunningGateway } from '../../server/gateway-app';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { plans } from '../../shared/plans';
import { dayStartOf } from '../../shared/time';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const app = useTestApp();
let a: RunningGateway;
let b: RunningGateway;
let client: Client;
let ws: number;
const prefix = `cairn-test:${crypto.randomBytes(4).toString('hex')}:`;

beforeAll(async () => {
  client = new Client(app.url);
  await signIn(client, app.mailer, 'redis-owner@example.com');
  ws = (await client.get('/api/workspaces')).body.data[0].id;
  // Exact sharing while Redis answers (outages: gateway-redis-outage.test.ts): a machine too busy to
  // schedule Redis within the default 100 ms would otherwise trip the gateways' outage fallback.
  a = await startTestGateway(app, { REDIS_URL, REDIS_TIMEOUT_MS: '2000' }, prefix);
  b = await startTestGateway(app, { REDIS_URL, REDIS_TIMEOUT_MS: '2000' }, prefix);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

async function project() {
  const res = await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'redis', networkId: 0 });
  await app.db('projects').where({ uuid: res.body.data.uuid }).first();
  await Promise.all([a.keys.reload(), b.keys.reload()]);
  return res.body.data.project as { project_id: string; uuid: string };
}

/** Sends n requests, alternating the two instances, `parallel` at a time. */
async function burst(key: string, n: number, parallel = 50) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += parallel) {
    const batch = Array.from({ length: Math.min(parallel, n - i) }, (_, j) => call(((i + j) % 2 ? a : b).url + '/api/v0/network', key).then((r) => r.status));
    statuses.push(...(await Promise.all(batch)));
  }
  return statuses;
}

describe('limits shared through Redis by two gateway instances', () => {
  it('uses Redis', () => {
    expect(a.limiter.kind).toBe('redis');
    expect(b.limiter.kind).toBe('redis');
  });

  it('admits a burst of 500 across both, then 10 per second', async () => {
    const p = await project();
    const started = Date.now();
    const first = await burst(p.project_id, 700);
    const elapsed = (Date.now() - started) / 1000;
    const ok = first.filter((s) => s === 200).length;
    // 500 from the full bucket, plus what refilled (10/s) while the burst was being sent.
    expect(ok).toBeGreaterThanOrEqual(500);
    expect(ok).toBeLessThanOrEqual(500 + Math.ceil(elapsed * 10) + 1);
    expect(first.filter((s) => s === 429).length).toBe(700 - ok);

    // Three seconds pass for the bucket: its last refill moves 3 s back (the limiter reads Redis's own
    // clock, which a test cannot move), so the next request refills it for 3 s, as after a real wait.
    const redis = new Redis(REDIS_URL);
    try {
      await redis.hincrbyfloat(`${prefix}bucket:${p.uuid}`, 'at', -3000);
    } finally {
      redis.disconnect();
    }
    const t0 = Date.now();
    const second = await burst(p.project_id, 100);
    const ok2 = second.filter((s) => s === 200).length;
    const waited = 3 + (Date.now() - t0) / 1000;
    // "3 s after emptying it, 30 requests pass" (blockfrost-compat.md), with the sending time's refill on top.
    expect(ok2).toBeGreaterThanOrEqual(29);
    expect(ok2).toBeLessThanOrEqual(Math.ceil(waited * 10) + 2);
  });

  it('bans a flooding IP for every gateway on the Redis, and keeps sharing limits (the circuit stays closed)', async () => {
    const u = new Client(app.url);
    await signIn(u, app.mailer, `redis-ban-${Date.now()}@example.com`);
    await setSubscription(app.db, (await u.get('/api/me')).body.data.id, 'ENTERPRISE', 'active');
    const uws = (await u.get('/api/workspaces')).body.data[0].id;
    const created = async (name: string) => (await u.post(`/api/workspaces/${uws}/projects`, { projectName: name, networkId: 0 })).body.data.project.project_id as string;
    const key = await created('flood');
    const prefix = `cairn-test:${crypto.randomBytes(4).toString('hex')}:`;
    const x = await startTestGateway(app, { REDIS_URL, REDIS_TIMEOUT_MS: '2000', GATEWAY_BAN_THRESHOLD: '20' }, prefix);
    const y = await startTestGateway(app, { REDIS_URL, REDIS_TIMEOUT_MS: '2000', GATEWAY_BAN_THRESHOLD: '20' }, prefix);
    try {
      // Past the burst of 500 (and its refill while they are sent), 20 refusals ban the client.
      const statuses: number[] = [];
      for (let i = 0; i < 15 && !statuses.includes(418); i++) statuses.push(...(await Promise.all(Array.from({ length: 100 }, (_, j) => call((j % 2 ? x : y).url + '/api/v0/network', key).then((r) => r.status)))));
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(500);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(19);
      // Banned: every request after it answers 418, on both.
      const after = await Promise.all(Array.from({ length: 20 }, (_, j) => call((j % 2 ? x : y).url + '/api/v0/network', key).then((r) => r.status)));
      expect(after.every((s) => s === 418)).toBe(true);
      // The ban is Redis's, not a gateway's own: a fresh project from the same IP is refused by both.
      const other = await created('other');
      await Promise.all([x.keys.reload(), y.keys.reload()]);
      expect((await call(x.url + '/api/v0/network', other)).status).toBe(418);
      expect((await call(y.url + '/api/v0/network', other)).status).toBe(418);
      expect((x.limiter as unknown as { status: { state: string } }).status.state).toBe('operational');
      expect((y.limiter as unknown as { status: { state: string } }).status.state).toBe('operational');
    } finally {
      await x.close();
      await y.close();
      const redis = new Redis(REDIS_URL);
      try {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
      } finally {
        redis.disconnect();
      }
    }
  });

  it('never lets the daily quota overshoot under concurrent requests', async () => {
    const u = new Client(app.url);
    await signIn(u, app.mailer, `redis-quota-${Date.now()}@example.com`);
    const me = (await u.get('/api/me')).body.data;
    const uws = (await u.get('/api/workspaces')).body.data[0].id;
    const res = await u.post(`/api/workspaces/${uws}/projects`, { projectName: 'q', networkId: 0 });
    const day = dayStartOf(Date.now());
    await app.db('quota_usage').insert({ user_id: me.id, day_ms: day, requests: plans.STARTER.requestLimit - 10 });
    const prefix = `cairn-test:${crypto.randomBytes(4).toString('hex')}:`;
    const x = await startTestGateway(app, { REDIS_URL }, prefix);
    const y = await startTestGateway(app, { REDIS_URL }, prefix);
    try {
      const key = res.body.data.project.project_id;
      const statuses = await Promise.all(Array.from({ length: 80 }, (_, i) => call((i % 2 ? x : y).url + '/api/v0/network', key).then((r) => r.status)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 402)).toHaveLength(70);
    } finally {
      await x.close();
      await y.close();
    }
  });
});
