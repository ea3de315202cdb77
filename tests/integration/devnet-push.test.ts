// The push API (/ws) on devnet projects: a connection with a devnet key hears its own devnet's blocks
// (no other project's): those its clock makes, those a steering call makes (at once), those another
// process's steering makes; after a rollback the new tip, then the new branch's blocks; and the
// payments to an address it subscribed to. The watcher of a devnet's feed stops with its last subscriber.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { startTestGateway } from '../helpers/gateway';
import type { RunningGateway } from '../../server/gateway-app';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { devnetNetwork } from '../../shared/networks';
import type { Block } from '../../shared/chain';

const app = useTestApp();
let gw: RunningGateway;
let client: Client;
let ws: number;
const ADDRESS = 'addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs68faae';

interface Message {
  id: unknown;
  type: string;
  data: any;
}

const steer = async (key: string, method: string, sub: string, body?: unknown, via = gw) => {
  const res = await fetch(`${via.url}/cairn/v1/devnet${sub}`, { method, headers: { project_id: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const parsed = (await res.json()) as any;
  expect(res.status, JSON.stringify(parsed)).toBeLessThan(300);
  return parsed;
};
const latest = async (key: string) => (await (await fetch(`${gw.url}/api/v0/blocks/latest`, { headers: { project_id: key } })).json()) as Block;

async function devnetProject(name: string): Promise<{ key: string; projectId: number }> {
  const created = await client.post(`/api/workspaces/${ws}/projects`, { projectName: name, networkId: devnetNetwork.value });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await gw.keys.catchUp();
  const key = created.body.data.project.project_id as string;
  await steer(key, 'POST', '/pause');
  return { key, projectId: Number((await app.db('projects').where({ uuid: created.body.data.uuid }).first('id')).id) };
}

/** A websocket of a key; `send` a command and read the answer, `blocks` what block subscription id 'b' heard. */
async function connect(key: string) {
  const socket = new WebSocket(`${gw.url.replace('http', 'ws')}/${key}/ws`);
  const messages: Message[] = [];
  socket.on('message', (d) => messages.push(JSON.parse(d.toString()) as Message));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const send = async (id: string, command: string, params: Record<string, unknown> = {}) => {
    socket.send(JSON.stringify({ id, command, params }));
    await expect.poll(() => messages.some((m) => m.id === id), { timeout: 5000 }).toBe(true);
    return messages.find((m) => m.id === id)!;
  };
  const heard = (id: string) => messages.filter((m) => m.id === id).slice(1);
  return { socket, messages, send, blocks: () => heard('b').map((m) => m.data as Block), heard };
}

/** Until the watcher of a devnet's feed has looked at its chain once (it announces what comes after). */
const watching = (projectId: number) => expect.poll(() => gw.pushHub.watcher(`${devnetNetwork.slug}/${projectId}`)?.known, { timeout: 5000 }).toBeDefined();

beforeAll(async () => {
  client = new Client(app.url);
  await signIn(client, app.mailer, 'devnet-push@example.com');
  await setSubscription(app.db, (await client.get('/api/me')).body.data.id, 'DEVELOPER', 'active');
  ws = (await client.get('/api/workspaces')).body.data[0].id;
  gw = await startTestGateway(app, { PUSH_IDLE_TIMEOUT_MS: '60000' });
});
afterAll(async () => {
  await gw?.close();
});

describe('a devnet key on the push API', () => {
  it("hears its own devnet's blocks: steered ones at once, the new tip after a rollback, then the new branch", async () => {
    const a = await devnetProject('push a');
    const b = await devnetProject('push b');
    const ca = await connect(a.key);
    const cb = await connect(b.key);
    try {
      expect((await ca.send('info', 'GET_SERVER_INFO')).data).toMatchObject({ name: 'Cardano', testnet: true, blockHeight: (await latest(a.key)).height });
      expect((await ca.send('b', 'SUBSCRIBE_BLOCK')).data).toEqual({ subscribed: true });
      expect((await cb.send('b', 'SUBSCRIBE_BLOCK')).data).toEqual({ subscribed: true });
      await watching(a.projectId);
      await watching(b.projectId);
      const start = await latest(a.key);

      // One block by the steering API, then three: announced in order, at once (the chain is paused).
      await steer(a.key, 'POST', '/blocks', { count: 1 });
      await expect.poll(() => ca.blocks().length, { timeout: 3000 }).toBe(1);
      expect(ca.blocks()[0]).toEqual(await latest(a.key));
      await steer(a.key, 'POST', '/blocks', { count: 3 });
      await expect.poll(() => ca.blocks().length, { timeout: 3000 }).toBe(4);
      expect(ca.blocks().map((x) => x.height)).toEqual([1, 2, 3, 4].map((n) => start.height! + n));
      const fork = ca.blocks()[1]!;

      // Rolled back 2: the block it went back to is the tip, and is announced as such.
      await steer(a.key, 'POST', '/rollback', { blocks: 2 });
      await expect.poll(() => ca.blocks().length, { timeout: 3000 }).toBe(5);
      expect(ca.blocks()[4]).toMatchObject({ height: fork.height, hash: fork.hash, next_block: null });
      expect(ca.blocks()[4]).toEqual(await latest(a.key));
      // The new branch's next block follows the fork.
      await steer(a.key, 'POST', '/blocks', { count: 1 });
      await expect.poll(() => ca.blocks().length, { timeout: 3000 }).toBe(6);
      expect(ca.blocks()[5]).toMatchObject({ height: fork.height! + 1, previous_block: fork.hash });
      expect(ca.blocks()[5]!.hash).not.toBe(ca.blocks()[2]!.hash);

      // Another project's devnet: none of these.
      expect(cb.blocks()).toEqual([]);
    } finally {
      ca.socket.close();
      cb.socket.close();
    }
    // The last subscriber gone, the feed's watcher stops: a devnet nobody listens to costs no reads.
    await expect.poll(() => gw.pushHub.watcher(`${devnetNetwork.slug}/${a.projectId}`), { timeout: 3000 }).toBeUndefined();
  });

  it("hears the blocks its clock makes, another process's steering, and payments to a subscribed address", async () => {
    const a = await devnetProject('push c');
    const c = await connect(a.key);
    const second = await startTestGateway(app);
    try {
      await c.send('b', 'SUBSCRIBE_BLOCK');
      expect((await c.send('addr', 'SUBSCRIBE_ADDRESS', { addresses: [ADDRESS] })).data).toEqual({ subscribed: true });
      await watching(a.projectId);
      // Running, a block every 200 ms of wall time.
      await steer(a.key, 'PUT', '/interval', { ms: 200 });
      await steer(a.key, 'POST', '/resume');
      await expect.poll(() => c.blocks().length, { timeout: 5000 }).toBeGreaterThanOrEqual(3);
      await steer(a.key, 'POST', '/pause');
      const heard = c.blocks().length;
      await expect.poll(async () => c.blocks().at(-1)?.hash === (await latest(a.key)).hash, { timeout: 3000 }).toBe(true);

      // Another gateway's steering: this one sees the devnet's version move and announces the block.
      await steer(a.key, 'POST', '/blocks', { count: 1 }, second);
      await expect.poll(() => c.blocks().length, { timeout: 5000 }).toBeGreaterThan(heard);
      expect(c.blocks().at(-1)).toEqual(await latest(a.key));

      // A payment to the subscribed address, in the next block.
      const funded = await steer(a.key, 'POST', '/fund', { address: ADDRESS, lovelace: '4000000' });
      await steer(a.key, 'POST', '/blocks', { count: 1 });
      await expect.poll(() => c.heard('addr').length, { timeout: 5000 }).toBe(1);
      expect(c.heard('addr')[0]!.data).toMatchObject({ address: ADDRESS, txHash: funded.tx_hash });
    } finally {
      c.socket.close();
      await second.close();
    }
  });
});
