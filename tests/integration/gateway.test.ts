import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { startTestApp } from '../helpers/test-app';
import { useTestApp, useTestGateway } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { answerEndlessly, call, firstPiece, leaveMidAnswer, readReleasing, startTestGateway } from '../helpers/gateway';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { plans } from '../../shared/plans';
import { createSandboxChain, memoryLedgerStore } from '../../server/sandbox/chain/index';
import { dayStartOf } from '../../shared/time';

const app = useTestApp();
let owner: { client: Client; id: number; ws: number };

const FORBIDDEN = { status_code: 403, error: 'Forbidden', message: 'Invalid project token.' };

async function newProject(networkId = 0, client = owner.client, ws = owner.ws) {
  const res = await client.post(`/api/workspaces/${ws}/projects`, { projectName: `p${Math.random()}`, networkId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.project as { uuid: string; project_id: string; id: number };
}

/** Waits for a key-cache poll that began after the changes so far (a created, changed or deleted key). */
const settle = () => gw.keys.catchUp();

beforeAll(async () => {
  owner = { client: new Client(app.url), id: 0, ws: 0 };
  await signIn(owner.client, app.mailer, 'gateway-owner@example.com');
  owner.id = (await owner.client.get('/api/me')).body.data.id;
  owner.ws = (await owner.client.get('/api/workspaces')).body.data[0].id;
  await setSubscription(app.db, owner.id, 'ENTERPRISE', 'active');
});
const gw = useTestGateway(app, { GATEWAY_DOMAIN: 'api.cairn.test' });

describe('open endpoints', () => {
  it.each(['/', '/api/v0', '/api/v0/', '/cardano-mainnet/api/v0/'])('GET %s answers {url, version} without a key', async (p) => {
    const res = await call(gw.url + p);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: expect.stringMatching(/\/api\/v0$/), version: 'test' });
  });

  it('health and clock', async () => {
    expect((await call(gw.url + '/health')).body).toEqual({ is_healthy: true });
    expect((await call(gw.url + '/api/v0/health')).body).toEqual({ is_healthy: true });
    const clock = await call(gw.url + '/cardano-preprod/api/v0/health/clock');
    expect(Math.abs(clock.body.server_time - Date.now())).toBeLessThan(5000);
  });
});

