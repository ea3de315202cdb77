import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, useTestGateway } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { rawRequest } from '../helpers/gateway';
import { setSubscription } from '../../server/features/workspaces/subscriptions';

// What a client can make the gateway send to an upstream, next to the operator's credentials: only
// the methods Blockfrost defines for the path, only the headers a backend needs, and only the path
// the gateway checked. A real HTTP upstream on loopback records every request it receives.

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
const upstream = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, url: req.url }));
  });
});
let upstreamBase = '';
beforeAll(async () => {
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamBase = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(() => {
  upstream.closeAllConnections();
  upstream.close();
});

const app = useTestApp();
const gw = useTestGateway(app, () => ({
  UPSTREAM_CARDANO_PREPROD_URL: `${upstreamBase}/bf/api/v0`,
  UPSTREAM_CARDANO_PREPROD_AUTH: 'X-Upstream-Key: operator-secret',
  UPSTREAM_IPFS_URL: `${upstreamBase}/ipfs-up/api/v0`,
  UPSTREAM_IPFS_AUTH: 'project_id: ipfs-operator-secret',
}));
let preprod = '';
let ipfs = '';

beforeAll(async () => {
  const owner = new Client(app.url);
  await signIn(owner, app.mailer, 'forwarding-owner@example.com');
  const id = (await owner.get('/api/me')).body.data.id;
  const ws = (await owner.get('/api/workspaces')).body.data[0].id;
  await setSubscription(app.db, id, 'ENTERPRISE', 'active');
  const make = async (networkId: number) => {
    const res = await owner.post(`/api/workspaces/${ws}/projects`, { projectName: `p${networkId}`, networkId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.project.project_id as string;
  };
  preprod = await make(6);
  ipfs = await make(2);
  await gw.keys.reload();
});

/** One request as a raw HTTP client sends it, with the project's key. */
const send = (method: string, path: string, key: string, headers: Record<string, string> = {}, body?: string) => rawRequest(gw.url, method, path, { project_id: key, ...headers }, body);

describe('methods', () => {
  it('forwards no method Blockfrost does not define for the path, and answers it in the Blockfrost shape', async () => {
    const before = received.length;
    for (const method of ['DELETE', 'PUT', 'PATCH', 'TRACE', 'PROPFIND', 'POST']) {
      const res = await send(method, '/api/v0/blocks/latest', preprod);
      expect(res.status, method).toBe(400);
      expect(res.body).toEqual({ status_code: 400, error: 'Bad Request', message: 'Invalid path. Please check https://docs.blockfrost.io/' });
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
    for (const [method, path] of [
      ['GET', '/api/v0/tx/submit'],
      ['PUT', '/api/v0/tx/submit'],
      ['DELETE', '/api/v0/utils/txs/evaluate'],
      ['GET', '/api/v0/ipfs/add'],
      ['DELETE', '/api/v0/ipfs/pin/remove/QmHash'],
    ] as const) {
      const res = await send(method, path, path.includes('/ipfs/') ? ipfs : preprod);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.message, path).toBe('Invalid path. Please check https://docs.blockfrost.io/');
    }
    // POST /api/v0/ is Milkomeda's JSON-RPC: a Cardano key there is the wrong network's, refused in JSON-RPC.
    expect((await send('POST', '/api/v0/', preprod, { 'content-type': 'application/json' }, '{}')).status).toBe(403);
    expect((await send('POST', '/cardano-preprod/api/v0/', preprod, { 'content-type': 'application/json' }, '{}')).status).toBe(400);
    // A path Blockfrost does not define may only be read (the backend answers its own 404).
    const unknown = await send('POST', '/api/v0/admin/reset', preprod);
    expect(unknown).toMatchObject({ status: 400, body: { status_code: 400, error: 'Bad Request', message: 'Invalid path. Please check https://docs.blockfrost.io/' } });
    expect(received.length).toBe(before);
  });

  it("forwards the methods Blockfrost defines: GET (and HEAD) to reads, POST to submit, evaluate and IPFS's add and pins", async () => {
    const cases: Array<[string, string, string]> = [
      ['GET', '/api/v0/blocks/latest', preprod],
      ['HEAD', '/api/v0/blocks/latest', preprod],
      ['GET', '/api/v0/addresses/addr_test1xyz/utxos?count=5', preprod],
      ['POST', '/api/v0/tx/submit', preprod],
      ['POST', '/api/v0/utils/txs/evaluate', preprod],
      ['POST', '/api/v0/utils/txs/evaluate/utxos', preprod],
      ['GET', '/api/v0/nothing/here', preprod],
      ['POST', '/api/v0/ipfs/add', ipfs],
      ['POST', '/api/v0/ipfs/pin/add/QmHash', ipfs],
      ['POST', '/api/v0/ipfs/pin/remove/QmHash', ipfs],
      ['GET', '/api/v0/ipfs/pin/list/QmHash', ipfs],
      ['GET', '/api/v0/ipfs/gateway/QmHash/dir/file.txt', ipfs],
      ['GET', '/api/v0/ipfs/gateway/QmHash/100%25.txt', ipfs],
      ['GET', '/api/v0/ipfs/gateway?path=QmHash', ipfs],
    ];
    for (const [method, path, key] of cases) {
      const before = received.length;
      const res = await send(method, path, key, method === 'POST' ? { 'content-type': 'application/cbor' } : {}, method === 'POST' ? 'abcd' : undefined);
      expect(res.status, `${method} ${path}`).toBe(200);
      expect(received.length, `${method} ${path}`).toBe(before + 1);
      const got = received.at(-1)!;
      expect(got.method).toBe(method);
      expect(got.url).toBe((key === ipfs ? '/ipfs-up' : '/bf') + path);
      if (method === 'POST') expect(got.body).toBe('abcd');
    }
  });
});

describe('headers', () => {
  it("sends the upstream only the headers it needs and the operator's credentials, never a client's proxy headers", async () => {
    const res = await send('POST', '/api/v0/tx/submit', preprod, {
      'content-type': 'application/cbor',
      accept: 'application/json',
      'accept-encoding': 'gzip',
      'user-agent': 'blockfrost-js/6',
      'x-forwarded-for': '10.0.0.1',
      'x-forwarded-host': 'admin.internal',
      'x-forwarded-proto': 'https',
      forwarded: 'for=10.0.0.1;host=admin.internal',
      'x-real-ip': '10.0.0.1',
      'x-original-url': '/admin',
      'x-rewrite-url': '/admin',
      'x-http-method-override': 'DELETE',
      'x-method-override': 'DELETE',
      'x-upstream-key': 'client-guess',
      cookie: 'sid=1',
      authorization: 'Bearer client',
      via: '1.1 evil',
    }, 'abcd');
    expect(res.status).toBe(200);
    const got = received.at(-1)!;
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/bf/api/v0/tx/submit');
    expect(got.headers).toMatchObject({ 'content-type': 'application/cbor', accept: 'application/json', 'accept-encoding': 'gzip', 'user-agent': 'blockfrost-js/6', 'x-upstream-key': 'operator-secret', 'content-length': '4' });
    // Besides those, only what the HTTP client itself writes (the upstream's Host, the connection).
    expect(Object.keys(got.headers).sort()).toEqual(['accept', 'accept-encoding', 'connection', 'content-length', 'content-type', 'host', 'user-agent', 'x-upstream-key']);
    expect(got.headers.host).toBe(new URL(upstreamBase).host);
  });

  it('passes ranges and revalidation through for IPFS files', async () => {
    await send('GET', '/api/v0/ipfs/gateway/QmHash', ipfs, { range: 'bytes=0-9', 'if-none-match': '"x"', 'x-forwarded-for': '10.0.0.1' });
    const got = received.at(-1)!;
    expect(got.headers).toMatchObject({ range: 'bytes=0-9', 'if-none-match': '"x"', project_id: 'ipfs-operator-secret' });
    expect(got.headers['x-forwarded-for']).toBeUndefined();
  });
});

describe('paths', () => {
  it("refuses '#', raw or encoded, and dot segments or separators encoded twice, before anything reaches the upstream", async () => {
    const before = received.length;
    for (const path of [
      '/api/v0/txs/#/../../admin',
      '/api/v0/blocks/latest#',
      '/api/v0/txs/abc#x',
      '/api/v0/txs/abc%23',
      '/api/v0/txs/abc%23/utxos',
      '/api/v0/blocks/latest?count=1#/admin',
      '/api/v0/%252e%252e/%252e%252e/admin',
      '/api/v0/blocks/%252E%252e/admin',
      '/api/v0/%25252e%25252e/admin',
      '/api/v0/blocks%252f..%252fadmin',
      '/api/v0/blocks%255c..%255cadmin',
      '/api/v0/txs/abc%2523',
      '/api/v0/txs/abc%253Fx=1',
    ]) {
      const res = await send('GET', path, preprod);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ status_code: 400, error: 'Bad Request' });
    }
    expect(received.length).toBe(before);
  });
});
