// The push API: @trezor/blockchain-link's Blockfrost worker, unchanged, against a real gateway on a
// sandbox chain that makes a block every second: it reads the server, subscribes to blocks and to a
// fresh address of an account, submits a payment to that address with pushTransaction and hears of
// both; then reads the account by its public key (balance, transactions, utxos, history). Also: the
// protocol's errors for bad frames, the key and connection-cap refusals of the upgrade, metering, and
// a deleted project's connections closing.
import { startTestGateway } from '../helpers/gateway';
import crypto from 'node:crypto';
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import WebSocket from 'ws';
import BlockchainLink from '@trezor/blockchain-link';
import BlockfrostWorker from '@trezor/blockchain-link/lib/workers/blockfrost';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import type { RunningGateway } from '../../server/gateway-app';
import { createSandboxChain, type SandboxChain } from '../../server/sandbox/chain/index';
import { dbLedgerStore } from '../../server/sandbox/store';
import { plans } from '../../shared/plans';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { keysOf, payment } from '../unit/server/sandbox/chain/tx-builder';

const app = useTestApp();
let gw: RunningGateway;
let chain: SandboxChain;
let client: Client;
let key: string;
let projectUuid: string;
let ws: number;
const BLOCK_MS = 1000;
const wsUrl = (path: string) => gw.url.replace('http', 'ws') + path;

/** A fresh CIP-1852 account: its public key (hex) and its first external address. */
function freshAccount() {
  const root = CSL.Bip32PrivateKey.from_bip39_entropy(crypto.randomBytes(32), Buffer.alloc(0));
  const account = root.derive(0x80000000 + 1852).derive(0x80000000 + 1815).derive(0x80000000).to_public();
  const stake = CSL.Credential.from_keyhash(account.derive(2).derive(0).to_raw_key().hash());
  const pay = CSL.Credential.from_keyhash(account.derive(0).derive(0).to_raw_key().hash());
  return { xpub: account.to_hex(), address: CSL.BaseAddress.new(0, pay, stake).to_address().to_bech32() };
}