describe('project keys', () => {
  it('refuses a missing or unknown key in the Blockfrost shape, each with its own message', async () => {
    expect(await call(gw.url + '/api/v0/blocks/latest')).toMatchObject({
      status: 403,
      body: { status_code: 403, error: 'Forbidden', message: 'Missing project token. Please include project_id in your request.' },
    });
    expect(await call(gw.url + '/api/v0/blocks/latest', 'mainnetAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toMatchObject({ status: 403, body: FORBIDDEN });
  });

  let sandboxKey = '';
  it('serves the sandbox chain for a key, from the key prefix, the path and the host', async () => {
    const p = await newProject(0);
    sandboxKey = p.project_id;
    await settle();
    const direct = await call(gw.url + '/api/v0/blocks/latest', p.project_id);
    expect(direct.status).toBe(200);
    expect(direct.headers.get('x-cairn-sandbox')).toBe('simulated');
    expect(direct.body).toMatchObject({ hash: expect.stringMatching(/^[0-9a-f]{64}$/), height: expect.any(Number) });
    expect((await call(gw.url + '/cardano-mainnet/api/v0/blocks/latest', p.project_id)).status).toBe(200);
    const byHost = await call(gw.url + '/api/v0/epochs/latest', p.project_id, { host: 'cardano-mainnet.api.cairn.test' });
    expect(byHost.status).toBe(200);
    expect(byHost.body).toMatchObject({ epoch: expect.any(Number) });
  });

  it('lets any origin read every answer: the sandbox, refusals, the open endpoints and a preflight', async () => {
    // The project the test above made (within the plan's projects in all).
    const p = { project_id: sandboxKey };
    const answers = [
      await call(gw.url + '/api/v0/blocks/latest', p.project_id),
      await call(gw.url + '/api/v0/blocks/latest'),
      await call(gw.url + '/api/v0/blocks/latest', 'mainnetAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
      await call(gw.url + '/api/v0/nothing/here', p.project_id),
      await call(gw.url + '/health'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 403, 403, 400, 200]);
    for (const a of answers) expect(a.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await fetch(gw.url + '/api/v0/blocks/latest', { method: 'OPTIONS', headers: { origin: 'https://dapp.example', 'access-control-request-headers': 'project_id' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('project_id');
  });

  it("refuses a key on another network's path or host with 'Network token mismatch'", async () => {
    const p = await newProject(6);
    await settle();
    expect((await call(gw.url + '/api/v0/blocks/latest', p.project_id)).status).toBe(200);
    const mismatch = { status: 403, body: { status_code: 403, error: 'Forbidden', message: 'Network token mismatch. Are you using token for the correct network? See https://docs.blockfrost.io/#section/Available-networks.' } };
    expect(await call(gw.url + '/cardano-mainnet/api/v0/blocks/latest', p.project_id)).toMatchObject(mismatch);
    expect(await call(gw.url + '/api/v0/blocks/latest', p.project_id, { host: 'cardano-preview.api.cairn.test' })).toMatchObject(mismatch);
  });

  it('answers 404 and 400 in the Blockfrost shape', async () => {
    const p = await newProject(0);
    await settle();
    // A path the document does not define is Blockfrost's 400; an unknown resource keeps Blockfrost's 404 message.
    expect(await call(gw.url + '/api/v0/nothing/here', p.project_id)).toMatchObject({
      status: 400,
      body: { status_code: 400, error: 'Bad Request', message: 'Invalid path. Please check https://docs.blockfrost.io/' },
    });
    expect(await call(gw.url + `/api/v0/txs/${'ab'.repeat(32)}`, p.project_id)).toMatchObject({
      status: 404,
      body: { status_code: 404, error: 'Not Found', message: 'The requested component has not been found.' },
    });
    expect(await call(gw.url + '/elsewhere', p.project_id)).toMatchObject({ status: 404 });
    const bad = await call(gw.url + '/api/v0/blocks/latest/txs?count=1000', p.project_id);
    expect(bad).toMatchObject({ status: 400, body: { status_code: 400, error: 'Bad Request' } });
  });

  it('serves a key created a moment ago on its first request, and spends at most a poll per 50 ms on keys it does not know', async () => {
    // Straight after creating it, before the key cache's next poll (every 250 ms): the gateway
    // catches up with the changes made before the request instead of refusing the new key.
    const p = await newProject(0);
    onTestFinished(async () => {
      expect((await owner.client.delete(`/api/workspaces/${owner.ws}/projects/${p.uuid}`)).status).toBe(200);
    });
    const first = await call(gw.url + '/api/v0/blocks/latest', p.project_id);
    expect(first.status, JSON.stringify(first.body)).toBe(200);

    // Keys that look real but do not exist share the catch-up polls: a burst of them costs a few
    // small queries, not one each, and every one is refused in the Blockfrost shape.
    const polls: number[] = [];
    const poll = gw.keys.poll.bind(gw.keys);
    gw.keys.poll = () => (polls.push(performance.now()), poll());
    try {
      const started = performance.now();
      const made = (i: number) => `mainnet${String(i).padStart(32, 'Z')}`;
      const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => call(gw.url + '/api/v0/blocks/latest', made(i))));
      const elapsed = performance.now() - started;
      expect(answers.every((a) => a.status === 403 && a.body.message === FORBIDDEN.message)).toBe(true);
      // Its own polls plus the regular ones every 250 ms, and never two much closer than 50 ms (timers may fire a millisecond early).
      expect(polls.length).toBeLessThanOrEqual(Math.ceil(elapsed / 50) + 1);
      for (let i = 1; i < polls.length; i++) expect(polls[i]! - polls[i - 1]!).toBeGreaterThanOrEqual(45);
    } finally {
      gw.keys.poll = poll;
    }
  });

  it('refuses a deleted project within a second, on every instance', async () => {
    const second = await startTestGateway(app);
    try {
      const p = await newProject(0);
      await Promise.all([settle(), second.keys.catchUp()]);
      expect((await call(gw.url + '/api/v0/health/clock', p.project_id)).status).toBe(200);
      expect((await call(second.url + '/api/v0/blocks/latest', p.project_id)).status).toBe(200);
      const deletedAt = Date.now();
      expect((await owner.client.delete(`/api/workspaces/${owner.ws}/projects/${p.uuid}`)).status).toBe(200);
      for (const g of [gw, second]) {
        for (;;) {
          const res = await call(g.url + '/api/v0/blocks/latest', p.project_id);
          if (res.status === 403) break;
          expect(Date.now() - deletedAt).toBeLessThan(1000);
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      expect(Date.now() - deletedAt).toBeLessThan(1000);
    } finally {
      await second.close();
    }
  });
});

describe('limits', () => {
  it('rate-limits a project past its burst with 429', async () => {
    const p = await newProject(0);
    await settle();
    const statuses = await Promise.all(Array.from({ length: 560 }, () => call(gw.url + '/api/v0/health/clock', p.project_id).then((r) => r.status)));
    // health/clock is open, so it never counts; use a keyed endpoint instead.
    expect(statuses.every((s) => s === 200)).toBe(true);
    const keyed = [];
    for (let i = 0; i < 7; i++) keyed.push(...(await Promise.all(Array.from({ length: 80 }, () => call(gw.url + '/api/v0/network', p.project_id)))));
    const ok = keyed.filter((r) => r.status === 200).length;
    const limited = keyed.filter((r) => r.status === 429);
    expect(ok).toBeGreaterThanOrEqual(500);
    expect(ok).toBeLessThan(560);
    expect(limited[0]!.body).toEqual({ status_code: 429, error: 'Project Over Limit', message: 'Usage is over limit.' });
  });

  it('answers 402 once the daily quota is used up, counting what was used before a restart', async () => {
    const u = new Client(app.url);
    await signIn(u, app.mailer, 'quota-user@example.com');
    const me = (await u.get('/api/me')).body.data;
    const ws = (await u.get('/api/workspaces')).body.data[0].id;
    const p = await newProject(0, u, ws);
    const day = dayStartOf(Date.now());
    await app.db('quota_usage').insert({ user_id: me.id, day_ms: day, requests: plans.STARTER.requestLimit - 3 });
    const fresh = await startTestGateway(app);
    try {
      const results = await Promise.all(Array.from({ length: 10 }, () => call(fresh.url + '/api/v0/network', p.project_id)));
      expect(results.filter((r) => r.status === 200)).toHaveLength(3);
      const over = results.find((r) => r.status === 402)!;
      expect(over.body).toEqual({ status_code: 402, error: 'Project Over Limit', message: 'Usage is over limit.' });
    } finally {
      await fresh.close();
    }
    const row = await app.db('quota_usage').where({ user_id: me.id, day_ms: day }).first();
    expect(Number(row.requests)).toBe(plans.STARTER.requestLimit);
  });

  it('answers a network with no backend with a clear error that costs no quota and is not metered', async () => {
    const u = new Client(app.url);
    await signIn(u, app.mailer, 'no-backend@example.com');
    const me = (await u.get('/api/me')).body.data;
    const ws = (await u.get('/api/workspaces')).body.data[0].id;
    // Every Cardano network has the sandbox chain and IPFS its embedded store; Milkomeda in production
    // without an upstream has nothing behind it.
    const p = await newProject(3, u, ws);
    const g = await startTestGateway(app, { NODE_ENV: 'production' });
    try {
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          fetch(g.url + '/api/v0/', { method: 'POST', headers: { project_id: p.project_id, 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }) }).then((r) => r.json()),
        ),
      );
      for (const r of results) expect(r).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: expect.stringContaining('no backend') } });
    } finally {
      await g.close();
    }
    expect(await app.db('quota_usage').where({ user_id: me.id })).toEqual([]);
    expect(await app.db('usage_rollups').where({ project_id: p.id })).toEqual([]);
  });

  it('restricts API access while the first payment has failed (incomplete_expired) and restores it once paid', async () => {
    const u = new Client(app.url);
    await signIn(u, app.mailer, 'expired-user@example.com');
    const me = (await u.get('/api/me')).body.data;
    const ws = (await u.get('/api/workspaces')).body.data[0].id;
    const p = await newProject(0, u, ws);
    await setSubscription(app.db, me.id, 'DEVELOPER', 'incomplete_expired');
    await settle();
    const refused = await call(gw.url + '/api/v0/blocks/latest', p.project_id);
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({ status_code: 402, error: 'Project Over Limit' });
    expect(refused.body.message).toMatch(/first payment/);
    await setSubscription(app.db, me.id, 'DEVELOPER', 'active');
    await settle();
    expect((await call(gw.url + '/api/v0/blocks/latest', p.project_id)).status).toBe(200);
  });

  it('bans an IP that keeps flooding past 429s with 418', async () => {
    const strict = await startTestGateway(app, { GATEWAY_BAN_THRESHOLD: '20' });
    try {
      const p = await newProject(0);
      await strict.keys.reload();
      const all = [];
      for (let i = 0; i < 6; i++) all.push(...(await Promise.all(Array.from({ length: 100 }, () => call(strict.url + '/api/v0/network', p.project_id)))));
      const banned = all.filter((r) => r.status === 418);
      expect(banned.length).toBeGreaterThan(0);
      expect(banned[0]!.body).toEqual({ status_code: 418, error: 'Requested Banned', message: 'IP has been auto-banned for flooding.' });
      // A banned IP is refused even with a different, fresh project.
      const other = await newProject(0);
      await strict.keys.reload();
      expect((await call(strict.url + '/api/v0/network', other.project_id)).status).toBe(418);
    } finally {
      await strict.close();
    }
  });
});

/** A GET whose path goes out exactly as written (a URL string would be normalised by the client first). */
const rawGet = (base: string, path: string, key: string) =>
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    const u = new URL(base);
    http
      .get({ host: u.hostname, port: u.port, path, headers: { project_id: key } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      })
      .on('error', reject);
  });

