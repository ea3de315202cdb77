import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/index';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { call } from '../helpers/gateway';
import { freePort, serverData, spawnServerProcess, stopServerProcess, stopServerProcesses, type ServerData } from '../helpers/server-process';
import { DAY_MS } from '../../shared/time';
import { plans } from '../../shared/plans';

// Two gateway PROCESSES (the real entry point, --role gateway) on one Redis spend one workspace's
// pay-as-you-go balance of 10,000 requests: exactly 10,000 are admitted, not one more. Then one of
// them is killed before it ever wrote its spends, and the other's flush still writes the balance's
// whole spent total to the database (from Redis), so nothing is lost in the customer's favour.

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BALANCE = 10_000;
const EXTRA = 2_000;
const PROJECTS = 30;
let data: ServerData;
let db: Db;
let prefix: string;

async function startGatewayProcess(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...data.env,
    HOST: '127.0.0.1',
    GATEWAY_PORT: String(port),
    REDIS_URL,
    REDIS_KEY_PREFIX: prefix,
    // Exact sharing while Redis answers: a machine too busy to schedule Redis within the default 100 ms
    // would otherwise trip the gateways' outage fallback, whose shares are approximate.
    REDIS_TIMEOUT_MS: '2000',
    // Spends reach the database only on the way out (or from another gateway's flush).
    METERING_FLUSH_MS: '600000',
    GATEWAY_BAN_THRESHOLD: '1000000',
    // No embedded IPFS store or EVM chain: this test is about the Cardano gateway.
    UPSTREAM_IPFS_URL: 'http://127.0.0.1:9',
    UPSTREAM_MILKOMEDA_MAINNET_URL: 'http://127.0.0.1:9',
  };
  return { child: await spawnServerProcess({ role: 'gateway', env, readyUrl: `${url}/health`, readyTimeoutMs: 60_000 }), url };
}

beforeAll(async () => {
  data = await serverData('ppu-gateways');
  db = data.db;
  prefix = `cairn-test-${crypto.randomBytes(4).toString('hex')}:`;
});
afterAll(async () => {
  // Whatever happened, no gateway is left behind (a timed-out test included).
  await stopServerProcesses();
  await data.remove();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

describe('two gateway processes on Redis spending one balance', () => {
  it(`admit exactly ${BALANCE.toLocaleString('en-US')} requests of a ${BALANCE.toLocaleString('en-US')}-request balance, and lose no spend when one is killed`, { timeout: 180_000 }, async () => {
    // A STARTER owner whose daily quota (50,000) is used up, and whose workspace holds 10,000 requests,
    // spread over 30 projects so that no project's token bucket (burst 500) is what refuses.
    const owner = await makeUser(db, 'ppu-two-gateways@example.com');
    const ws = await makeWorkspace(db, owner.id, []);
    const now = Date.now();
    const keys: string[] = [];
    for (let i = 0; i < PROJECTS; i++) {
      const key = `mainnet${crypto.randomBytes(16).toString('hex')}`;
      await db('projects').insert({ uuid: crypto.randomUUID(), workspace_id: ws, name: `p${i}`, project_id: key, network_id: 0, created_at: now, updated_at: now });
      keys.push(key);
    }
    await db('quota_usage').insert({ user_id: owner.id, day_ms: now - (now % DAY_MS), requests: plans.STARTER.requestLimit });
    await db('ppu_balances').insert({ workspace_id: ws, credited: BALANCE, spent: 0, updated_at: now });

    const a = await startGatewayProcess();
    const b = await startGatewayProcess();
    try {
      // 12,000 requests, alternating the two processes, 64 at a time.
      const statuses: number[] = [];
      const total = BALANCE + EXTRA;
      let next = 0;
      await Promise.all(
        Array.from({ length: 64 }, async () => {
          while (next < total) {
            const i = next++;
            statuses.push((await call(`${(i % 2 ? a : b).url}/api/v0/network`, keys[i % PROJECTS])).status);
          }
        }),
      );
      const counts = statuses.reduce<Record<number, number>>((m, s) => ((m[s] = (m[s] ?? 0) + 1), m), {});
      expect(counts).toEqual({ 200: BALANCE, 402: EXTRA });

      // Neither has written anything yet (the flush interval is 10 minutes).
      expect(Number((await db('ppu_balances').where({ workspace_id: ws }).first('spent')).spent)).toBe(0);
      // One is killed without a chance to write what it spent; the other stops cleanly.
      await stopServerProcess(a.child, 'SIGKILL');
      await stopServerProcess(b.child, 'SIGTERM');
      expect(b.child.exitCode).toBe(0);
    } finally {
      for (const g of [a, b]) await stopServerProcess(g.child, 'SIGKILL');
    }
    // The survivor's last flush wrote the balance's whole total, the killed one's spends included.
    expect(Number((await db('ppu_balances').where({ workspace_id: ws }).first('spent')).spent)).toBe(BALANCE);
    const redis = new Redis(REDIS_URL);
    try {
      expect(await redis.get(`${prefix}ppu:${ws}`)).toBe(String(BALANCE));
      expect(await redis.smembers(`${prefix}ppu-dirty`)).toEqual([]);
    } finally {
      await redis.quit();
    }
  });
});