/** Waits for `predicate` over what `list` collects. */
async function until<T>(list: T[], predicate: (items: T[]) => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!predicate(list)) {
    if (Date.now() > end) throw new Error(`timed out; got ${JSON.stringify(list).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A raw websocket to the gateway, its messages collected. */
async function rawSocket(path: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(wsUrl(path), { headers });
  const messages: any[] = [];
  socket.on('message', (d) => messages.push(JSON.parse(d.toString())));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, messages, closed };
}

/** The status and body of an upgrade the gateway refuses. */
const refusedUpgrade = (path: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    const socket = new WebSocket(wsUrl(path), { headers });
    socket.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    socket.on('open', () => reject(new Error('the upgrade was accepted')));
    socket.on('error', () => undefined);
  });

beforeAll(async () => {
  client = new Client(app.url);
  await signIn(client, app.mailer, 'push@example.com');
  // HOBBY: a second project for the deletion test.
  await setSubscription(app.db, (await client.get('/api/me')).body.data.id, 'HOBBY', 'active');
  ws = (await client.get('/api/workspaces')).body.data[0].id;
  const created = (await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'wallet', networkId: 6 })).body.data;
  key = created.project.project_id;
  projectUuid = created.uuid;
  const second = Math.floor(Date.now() / 1000) * 1000;
  chain = createSandboxChain({ network: 'preprod', blockIntervalMs: BLOCK_MS, genesisTime: second - 30 * BLOCK_MS, store: dbLedgerStore(app.db) });
  await chain.ready();
  gw = await startTestGateway(app, { PUSH_IDLE_TIMEOUT_MS: '60000' }, undefined, { chains: { preprod: chain } });
});
afterAll(async () => {
  await gw?.close();
});

describe("@trezor/blockchain-link's Blockfrost worker on the gateway", () => {
  it('reads the server, hears of blocks and of a payment it pushed to a subscribed address, then reads the account', async () => {
    const link = new BlockchainLink({ name: 'cardano', worker: BlockfrostWorker, server: [wsUrl(`/${key}/ws`)], debug: false });
    try {
      const info = await link.getInfo();
      expect(info).toMatchObject({ name: 'Cardano', shortcut: 'tada', testnet: true, decimals: 6, network: 'tada' });
      expect(info.blockHeight).toBeGreaterThan(0);

      const blocks: Array<{ blockHeight: number; blockHash: string }> = [];
      const notifications: any[] = [];
      link.on('block', (b) => blocks.push(b));
      link.on('notification', (n) => notifications.push(n));
      expect(await link.subscribe({ type: 'block' })).toEqual({ subscribed: true });
      const account = freshAccount();
      expect(await link.subscribe({ type: 'addresses', addresses: [account.address] })).toEqual({ subscribed: true });

      const [sender] = chain.devWallets();
      const input = chain.addressUtxos(sender!.address)!.find((u) => BigInt(u.amount[0]!.quantity) > 100_000_000n)!;
      const cbor = payment({ inputs: [input], to: account.address, lovelace: 7_000_000n, change: sender!.address, signers: [keysOf(sender!.mnemonic).payment] });
      const pushed = await link.pushTransaction({ hex: Buffer.from(cbor).toString('hex') });
      const hash = CSL.FixedTransaction.from_bytes(cbor).transaction_hash().to_hex();
      expect(pushed).toBe(hash);

      await until(notifications, (n) => n.length > 0);
      expect(notifications[0]).toMatchObject({ descriptor: account.address, tx: { txid: hash, type: 'recv', amount: '7000000' } });
      await until(blocks, (b) => b.length >= 2);
      expect(blocks[1]!.blockHeight).toBe(blocks[0]!.blockHeight + 1);
      const landed = notifications[0].tx.blockHeight as number;
      expect(blocks.map((b) => b.blockHeight)).toContain(landed);
      expect(blocks.find((b) => b.blockHeight === landed)!.blockHash).toBe(chain.blockAt(landed)!.hash);

      // Submitted through the same path as /tx/submit: tracked for the project.
      const txs = await client.get(`/api/projects/${projectUuid}/txs`);
      expect(txs.body.data.txs.map((t: { tx_hash: string }) => t.tx_hash)).toContain(hash);

      const byKey = await link.getAccountInfo({ descriptor: account.xpub, details: 'txs', page: 1, pageSize: 25 });
      expect(byKey).toMatchObject({ descriptor: account.xpub, empty: false, balance: '7000000', availableBalance: '7000000', history: { total: 1 } });
      expect(byKey.history.transactions![0]).toMatchObject({ txid: hash, type: 'recv', amount: '7000000', blockHeight: landed });
      expect(byKey.addresses!.used.map((a) => a.address)).toEqual([account.address]);
      expect(byKey.addresses!.unused.length).toBe(20);
      expect(byKey.addresses!.change.length).toBe(20);
      const byAddress = await link.getAccountInfo({ descriptor: account.address, details: 'basic' });
      expect(byAddress).toMatchObject({ balance: '7000000', history: { total: 1 } });

      const utxos = await link.getAccountUtxo(account.xpub);
      expect(utxos).toEqual([expect.objectContaining({ txid: hash, amount: '7000000', address: account.address, blockHeight: landed, path: "m/1852'/1815'/i'/0/0" })]);
      const tx = await link.getTransaction(hash);
      expect(tx).toMatchObject({ txid: hash, blockHeight: landed });
      const fee = await link.estimateFee({ blocks: [1] });
      expect(Number(fee[0]!.feePerUnit)).toBeGreaterThan(0);
      const history = await link.getAccountBalanceHistory({ descriptor: account.xpub, groupBy: 3600 });
      expect(history).toEqual([expect.objectContaining({ txs: 1, received: '7000000', sent: '0' })]);

      expect(await link.unsubscribe({ type: 'block' })).toEqual({ subscribed: false });
    } finally {
      link.dispose();
    }
  }, 20_000);
});

describe('the push API protocol and its limits', () => {
  it('answers bad frames with the protocol error and keeps the connection', async () => {
    const { socket, messages } = await rawSocket(`/${key}/ws`);
    socket.send('not json');
    socket.send(JSON.stringify({ id: '7', command: 'NOPE' }));
    socket.send(JSON.stringify({ id: '8', command: 'GET_BLOCK', params: { hashOrNumber: 'x' } }));
    socket.send(JSON.stringify({ id: '9', command: 'GET_ACCOUNT_INFO', params: { descriptor: 'addr1nope' } }));
    socket.send(JSON.stringify({ id: '10', command: 'GET_BLOCK', params: { hashOrNumber: 1 } }));
    await until(messages, (m) => m.length === 5);
    const byId = (id: unknown) => messages.find((m) => m.id === id);
    expect(byId(null)).toMatchObject({ type: 'error', data: { error: { message: expect.stringContaining('not JSON') } } });
    expect(byId('7')).toMatchObject({ type: 'error', data: { error: { message: expect.stringContaining('Unknown command NOPE') } } });
    expect(byId('8').data.error.message).toContain('hashOrNumber');
    expect(byId('9').data.error.message).toContain('Invalid descriptor');
    expect(byId('10')).toMatchObject({ type: 'message', data: { height: 1, hash: chain.blockAt(1)!.hash } });
    socket.close();
  });

  it('refuses upgrades without a good key, on another path, and past the plan cap; counts each message as a request', async () => {
    expect(await refusedUpgrade('/ws')).toEqual({ status: 403, body: expect.objectContaining({ message: expect.stringContaining('Missing project token') }) });
    expect((await refusedUpgrade('/ws', { project_id: 'preprod' + 'a'.repeat(32) })).status).toBe(403);
    expect((await refusedUpgrade('/cardano-mainnet/ws', { project_id: key })).body.message).toContain('Network token mismatch');
    expect((await refusedUpgrade('/elsewhere', { project_id: key })).status).toBe(404);

    const cap = plans.HOBBY.websocketConnections;
    const open = [];
    for (let i = 0; i < cap; i++) open.push(await rawSocket('/cardano-preprod/ws', { project_id: key }));
    const over = await refusedUpgrade('/ws', { project_id: key });
    expect(over.status).toBe(429);
    expect(over.body.message).toContain(`${cap} websocket connections open`);
    for (const o of open) o.socket.close();
    await Promise.all(open.map((o) => o.closed));
    const again = await rawSocket('/ws', { project_id: key });

    again.socket.send(JSON.stringify({ id: 1, command: 'GET_SERVER_INFO' }));
    await until(again.messages, (m) => m.length === 1);
    expect(again.messages[0]).toMatchObject({ id: 1, type: 'message', data: { name: 'Cardano' } });
    await gw.meter.flush();
    const counted = await app.db('usage_dimensions').where({ dimension: 'endpoint', value: 'WS GET_SERVER_INFO' }).sum({ n: 'requests' }).first();
    expect(Number(counted?.n)).toBeGreaterThanOrEqual(1);
    again.socket.close();
  });

  it("closes a deleted project's connections", async () => {
    const made = await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'gone', networkId: 6 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const other = made.body.data;
    const conn = await rawSocket('/ws', { project_id: other.project.project_id });
    const del = await client.delete(`/api/workspaces/${ws}/projects/${other.uuid}`);
    expect(del.status).toBeLessThan(300);
    expect((await conn.closed).code).toBe(4003);
  });
});
