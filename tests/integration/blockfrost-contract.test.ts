// Blockfrost's contract where a client sees it, through the gateway with a project key: its refusals
// (unknown path, block hash or number, the query string before the path, Byron addresses, another
// network's key) word for word, and /metrics and /metrics/endpoints answered by the gateway from the
// calling project's own metering, on a sandbox network and on one with an upstream alike.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import cbor from 'cbor';
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, useTestGateway } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { call } from '../helpers/gateway';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { assertSchema } from '../unit/server/sandbox/chain/support';

const INVALID_PATH = { status_code: 400, error: 'Bad Request', message: 'Invalid path. Please check https://docs.blockfrost.io/' };
const bad = (message: string) => ({ status: 400, body: { status_code: 400, error: 'Bad Request', message } });
const NOT_FOUND = { status: 404, body: { status_code: 404, error: 'Not Found', message: 'The requested component has not been found.' } };

// A Blockfrost-compatible upstream for Cardano preview that records what reaches it.
const upstreamPaths: string[] = [];
const upstream = http.createServer((req, res) => {
  upstreamPaths.push(req.url!);
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ upstream: true }));
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
const gw = useTestGateway(app, () => ({ UPSTREAM_CARDANO_PREVIEW_URL: `${upstreamBase}/bf/api/v0` }));

