// Transactions submitted to a network served by a Blockfrost-compatible upstream are tracked like a
// sandbox network's. The upstream is a second Cairn (its own database) serving a devnet, paused and
// steered through its API, reached through a relay on loopback that records what the gateway sends
// it. Through the first Cairn's gateway: a payment goes pending, in a block, confirmed at the
// project's depth (across a restart of the gateway); a rollback upstream rolls one back and, for a
// project that asked, resubmits it and it lands again; a refused one is invalid; one left out past
// its validity expires; the 'tx_status' webhooks hear each change once; one gateway of two follows;
// one pushed over the websocket is tracked, its subscribers hearing of the upstream's blocks; nothing
// is read while nothing is open.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useTestApp, useTestGateway } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { startTestGateway } from '../helpers/gateway';
import { startReceiver } from '../helpers/receiver';
import { payment } from '../unit/server/sandbox/chain/tx-builder';
import type { RunningGateway } from '../../server/gateway-app';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { Dispatcher } from '../../server/features/webhooks/dispatcher';
import { parseAllowlist } from '../../server/features/webhooks/ssrf';
import { createLogger } from '../../server/logger';
import { UPSTREAM_CURSOR_DEPTH } from '../../server/features/txs/store';
import { testEngine } from '../helpers/db-template';
import type { TxStatus } from '../../shared/txs';
import type { Block } from '../../shared/chain';

const PREPROD = 3;

// --- the upstream: a Cairn serving a devnet -------------------------------------------------------
const upstreamApp = useTestApp();
const upstreamGw = useTestGateway(upstreamApp);
let devnetKey = '';
const steer = async (sub: string, body?: unknown) => {
  const res = await fetch(`${upstreamGw.url}/cairn/v1/devnet${sub}`, { method: 'POST', headers: { project_id: devnetKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const parsed = (await res.json()) as any;
  expect(res.status, JSON.stringify(parsed)).toBeLessThan(300);
  return parsed;
};
const upstreamGet = async <T>(path: string): Promise<T> => (await (await fetch(`${upstreamGw.url}/cardano-devnet/api/v0${path}`, { headers: { project_id: devnetKey } })).json()) as T;

// --- the relay between the gateway and the upstream: records each request -------------------------
interface Relayed {
  method: string;
  path: string;
  key: string | undefined;
}
const relayed: Relayed[] = [];
const relay = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    relayed.push({ method: req.method!, path: req.url!, key: req.headers.project_id as string | undefined });
    try {
      const body = Buffer.concat(chunks);
      const answer = await fetch(`${upstreamGw.url}${req.url}`, {
        method: req.method,
        headers: { ...(req.headers.project_id ? { project_id: String(req.headers.project_id) } : {}), ...(req.headers['content-type'] ? { 'content-type': req.headers['content-type'] } : {}) },
        ...(body.length > 0 ? { body } : {}),
      });
      const text = Buffer.from(await answer.arrayBuffer());
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
    } catch {
      res.destroy();
    }
  });
});
let relayUrl = '';
beforeAll(async () => {
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
});
afterAll(() => {
  relay.closeAllConnections();
  relay.close();
});

// --- the Cairn under test: preprod served by the upstream's devnet ----------------------------------
const app = useTestApp();
const logger = createLogger('silent');
const gatewayEnv = () => ({
  UPSTREAM_CARDANO_PREPROD_URL: `${relayUrl}/cardano-devnet/api/v0`,
  UPSTREAM_CARDANO_PREPROD_AUTH: `project_id: ${devnetKey}`,
  PUSH_UPSTREAM_TIP_MS: '50',
  UPSTREAM_TX_REQUESTS_PER_SECOND: '200',
});
let gw: RunningGateway;
let client: Client;
let ws: number;
/** A project that resubmits on rollback, and one that does not. */
const resubmitting = { key: '', uuid: '', id: 0 };
const plain = { key: '', uuid: '', id: 0 };
/** The paying key and its address on the devnet (enterprise, testnet). */
const payer = CSL.PrivateKey.generate_ed25519();
const payerAddress = CSL.EnterpriseAddress.new(0, CSL.Credential.from_keyhash(payer.to_public().hash())).to_address().to_bech32();
const stranger = CSL.PrivateKey.generate_ed25519();

