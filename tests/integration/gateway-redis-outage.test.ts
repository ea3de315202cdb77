import crypto from 'node:crypto';
import http from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../server/db/index';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { freePort, serverData, spawnServerProcess, stopServerProcesses, type ServerData } from '../helpers/server-process';
import { startOwnRedis, type OwnRedis } from '../helpers/redis-server';

// Two gateway PROCESSES share their limits through a redis-server of the test's own, which is killed
// and started again (empty) under load. Every request is answered, none with a 500 and none after more
// than two seconds; during the outage each gateway admits its half of each project's limit (STARTER: a
// burst of 500, then 10 per second); within a second of Redis answering again both share it again.

const RATE = 10;
const BURST = 500;
// A request unanswered after this long counts as hung. Waiting on Redis costs at most 100 ms; the rest
// of the margin is for a machine busy with other work (the test's own load runs on it too).
const ANSWER_MS = 2_000;
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

interface Answer {
  gateway: number;
  status: number;
  ms: number;
  error?: string;
}

/** One GET with the key, answered within ANSWER_MS or recorded as hung. */
const get = (url: string, key: string, gateway: number) =>
  new Promise<Answer>((resolve) => {
    const t0 = performance.now();
    const done = (status: number, error?: string) => resolve({ gateway, status, ms: performance.now() - t0, ...(error ? { error } : {}) });
    const req = http.get(`${url}/api/v0/network`, { headers: { project_id: key }, agent }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.setTimeout(ANSWER_MS, () => req.destroy(new Error('hung')));
    req.on('error', (err) => done(0, err.message));
  });

let data: ServerData;
let db: Db;
let redis: OwnRedis;
let keys: string[];
const gateways: Array<{ url: string; lines: string[] }> = [];
const prefix = `cairn-outage-${crypto.randomBytes(3).toString('hex')}:`;

beforeAll(async () => {
  redis = await startOwnRedis();
  data = await serverData('redis-outage');
  db = data.db;
  const owner = await makeUser(db, 'redis-outage@example.com');
  const ws = await makeWorkspace(db, owner.id, []);
  const now = Date.now();
  // p0: the background load throughout; p1: the outage, then the return; p2: the return, through one gateway.
  keys = [0, 1, 2].map(() => `mainnet${crypto.randomBytes(16).toString('hex')}`);
  for (const [i, key] of keys.entries()) await db('projects').insert({ uuid: crypto.randomUUID(), workspace_id: ws, name: `p${i}`, project_id: key, network_id: 0, created_at: now, updated_at: now });
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const lines: string[] = [];
    const env = {
      ...data.env,
      HOST: '127.0.0.1',
      GATEWAY_PORT: String(port),
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: prefix,
      // The killed Redis is noticed at once, by its closed connection; the timeout is for a Redis that
      // hangs, and on a machine busy with other work 100 ms without an answer is not yet an outage.
      REDIS_TIMEOUT_MS: '500',
      LOG_LEVEL: 'info',
      GATEWAY_BAN_THRESHOLD: '1000000',
      UPSTREAM_IPFS_URL: 'http://127.0.0.1:9',
      UPSTREAM_MILKOMEDA_MAINNET_URL: 'http://127.0.0.1:9',
    };
    await spawnServerProcess({ role: 'gateway', env, readyUrl: `${url}/health`, readyTimeoutMs: 60_000, lines });
    gateways.push({ url, lines });
  }
}, 120_000);
afterAll(async () => {
  await stopServerProcesses();
  await redis?.stop();
  await data?.remove();
});

/** The JSON log entries of gateway i whose message starts with `start`. */
const logged = (i: number, start: string) =>
  gateways[i]!.lines.flatMap((l) => {
    try {
      const entry = JSON.parse(l) as { msg?: string; time?: number; redis?: { outageMs?: number; gateways?: number } };
      return entry.msg?.startsWith(start) ? [entry] : [];
    } catch {
      return [];
    }
  });

/** Sends `total` requests with `key` round robin over `through` (16 at a time); answers them and how long it took. */
async function send(key: string, total: number, through = [0, 1]) {
  const answers: Answer[] = [];
  const t0 = performance.now();
  let n = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (n < total) {
        const g = through[n++ % through.length]!;
        answers.push(await get(gateways[g]!.url, key, g));
      }
    }),
  );
  return { answers, seconds: (performance.now() - t0) / 1000, ok: answers.filter((a) => a.status === 200).length };
}

