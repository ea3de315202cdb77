// A block to hundreds of websocket subscribers on a gateway with its writer thread: from 256 block
// subscribers a network's fan-out is shared with the writer thread, which the main thread lends
// sockets' descriptors for one frame (server/features/push/writer-thread.ts). Each subscriber still
// reads every block once, in order, in frames the websocket library parses, and an address
// notification after its block, whichever thread wrote the block to it.
import { startTestGateway } from '../helpers/gateway';
import crypto from 'node:crypto';
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import type { RunningGateway } from '../../server/gateway-app';
import { createSandboxChain, type SandboxChain } from '../../server/sandbox/chain/index';
import { dbLedgerStore } from '../../server/sandbox/store';
import { SHARED_FAN_OUT_FROM } from '../../server/features/push/hub';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { keysOf, payment } from '../unit/server/sandbox/chain/tx-builder';

const app = useTestApp();
let gw: RunningGateway;
let chain: SandboxChain;
let key: string;
const BLOCK_MS = 1000;
/** Past the point where the writer thread takes a share. */
const SUBSCRIBERS = SHARED_FAN_OUT_FROM + 44;
/** Subscribers that also follow the paid address: some of them lent to the thread, some not. */
const ADDRESS_SUBSCRIBERS = 40;

interface Listener {
  socket: WebSocket;
  messages: Array<{ id: string; type: string; data: any }>;
  closed: boolean;
}

async function listen(address?: string): Promise<Listener> {
  const socket = new WebSocket(`${gw.url.replace('http', 'ws')}/ws`, { headers: { project_id: key } });
  const l: Listener = { socket, messages: [], closed: false };
  socket.on('message', (d) => l.messages.push(JSON.parse(d.toString())));
  socket.on('close', () => (l.closed = true));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ id: 'b', command: 'SUBSCRIBE_BLOCK', params: {} }));
  if (address) socket.send(JSON.stringify({ id: 'a', command: 'SUBSCRIBE_ADDRESS', params: { addresses: [address] } }));
  return l;
}

async function until(predicate: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  const client = new Client(app.url);
  await signIn(client, app.mailer, 'fan-out@example.com');
  // A plan whose connection cap and request burst hold a few hundred subscriptions of one project.
  await setSubscription(app.db, (await client.get('/api/me')).body.data.id, 'ENTERPRISE', 'active');
  const ws = (await client.get('/api/workspaces')).body.data[0].id;
  key = (await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'wallets', networkId: 6 })).body.data.project.project_id;
  const second = Math.floor(Date.now() / 1000) * 1000;
  chain = createSandboxChain({ network: 'preprod', blockIntervalMs: BLOCK_MS, genesisTime: second - 30 * BLOCK_MS, store: dbLedgerStore(app.db) });
  await chain.ready();
  gw = await startTestGateway(app, { PUSH_WRITER_THREAD: 'true', PUSH_IDLE_TIMEOUT_MS: '60000' }, undefined, { chains: { preprod: chain } });
});
afterAll(async () => {
  await gw?.close();
});

it('reaches every one of hundreds of subscribers with every block once, and an address notification after its block', async () => {
  const root = CSL.Bip32PrivateKey.from_bip39_entropy(crypto.randomBytes(32), Buffer.alloc(0)).to_public();
  const address = CSL.EnterpriseAddress.new(0, CSL.Credential.from_keyhash(root.to_raw_key().hash())).to_address().to_bech32();
  const listeners: Listener[] = [];
  for (let i = 0; i < SUBSCRIBERS; i++) listeners.push(await listen(i < ADDRESS_SUBSCRIBERS ? address : undefined));
  const subscribed = (l: Listener, i: number) => l.messages.filter((m) => m.data?.subscribed === true).length === (i < ADDRESS_SUBSCRIBERS ? 2 : 1);
  await until(() => listeners.every(subscribed));

  const [sender] = chain.devWallets();
  const input = chain.addressUtxos(sender!.address)!.find((u) => BigInt(u.amount[0]!.quantity) > 100_000_000n)!;
  const cbor = payment({ inputs: [input], to: address, lovelace: 3_000_000n, change: sender!.address, signers: [keysOf(sender!.mnemonic).payment] });
  const submitted = await fetch(`${gw.url}/api/v0/tx/submit`, { method: 'POST', headers: { project_id: key, 'Content-Type': 'application/cbor' }, body: Buffer.from(cbor) });
  expect(submitted.status, await submitted.clone().text()).toBe(200);
  const hash = (await submitted.json()) as string;

  const notified = (l: Listener) => l.messages.some((m) => m.id === 'a' && m.data?.txHash === hash);
  await until(() => listeners.slice(0, ADDRESS_SUBSCRIBERS).every(notified));
  // Two more blocks after the payment's, to every subscriber.
  const landed = listeners[0]!.messages.find((m) => m.id === 'a' && m.data?.txHash === hash)!.data.blockInfo.height as number;
  await until(() => listeners.every((l) => l.messages.some((m) => m.id === 'b' && m.type === 'message' && m.data?.height === landed + 2)));

  for (const [i, l] of listeners.entries()) {
    expect(l.closed, `subscriber ${i} was closed`).toBe(false);
    const heights = l.messages.filter((m) => m.id === 'b' && m.data?.height !== undefined).map((m) => m.data.height as number);
    // Every block from the first it heard of, once and in order.
    expect(heights, `subscriber ${i}`).toEqual(Array.from({ length: heights.length }, (_, k) => heights[0]! + k));
    expect(heights).toContain(landed + 2);
    if (i >= ADDRESS_SUBSCRIBERS) continue;
    const blockAt = l.messages.findIndex((m) => m.id === 'b' && m.data?.height === landed);
    const noteAt = l.messages.findIndex((m) => m.id === 'a' && m.data?.txHash === hash);
    expect(blockAt, `subscriber ${i} heard of the block`).toBeGreaterThanOrEqual(0);
    expect(noteAt, `subscriber ${i}: the address notification after its block`).toBeGreaterThan(blockAt);
    expect(l.messages.filter((m) => m.id === 'a' && m.data?.txHash === hash)).toHaveLength(1);
  }
  for (const l of listeners) l.socket.close();
}, 60_000);
