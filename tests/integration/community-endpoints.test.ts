// The submit-endpoint form's API (spec sections 2 and 5), the operator's review, and failover over
// two local Blockfrost-compatible backends (sandbox chains behind real HTTP servers): one is killed
// mid-load and no request fails; the requests each one served are counted for paying its address.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { call, startTestGateway } from '../helpers/gateway';
import type { RunningGateway } from '../../server/gateway-app';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { createSandboxChain, sandboxRouter } from '../../server/sandbox/chain/index';
import { enterpriseAddress, stakeAddress } from '../../shared/cardano/address';
import { checkBlockfrostBackend } from '../../server/features/endpoints/check';
import { parseAllowlist } from '../../server/features/webhooks/ssrf';
import { messages } from '../../shared/messages';

const M = messages.submitEndpoint;
const testnetAddress = enterpriseAddress('preprod', crypto.randomBytes(28));
const mainnetAddress = enterpriseAddress('mainnet', crypto.randomBytes(28));

interface Backend {
  url: string;
  port: number;
  server: http.Server;
  stop(): Promise<void>;
}

/** A Blockfrost-compatible backend: the sandbox preprod chain behind its own HTTP server. */
async function startBackend(port = 0): Promise<Backend> {
  const app = express();
  app.use(sandboxRouter(createSandboxChain({ network: 'preprod', blockIntervalMs: 20_000 }), { version: 'community-1.0' }));
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const p = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${p}`,
    port: p,
    server,
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

const app = useTestApp({ env: { OPERATOR_EMAILS: 'Operator@Example.com, ops2@example.com', WEBHOOK_ALLOWLIST: '127.0.0.1/32' } });
let runner: Client;
let operator: Client;
let a: Backend;
let b: Backend;

beforeAll(async () => {
  runner = new Client(app.url);
  await signIn(runner, app.mailer, 'runner@example.com');
  operator = new Client(app.url);
  await signIn(operator, app.mailer, 'operator@example.com');
  [a, b] = await Promise.all([startBackend(), startBackend()]);
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
});

const fieldErrors = (body: any) => Object.fromEntries((body.error.details as Array<{ path: string; message: string }>).map((d) => [d.path, d.message]));

describe('submit-endpoint form', () => {
  it('answers the spec messages for empty and malformed fields, and changes nothing', async () => {
    let res = await runner.post('/api/endpoints', {});
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual({ endpoint: M.endpointEmpty, paymentAddress: M.addressEmpty });
    res = await runner.post('/api/endpoints', { endpoint: '  ', paymentAddress: '' });
    expect(fieldErrors(res.body)).toEqual({ endpoint: M.endpointEmpty, paymentAddress: M.addressEmpty });
    res = await runner.post('/api/endpoints', { endpoint: 'not a url', paymentAddress: 'addr1notbech32' });
    expect(fieldErrors(res.body)).toEqual({ endpoint: M.urlInvalid, paymentAddress: M.addressInvalid });
    res = await runner.post('/api/endpoints', { endpoint: 'ftp://example.com', paymentAddress: 'addr_test1' + 'q'.repeat(1000) });
    expect(fieldErrors(res.body)).toEqual({ endpoint: M.urlInvalid, paymentAddress: M.addressInvalid });
    // Valid bech32 but not a payment address: decoded by cardano-serialization-lib on the server.
    res = await runner.post('/api/endpoints', { endpoint: a.url, paymentAddress: stakeAddress('preprod', crypto.randomBytes(28)) });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(M.addressInvalid);
    expect(await app.db('community_endpoints').count({ n: '*' }).first()).toMatchObject({ n: expect.anything() });
    expect(Number((await app.db('community_endpoints').count({ n: '*' }).first())!.n)).toBe(0);
  });

  it("refuses a payment address of another network than the endpoint's", async () => {
    const res = await runner.post('/api/endpoints', { endpoint: a.url, paymentAddress: mainnetAddress });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body).paymentAddress).toBe('The payment address is a mainnet address, but the endpoint serves Cardano preprod.');
  });

  it('checks the endpoint like a Blockfrost backend before accepting it', async () => {
    const notBlockfrost = http.createServer((_req, res) => res.writeHead(404).end('nope'));
    await new Promise<void>((r) => notBlockfrost.listen(0, '127.0.0.1', r));
    const res = await runner.post('/api/endpoints', { endpoint: `http://127.0.0.1:${(notBlockfrost.address() as AddressInfo).port}`, paymentAddress: testnetAddress });
    notBlockfrost.close();
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'endpoint_check_failed', message: expect.stringContaining('GET / answered 404') });
  });

  it('never probes private or loopback addresses that the operator did not allow', async () => {
    await expect(checkBlockfrostBackend(a.url, parseAllowlist(''))).rejects.toThrow(/127\.0\.0\.1/);
    await expect(checkBlockfrostBackend('http://localhost:1', parseAllowlist(''))).rejects.toThrow(/may not reach/);
    // Allowed: the detected network comes from GET /genesis.
    expect(await checkBlockfrostBackend(a.url, parseAllowlist('127.0.0.1/32'))).toEqual({ network: 'cardano-preprod', version: 'community-1.0' });
  });

  it('accepts a checked endpoint, which then waits for the operator', async () => {
    const res = await runner.post('/api/endpoints', { endpoint: `${a.url}/`, paymentAddress: testnetAddress });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ url: a.url, network: 'cardano-preprod', status: 'pending', backend_version: 'community-1.0', requests_served: 0 });
    expect((await runner.post('/api/endpoints', { endpoint: a.url, paymentAddress: testnetAddress })).status).toBe(409);
    expect((await runner.get('/api/endpoints')).body.data).toEqual([expect.objectContaining({ url: a.url, status: 'pending' })]);
  });
});

