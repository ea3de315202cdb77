import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { call, startTestGateway } from '../helpers/gateway';
import { grantBoost } from '../../server/features/billing/billing';
import { plans } from '../../shared/plans';
import { dayStartOf } from '../../shared/time';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const app = useTestApp();

describe('boosts at the gateway', () => {
  it('a boost bought after the quota ran out admits requests again on every gateway sharing Redis', async () => {
    const u = new Client(app.url);
    await signIn(u, app.mailer, `boost-gw-${Date.now()}@example.com`);
    const me = (await u.get('/api/me')).body.data;
    const ws = (await u.get('/api/workspaces')).body.data[0].id;
    const key = (await u.post(`/api/workspaces/${ws}/projects`, { projectName: 'b', networkId: 0 })).body.data.project.project_id;
    const day = dayStartOf(Date.now());
    await app.db('quota_usage').insert({ user_id: me.id, day_ms: day, requests: plans.STARTER.requestLimit });
    const prefix = `cairn-test:${crypto.randomBytes(4).toString('hex')}:`;
    const x = await startTestGateway(app, { REDIS_URL }, prefix);
    const y = await startTestGateway(app, { REDIS_URL }, prefix);
    try {
      expect((await call(x.url + '/api/v0/network', key)).status).toBe(402);
      expect((await call(y.url + '/api/v0/network', key)).status).toBe(402);
      await grantBoost(app.db, { workspaceId: ws, type: 'REQUESTS_BOOST_300K', reference: null, amount: null, provider: 'local' });
      // Each gateway's key cache learns of the boost from gateway_changes within a poll or two.
      await expect.poll(async () => (await call(x.url + '/api/v0/network', key)).status, { timeout: 3000 }).toBe(200);
      await expect.poll(async () => (await call(y.url + '/api/v0/network', key)).status, { timeout: 3000 }).toBe(200);
      expect(x.keys.lookup(key)?.requestLimit).toBe(350_000);
    } finally {
      await x.close();
      await y.close();
    }
  });
});
