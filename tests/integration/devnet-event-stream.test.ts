// The event stream (GET /api/events) on a devnet project: its webhooks' failed deliveries reach the
// members' streams like any network's. A block the steering API made fires the devnet's block
// webhook; a submitted transaction's block rolled back by the steering API fires its 'tx_status'
// webhook with rolled_back; each failed delivery is a notice on the stream naming its event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { startTestGateway } from '../helpers/gateway';
import { startReceiver } from '../helpers/receiver';
import { openStream } from '../helpers/event-stream';
import type { RunningGateway } from '../../server/gateway-app';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { ChainFollower } from '../../server/features/webhooks/follower';
import { devnetCursorKey, devnetSource } from '../../server/features/webhooks/devnet-followers';
import { Dispatcher } from '../../server/features/webhooks/dispatcher';
import { parseAllowlist } from '../../server/features/webhooks/ssrf';
import { deriveWebhookNotices } from '../../server/features/webhooks/notices';
import { createLogger } from '../../server/logger';
import type { SandboxChain } from '../../server/sandbox/chain/index';
import { devnetNetwork } from '../../shared/networks';
import { keysOf, payment } from '../unit/server/sandbox/chain/tx-builder';

const app = useTestApp();
const logger = createLogger('silent');
let gw: RunningGateway;
let owner: Client;
let ws: number;
let key: string;
let uuid: string;
let projectId: number;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let follower: ChainFollower;
let dispatcher: Dispatcher;

const steer = async (method: string, sub: string, body?: unknown) => {
  const res = await fetch(`${gw.url}/cairn/v1/devnet${sub}`, { method, headers: { project_id: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const parsed = (await res.json()) as any;
  expect(res.status, JSON.stringify(parsed)).toBeLessThan(300);
  return parsed;
};
/** The follower matches the blocks made, the dispatcher tries each event once (the receiver fails it), the notices are derived. */
const deliver = async () => {
  await follower.tick();
  while ((await dispatcher.runOnce()) > 0);
  await deriveWebhookNotices(app.db);
};
const hook = async (name: string, type: string): Promise<string> => {
  const created = await owner.post(`/api/workspaces/${ws}/webhooks`, { name, description: '', network: devnetNetwork.webhookId, project: uuid, type, target_url: receiver.url, confirmations: 0, status: 'enabled', conditions: [], api_version: 1 });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.webhook.id as string;
};
/** What the receiver was sent as event `id`. */
const sent = (id: string) => receiver.received.find((r) => r.body?.id === id)?.body;

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.state.respond = () => 500;
  owner = new Client(app.url);
  await signIn(owner, app.mailer, 'devnet-stream@example.com');
  await setSubscription(app.db, (await owner.get('/api/me')).body.data.id, 'DEVELOPER', 'active');
  ws = (await owner.get('/api/workspaces')).body.data[0].id;
  const created = await owner.post(`/api/workspaces/${ws}/projects`, { projectName: 'streamed devnet', networkId: devnetNetwork.value });
  key = created.body.data.project.project_id;
  uuid = created.body.data.uuid;
  projectId = Number((await app.db('projects').where({ uuid }).first('id')).id);
  gw = await startTestGateway(app);
  await gw.keys.catchUp();
  await steer('POST', '/pause');
  const devnetId = Number((await app.db('devnets').where({ project_id: projectId }).first('id')).id);
  follower = new ChainFollower(app.db, logger, devnetSource(gw.devnets!, projectId), { network: devnetNetwork.webhookId, chain: { key: devnetCursorKey(devnetId), projectId }, trackTxs: true });
  dispatcher = new Dispatcher(app.db, logger, app.mailer, { allowlist: parseAllowlist('127.0.0.1'), timeoutMs: 2000, retrySchedule: [0, 3_600_000], publicUrl: app.url });
  // The deriver's first pass starts from now.
  await deriveWebhookNotices(app.db);
});
afterAll(async () => {
  await gw?.close();
  await receiver?.close();
});

describe('the event stream of a devnet project', () => {
  it("hears of its block webhook's failed delivery for a steered block, and of its tx_status webhook's for a rolled-back transaction", async () => {
    const blockHook = await hook('devnet blocks', 'block');
    const statusHook = await hook('devnet tx status', 'tx_status');
    await follower.tick();
    const stream = await openStream(app.url, owner);
    try {
      const produced = await steer('POST', '/blocks', { count: 1 });
      await deliver();
      const first = await stream.waitFor(2);
      expect(first.map((e) => e.event)).toEqual(['webhook.delivery_failed', 'webhook.warning']);
      expect(first[0]!.notice).toMatchObject({ kind: 'delivery_failed', webhookId: blockHook, webhookName: 'devnet blocks', workspaceId: ws, statusCode: 500 });
      expect(sent(first[0]!.notice.eventId!)).toMatchObject({ type: 'block', payload: { hash: produced.tip.hash, height: produced.tip.height } });

      // A payment from a development wallet of the devnet, submitted through the gateway, in the next block.
      const chain = (await gw.devnets!.chainOf(projectId)).chain.local as unknown as SandboxChain;
      const [dev] = chain.devWallets();
      const input = chain.addressUtxos(dev!.address)!.find((u) => BigInt(u.amount[0]!.quantity) > 100_000_000n)!;
      const cbor = payment({ inputs: [input], to: dev!.address, lovelace: 5_000_000n, change: dev!.address, signers: [keysOf(dev!.mnemonic).payment] });
      const submitted = await fetch(`${gw.url}/api/v0/tx/submit`, { method: 'POST', headers: { project_id: key, 'content-type': 'application/cbor' }, body: Buffer.from(cbor) });
      expect(submitted.status).toBe(200);
      const txHash = (await submitted.json()) as string;
      await expect.poll(async () => (await fetch(`${gw.url}/cairn/v1/txs/${txHash}/status`, { headers: { project_id: key } })).status, { timeout: 5000 }).toBe(200);
      await steer('POST', '/blocks', { count: 1 });
      await deliver();
      // The block rolled back, its transaction dropped: the tx_status webhook hears rolled_back.
      await steer('POST', '/rollback', { blocks: 1, txs: 'drop' });
      await deliver();
      await expect.poll(() => stream.events.filter((e) => e.notice.webhookId === statusHook && sent(e.notice.eventId!)?.payload.state === 'rolled_back').length, { timeout: 5000 }).toBe(1);
      const rolledBack = stream.events.find((e) => e.notice.webhookId === statusHook && sent(e.notice.eventId!)?.payload.state === 'rolled_back')!;
      expect(rolledBack.notice).toMatchObject({ kind: 'delivery_failed', webhookName: 'devnet tx status', workspaceId: ws });
      expect(sent(rolledBack.notice.eventId!)).toMatchObject({ type: 'tx_status', payload: { tx_hash: txHash, project: uuid, previous_state: 'in_block' } });
      // Pending and in a block were heard before it, each a notice too.
      const states = stream.events.filter((e) => e.notice.webhookId === statusHook && e.event === 'webhook.delivery_failed').map((e) => sent(e.notice.eventId!)?.payload.state);
      expect(states).toEqual(['pending', 'in_block', 'rolled_back']);
    } finally {
      stream.close();
    }
  });
});