describe('upstreams', () => {
  let upstream: http.Server;
  let upstreamUrl: string;
  const seen: Array<{ url: string; headers: http.IncomingHttpHeaders }> = [];
  /** Lets /sized-big finish: called by the test once the first half reached the client. */
  let releaseBig = () => {};
  /** Called when the gateway gives up its request to /endless. */
  let endlessClosed = () => {};
  /** One preprod project for the tests below that need no fresh one (the workspace's plan caps its projects). */
  let shared: Awaited<ReturnType<typeof newProject>> | undefined;
  const preprodProject = async () => (shared ??= await newProject(6));

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      seen.push({ url: req.url!, headers: req.headers });
      if (req.url!.startsWith('/bf/api/v0/slow')) return; // never answers
      // Sized answers written in two parts: a small one is gathered, a big one streams, a cut one fails.
      const half = (n: number, c: string) => Buffer.alloc(n, c);
      if (req.url!.startsWith('/bf/api/v0/sized-small')) {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2000 });
        res.write(half(1000, 'a'));
        return void setTimeout(() => res.end(half(1000, 'b')), 50);
      }
      if (req.url!.startsWith('/bf/api/v0/sized-big')) {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 200_000 });
        res.write(half(100_000, 'a'));
        releaseBig = () => res.end(half(100_000, 'b'));
        return;
      }
      if (req.url!.startsWith('/bf/api/v0/sized-stall')) {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2000 });
        return void res.write(half(1000, 'a')); // and never the rest
      }
      if (req.url!.startsWith('/bf/api/v0/sized-cut')) {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2000 });
        res.write(half(1000, 'a'));
        return void setTimeout(() => res.destroy(), 50);
      }
      // Streams until the request is given up; says when that happened.
      if (req.url!.startsWith('/bf/api/v0/endless')) return answerEndlessly(res, 'text/plain', () => endlessClosed());
      if (req.url!.startsWith('/bf/api/v0/broken')) return void res.writeHead(503).end('down');
      if (req.url!.startsWith('/bf/api/v0/stream')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[');
        let i = 0;
        const t = setInterval(() => {
          res.write((i ? ',' : '') + i);
          if (++i === 5) {
            clearInterval(t);
            res.end(']');
          }
        }, 20);
        return;
      }
      if (req.url!.startsWith('/bf/api/v0/tx/submit')) {
        // Echoes the body it was sent, as it arrived.
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ got: Buffer.concat(chunks).toString('hex'), type: req.headers['content-type'] })));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes' }).end(JSON.stringify({ echoed: req.url }));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/bf/api/v0`;
  });
  afterAll(() => {
    upstream.closeAllConnections();
    upstream.close();
  });

  it('proxies to the configured backend with its own auth header, never our key', async () => {
    const g = await startTestGateway(app, { UPSTREAM_CARDANO_PREPROD_URL: upstreamUrl, UPSTREAM_CARDANO_PREPROD_AUTH: 'project_id: upstream-secret', UPSTREAM_TIMEOUT_MS: '300' });
    try {
      const p = await newProject(6);
      await g.keys.reload();
      const res = await call(g.url + '/api/v0/blocks/latest?count=2', p.project_id, { cookie: 'a=b' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ echoed: '/bf/api/v0/blocks/latest?count=2' });
      expect(res.headers.get('x-upstream')).toBe('yes');
      expect(res.headers.get('x-cairn-sandbox')).toBeNull();
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const last = seen.at(-1)!;
      expect(last.headers.project_id).toBe('upstream-secret');
      expect(last.headers.cookie).toBeUndefined();
      expect(last.headers.host).toBe(new URL(upstreamUrl).host);

      // A request body (a transaction's CBOR) streams through untouched.
      const cbor = Buffer.from('84a300818258200000000000000000000000000000000000000000000000000000000000000000', 'hex');
      const submitted = await fetch(g.url + '/api/v0/tx/submit', { method: 'POST', headers: { project_id: p.project_id, 'content-type': 'application/cbor' }, body: cbor });
      expect(submitted.status).toBe(200);
      expect(await submitted.json()).toEqual({ got: cbor.toString('hex'), type: 'application/cbor' });

      const streamed = await call(g.url + '/api/v0/stream', p.project_id);
      expect(streamed.body).toEqual([0, 1, 2, 3, 4]);

      const internal = { status: 500, body: { status_code: 500, error: 'Internal Server Error', message: 'An unexpected response was received from the backend.' } };
      const broken = await call(g.url + '/api/v0/broken', p.project_id);
      expect(broken).toMatchObject(internal);
      expect(broken.headers.get('access-control-allow-origin')).toBe('*');
      expect(await call(g.url + '/api/v0/slow', p.project_id)).toMatchObject(internal);
      // Mainnet still has no upstream: the sandbox answers it.
      const m = await newProject(0);
      await g.keys.reload();
      expect((await call(g.url + '/api/v0/blocks/latest', m.project_id)).headers.get('x-cairn-sandbox')).toBe('simulated');
    } finally {
      await g.close();
    }
  });

  it('stops asking the backend when the client leaves in the middle of an answer', async () => {
    const g = await startTestGateway(app, { UPSTREAM_CARDANO_PREPROD_URL: upstreamUrl, UPSTREAM_TIMEOUT_MS: '5000' });
    try {
      const p = await preprodProject();
      await g.keys.reload();
      // Well before the 5 s timeout: the upstream's request closes because the client left.
      await leaveMidAnswer({ url: g.url + '/api/v0/endless', options: { headers: { project_id: p.project_id } } }, new Promise<void>((resolve) => (endlessClosed = resolve)));
    } finally {
      await g.close();
    }
  });

  it('sends a small sized answer with its head in one write, streams a big one, and turns a small one cut short into the 500', async () => {
    const g = await startTestGateway(app, { UPSTREAM_CARDANO_PREPROD_URL: upstreamUrl, UPSTREAM_TIMEOUT_MS: '1500' });
    try {
      const p = await preprodProject();
      await g.keys.reload();
      // A raw client sees what arrives when: the small answer's head comes only with its whole body.
      const first = await firstPiece(g.url, `GET /api/v0/sized-small HTTP/1.1\r\nHost: x\r\nproject_id: ${p.project_id}\r\nConnection: close\r\n\r\n`);
      expect(first).toMatch(/^HTTP\/1\.1 200 /);
      expect(first.toLowerCase()).toContain('access-control-allow-origin: *');
      expect(first.slice(first.indexOf('\r\n\r\n') + 4)).toBe('a'.repeat(1000) + 'b'.repeat(1000));

      // The big one streams: its first half reaches the client while the upstream still holds the second.
      const big = await readReleasing({ url: g.url + '/api/v0/sized-big', options: { headers: { project_id: p.project_id } } }, () => releaseBig());
      expect(big.firstBeforeEnd).toBe(true);
      expect(big.body).toBe('a'.repeat(100_000) + 'b'.repeat(100_000));

      // Nothing of a gathered answer was sent when its upstream broke off: the client gets the Blockfrost 500.
      const cut = await call(g.url + '/api/v0/sized-cut', p.project_id);
      expect(cut).toMatchObject({ status: 500, body: { status_code: 500, error: 'Internal Server Error', message: 'An unexpected response was received from the backend.' } });
      expect(cut.headers.get('access-control-allow-origin')).toBe('*');
      // So is one whose upstream stalls half-way for longer than UPSTREAM_TIMEOUT_MS.
      expect(await call(g.url + '/api/v0/sized-stall', p.project_id)).toMatchObject({ status: 500, body: cut.body });
    } finally {
      await g.close();
    }
  });

  it('refuses traversal before proxying, and drops a client copy of the upstream auth header', async () => {
    const g = await startTestGateway(app, { UPSTREAM_CARDANO_PREPROD_URL: upstreamUrl, UPSTREAM_CARDANO_PREPROD_AUTH: 'X-Upstream-Key: upstream-secret' });
    try {
      const p = await preprodProject();
      await g.keys.reload();
      const before = seen.length;
      for (const path of [
        '/api/v0/../../admin',
        '/api/v0/blocks/../../../admin',
        '/api/v0/%2e%2e/%2e%2e/admin',
        '/api/v0/%2E%2e/admin',
        '/api/v0/..;/..;/admin',
        '/api/v0/.%2e/admin',
        '/api/v0/./blocks',
        '/api/v0/blocks%2f..%2f..%2fadmin',
        '/api/v0/blocks%5c..%5cadmin',
        '/api/v0/blocks\\..\\admin',
        '/cardano-preprod/api/v0/../../admin',
        '/api/v0/%zz',
      ]) {
        const res = await rawGet(g.url, path, p.project_id);
        expect(res.status, path).toBe(400);
        expect(res.body).toMatchObject({ status_code: 400, error: 'Bad Request' });
      }
      expect(seen.length).toBe(before);

      // Dots inside a segment are fine.
      expect((await call(g.url + '/api/v0/assets/a.b..c', p.project_id)).status).toBe(200);
      const res = await call(g.url + '/api/v0/blocks/latest', p.project_id, { 'x-upstream-key': 'client-guess' });
      expect(res.status).toBe(200);
      expect(seen.at(-1)!.headers['x-upstream-key']).toBe('upstream-secret');
      expect(seen.at(-1)!.url).toBe('/bf/api/v0/blocks/latest');
      // The plan's project pool is shared with the tests below.
      expect((await owner.client.delete(`/api/workspaces/${owner.ws}/projects/${p.uuid}`)).status).toBe(200);
    } finally {
      await g.close();
    }
  });

  it('maps an unreachable backend to the Blockfrost 500', async () => {
    const g = await startTestGateway(app, { UPSTREAM_CARDANO_PREVIEW_URL: 'http://127.0.0.1:9/api/v0' });
    try {
      const p = await newProject(5);
      await g.keys.reload();
      expect((await call(g.url + '/api/v0/blocks/latest', p.project_id)).body.status_code).toBe(500);
    } finally {
      await g.close();
    }
  });
});