beforeAll(async () => {
  // The upstream's devnet project, its chain paused: blocks come from the steering API only.
  const owner = new Client(upstreamApp.url);
  await signIn(owner, upstreamApp.mailer, 'upstream-operator@example.com');
  await setSubscription(upstreamApp.db, (await owner.get('/api/me')).body.data.id, 'ENTERPRISE', 'active');
  const upWs = (await owner.get('/api/workspaces')).body.data[0].id;
  const created = await owner.post(`/api/workspaces/${upWs}/projects`, { projectName: 'upstream devnet', networkId: 8 });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  devnetKey = created.body.data.project.project_id;
  await upstreamGw.keys.reload();
  await steer('/pause');
  // Funds for the payer: several outputs, so each transaction spends one of its own.
  for (let i = 0; i < 10; i++) await steer('/fund', { address: payerAddress, lovelace: '50000000' });
  await steer('/blocks', { count: 1 });

  client = new Client(app.url);
  await signIn(client, app.mailer, 'upstream-txs@example.com');
  await setSubscription(app.db, (await client.get('/api/me')).body.data.id, 'ENTERPRISE', 'active');
  ws = (await client.get('/api/workspaces')).body.data[0].id;
  for (const [p, name] of [[resubmitting, 'resubmitting'], [plain, 'plain']] as const) {
    const made = (await client.post(`/api/workspaces/${ws}/projects`, { projectName: name, networkId: 6 })).body.data;
    p.key = made.project.project_id;
    p.uuid = made.uuid;
    p.id = Number((await app.db('projects').where({ uuid: made.uuid }).first('id')).id);
    expect((await client.put(`/api/projects/${p.uuid}/tx-confirmations`, { confirmations: 3 })).status).toBe(200);
  }
  expect((await client.put(`/api/projects/${resubmitting.uuid}/tx-resubmit`, { resubmit: true })).status).toBe(200);
  gw = await startTestGateway(app, gatewayEnv());
});
afterAll(async () => {
  await gw?.close();
});

