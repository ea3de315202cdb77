// Milkomeda JSON-RPC through the gateway with real EVM clients (ethers, viem) against the embedded
// EVM development chain: reads, a contract deployed with a signed raw transaction and then called,
// batches, refused methods (never reaching the backend), the key as basic-auth password, metering.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import solc from 'solc';
import { ContractFactory, FetchRequest, JsonRpcProvider, Network, Wallet, formatEther, type Contract } from 'ethers';
import { createPublicClient, createWalletClient, defineChain, http as viemHttp, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startTestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { answerEndlessly, call as call0, firstPiece, leaveMidAnswer, readReleasing, startTestGateway, type TimedCall, testGatewayConfig } from '../helpers/gateway';
import { Writable } from 'node:stream';
import { loadConfig } from '../../server/config';
import { createLogger } from '../../server/logger';
import { startGateway } from '../../server/gateway-app';
import { defaultProbes, statusReporter } from '../../server/features/status/status';
import type { RunningGateway } from '../../server/gateway-app';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { DEV_ACCOUNTS, startDevChain, type DevChain } from '../../server/sandbox/evm-chain';
import { BATCH_TOO_LARGE, MAX_BATCH_ANSWER_BYTES } from '../../server/features/milkomeda/index';
import { REFUSALS } from '../../server/gateway/refusals';
import { MILKOMEDA_MAINNET, rpcUrlWithKey } from '../../shared/milkomeda';

const app = useTestApp();
let gw: RunningGateway;
let owner: { client: Client; id: number; ws: number };
let key: string;

const COUNTER_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Counter {
  uint256 public count;
  constructor(uint256 start) { count = start; }
  function increment() external { count += 1; }
}`;

function compileCounter(): { abi: any[]; bytecode: string } {
  const input = { language: 'Solidity', sources: { 'Counter.sol': { content: COUNTER_SOURCE } }, settings: { evmVersion: 'paris', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } } };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const c = out.contracts['Counter.sol'].Counter;
  return { abi: c.abi, bytecode: '0x' + c.evm.bytecode.object };
}

async function newProject(networkId: number) {
  const res = await owner.client.post(`/api/workspaces/${owner.ws}/projects`, { projectName: `p${Math.random()}`, networkId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.project as { uuid: string; project_id: string; id: number };
}

/** Waits for a poll of `g`'s key cache that began after the changes so far (a key just created). */
const settle = (g: RunningGateway = gw) => g.keys.catchUp();

async function rpc(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const chain = defineChain({
  id: MILKOMEDA_MAINNET.chainIdNumber,
  name: MILKOMEDA_MAINNET.chainName,
  nativeCurrency: MILKOMEDA_MAINNET.nativeCurrency,
  rpcUrls: { default: { http: ['http://unused.invalid'] } },
});

beforeAll(async () => {
  owner = { client: new Client(app.url), id: 0, ws: 0 };
  await signIn(owner.client, app.mailer, 'milkomeda-owner@example.com');
  owner.id = (await owner.client.get('/api/me')).body.data.id;
  owner.ws = (await owner.client.get('/api/workspaces')).body.data[0].id;
  await setSubscription(app.db, owner.id, 'ENTERPRISE', 'active');
  gw = await startTestGateway(app);
  key = (await newProject(3)).project_id;
  await settle();
});
afterAll(async () => {
  await gw?.close();
});

describe('embedded EVM development chain', () => {
  it('lists development accounts whose keys really control them', () => {
    expect(gw.devChain).not.toBeNull();
    for (const a of DEV_ACCOUNTS) expect(new Wallet(a.privateKey).address).toBe(a.address);
  });

  it('answers chain id 2001 and marks its answers as sandbox data', async () => {
    const res = await rpc(`${gw.url}/api/v0/`, { jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] }, { project_id: key });
    expect(res).toMatchObject({ status: 200, body: { jsonrpc: '2.0', id: 7, result: '0x7d1' } });
    expect(res.headers.get('x-cairn-sandbox')).toBe('development-chain');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    // The project list marks the network 'Sandbox data' too.
    const list = await owner.client.get(`/api/workspaces/${owner.ws}/projects`);
    expect(list.body.data.find((p: { project_id: string }) => p.project_id === key)).toMatchObject({ sandbox: true });
  });
});

describe('ethers', () => {
  let provider: JsonRpcProvider;
  beforeAll(() => {
    const req = new FetchRequest(`${gw.url}/milkomeda-mainnet/api/v0/`);
    req.setHeader('project_id', key);
    // cacheTimeout -1: ethers would otherwise answer a nonce asked twice within 250 ms from its cache.
    provider = new JsonRpcProvider(req, Network.from(2001), { staticNetwork: true, cacheTimeout: -1 });
  });
  afterAll(() => provider.destroy());

  it('reads the block number and a balance', async () => {
    expect(await provider.getBlockNumber()).toBeGreaterThanOrEqual(0);
    expect(formatEther(await provider.getBalance(DEV_ACCOUNTS[1]!.address))).toBe('10000.0');
  });

  it('deploys a contract with a signed raw transaction, then calls it', async () => {
    const { abi, bytecode } = compileCounter();
    const wallet = new Wallet(DEV_ACCOUNTS[0]!.privateKey, provider);
    const contract = (await new ContractFactory(abi, bytecode, wallet).deploy(41)) as Contract;
    await contract.waitForDeployment();
    expect(await provider.getCode(await contract.getAddress())).toMatch(/^0x[0-9a-f]{20,}$/);
    expect(await contract.getFunction('count')()).toBe(41n);
    const tx = await contract.getFunction('increment')();
    const receipt = await tx.wait();
    expect(receipt?.status).toBe(1);
    expect(await contract.getFunction('count')()).toBe(42n);
  });

  it('sends the key as basic-auth password', async () => {
    const req = new FetchRequest(`${gw.url}/api/v0/`);
    req.allowInsecureAuthentication = true; // plain http on loopback
    req.setCredentials('project', key);
    const basic = new JsonRpcProvider(req, Network.from(2001), { staticNetwork: true });
    expect(await basic.getBalance(DEV_ACCOUNTS[2]!.address)).toBe(10_000n * 10n ** 18n);
    basic.destroy();
  });
});

describe('viem', () => {
  it('reads, deploys a contract from a local account and calls it', async () => {
    const transport = viemHttp(`${gw.url}/api/v0/`, { fetchOptions: { headers: { project_id: key } } });
    const publicClient = createPublicClient({ chain, transport });
    expect(typeof (await publicClient.getBlockNumber())).toBe('bigint');
    expect(await publicClient.getBalance({ address: DEV_ACCOUNTS[3]!.address as `0x${string}` })).toBe(parseEther('10000'));

    const { abi, bytecode } = compileCounter();
    const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(DEV_ACCOUNTS[4]!.privateKey as `0x${string}`) });
    const hash = await wallet.deployContract({ abi, bytecode: bytecode as `0x${string}`, args: [7n] });
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    expect(receipt.status).toBe('success');
    const address = receipt.contractAddress!;
    expect(await publicClient.readContract({ address, abi, functionName: 'count' })).toBe(7n);
  });

  it('batches calls (viem http batch) and authenticates with basic auth', async () => {
    const transport = viemHttp(`${gw.url}/milkomeda-mainnet/api/v0/`, {
      batch: true,
      fetchOptions: { headers: { authorization: `Basic ${Buffer.from(`project:${key}`).toString('base64')}` } },
    });
    const client = createPublicClient({ chain, transport });
    const [chainId, block, balance] = await Promise.all([client.getChainId(), client.getBlockNumber(), client.getBalance({ address: DEV_ACCOUNTS[0]!.address as `0x${string}` })]);
    expect(chainId).toBe(2001);
    expect(block).toBeGreaterThan(0n);
    expect(balance).toBeLessThan(parseEther('10000'));
  });
});

describe('allow-list and errors', () => {
  let recorder: http.Server;
  let recorderUrl: string;
  let dev: DevChain;
  let seen: string[];
  let gw2: RunningGateway;
  let key2: string;

  beforeAll(async () => {
    // A configured upstream that records every method it is asked, answering from a dev chain.
    dev = await startDevChain();
    seen = [];
    recorder = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', async () => {
        const body = JSON.parse(text);
        // A call with id 'cut': the answer declares its length and breaks off half-way.
        if (body.id === 'cut') {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': 100 });
          res.write('{"jsonrpc":"2.0","id":"cut","result":');
          return void setTimeout(() => res.destroy(), 30);
        }
        const calls = Array.isArray(body) ? body : [body];
        for (const c of calls) seen.push(c.method);
        const out = await Promise.all(calls.map((c) => dev.call(c)));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(Array.isArray(body) ? out : out[0]));
      });
    });
    await new Promise<void>((r) => recorder.listen(0, '127.0.0.1', r));
    recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
    gw2 = await startTestGateway(app, { UPSTREAM_MILKOMEDA_MAINNET_URL: recorderUrl, METERING_FLUSH_MS: '100000' });
    key2 = (await newProject(3)).project_id;
    await settle(gw2);
  });
  afterAll(async () => {
    await gw2.close();
    await dev.close();
    recorder.closeAllConnections();
    await new Promise((r) => recorder.close(r));
  });

  it('refuses methods outside the contract with a JSON-RPC error naming them; the backend never sees them', async () => {
    expect(gw2.devChain).toBeNull();
    for (const method of ['eth_accounts', 'personal_unlockAccount', 'admin_peers', 'debug_traceTransaction', 'eth_sign', 'eth_sendTransaction', 'evm_mine']) {
      const res = await rpc(`${gw2.url}/api/v0/`, { jsonrpc: '2.0', id: 1, method, params: [] }, { project_id: key2 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: expect.stringContaining(method) } });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
    const ok = await rpc(`${gw2.url}/api/v0/`, { jsonrpc: '2.0', id: 'a', method: 'eth_blockNumber', params: [] }, { project_id: key2 });
    expect(ok.body).toEqual({ jsonrpc: '2.0', id: 'a', result: expect.stringMatching(/^0x/) });
    expect(ok.headers.get('x-cairn-sandbox')).toBeNull();
    expect(seen).toEqual(['eth_blockNumber']);
  });

  it('answers the JSON-RPC internal error when the backend breaks off in the middle of an answer', async () => {
    const cut = await rpc(`${gw2.url}/api/v0/`, { jsonrpc: '2.0', id: 'cut', method: 'eth_blockNumber', params: [] }, { project_id: key2 });
    expect(cut.status).toBe(500);
    expect(cut.body).toEqual({ jsonrpc: '2.0', id: 'cut', error: { code: -32603, message: 'An unexpected response was received from the backend.' } });
    expect(cut.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers a batch in order with per-call results and errors, forwarding only allowed calls', async () => {
    seen.length = 0;
    const res = await rpc(
      `${gw2.url}/api/v0/`,
      [
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
        { jsonrpc: '2.0', id: 2, method: 'eth_accounts', params: [] },
        { jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [DEV_ACCOUNTS[0]!.address, 'latest'] },
        { jsonrpc: '2.0', method: 'eth_blockNumber', params: [] },
        { nope: true },
        { jsonrpc: '2.0', id: 5, method: 'net_version' },
      ],
      { project_id: key2 },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x7d1' },
      { jsonrpc: '2.0', id: 2, error: { code: -32601, message: expect.stringContaining('eth_accounts') } },
      { jsonrpc: '2.0', id: 1, result: '0x21e19e0c9bab2400000' },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } },
      { jsonrpc: '2.0', id: 5, result: '2001' },
    ]);
    expect(seen.sort()).toEqual(['eth_blockNumber', 'eth_chainId', 'eth_getBalance', 'net_version']);
  });

  it('answers malformed JSON with the JSON-RPC parse error, and bad batches with invalid request', async () => {
    const bad = await rpc(`${gw2.url}/api/v0/`, '{"jsonrpc": "2.0", "method": ', { project_id: key2 });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/application\/json/);
    expect(bad.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('Parse error') } });
    expect((await rpc(`${gw2.url}/api/v0/`, [], { project_id: key2 })).body.error.code).toBe(-32600);
    const big = await rpc(`${gw2.url}/api/v0/`, { jsonrpc: '2.0', id: 1, method: 'eth_call', params: ['x'.repeat(1_100_000)] }, { project_id: key2 });
    expect(big).toMatchObject({ status: 413, body: { jsonrpc: '2.0', id: null, error: { code: -32600 } } });
    expect([bad, big].map((r) => r.headers.get('access-control-allow-origin'))).toEqual(['*', '*']);
    expect((await rpc(`${gw2.url}/api/v0/`, { jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, { project_id: key2 })).body.result).toBe('0x7d1');
    expect((await rpc(`${gw2.url}/api/v0/`, '"text"', { project_id: key2 })).body.error.code).toBe(-32600);
  });

  it('refuses a missing key, a Cardano key as basic auth, and a Milkomeda key on a Cardano path', async () => {
    const call = { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] };
    expect(await rpc(`${gw2.url}/api/v0/`, call)).toMatchObject({ status: 403, body: { jsonrpc: '2.0', id: 1, error: { message: 'Missing project token. Please include project_id in your request.' } } });
    const cardano = (await newProject(0)).project_id;
    await settle(gw2);
    const basic = { authorization: `Basic ${Buffer.from(`x:${cardano}`).toString('base64')}` };
    expect(await rpc(`${gw2.url}/api/v0/`, call, basic)).toMatchObject({ status: 403, body: { jsonrpc: '2.0', id: 1, error: { message: 'Network token mismatch. Are you using token for the correct network? See https://docs.blockfrost.io/#section/Available-networks.' } } });
    expect((await rpc(`${gw2.url}/cardano-mainnet/api/v0/`, call, { project_id: key2 })).body).toMatchObject({ error: { message: 'Network token mismatch. Are you using token for the correct network? See https://docs.blockfrost.io/#section/Available-networks.' } });
    expect((await call0(`${gw2.url}/cardano-mainnet/api/v0/blocks/latest`, key2)).body).toMatchObject({ status_code: 403, message: 'Network token mismatch. Are you using token for the correct network? See https://docs.blockfrost.io/#section/Available-networks.' });
    expect(rpcUrlWithKey(gw2.url, key2)).toBe(`${gw2.url}/${key2}/milkomeda-mainnet/api/v0/`);
    expect((await rpc(rpcUrlWithKey(gw2.url, key2), call)).body).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7d1' });
  });

  it("shows a configured Milkomeda RPC on the status page with its latest block's age", async () => {
    const cfg = loadConfig({ NODE_ENV: 'test', SESSION_SECRET: 'x'.repeat(40), UPSTREAM_MILKOMEDA_MAINNET_URL: dev.url });
    const report = await statusReporter({ db: app.db, probes: defaultProbes(cfg, {}, app.db) })();
    const milk = report.networks.find((n) => n.slug === 'milkomeda-mainnet')!;
    expect(milk).toMatchObject({ backend: 'upstream', state: 'operational' });
    expect(milk.latestBlockAgeSeconds).toBeGreaterThanOrEqual(0);
    const prod = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) });
    expect((await statusReporter({ db: app.db, probes: defaultProbes(prod, {}, app.db) })()).networks.find((n) => n.slug === 'milkomeda-mainnet')).toMatchObject({ backend: 'none', state: 'not_available' });
  });

  it('meters every call with its method as the endpoint, refused ones included', async () => {
    await gw2.meter.flush();
    const rows = await app.db('usage_dimensions')
      .join('projects', 'projects.id', 'usage_dimensions.project_id')
      .where({ 'projects.project_id': key2, dimension: 'endpoint' })
      .groupBy('value')
      .select('value')
      .sum({ n: 'requests' });
    const byEndpoint = Object.fromEntries(rows.map((r: any) => [r.value, Number(r.n)]));
    // eth_blockNumber: 3, one of them the call whose answer was cut short; eth_chainId: 3, one with the key in the URL.
    expect(byEndpoint).toMatchObject({ eth_accounts: 2, eth_blockNumber: 3, eth_chainId: 3, eth_getBalance: 1, net_version: 1, admin_peers: 1, '(parse error)': 1, '(invalid request)': 4 });
  });
});

describe('backend failures, answer sizes and clients that leave', () => {
  let backend: http.Server;
  let g: RunningGateway;
  let k: string;
  /** Lets the 'big' answer finish: called once its first half reached the client. */
  let releaseBig = () => {};
  /** Called when the gateway gives up its request for the 'endless' answer. */
  let endlessClosed = () => {};
  let hugeClosed = (_sent: number) => {};
  const BACKEND_FAILED = 'An unexpected response was received from the backend.';
  /** A call whose first parameter tells the backend below how to answer. */
  const asking = (mode: string, id: unknown = 1) => ({ jsonrpc: '2.0', id, method: 'eth_call', params: [mode] });
  const reply = (id: unknown, result: string) => JSON.stringify({ jsonrpc: '2.0', id, result });
  /** A POST of one call through node:http, for the timing helpers. */
  let posting: TimedCall;

  beforeAll(async () => {
    backend = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c) => (text += c));
      req.on('end', () => {
        const body = JSON.parse(text);
        const calls: Array<{ id: unknown; params: string[] }> = Array.isArray(body) ? body : [body];
        const mode = calls[0]!.params[0];
        if (mode === 'silent') return; // never answers
        if (mode === 'down') return void res.writeHead(503).end('down');
        if (mode === 'stall') {
          // Declares its length, sends part of it and never the rest.
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': 100 });
          return void res.write('{"jsonrpc":"2.0","id":1,"result":');
        }
        // Streams until the request is given up; says when that happened.
        if (mode === 'endless') return answerEndlessly(res, 'application/json', () => endlessClosed());
        if (mode === 'huge') {
          // A batch answer four times what the gateway reads, written a megabyte at a time as the
          // connection takes it; says how much had been written when it was given up.
          const size = MAX_BATCH_ANSWER_BYTES * 4;
          const piece = Buffer.alloc(1024 * 1024, 0x20);
          let sent = 0;
          res.on('error', () => undefined);
          res.on('close', () => hugeClosed(sent));
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': size });
          const more = (): void => {
            while (sent < size && !res.destroyed) {
              sent += piece.length;
              if (!res.write(piece)) return void res.once('drain', more);
            }
          };
          return more();
        }
        // Sized answers written in two parts: a small one (gathered), a big one (streamed), a big batch answer.
        const text2 = Array.isArray(body) ? `[${calls.map((c) => reply(c.id, c.params[0] === 'big' ? 'b'.repeat(100_000) : 'ok')).join(',')}]` : reply(body.id, mode === 'big' ? 'b'.repeat(200_000) : 's'.repeat(2000));
        const answer = Buffer.from(text2);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
        res.write(answer.subarray(0, answer.length >> 1));
        const rest = () => res.end(answer.subarray(answer.length >> 1));
        if (mode === 'big' && !Array.isArray(body)) releaseBig = rest;
        else setTimeout(rest, 50);
      });
    });
    await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
    g = await startTestGateway(app, { UPSTREAM_MILKOMEDA_MAINNET_URL: `http://127.0.0.1:${(backend.address() as AddressInfo).port}/rpc`, UPSTREAM_TIMEOUT_MS: '300' });
    k = (await newProject(3)).project_id;
    await g.keys.reload();
    posting = { url: `${g.url}/api/v0/`, options: { method: 'POST', headers: { project_id: k, 'content-type': 'application/json' } } };
  });
  afterAll(async () => {
    await g.close();
    backend.closeAllConnections();
    await new Promise((r) => backend.close(r));
  });

  it('answers the JSON-RPC internal error for a backend that answers 5xx, stalls past the timeout, or says nothing; single calls and batches', async () => {
    for (const mode of ['down', 'stall', 'silent']) {
      const one = await rpc(`${g.url}/api/v0/`, asking(mode, 'x'), { project_id: k });
      expect(one, mode).toMatchObject({ status: 500, body: { jsonrpc: '2.0', id: 'x', error: { code: -32603, message: BACKEND_FAILED } } });
      expect(one.headers.get('access-control-allow-origin')).toBe('*');
      const batch = await rpc(`${g.url}/api/v0/`, [asking(mode, 1), { jsonrpc: '2.0', method: 'eth_chainId' }, asking(mode, 'b')], { project_id: k });
      expect(batch, mode).toMatchObject({ status: 200, body: [1, 'b'].map((id) => ({ jsonrpc: '2.0', id, error: { code: -32603, message: BACKEND_FAILED } })) });
    }
    // Metered with the status the client got: 3 single calls and 9 calls of batches.
    await g.meter.flush();
    const rows = await app.db('usage_dimensions').join('projects', 'projects.id', 'usage_dimensions.project_id').where({ 'projects.project_id': k, dimension: 'status', value: '500' }).sum({ n: 'requests' });
    expect(Number(rows[0]!.n)).toBe(12);
  });

  it('answers the JSON-RPC internal error for a backend that is not there', async () => {
    const down = await startTestGateway(app, { UPSTREAM_MILKOMEDA_MAINNET_URL: 'http://127.0.0.1:9/rpc' });
    try {
      expect(await rpc(`${down.url}/api/v0/`, asking('any', 4), { project_id: k })).toMatchObject({ status: 500, body: { jsonrpc: '2.0', id: 4, error: { code: -32603, message: BACKEND_FAILED } } });
      expect((await rpc(`${down.url}/api/v0/`, [asking('any', 5)], { project_id: k })).body).toEqual([{ jsonrpc: '2.0', id: 5, error: { code: -32603, message: BACKEND_FAILED } }]);
    } finally {
      await down.close();
    }
  });

  it('sends a small answer with its head in one write, streams a big one, and splits a big batch answer', async () => {
    const request = JSON.stringify(asking('small', 9));
    const first = await firstPiece(g.url, `POST /api/v0/ HTTP/1.1\r\nHost: x\r\nproject_id: ${k}\r\ncontent-type: application/json\r\ncontent-length: ${request.length}\r\nConnection: close\r\n\r\n${request}`);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(first.toLowerCase()).toContain('access-control-allow-origin: *');
    expect(first.slice(first.indexOf('\r\n\r\n') + 4)).toBe(reply(9, 's'.repeat(2000)));

    // The big one streams: its first half reaches the client while the backend still holds the second.
    const big = await readReleasing({ ...posting, body: JSON.stringify(asking('big', 8)) }, () => releaseBig());
    expect(big.firstBeforeEnd).toBe(true);
    expect(big.body).toBe(reply(8, 'b'.repeat(200_000)));

    // A batch's answer is read whole whatever its size, and split per call.
    const batch = await rpc(`${g.url}/api/v0/`, [asking('big', 'p'), asking('x', 'q')], { project_id: k });
    expect(batch.body).toEqual([
      { jsonrpc: '2.0', id: 'p', result: 'b'.repeat(100_000) },
      { jsonrpc: '2.0', id: 'q', result: 'ok' },
    ]);
  });

  it("refuses a batch answer over the size it reads, each call saying so, and stops the backend's answer", async () => {
    const closed = new Promise<number>((resolve) => (hugeClosed = resolve));
    const batch = await rpc(`${g.url}/api/v0/`, [asking('huge', 'h'), { jsonrpc: '2.0', method: 'eth_chainId' }, asking('x', 'y')], { project_id: k });
    expect(batch).toMatchObject({ status: 200, body: ['h', 'y'].map((id) => ({ jsonrpc: '2.0', id, error: { code: -32603, message: BATCH_TOO_LARGE } })) });
    // Given up well before the whole answer was written.
    expect(await closed).toBeLessThan(MAX_BATCH_ANSWER_BYTES * 2);
  });

  it('stops asking the backend when the client leaves in the middle of an answer', async () => {
    // The backend keeps writing, so no timeout ends it: only the client's leaving does.
    await leaveMidAnswer({ ...posting, body: JSON.stringify(asking('endless')) }, new Promise<void>((resolve) => (endlessClosed = resolve)));
  });
});