describe('Redis stops and comes back under load', () => {
  it('answers every request in time, without a 500, on half the limits each during the outage and shared limits after', { timeout: 120_000 }, async () => {
    const control = new Redis(redis.url);
    // Both gateways have told Redis they are alive: each knows it is one of two.
    await vi.waitFor(async () => expect(await control.zcard(`${prefix}gateways`)).toBe(2), { timeout: 10_000, interval: 100 });
    // Each gateway reads the count on its own heartbeat (every second): the first one to register saw 1.
    const bothRegisteredAt = Date.now();
    control.disconnect();

    // The background load: project p0 through both gateways, from before the outage until after it.
    const background: Answer[] = [];
    let loading = true;
    let n = 0;
    const load = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (loading) {
          const g = n++ % 2;
          background.push(await get(gateways[g]!.url, keys[0]!, g));
        }
      }),
    );
    await vi.waitFor(() => expect(background.length > 200 && Date.now() - bothRegisteredAt > 2_500).toBe(true), { timeout: 15_000, interval: 50 });

    await redis.kill();
    const killedAt = Date.now();
    await vi.waitFor(() => expect([0, 1].map((i) => logged(i, 'redis: not answering').length)).toEqual([1, 1]), { timeout: 5_000, interval: 20 });
    for (const i of [0, 1]) expect(logged(i, 'redis: not answering')[0]!.redis?.gateways).toBe(2);
    await vi.waitFor(async () => expect((await db('component_states').where({ name: 'Shared rate limits' }).first())?.state).toBe('down'), { timeout: 5_000, interval: 50 });

    // During the outage: a project not seen before gets 250 + 5/s at each gateway, 500 + 10/s in all.
    const during = await send(keys[1]!, 1_000);
    const duringLimit = BURST + RATE * during.seconds;
    expect(Math.abs(during.ok - duringLimit) / duringLimit).toBeLessThanOrEqual(0.1);
    for (const g of [0, 1]) {
      const okAt = during.answers.filter((a) => a.gateway === g && a.status === 200).length;
      expect(Math.abs(okAt - duringLimit / 2) / (duringLimit / 2)).toBeLessThanOrEqual(0.1);
    }

    const backAt = await redis.start();
    await vi.waitFor(() => expect([0, 1].map((i) => logged(i, 'redis: answering again').length)).toEqual([1, 1]), { timeout: 5_000, interval: 20 });
    const recovered = [0, 1].map((i) => logged(i, 'redis: answering again')[0]!);
    for (const entry of recovered) {
      // Shared again within a second of Redis answering; the outage's length is in the log.
      expect(entry.time! - backAt).toBeLessThanOrEqual(1_000);
      expect(entry.redis?.outageMs).toBeGreaterThanOrEqual(backAt - killedAt - 1_000);
    }

    // After: Redis started empty, so p1's shared bucket is full again (the gateways' own halves are
    // used up), and p2 gets the whole limit through one gateway alone.
    const after = await send(keys[1]!, 800);
    const afterLimit = BURST + RATE * after.seconds;
    expect(Math.abs(after.ok - afterLimit) / afterLimit).toBeLessThanOrEqual(0.02);
    const alone = await send(keys[2]!, 800, [0]);
    const aloneLimit = BURST + RATE * alone.seconds;
    expect(Math.abs(alone.ok - aloneLimit) / aloneLimit).toBeLessThanOrEqual(0.02);
    await vi.waitFor(async () => expect((await db('component_states').where({ name: 'Shared rate limits' }).first())?.state).toBe('operational'), { timeout: 5_000, interval: 50 });

    loading = false;
    await load;
    const all = [...background, ...during.answers, ...after.answers, ...alone.answers];
    const count = (f: (a: Answer) => boolean) => all.filter(f).length;
    const maxMs = Math.max(...all.map((a) => a.ms));
    console.info(
      `redis outage: ${all.length} requests, ${count((a) => a.status === 500)} × 500, ${count((a) => a.error !== undefined)} unanswered, max latency ${maxMs.toFixed(0)} ms; ` +
        `during ${during.ok} admitted of ${duringLimit.toFixed(0)}, after ${after.ok} of ${afterLimit.toFixed(0)}, one gateway after ${alone.ok} of ${aloneLimit.toFixed(0)}; outage ${recovered.map((r) => r.redis?.outageMs).join('/')} ms`,
    );
    expect(count((a) => a.status === 500)).toBe(0);
    expect(all.filter((a) => a.error !== undefined)).toEqual([]);
    expect(all.every((a) => [200, 429].includes(a.status))).toBe(true);
    expect(maxMs).toBeLessThan(ANSWER_MS);
    for (const g of gateways) expect(g.lines.filter((l) => l.includes('Unhandled error event') || l.includes('[ioredis]'))).toEqual([]);
    // The outage was logged once by each gateway, when it began and when it ended.
    for (const i of [0, 1]) expect([logged(i, 'redis: not answering').length, logged(i, 'redis: answering again').length]).toEqual([1, 1]);
  });
});
