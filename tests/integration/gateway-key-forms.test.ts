// Every form a client may send its project key in: the project_id header, the path's first segment
// (/<key>/api/v0/…, for clients that take only a URL) and the basic-auth password, on every service
// (Cardano, IPFS, Milkomeda). A key in the path never reaches a backend, metering or a log line, and a
// JSON-RPC client refused for its key gets a JSON-RPC error that viem and ethers show.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchRequest, JsonRpcProvider, Network } from 'ethers';
import { createPublicClient, http as viemHttp } from 'viem';
import { BlockfrostProvider } from '@meshsdk/core';
import { useTestApp, useTestGateway } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { call, startTestGateway } from '../helpers/gateway';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { projectInsight } from '../../server/features/stats/insight';

const app = useTestApp();
let owner: { client: Client; ws: number };
const keys: Record<'cardano' | 'preprod' | 'ipfs' | 'milkomeda', { key: string; id: number; uuid: string }> = {} as never;

beforeAll(async () => {
  owner = { client: new Client(app.url), ws: 0 };
  await signIn(owner.client, app.mailer, 'key-forms@example.com');
  const me = (await owner.client.get('/api/me')).body.data.id;
  owner.ws = (await owner.client.get('/api/workspaces')).body.data[0].id;
  await setSubscription(app.db, me, 'ENTERPRISE', 'active');
  for (const [name, networkId] of [['cardano', 0], ['preprod', 6], ['ipfs', 2], ['milkomeda', 3]] as const) {
    const res = await owner.client.post(`/api/workspaces/${owner.ws}/projects`, { projectName: name, networkId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const p = res.body.data.project;
    keys[name] = { key: p.project_id, id: p.id, uuid: p.uuid };
  }
});
const gw = useTestGateway(app);

const basic = (key: string, user = '') => ({ authorization: `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}` });

async function rpc(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, statusText: res.statusText, body: await res.json() };
}

describe('a key in the path', () => {
  it('serves Cardano on /<key>/api/v0/… and /<key>/<network>/api/v0/…', async () => {
    await gw.keys.catchUp();
    const { key } = keys.cardano;
    const plain = await call(`${gw.url}/${key}/api/v0/blocks/latest`);
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(plain.body.hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await call(`${gw.url}/${key}/cardano-mainnet/api/v0/epochs/latest`)).body).toMatchObject({ epoch: expect.any(Number) });
    // The network in the path still has to be the key's.
    expect(await call(`${gw.url}/${key}/cardano-preprod/api/v0/blocks/latest`)).toMatchObject({ status: 403, body: { message: 'Network token mismatch. Are you using token for the correct network? See https://docs.blockfrost.io/#section/Available-networks.' } });
    // A key-shaped segment that is no key is refused as a bad key, not as a missing one.
    expect(await call(`${gw.url}/mainnet${'Z'.repeat(32)}/api/v0/blocks/latest`)).toMatchObject({ status: 403, body: { message: 'Invalid project token.' } });
    // The open endpoints stay open behind a key.
    expect((await call(`${gw.url}/${key}/api/v0/health`)).body).toEqual({ is_healthy: true });
  });

  it('serves IPFS: add, pin, list and the gateway', async () => {
    const { key } = keys.ipfs;
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('key in the path')]), 'hello.txt');
    const added = await fetch(`${gw.url}/${key}/api/v0/ipfs/add`, { method: 'POST', body: form });
    expect(added.status).toBe(200);
    const { ipfs_hash } = (await added.json()) as { ipfs_hash: string };
    expect((await fetch(`${gw.url}/${key}/ipfs/api/v0/ipfs/pin/add/${ipfs_hash}`, { method: 'POST' })).status).toBe(200);
    expect((await call(`${gw.url}/${key}/api/v0/ipfs/pin/list`)).body).toEqual([expect.objectContaining({ ipfs_hash })]);
    const file = await fetch(`${gw.url}/${key}/api/v0/ipfs/gateway/${ipfs_hash}`);
    expect(await file.text()).toBe('key in the path');
  });

  it('serves Milkomeda JSON-RPC to viem and ethers given only the URL', async () => {
    const { key } = keys.milkomeda;
    const url = `${gw.url}/${key}/milkomeda-mainnet/api/v0/`;
    const client = createPublicClient({ transport: viemHttp(url) });
    expect(await client.getChainId()).toBe(2001);
    const provider = new JsonRpcProvider(`${gw.url}/${key}/api/v0/`, Network.from(2001), { staticNetwork: true });
    expect(typeof (await provider.getBlockNumber())).toBe('number');
    provider.destroy();
  });

  it("serves Mesh's BlockfrostProvider given a custom URL (it sends no header)", async () => {
    const mesh = new BlockfrostProvider(`${gw.url}/${keys.cardano.key}/api/v0`);
    const latest = (await mesh.fetchLatestBlock()) as { hash: string };
    expect(latest.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps the key out of metering and request insight', async () => {
    const { key, id } = keys.cardano;
    expect((await call(`${gw.url}/${key}/api/v0/no-such-thing/${key}`)).status).toBe(400);
    await gw.meter.flush();
    const endpoints = (await app.db('usage_dimensions').where({ project_id: id, dimension: 'endpoint' }).select('value')).map((r: { value: string }) => r.value);
    expect(endpoints.length).toBeGreaterThan(0);
    for (const e of endpoints) expect(e).not.toContain(key);
    const insight = await projectInsight(app.db, id);
    expect(insight.recentFailures.length).toBeGreaterThan(0);
    expect(JSON.stringify(insight)).not.toContain(key);
  });
});