describe('limits per call', () => {
  it('admits single calls and batches through Redis limits too', async () => {
    const redisGw = await startTestGateway(app, { REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' });
    try {
      const single = await rpc(`${redisGw.url}/api/v0/`, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }, { project_id: key });
      expect(single.body).toEqual({ jsonrpc: '2.0', id: 1, result: '0x7d1' });
      const batch = await rpc(`${redisGw.url}/api/v0/`, [{ jsonrpc: '2.0', id: 1, method: 'net_version' }, { jsonrpc: '2.0', id: 2, method: 'eth_accounts' }], { project_id: key });
      expect(batch.body).toEqual([{ jsonrpc: '2.0', id: 1, result: '2001' }, { jsonrpc: '2.0', id: 2, error: { code: -32601, message: expect.stringContaining('eth_accounts') } }]);
    } finally {
      await redisGw.close();
    }
  });

  it('counts each call of a batch against the rate limit', async () => {
    const p = (await newProject(3)).project_id;
    await settle();
    const batch = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId', params: [] }));
    let ok = 0;
    let limited = 0;
    const started = Date.now();
    for (let i = 0; i < 6; i++) {
      const res = await rpc(`${gw.url}/api/v0/`, batch, { project_id: p });
      for (const r of res.body) {
        if (r.result) ok++;
        else if (r.error?.code === -32005) limited++;
      }
    }
    const refill = Math.ceil(((Date.now() - started) / 1000) * 10) + 1;
    // The plan's burst is 500 calls, refilled at 10 per second.
    expect(ok).toBeGreaterThanOrEqual(500);
    expect(ok).toBeLessThanOrEqual(500 + refill);
    expect(limited).toBe(600 - ok);
  });
});

describe('start-up, host form and production', () => {
  /** A gateway whose log lines are kept, in the given NODE_ENV. */
  async function loggedGateway(env: Record<string, string>) {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        cb();
      },
    });
    const config = testGatewayConfig(app, { GATEWAY_DOMAIN: 'api.cairn.test', ...env });
    const g = await startGateway({ config, db: app.db, logger: createLogger('info', sink), version: 'test', port: 0, host: '127.0.0.1', redisPrefix: `cairn-test:${Math.random()}:` });
    return { g, log: lines.join('\n') };
  }

  it('lists the funded development accounts in the start-up log and answers on the host form', async () => {
    const { g, log } = await loggedGateway({});
    try {
      for (const a of DEV_ACCOUNTS) {
        expect(log).toContain(a.address);
        expect(log).toContain(a.privateKey);
      }
      expect(log).toContain('chain id 2001');
      const res = await new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = http.request(`${g.url}/api/v0/`, { method: 'POST', headers: { host: 'milkomeda-mainnet.api.cairn.test', project_id: key, 'content-type': 'application/json' } }, (r) => {
          let t = '';
          r.on('data', (c) => (t += c));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body: JSON.parse(t) }));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'net_version', params: [] }));
      });
      expect(res).toEqual({ status: 200, body: { jsonrpc: '2.0', id: 3, result: '2001' } });
    } finally {
      await g.close();
    }
  });

  it('runs no development chain in production: nothing of its accounts, and calls get a JSON-RPC error', async () => {
    const { g, log } = await loggedGateway({ NODE_ENV: 'production' });
    try {
      expect(g.devChain).toBeNull();
      for (const a of DEV_ACCOUNTS) expect(log).not.toContain(a.address);
      expect(log).toContain('milkomeda-mainnet has no backend');
      await settle(g);
      const res = await rpc(`${g.url}/api/v0/`, { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }, { project_id: key });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: REFUSALS.noBackend.message } });
      // Nothing served, nothing counted: no metering record (and so no quota) for it.
      await g.meter.flush();
      const rows = await app.db('usage_dimensions').join('projects', 'projects.id', 'usage_dimensions.project_id').where({ 'projects.project_id': key, dimension: 'status', value: '500' });
      expect(rows).toEqual([]);
    } finally {
      await g.close();
    }
    // The dashboard's development chain card: only where the chain runs.
    expect((await owner.client.get('/api/milkomeda/dev-chain')).body.data).toMatchObject({ chainId: 2001, accounts: DEV_ACCOUNTS });
    const prod = await startTestApp({ env: { NODE_ENV: 'production', UPSTREAM_MILKOMEDA_MAINNET_URL: '' }, database: app.database });
    try {
      const c = new Client(prod.url);
      await signIn(c, prod.mailer, 'milkomeda-owner@example.com');
      expect((await c.get('/api/milkomeda/dev-chain')).status).toBe(404);
    } finally {
      await prod.stop();
    }
  });
});