describe('operator review', () => {
  it('is for operators only', async () => {
    // Like every operator call: someone else gets 404, as if there were no such endpoint.
    expect((await runner.get('/api/operator/endpoints')).status).toBe(404);
    const list = await operator.get('/api/operator/endpoints');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([expect.objectContaining({ url: a.url, submitter_email: 'runner@example.com', status: 'pending' })]);
    const id = list.body.data[0].id;
    expect((await runner.post(`/api/operator/endpoints/${id}`, { action: 'enable' })).status).toBe(404);
    expect((await operator.post(`/api/operator/endpoints/999999`, { action: 'enable' })).status).toBe(404);
    expect((await operator.post(`/api/operator/endpoints/${id}`, { action: 'explode' })).status).toBe(400);
  });
});

describe('enabling checks again', () => {
  it('refuses to enable an endpoint that no longer answers, which stays pending', async () => {
    const c = await startBackend();
    expect((await runner.post('/api/endpoints', { endpoint: c.url, paymentAddress: testnetAddress })).status).toBe(201);
    await c.stop();
    const id = ((await operator.get('/api/operator/endpoints')).body.data as Array<{ id: number; url: string }>).find((e) => e.url === c.url)!.id;
    const res = await operator.post(`/api/operator/endpoints/${id}`, { action: 'enable' });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/does not answer like a Blockfrost backend now/);
    const rejected = await operator.post(`/api/operator/endpoints/${id}`, { action: 'reject' });
    expect(rejected.body.data).toMatchObject({ status: 'rejected' });
  });
});

