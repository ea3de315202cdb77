import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { call, startTestGateway } from '../helpers/gateway';
import { RedisLimiter } from '../../server/gateway/redis-limiter';
import { MemoryLimiter, type AdmitRequest } from '../../server/gateway/limiter';
import { DAY_MS } from '../../shared/time';
import { plans } from '../../shared/plans';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BAN = { threshold: 1_000_000, windowSeconds: 60, seconds: 60 };

describe('the pay-as-you-go balance in the gateway', () => {
  const app = useTestApp();
  let client: Client;
  let ws: number;

  beforeAll(async () => {
    client = new Client(app.url);
    await signIn(client, app.mailer, 'ppu-spend@example.com');
    ws = (await client.get('/api/workspaces')).body.data[0].id;
  });

  it('spends the balance once the daily quota is used up, never below zero, answers 402 at zero and writes what it spent', async () => {
    const me = (await client.get('/api/me')).body.data;
    const created = await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'ppu', networkId: 0 });
    const key = created.body.data.project.project_id as string;
    const now = Date.now();
    // The day's quota (STARTER: 50,000) is used up, and the workspace holds 5 requests.
    await app.db('quota_usage').insert({ user_id: me.id, day_ms: now - (now % DAY_MS), requests: plans.STARTER.requestLimit });
    await app.db('ppu_balances').insert({ workspace_id: ws, credited: 7, spent: 2, updated_at: now });
    const gw = await startTestGateway(app);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await call(`${gw.url}/api/v0/network`, key)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 402, 402]);
      const refused = await call(`${gw.url}/api/v0/network`, key);
      expect(refused.body).toEqual({ status_code: 402, error: 'Project Over Limit', message: 'Usage is over limit.' });
    } finally {
      await gw.close(); // flushes the spends
    }
    expect(Number((await app.db('ppu_balances').where({ workspace_id: ws }).first()).spent)).toBe(7);
    expect((await client.get(`/api/workspaces/${ws}/quota`)).body.data.ppu).toEqual({ active: true, balance: { requests: 0 } });
  });

  it("spends it on a devnet project's requests as on any other network's", async () => {
    // A user of their own, whose one STARTER project is a devnet.
    const owner = new Client(app.url);
    await signIn(owner, app.mailer, 'ppu-devnet@example.com');
    const me = (await owner.get('/api/me')).body.data;
    const workspace = (await owner.get('/api/workspaces')).body.data[0].id as number;
    const created = await owner.post(`/api/workspaces/${workspace}/projects`, { projectName: 'devnet', networkId: 8 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const key = created.body.data.project.project_id as string;
    const now = Date.now();
    await app.db('quota_usage').insert({ user_id: me.id, day_ms: now - (now % DAY_MS), requests: plans.STARTER.requestLimit });
    await app.db('ppu_balances').insert({ workspace_id: workspace, credited: 3, spent: 0, updated_at: now });
    const gw = await startTestGateway(app);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await call(`${gw.url}/api/v0/blocks/latest`, key)).status);
      expect(statuses).toEqual([200, 200, 200, 402]);
    } finally {
      await gw.close();
    }
    expect(Number((await app.db('ppu_balances').where({ workspace_id: workspace }).first()).spent)).toBe(3);
  });

  it('costs a workspace without a balance nothing: 402 at the quota as before', () => {
    const limiter = new MemoryLimiter(BAN);
    const r: AdmitRequest = { ip: '1', bucketKey: 'b', rate: 1000, burst: 1000, quotaKey: 'q', day: 1, quotaLimit: 1, quotaBase: 0, balanceKey: '9', balanceCredited: 0, balanceSpentBase: 0 };
    expect([limiter.admitNow(r), limiter.admitNow(r)]).toEqual(['ok', 'over_quota']);
    expect(limiter.drainBalanceSpends().size).toBe(0);
    void limiter.close();
  });

  it('two limiters on one Redis spend a balance of 10,000 requests with no overshoot, and either flushes the total', async () => {
    const prefix = `cairn-test:${crypto.randomBytes(4).toString('hex')}:`;
    // Exact sharing while Redis answers: on a machine too busy to schedule Redis within the default
    // 100 ms the limiters would take it for an outage and apply their approximate shares instead.
    const a = new RedisLimiter(REDIS_URL, BAN, prefix, { commandTimeoutMs: 2_000 });
    const b = new RedisLimiter(REDIS_URL, BAN, prefix, { commandTimeoutMs: 2_000 });
    try {
      const r = (i: number): AdmitRequest => ({ ip: `10.0.${i % 250}.1`, bucketKey: 'k', rate: 1e9, burst: 1e9, quotaKey: 'owner', day: 1, quotaLimit: 0, quotaBase: 0, balanceKey: '42', balanceCredited: 10_000, balanceSpentBase: 0 });
      const verdicts: string[] = [];
      for (let i = 0; i < 12_000; i += 1000) {
        verdicts.push(...(await Promise.all(Array.from({ length: 1000 }, (_, j) => ((i + j) % 2 ? a : b).admit(r(i + j))))));
      }
      expect(verdicts.filter((v) => v === 'ok').length).toBe(10_000);
      expect(verdicts.filter((v) => v === 'over_quota').length).toBe(2_000);
      // Either limiter's flush writes the balance's total as Redis counts it; a second flush has nothing left to write.
      const written: Array<Map<string, number>> = [];
      const store = { addSpends: async () => expect.unreachable('Redis flushes totals'), raiseSpent: async (m: Map<string, number>) => void written.push(m) };
      await a.flushBalanceSpends(store);
      await b.flushBalanceSpends(store);
      expect(written).toEqual([new Map([['42', 10_000]])]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
