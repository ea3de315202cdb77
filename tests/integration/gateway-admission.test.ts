import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { call, startTestGateway } from '../helpers/gateway';
import { REFUSALS } from '../../server/gateway/refusals';
import { MESSAGES } from '../../server/gateway/gateway';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { DAY_MS } from '../../shared/time';

// A Blockfrost request and a Milkomeda JSON-RPC call pass the same admission steps: past the daily
// quota both are paid from the workspace's pay-as-you-go balance, and every refusal says the same
// thing with the same status, whichever protocol carries it.

const rpc = async (url: string, key: string) => {
  const res = await fetch(url, { method: 'POST', headers: { project_id: key, 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] }) });
  return { status: res.status, body: (await res.json()) as { id: unknown; result?: unknown; error?: { code: number; message: string } } };
};

describe('one admission path for the data plane', () => {
  const app = useTestApp();
  let client: Client;
  let ws: number;
  let ownerId: number;

  beforeAll(async () => {
    client = new Client(app.url);
    await signIn(client, app.mailer, 'admission@example.com');
    ownerId = (await client.get('/api/me')).body.data.id;
    ws = (await client.get('/api/workspaces')).body.data[0].id;
    // A plan with room for a project per network.
    await setSubscription(app.db, ownerId, 'ENTERPRISE', 'active');
  });

  const project = async (name: string, networkId: number): Promise<string> => {
    const res = await client.post(`/api/workspaces/${ws}/projects`, { projectName: name, networkId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.project.project_id as string;
  };

  it('pays Blockfrost and JSON-RPC calls past the quota from one balance, and refuses both with the same status and text once it is spent', async () => {
    const cardano = await project('admission-cardano', 0);
    const milkomeda = await project('admission-milkomeda', 3);
    const now = Date.now();
    // The day's quota is used up (more than any plan's), and the workspace holds 4 requests.
    await app.db('quota_usage').insert({ user_id: ownerId, day_ms: now - (now % DAY_MS), requests: 1_000_000_000 });
    await app.db('ppu_balances').insert({ workspace_id: ws, credited: 4, spent: 0, updated_at: now });
    const gw = await startTestGateway(app);
    try {
      const paid = [(await call(`${gw.url}/api/v0/network`, cardano)).status, (await rpc(`${gw.url}/api/v0/`, milkomeda)).status, (await call(`${gw.url}/api/v0/network`, cardano)).status, (await rpc(`${gw.url}/api/v0/`, milkomeda)).status];
      expect(paid).toEqual([200, 200, 200, 200]);
      const rest = await call(`${gw.url}/api/v0/network`, cardano);
      const json = await rpc(`${gw.url}/api/v0/`, milkomeda);
      expect(rest.body).toEqual({ status_code: REFUSALS.over_quota.status, error: 'Project Over Limit', message: REFUSALS.over_quota.message });
      expect(json.body).toMatchObject({ id: 7, error: { message: REFUSALS.over_quota.message } });
      expect([rest.status, json.status]).toEqual([402, 402]);
    } finally {
      await gw.close();
    }
    expect(Number((await app.db('ppu_balances').where({ workspace_id: ws }).first()).spent)).toBe(4);
  });

  it("answers a network without a backend with the table's one status and text on the JSON-RPC path too", async () => {
    const milkomeda = await project('admission-no-backend', 3);
    const gw = await startTestGateway(app, { NODE_ENV: 'production' });
    try {
      const json = await rpc(`${gw.url}/api/v0/`, milkomeda);
      expect(json.status).toBe(REFUSALS.noBackend.status);
      expect(json.body).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: REFUSALS.noBackend.message } });
      // The Blockfrost path's text is the same entry.
      expect(MESSAGES.noBackend).toBe(REFUSALS.noBackend.message);
    } finally {
      await gw.close();
    }
  });

  it('refuses a missing and a wrong key with the same status and text on both paths', async () => {
    const gw = await startTestGateway(app);
    try {
      for (const [key, refusal] of [
        ['', REFUSALS.missingKey],
        ['not-a-key', REFUSALS.invalidKey],
      ] as const) {
        const rest = await call(`${gw.url}/api/v0/network`, key || undefined);
        const res = await fetch(`${gw.url}/milkomeda-mainnet/api/v0/`, { method: 'POST', headers: { ...(key ? { project_id: key } : {}), 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' });
        const json = (await res.json()) as { error: { message: string } };
        expect([rest.status, rest.body.message]).toEqual([refusal.status, refusal.message]);
        expect([res.status, json.error.message]).toEqual([refusal.status, refusal.message]);
      }
    } finally {
      await gw.close();
    }
  });
});