// --- helpers ------------------------------------------------------------------------------------
const tipOfUpstream = () => upstreamGet<Block>('/blocks/latest');
const spent = new Set<string>();
/** A signed payment from one of the payer's unspent outputs (never one spent by an earlier call). */
async function paymentCbor(opts: { ttlSlots?: number; wrongKey?: boolean } = {}): Promise<{ cbor: Uint8Array; hash: string }> {
  const utxos = await upstreamGet<Array<{ tx_hash: string; output_index: number; amount: Array<{ unit: string; quantity: string }>; address: string }>>(`/addresses/${payerAddress}/utxos`);
  const input = utxos.find((u) => !spent.has(`${u.tx_hash}#${u.output_index}`) && BigInt(u.amount[0]!.quantity) >= 50_000_000n);
  expect(input, 'an unspent output of the payer').toBeDefined();
  spent.add(`${input!.tx_hash}#${input!.output_index}`);
  const ttl = opts.ttlSlots === undefined ? undefined : BigInt((await tipOfUpstream()).slot! + opts.ttlSlots);
  const cbor = payment({ inputs: [input as never], to: payerAddress, lovelace: 2_000_000n, change: payerAddress, signers: [opts.wrongKey ? stranger : payer], ...(ttl === undefined ? {} : { ttl }) });
  return { cbor, hash: CSL.FixedTransaction.from_bytes(cbor).transaction_hash().to_hex() };
}
const submit = (cbor: Uint8Array, key: string, through = gw) => fetch(`${through.url}/api/v0/tx/submit`, { method: 'POST', headers: { project_id: key, 'content-type': 'application/cbor' }, body: Buffer.from(cbor) });
const status = async (hash: string, key: string, through = gw): Promise<TxStatus> => (await (await fetch(`${through.url}/cairn/v1/txs/${hash}/status`, { headers: { project_id: key } })).json()) as TxStatus;
/** Until the transaction's status satisfies `ok` (the followers run on their own, every 50 ms). */
async function until(hash: string, key: string, ok: (s: TxStatus) => boolean, through = gw, timeoutMs = 10_000): Promise<TxStatus> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const s = await status(hash, key, through);
    if (ok(s)) return s;
    if (Date.now() > end) throw new Error(`${hash}: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
const inState = (state: string, depth?: number) => (s: TxStatus) => s.state === state && (depth === undefined || s.depth === depth);
/** Until the gateway's follower of preprod began `count` more passes (one every 50 ms). */
async function passes(count: number, through = gw): Promise<void> {
  const follower = through.upstreamTxs.followers[0]!;
  const target = follower.passes + count;
  await vi.waitFor(() => expect(follower.passes).toBeGreaterThanOrEqual(target), { timeout: 10_000, interval: 20 });
}
const history = (s: TxStatus) => s.history.map((h) => (h.resubmitted ? `${h.state}*` : h.state));

describe('a transaction submitted to an upstream-served network', () => {
  it('is recorded at submit, lands, and is confirmed at the project depth, also across a restart of the gateway', async () => {
    const { cbor, hash } = await paymentCbor();
    const res = await submit(cbor, resubmitting.key);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toBe(hash);
    // The upstream got it, with the operator's credentials, and holds it in its mempool.
    expect(relayed.some((r) => r.method === 'POST' && r.path === '/cardano-devnet/api/v0/tx/submit' && r.key === devnetKey)).toBe(true);
    expect((await fetch(`${upstreamGw.url}/cardano-devnet/api/v0/mempool/${hash}`, { headers: { project_id: devnetKey } })).status).toBe(200);
    const pending = await until(hash, resubmitting.key, inState('pending'));
    expect(pending).toMatchObject({ block_height: null, depth: 0, confirmations_needed: 3 });
    await passes(3);
    expect((await status(hash, resubmitting.key)).state).toBe('pending');

    await steer('/blocks', { count: 1 });
    const tip = await tipOfUpstream();
    const landed = await until(hash, resubmitting.key, inState('in_block'));
    expect(landed).toMatchObject({ block_height: tip.height, block_hash: tip.hash, depth: 1 });

    // The gateway stops; the chain moves on; a new gateway resumes from the cursor in the database.
    await gw.close();
    const cursor = await app.db('chain_cursors').where({ network: PREPROD, confirmations: UPSTREAM_CURSOR_DEPTH }).first('height', 'hash');
    expect({ height: Number(cursor.height), hash: cursor.hash }).toEqual({ height: tip.height, hash: tip.hash });
    await steer('/blocks', { count: 1 });
    gw = await startTestGateway(app, gatewayEnv());
    expect(await until(hash, resubmitting.key, inState('in_block', 2))).toMatchObject({ block_height: tip.height });
    await steer('/blocks', { count: 1 });
    const confirmed = await until(hash, resubmitting.key, inState('confirmed'));
    expect(confirmed).toMatchObject({ block_height: tip.height, block_hash: tip.hash, depth: 3 });
    expect(history(confirmed)).toEqual(['pending', 'in_block', 'confirmed']);
    // The project page lists it with its depth.
    const page = await client.get(`/api/projects/${resubmitting.uuid}/txs`);
    expect(page.body.data.txs[0]).toMatchObject({ tx_hash: hash, state: 'confirmed', block_height: tip.height, depth: 3, confirmations_needed: 3 });
  });

  it('records a refused transaction as invalid with the upstream ledger reason', async () => {
    const { cbor, hash } = await paymentCbor({ wrongKey: true });
    const res = await submit(cbor, plain.key);
    expect(res.status).toBe(400);
    const { message } = (await res.json()) as { message: string };
    const invalid = await until(hash, plain.key, inState('invalid'));
    expect(invalid).toMatchObject({ reason: message, depth: 0 });
    expect(message.length).toBeGreaterThan(0);
  });

  it('rolls back with the upstream: resubmitted for a project that asked and landed again, left rolled back for one that did not, then expired past its validity', async () => {
    const mine = await paymentCbor();
    const theirs = await paymentCbor({ ttlSlots: 30 });
    expect((await submit(mine.cbor, resubmitting.key)).status).toBe(200);
    expect((await submit(theirs.cbor, plain.key)).status).toBe(200);
    await until(mine.hash, resubmitting.key, inState('pending'));
    await until(theirs.hash, plain.key, inState('pending'));
    await steer('/blocks', { count: 1 });
    const block = await tipOfUpstream();
    await until(mine.hash, resubmitting.key, inState('in_block'));
    await until(theirs.hash, plain.key, inState('in_block'));

    // The upstream drops the block and its transactions (no mempool holds them).
    const rolled = await steer('/rollback', { blocks: 1, txs: 'drop' });
    expect(rolled.dropped).toEqual(expect.arrayContaining([mine.hash, theirs.hash]));
    const back = await until(mine.hash, resubmitting.key, inState('pending'));
    expect(history(back)).toEqual(['pending', 'in_block', 'rolled_back', 'pending*']);
    // The resubmission went to the upstream, which holds it again.
    expect((await fetch(`${upstreamGw.url}/cardano-devnet/api/v0/mempool/${mine.hash}`, { headers: { project_id: devnetKey } })).status).toBe(200);
    const left = await until(theirs.hash, plain.key, inState('rolled_back'));
    expect(left).toMatchObject({ block_height: null, depth: 0 });

    await steer('/blocks', { count: 1 });
    const newBlock = await tipOfUpstream();
    expect(newBlock.hash).not.toBe(block.hash);
    const relanded = await until(mine.hash, resubmitting.key, inState('in_block'));
    expect(relanded).toMatchObject({ block_height: newBlock.height, block_hash: newBlock.hash, depth: 1 });
    expect(history(relanded)).toEqual(['pending', 'in_block', 'rolled_back', 'pending*', 'in_block']);
    expect((await status(theirs.hash, plain.key)).state).toBe('rolled_back');

    // Time moves past the other one's validity: the blocks in between left it out.
    await steer('/time', { slots: 60 });
    expect(history(await until(theirs.hash, plain.key, inState('expired')))).toEqual(['pending', 'in_block', 'rolled_back', 'expired']);
    expect(history(await until(mine.hash, resubmitting.key, inState('confirmed')))).toEqual(['pending', 'in_block', 'rolled_back', 'pending*', 'in_block', 'confirmed']);
  });

  it("fires 'tx_status' webhooks for every change, once each", async () => {
    const receiver = await startReceiver();
    try {
      const hook = await client.post(`/api/workspaces/${ws}/webhooks`, { name: 'statuses', description: '', network: PREPROD, type: 'tx_status', target_url: receiver.url, confirmations: 0, status: 'enabled', conditions: [], api_version: 1 });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      // Events are written with the changes: those made before the webhook existed are not sent; a new transaction's are.
      const { cbor, hash } = await paymentCbor();
      expect((await submit(cbor, resubmitting.key)).status).toBe(200);
      await until(hash, resubmitting.key, inState('pending'));
      await steer('/blocks', { count: 1 });
      await until(hash, resubmitting.key, inState('in_block'));
      await steer('/blocks', { count: 2 });
      await until(hash, resubmitting.key, inState('confirmed'));
      const dispatcher = new Dispatcher(app.db, logger, app.mailer, { allowlist: parseAllowlist('127.0.0.1'), timeoutMs: 2000, retrySchedule: [0, 100], publicUrl: app.url });
      while ((await dispatcher.runOnce()) > 0);
      const got = receiver.received.filter((r) => r.body?.payload?.tx_hash === hash).map((r) => [r.body.payload.previous_state, r.body.payload.state, r.body.payload.depth]);
      expect(got).toEqual([
        [null, 'pending', 0],
        ['pending', 'in_block', 1],
        ['in_block', 'confirmed', 3],
      ]);
      const delivered = receiver.received.find((r) => r.body?.payload?.state === 'confirmed')!;
      expect(delivered.body).toMatchObject({ type: 'tx_status', payload: { project: resubmitting.uuid, confirmations_needed: 3 } });
      expect(delivered.headers['blockfrost-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    } finally {
      await receiver.close();
    }
  });

  it('is followed by one gateway of two (on PostgreSQL; on SQLite both may read, and each change is still written once), and by the other when it stops', async () => {
    const second = await startTestGateway(app, gatewayEnv());
    let secondClosed = false;
    try {
      const { cbor, hash } = await paymentCbor();
      expect((await submit(cbor, plain.key, second)).status).toBe(200);
      await until(hash, plain.key, inState('pending'));
      const readsBefore = [gw, second].map((g) => g.upstreamTxs.followers[0]!.reads);
      await steer('/blocks', { count: 1 });
      await until(hash, plain.key, inState('in_block'));
      const reads = [gw, second].map((g, i) => g.upstreamTxs.followers[0]!.reads - readsBefore[i]!);
      if (testEngine() === 'postgres') expect(reads.filter((n) => n > 0)).toHaveLength(1);
      // The follower that read stops; the other one takes over.
      const leader = reads[0]! > 0 ? gw : second;
      const other = leader === gw ? second : gw;
      await leader.close();
      if (leader === second) secondClosed = true;
      await steer('/blocks', { count: 2 });
      const confirmed = await until(hash, plain.key, inState('confirmed'), other);
      expect(history(confirmed)).toEqual(['pending', 'in_block', 'confirmed']);
      const changes = await app.db('tracked_tx_changes').join('tracked_txs', 'tracked_txs.id', 'tracked_tx_changes.tracked_id').where('tracked_txs.tx_hash', hash).count({ n: '*' }).first();
      expect(Number(changes?.n)).toBe(3);
      if (leader === gw) gw = second;
    } finally {
      if (gw !== second && !secondClosed) await second.close();
    }
  });

  it('reads nothing from the upstream while no transaction is open on the network', async () => {
    const open = await app.db('tracked_txs').where({ network: PREPROD }).whereIn('state', ['pending', 'in_block', 'rolled_back']).count({ n: '*' }).first();
    expect(Number(open?.n)).toBe(0);
    await passes(2);
    const from = relayed.length;
    await passes(10);
    expect(relayed.slice(from)).toEqual([]);
  });

  it("tracks a transaction pushed over the push API's websocket, whose block subscribers hear of the upstream's blocks", async () => {
    const socket = new WebSocket(`${gw.url.replace('http', 'ws')}/ws`, { headers: { project_id: resubmitting.key } });
    const messages: any[] = [];
    socket.on('message', (d) => messages.push(JSON.parse(d.toString())));
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    try {
      const heard = (pred: (m: any) => boolean) => vi.waitFor(() => expect(messages.find(pred)).toBeDefined(), { timeout: 10_000, interval: 20 });
      socket.send(JSON.stringify({ id: 'blocks', command: 'SUBSCRIBE_BLOCK', params: {} }));
      await heard((m) => m.id === 'blocks');
      const { cbor, hash } = await paymentCbor();
      socket.send(JSON.stringify({ id: 'push', command: 'PUSH_TRANSACTION', params: { txData: Buffer.from(cbor).toString('hex') } }));
      await heard((m) => m.id === 'push');
      expect(messages.find((m) => m.id === 'push')).toMatchObject({ type: 'message', data: hash });
      await until(hash, resubmitting.key, inState('pending'));
      await steer('/blocks', { count: 1 });
      const tip = await tipOfUpstream();
      await heard((m) => m.id === 'blocks' && m.data?.hash === tip.hash);
      expect(await until(hash, resubmitting.key, inState('in_block'))).toMatchObject({ block_height: tip.height, block_hash: tip.hash });
      await steer('/blocks', { count: 2 });
      await until(hash, resubmitting.key, inState('confirmed'));
    } finally {
      socket.close();
    }
  });
});
