// An operator turns networks off by configuration (DISABLED_NETWORKS), and a
// network without a backend is not offered either. On a real app, gateway and database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { call, startTestGateway } from '../helpers/gateway';
import type { RunningGateway } from '../../server/gateway-app';
import { MESSAGES } from '../../server/gateway/gateway';
import { networkNotAvailableMessage, type NetworkOptionDto } from '../../shared/networks';
import type { StatusReport } from '../../shared/status';

const OFF = { DISABLED_NETWORKS: 'cardano-mainnet, IPFS' };

// One database, two servers: one offering every network, one whose operator turned two of them off.
const open = useTestApp();
const off = useTestApp(() => ({ env: OFF, database: open.database }));

async function owner(app: TestApp, email: string) {
  const client = new Client(app.url);
  await signIn(client, app.mailer, email);
  const ws = (await client.get<{ data: Array<{ id: number }> }>('/api/workspaces')).body.data[0]!.id;
  const create = (networkId: number) => client.post<any>(`/api/workspaces/${ws}/projects`, { projectName: `p${networkId}-${Math.random()}`, networkId });
  return { client, ws, create };
}

describe('DISABLED_NETWORKS', () => {
  it('is read into the configuration in the table order, slugs in any case', () => {
    expect(off.config.disabledNetworks).toEqual(['cardano-mainnet', 'ipfs']);
    expect(open.config.disabledNetworks).toEqual([]);
  });

  it('marks the networks not available in GET /api/networks', async () => {
    const res = await new Client(off.url).get<{ data: NetworkOptionDto[] }>('/api/networks');
    expect(Object.fromEntries(res.body.data.map((n) => [n.label, n.available]))).toEqual({
      'Cardano mainnet': false, // turned off
      'Cardano testnet': false, // retired
      IPFS: false, // turned off
      'Milkomeda mainnet': true,
      'Milkomeda testnet': false,
      'Cardano preview': true,
      'Cardano preprod': true,
      'Cardano SanchoNet': false, // disabled
      'Cardano devnet': true, // each project's own chain, in the gateway
    });
  });

  it('refuses a new project on a turned-off network with a clear 400, and takes one on the others', async () => {
    const { create } = await owner(off, 'disabled-400@example.com');
    for (const [id, label] of [
      [0, 'Cardano mainnet'],
      [2, 'IPFS'],
    ] as const) {
      const res = await create(id);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ code: 'invalid', message: networkNotAvailableMessage(label) });
    }
    expect((await create(6)).status).toBe(201);
  });

  it('leaves the turned-off networks off the status page', async () => {
    const report = (await new Client(off.url).get<{ data: StatusReport }>('/api/status')).body.data;
    expect(report.networks.map((n) => n.slug)).toEqual(['milkomeda-mainnet', 'cardano-preview', 'cardano-preprod', 'cardano-devnet']);
    const all = (await new Client(open.url).get<{ data: StatusReport }>('/api/status')).body.data;
    expect(all.networks.map((n) => n.slug)).toEqual(['cardano-mainnet', 'ipfs', 'milkomeda-mainnet', 'cardano-preview', 'cardano-preprod', 'cardano-devnet']);
  });

  describe('the gateway', () => {
    let gw: RunningGateway;
    let keys: { mainnet: string; ipfs: string; preprod: string; ownerId: number; ids: number[] };

    beforeAll(async () => {
      // Keys made while the networks were on (the server that offers everything), then a gateway configured with them off.
      const o = await owner(open, 'disabled-gateway@example.com');
      const me = (await o.client.get<any>('/api/me')).body.data;
      await open.db('subscriptions').where({ user_id: me.id }).update({ plan: 'DEVELOPER' });
      const made = await Promise.all([0, 2, 6].map(async (id) => (await o.create(id)).body.data.project as { project_id: string; id: number }));
      keys = { mainnet: made[0]!.project_id, ipfs: made[1]!.project_id, preprod: made[2]!.project_id, ownerId: me.id, ids: made.map((p) => p.id) };
      gw = await startTestGateway(open, OFF);
      await gw.keys.catchUp();
    });
    afterAll(async () => {
      await gw?.close();
    });

    it('answers existing keys of a turned-off network 403 in the Blockfrost shape, on every path form', async () => {
      const refused = { status: 403, body: { status_code: 403, error: 'Forbidden', message: MESSAGES.disabled } };
      expect(await call(`${gw.url}/api/v0/blocks/latest`, keys.mainnet)).toMatchObject(refused);
      expect(await call(`${gw.url}/cardano-mainnet/api/v0/blocks/latest`, keys.mainnet)).toMatchObject(refused);
      expect(await call(`${gw.url}/api/v0/ipfs/gateway/QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn`, keys.ipfs)).toMatchObject(refused);
      // The other networks answer as before; the root and health need no key.
      expect((await call(`${gw.url}/api/v0/blocks/latest`, keys.preprod)).status).toBe(200);
      expect((await call(`${gw.url}/cardano-mainnet/api/v0/health`)).status).toBe(200);
      // A key of another network on the turned-off network's path is still a mismatch, not a hint.
      expect((await call(`${gw.url}/cardano-mainnet/api/v0/blocks/latest`, keys.preprod)).body.message).toBe(MESSAGES.mismatch);
    });

    it('counts nothing for the refused calls: no quota, no metering', async () => {
      await Promise.all(Array.from({ length: 5 }, () => call(`${gw.url}/api/v0/epochs/latest`, keys.mainnet)));
      await gw.meter.flush();
      const [mainnetId, ipfsId] = keys.ids;
      expect(await open.db('usage_rollups').whereIn('project_id', [mainnetId!, ipfsId!])).toEqual([]);
      // The preprod call above is the only one the owner's quota saw.
      const quota = await open.db('quota_usage').where({ user_id: keys.ownerId });
      expect(quota.reduce((n: number, r: { requests: number | string }) => n + Number(r.requests), 0)).toBe(1);
    });

    it('serves the network again once the operator turns it back on', async () => {
      const back = await startTestGateway(open);
      try {
        await back.keys.catchUp();
        expect((await call(`${back.url}/api/v0/blocks/latest`, keys.mainnet)).status).toBe(200);
      } finally {
        await back.close();
      }
    });
  });
});

describe('a network without a backend', () => {
  // In production Milkomeda without UPSTREAM_MILKOMEDA_MAINNET_URL has nothing behind it.
  const prod = useTestApp({ env: { NODE_ENV: 'production', UPSTREAM_MILKOMEDA_MAINNET_URL: '' } });

  it('is not available in Add Project, and a project on it is refused with a clear 400', async () => {
    const options = (await new Client(prod.url).get<{ data: NetworkOptionDto[] }>('/api/networks')).body.data;
    expect(options.find((n) => n.label === 'Milkomeda mainnet')?.available).toBe(false);
    const { create } = await owner(prod, 'no-backend-400@example.com');
    const res = await create(3);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(networkNotAvailableMessage('Milkomeda mainnet'));
    expect((await create(5)).status).toBe(201);
  });
});