describe('failover between enabled upstreams', () => {
  let gw: RunningGateway;
  let keys: string[];
  let owner: Client;
  let ws: number;

  beforeAll(async () => {
    expect((await runner.post('/api/endpoints', { endpoint: b.url, paymentAddress: testnetAddress })).status).toBe(201);
    const list = (await operator.get('/api/operator/endpoints')).body.data as Array<{ id: number; url: string }>;
    for (const url of [a.url, b.url]) {
      const res = await operator.post(`/api/operator/endpoints/${list.find((e) => e.url === url)!.id}`, { action: 'enable' });
      expect(res.body.data).toMatchObject({ status: 'enabled' });
    }
    owner = new Client(app.url);
    await signIn(owner, app.mailer, 'failover-owner@example.com');
    const me = (await owner.get('/api/me')).body.data.id;
    await setSubscription(app.db, me, 'ENTERPRISE', 'active');
    ws = (await owner.get('/api/workspaces')).body.data[0].id;
    keys = [];
    // One project per load loop: each stays well inside its own rate limit.
    for (let i = 0; i < 4; i++) keys.push((await owner.post(`/api/workspaces/${ws}/projects`, { projectName: `f${i}`, networkId: 6 })).body.data.project.project_id);
    gw = await startTestGateway(app, { METERING_FLUSH_MS: '100000' });
    // The gateway's pool has loaded both enabled endpoints, in order.
    await vi.waitFor(() => expect(gw.pools.status('cardano-preprod').map((m) => m.url)).toEqual([a.url, b.url]));
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("no longer marks the network's projects 'Sandbox data' once community endpoints serve it", async () => {
    const list = async () => (await owner.get(`/api/workspaces/${ws}/projects`)).body.data as Array<{ network_id: number; sandbox: boolean }>;
    await expect.poll(async () => (await list()).every((p) => p.network_id === 6 && p.sandbox === false), { timeout: 5000 }).toBe(true);
  });

  it('uses them in order, skips a killed one at once and loses no request', async () => {
    expect(gw.pools.status('cardano-preprod')).toEqual([
      { id: expect.any(Number), url: a.url, alive: true },
      { id: expect.any(Number), url: b.url, alive: true },
    ]);
    const first = await call(`${gw.url}/api/v0/blocks/latest`, keys[0]);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cairn-sandbox')).toBe('simulated'); // the backends themselves are sandbox chains

    // Four loops of requests; the first one is killed once 60 were answered, and the loops go on
    // until 60 more were answered after that (or fail the test at 10 s).
    const statuses = new Map<number, number>();
    let answered = 0;
    let killedAt = 0;
    let afterKill = 0;
    let killed!: () => void;
    const killing = new Promise<void>((resolve) => (killed = resolve));
    const until = Date.now() + 10_000;
    const loop = async (key: string) => {
      while (afterKill < 60) {
        expect(Date.now()).toBeLessThan(until);
        const res = await call(`${gw.url}/api/v0/blocks/latest`, key);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (++answered === 60) killed();
        if (killedAt && res.status === 200) afterKill++;
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    const kill = (async () => {
      await killing;
      await a.stop();
      killedAt = Date.now();
    })();
    await Promise.all([...keys.map(loop), kill]);

    expect([...statuses.keys()]).toEqual([200]);
    expect(afterKill).toBeGreaterThan(20);
    expect(gw.pools.status('cardano-preprod').map((m) => m.alive)).toEqual([false, true]);

    // Back on its feet: the health check brings it back within a second, and it is first again.
    a = await startBackend(a.port);
    const back = Date.now();
    while (!gw.pools.status('cardano-preprod')[0]!.alive) {
      expect(Date.now() - back).toBeLessThan(1500);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await call(`${gw.url}/api/v0/blocks/latest`, keys[0])).status).toBe(200);

    // Without any traffic, the health check alone finds a dead one within a second.
    await b.stop();
    const down = Date.now();
    while (gw.pools.status('cardano-preprod')[1]!.alive) {
      expect(Date.now() - down).toBeLessThan(1000);
      await new Promise((r) => setTimeout(r, 50));
    }

    // Every request served is counted for the endpoint that answered it.
    await gw.close();
    const served = await app.db('community_endpoint_usage').join('community_endpoints', 'community_endpoints.id', 'community_endpoint_usage.endpoint_id').select('url').sum({ n: 'requests' }).groupBy('url');
    const byUrl = Object.fromEntries(served.map((r: any) => [r.url, Number(r.n)]));
    expect(byUrl[a.url]).toBeGreaterThan(10);
    expect(byUrl[b.url]).toBeGreaterThan(20);
    expect(byUrl[a.url] + byUrl[b.url]).toBe(statuses.get(200)! + 2);
    const listed = (await operator.get('/api/operator/endpoints')).body.data as Array<{ url: string; requests_served: number }>;
    expect(listed.find((e) => e.url === b.url)!.requests_served).toBe(byUrl[b.url]);
    gw = undefined as unknown as RunningGateway;
  });
});