describe('metering and statistics', () => {
  it('counts requests into rollups and answers stats, history and requests today', async () => {
    const m = await startTestGateway(app);
    const p = await newProject(0);
    await m.keys.reload();
    try {
      const addr = (await call(m.url + '/api/v0/blocks/latest', p.project_id)).body;
      expect(addr.hash).toBeTruthy();
      for (let i = 0; i < 3; i++) await call(m.url + `/api/v0/blocks/${addr.height - i}`, p.project_id, { 'user-agent': 'curl/8.5.0' });
      await call(m.url + '/api/v0/epochs/latest', p.project_id, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36' });
      await call(m.url + '/api/v0/blocks/nope', p.project_id);
    } finally {
      await m.close(); // flushes
    }
    const rollups = await app.db('usage_rollups').where({ project_id: p.id });
    expect(rollups.map((r) => r.granularity).sort()).toEqual(['d', 'h']);
    expect(rollups.every((r) => Number(r.requests) === 6)).toBe(true);

    const stats = await owner.client.get(`/api/workspaces/${owner.ws}/projects/${p.uuid}/stats`);
    expect(stats.status).toBe(200);
    expect(stats.body.data).toMatchObject({ projectRequests: 6, total: 6, locked: false, countries: [{ user_country: 'unknown', requests: 6 }], ips: [{ ip: '127.0.0.1', requests: 6 }] });
    expect(stats.body.data.endpoints).toEqual([
      { endpoint: '/blocks/{hash_or_number}', requests: 4 },
      { endpoint: '/blocks/latest', requests: 1 },
      { endpoint: '/epochs/latest', requests: 1 },
    ]);
    expect(stats.body.data.browsers).toEqual(expect.arrayContaining([{ user_agent_browser: 'curl', requests: 3 }, { user_agent_browser: 'Chrome', requests: 1 }]));

    const history = await owner.client.get(`/api/projects/${p.uuid}/history`);
    expect(history.body.data).toHaveLength(30);
    expect(history.body.data.at(-1)).toEqual({ time: dayStartOf(Date.now()), requestCount: 6 });
    expect(history.body.max).toBe(6);

    const list = (await owner.client.get(`/api/workspaces/${owner.ws}/projects`)).body.data;
    expect(list.find((x: { uuid: string }) => x.uuid === p.uuid).requests_today).toBe(6);
  });

  it("reads a cold page of each sandbox chain's oldest epochs once it serves, through the backend, and counts it for no one", async () => {
    const asked: Record<string, number[]> = { mainnet: [], preprod: [], preview: [] };
    const chains = Object.fromEntries(
      (['mainnet', 'preprod', 'preview'] as const).map((network) => {
        const chain = createSandboxChain({ network, store: memoryLedgerStore() });
        const epochNext = chain.epochNext.bind(chain);
        chain.epochNext = (n, page) => {
          asked[network]!.push(n);
          return epochNext(n, page);
        };
        return [network, chain];
      }),
    );
    const before = Number((await app.db('usage_rollups').sum({ n: 'requests' }).first())?.n ?? 0);
    const gw = await startTestGateway(app, {}, undefined, { chains });
    try {
      // No client has asked for anything: the gateway's own reads (WARM_PAGE, the epochs after epoch 0),
      // a sliced page asked again at each slice until it is done.
      await vi.waitFor(() => expect(Object.values(asked).map((a) => [...new Set(a)])).toEqual([[0], [0], [0]]), { timeout: 10_000 });
    } finally {
      await gw.close(); // flushes the metering
    }
    expect(Number((await app.db('usage_rollups').sum({ n: 'requests' }).first())?.n ?? 0)).toBe(before);
  });

  it('locks the detailed lists on plans without detailed statistics', async () => {
    await setSubscription(app.db, owner.id, 'HOBBY', 'active');
    try {
      const p = (await app.db('projects').where({ workspace_id: owner.ws }).first('uuid')).uuid;
      const stats = (await owner.client.get(`/api/workspaces/${owner.ws}/projects/${p}/stats`)).body.data;
      expect(stats).toMatchObject({ locked: true, ips: [], endpoints: [], browsers: [] });
    } finally {
      await setSubscription(app.db, owner.id, 'ENTERPRISE', 'active');
    }
  });

  it('answers stats and history only to members of the workspace', async () => {
    const p = (await app.db('projects').where({ workspace_id: owner.ws }).first('uuid')).uuid;
    const stranger = new Client(app.url);
    await signIn(stranger, app.mailer, 'stats-stranger@example.com');
    const ws = (await stranger.get('/api/workspaces')).body.data[0].id;
    expect((await stranger.get(`/api/workspaces/${owner.ws}/projects/${p}/stats`)).status).toBe(404);
    expect((await stranger.get(`/api/workspaces/${ws}/projects/${p}/stats`)).status).toBe(404);
    expect((await stranger.get(`/api/projects/${p}/history`)).status).toBe(404);
  });
});

describe('landing', () => {
  it('answers the latest sandbox mainnet block', async () => {
    const res = await new Client(app.url).get('/api/landing');
    expect(res.headers.get('x-cairn-source')).toBe('sandbox');
    expect(res.body.data).toMatchObject({ hash: expect.stringMatching(/^[0-9a-f]{64}$/), slot_leader: expect.any(String), confirmations: 0 });
  });

  it('falls back to the built-in sample when the upstream fails', async () => {
    const broken = await startTestApp({ env: { UPSTREAM_CARDANO_MAINNET_URL: 'http://127.0.0.1:9/api/v0' }, database: app.database });
    try {
      const res = await new Client(broken.url).get('/api/landing');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-cairn-source')).toBe('sample');
      const { landingSample } = await import('../../shared/landing-sample');
      expect(res.body.data).toEqual(landingSample);
    } finally {
      await broken.stop();
    }
  });
});