let owner: Client;
let ws = 0;
async function newKey(networkId: number): Promise<{ key: string; id: number }> {
  const res = await owner.post(`/api/workspaces/${ws}/projects`, { projectName: `p${Math.random()}`, networkId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { key: res.body.data.project.project_id as string, id: res.body.data.project.id as number };
}

let mainnet = '';
let preprod = '';
beforeAll(async () => {
  owner = new Client(app.url);
  await signIn(owner, app.mailer, 'contract-owner@example.com');
  const userId = (await owner.get('/api/me')).body.data.id;
  ws = (await owner.get('/api/workspaces')).body.data[0].id;
  await setSubscription(app.db, userId, 'ENTERPRISE', 'active');
  mainnet = (await newKey(0)).key;
  preprod = (await newKey(6)).key;
  await gw.keys.catchUp();
});

const get = (path: string, key: string, network = '') => call(`${gw.url}${network}/api/v0${path}`, key);

/** A Byron address of a made-up root: Icarus style (Ae2…) or Daedalus style (DdzFF…, an encrypted derivation path attribute), with a testnet's magic. */
function byronAddress(style: 'icarus' | 'daedalus', magic?: number): string {
  const attributes = new Map<number, Buffer>();
  if (style === 'daedalus') attributes.set(1, cbor.encode(Buffer.alloc(28, 9)));
  if (magic !== undefined) attributes.set(2, cbor.encode(magic));
  const inner = cbor.encode([Buffer.alloc(28, 7), attributes, 0]);
  return CSL.ByronAddress.from_bytes(cbor.encode([new cbor.Tagged(24, inner), zlib.crc32(inner)])).to_base58();
}

describe("Blockfrost's refusals through the gateway", () => {
  it("answers a path Blockfrost's document does not define with its 400 'Invalid path'", async () => {
    for (const path of ['/nothing/here', '/blocks', '/blocks/latest/nope', '/accounts/x/rewards/y']) {
      expect(await get(path, mainnet), path).toMatchObject({ status: 400, body: INVALID_PATH });
    }
    // Another method on a path the document does not define is refused by the gateway itself.
    const posted = await fetch(`${gw.url}/api/v0/nothing/here`, { method: 'POST', headers: { project_id: mainnet } });
    expect({ status: posted.status, body: await posted.json() }).toEqual({ status: 400, body: INVALID_PATH });
  });

  it('tells a malformed block hash from an out-of-range or malformed block number', async () => {
    for (const path of ['/blocks/zz', '/blocks/zz/txs', '/blocks/abc/next', `/blocks/${'a'.repeat(63)}/previous`, `/blocks/${'g'.repeat(64)}`]) {
      expect(await get(path, mainnet), path).toMatchObject(bad('Missing or malformed block hash.'));
    }
    for (const path of ['/blocks/2147483648', '/blocks/-1', '/blocks/1.5/txs', `/blocks/${'1'.repeat(64)}`]) {
      expect(await get(path, mainnet), path).toMatchObject(bad('Missing, out of range or malformed block number.'));
    }
    // In range and well formed, but above the tip: not found.
    expect(await get('/blocks/2147483647', mainnet)).toMatchObject(NOT_FOUND);
    expect(await get(`/blocks/${'ab'.repeat(32)}`, mainnet)).toMatchObject(NOT_FOUND);
    expect((await get('/blocks/1', mainnet)).status).toBe(200);
  });

  it('checks the query string before the path parameters', async () => {
    expect(await get('/blocks/zz/txs?count=500', mainnet)).toMatchObject(bad('querystring/count must be <= 100'));
    expect(await get('/blocks/2147483648/next?page=0', mainnet)).toMatchObject(bad('querystring/page must be >= 1'));
    expect(await get('/addresses/nonsense/utxos?order=sideways', mainnet)).toMatchObject(bad('querystring/order must be equal to one of the allowed values'));
    expect(await get('/assets/policy/zz?count=x', mainnet)).toMatchObject(bad('querystring/count must be integer'));
    // A path without `order` ignores it, as Blockfrost's schema drops unknown query parameters.
    expect(await get('/blocks/zz/next?order=sideways', mainnet)).toMatchObject(bad('Missing or malformed block hash.'));
    // A good query lets the path's own check speak.
    expect(await get('/blocks/zz/txs?count=100&page=2&order=desc', mainnet)).toMatchObject(bad('Missing or malformed block hash.'));
  });

  it('takes Byron addresses (Ae2…, DdzFF…, and the testnets\') and answers 404 for one never seen', async () => {
    const icarus = byronAddress('icarus');
    const daedalus = byronAddress('daedalus');
    expect(icarus).toMatch(/^Ae2/);
    expect(daedalus).toMatch(/^DdzFF/);
    for (const address of [icarus, daedalus]) {
      for (const path of [`/addresses/${address}`, `/addresses/${address}/utxos`, `/addresses/${address}/transactions`, `/addresses/${address}/extended`]) {
        expect(await get(path, mainnet), path).toMatchObject(NOT_FOUND);
      }
    }
    expect(await get(`/addresses/${byronAddress('icarus', 1)}`, preprod)).toMatchObject(NOT_FOUND);
    // A broken checksum or a made-up base58 string is still malformed.
    const broken = icarus.slice(0, -1) + (icarus.endsWith('z') ? 'y' : 'z');
    for (const address of [broken, 'Ae2tdPwUPEZ', 'DdzFFzCqrhs']) {
      expect(await get(`/addresses/${address}`, mainnet), address).toMatchObject(bad('Invalid address for this network or malformed address format.'));
    }
  });

  it('serves a doubled slash (/api/v0//addresses/…, as Blaze sends) as the single-slash path, on the sandbox and upstream alike', async () => {
    const latest = await get('/blocks/latest', mainnet);
    const doubled = await get('//blocks/latest', mainnet);
    expect(doubled.status).toBe(200);
    expect(doubled.body.hash).toBe(latest.body.hash);
    expect((await call(`${gw.url}/cardano-mainnet/api/v0//blocks//latest`, mainnet)).status).toBe(200);
    // Blockfrost's own fixtures: an empty block id between two slashes is a malformed hash, '/blocks/' no path.
    for (const path of ['/blocks//txs', '/blocks//next', '/blocks//previous', '/blocks//addresses']) {
      expect(await get(path, mainnet), path).toMatchObject(bad('Missing or malformed block hash.'));
    }
    expect(await get('/blocks/', mainnet)).toMatchObject({ status: 400, body: INVALID_PATH });
    const p = await newKey(5);
    await gw.keys.catchUp();
    const seen = upstreamPaths.length;
    expect(await get('//blocks//latest?count=1', p.key)).toMatchObject({ status: 200, body: { upstream: true } });
    expect(upstreamPaths.slice(seen)).toEqual(['/bf/api/v0/blocks/latest?count=1']);
  });

  it("answers a method Blockfrost's document does not define for a path with its 400 'Invalid path', not 405", async () => {
    for (const [method, path] of [['POST', '/blocks/latest'], ['DELETE', '/addresses/x'], ['GET', '/tx/submit'], ['PUT', '/utils/txs/evaluate']] as const) {
      const res = await fetch(`${gw.url}/api/v0${path}`, { method, headers: { project_id: mainnet } });
      expect({ status: res.status, body: await res.json() }, `${method} ${path}`).toEqual({ status: 400, body: INVALID_PATH });
    }
  });

  it("refuses another network's key with Blockfrost's whole sentence", async () => {
    const mismatch = {
      status: 403,
      body: { status_code: 403, error: 'Forbidden', message: 'Network token mismatch. Are you using token for the correct network? See https://docs.blockfrost.io/#section/Available-networks.' },
    };
    expect(await get('/blocks/latest', mainnet, '/cardano-preprod')).toEqual(expect.objectContaining(mismatch));
    expect(await get('/blocks/latest', preprod, '/cardano-mainnet')).toEqual(expect.objectContaining(mismatch));
  });
});

describe('/metrics and /metrics/endpoints', () => {
  const today = () => Math.floor(Date.now() / 86_400_000) * 86_400;

  it("answer the calling project's own metered usage, in Blockfrost's schema, and never another project's", async () => {
    const a = await newKey(0);
    const b = await newKey(0);
    await gw.keys.catchUp();
    for (const path of ['/blocks/latest', '/blocks/latest', '/epochs/latest', '/nothing/here']) expect((await get(path, a.key)).status).toBeLessThan(500);
    expect((await get('/network', b.key)).status).toBe(200);
    // Before a flush the figures are not in yet.
    const before = await get('/metrics', a.key);
    expect(before.status).toBe(200);
    expect(before.body).toEqual([]);
    await gw.meter.flush();

    const calls = await get('/metrics', a.key);
    expect(calls.status).toBe(200);
    assertSchema('/metrics', calls.body);
    // The /metrics request before the flush counts too.
    expect(calls.body).toEqual([{ time: today(), calls: 5 }]);
    const endpoints = await get('/metrics/endpoints', a.key);
    expect(endpoints.status).toBe(200);
    assertSchema('/metrics/endpoints', endpoints.body);
    expect(endpoints.body).toEqual([
      { time: today(), calls: 1, endpoint: '(unknown path)' },
      { time: today(), calls: 2, endpoint: '/blocks/latest' },
      { time: today(), calls: 1, endpoint: '/epochs/latest' },
      { time: today(), calls: 1, endpoint: '/metrics' },
    ]);
    expect((await get('/metrics', b.key)).body).toEqual([{ time: today(), calls: 1 }]);
    expect((await get('/metrics/endpoints', b.key)).body).toEqual([{ time: today(), calls: 1, endpoint: '/network' }]);

    // Older days of the 30 come first; a day before the 30 is left out.
    const day = 86_400_000;
    await app.db('usage_rollups').insert([
      { project_id: a.id, granularity: 'd', bucket_ms: today() * 1000 - 3 * day, requests: 11 },
      { project_id: a.id, granularity: 'd', bucket_ms: today() * 1000 - 30 * day, requests: 9 },
    ]);
    await gw.meter.flush();
    const month = await get('/metrics', a.key);
    assertSchema('/metrics', month.body);
    expect(month.body).toEqual([
      { time: today() - 3 * 86_400, calls: 11 },
      { time: today(), calls: 7 },
    ]);
  });

  it('are answered by the gateway on a network served by an upstream, never forwarded', async () => {
    const p = await newKey(5);
    await gw.keys.catchUp();
    expect(await get('/blocks/latest', p.key)).toMatchObject({ status: 200, body: { upstream: true } });
    await gw.meter.flush();
    const seen = upstreamPaths.length;
    const calls = await get('/metrics', p.key);
    expect(calls).toMatchObject({ status: 200, body: [{ time: today(), calls: 1 }] });
    assertSchema('/metrics', calls.body);
    const endpoints = await get('/metrics/endpoints', p.key);
    expect(endpoints.body).toEqual([{ time: today(), calls: 1, endpoint: '/blocks/latest' }]);
    expect(upstreamPaths.length).toBe(seen);
  });
});