describe('a key as the basic-auth password', () => {
  it('works for Cardano and IPFS, as it does for Milkomeda', async () => {
    expect((await call(`${gw.url}/api/v0/blocks/latest`, undefined, basic(keys.cardano.key))).status).toBe(200);
    expect((await call(`${gw.url}/api/v0/ipfs/pin/list`, undefined, basic(keys.ipfs.key, 'project'))).status).toBe(200);
    expect((await rpc(`${gw.url}/api/v0/`, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }, basic(keys.milkomeda.key))).body).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7d1' });
    expect(await call(`${gw.url}/api/v0/blocks/latest`, undefined, basic('mainnetNotAKey'))).toMatchObject({ status: 403, body: { message: 'Invalid project token.' } });
  });
});

describe('JSON-RPC refusals', () => {
  const call1 = { jsonrpc: '2.0', id: 7, method: 'eth_blockNumber', params: [] };

  it('answers a missing or wrong key with a JSON-RPC error and the HTTP status Blockfrost uses', async () => {
    expect(await rpc(`${gw.url}/milkomeda-mainnet/api/v0/`, call1)).toMatchObject({
      status: 403,
      body: { jsonrpc: '2.0', id: 7, error: { code: -32001, message: 'Missing project token. Please include project_id in your request.' } },
    });
    expect(await rpc(`${gw.url}/api/v0/`, call1, { project_id: `milkmainnet${'Q'.repeat(32)}` })).toMatchObject({
      status: 403,
      statusText: 'Invalid project token.',
      body: { jsonrpc: '2.0', id: 7, error: { code: -32001, message: 'Invalid project token.' } },
    });
    expect((await rpc(`${gw.url}/milkomeda-mainnet/api/v0/`, call1, { project_id: keys.cardano.key })).body).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32001, message: 'Network token mismatch. Are you using token for the correct network? See https://docs.blockfrost.io/#section/Available-networks.' } });
    const batch = await rpc(`${gw.url}/milkomeda-mainnet/api/v0/`, [call1, { ...call1, id: 'b' }]);
    expect(batch.body).toEqual([expect.objectContaining({ id: 7 }), expect.objectContaining({ id: 'b' })]);
    // A Cardano path keeps Blockfrost's error body.
    expect((await call(`${gw.url}/api/v0/blocks/latest`)).body).toEqual({ status_code: 403, error: 'Forbidden', message: 'Missing project token. Please include project_id in your request.' });
  });

  it('shows the reason in viem and ethers', async () => {
    const bad = `${gw.url}/milkmainnet${'Q'.repeat(32)}/api/v0/`;
    const viemError = (await createPublicClient({ transport: viemHttp(bad, { retryCount: 0 }) }).getBlockNumber().catch((e: unknown) => e)) as Error;
    expect(viemError.message).toContain('Invalid project token.');
    expect(viemError.message).toContain('403');
    const provider = new JsonRpcProvider(new FetchRequest(bad), Network.from(2001), { staticNetwork: true });
    const ethersError = (await provider.getBlockNumber().catch((e: unknown) => e)) as Error;
    provider.destroy();
    expect(ethersError.message).toContain('Invalid project token.');
  });
});

describe('a backend behind the gateway', () => {
  let upstream: http.Server;
  const seen: string[] = [];
  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  it('never sees a key that came in the path', async () => {
    const g = await startTestGateway(app, { UPSTREAM_CARDANO_PREPROD_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/bf/api/v0` });
    try {
      await g.keys.catchUp();
      const { key } = keys.preprod;
      const res = await call(`${g.url}/${key}/api/v0/addresses/addr_test1xyz/utxos?page=2`);
      expect(res.body).toEqual({ path: '/bf/api/v0/addresses/addr_test1xyz/utxos?page=2' });
      expect(seen.join(' ')).not.toContain(key);
    } finally {
      await g.close();
    }
  });
});
