import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '@blockfrost/blockfrost-js';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { startReceiver } from '../helpers/receiver';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { createSandboxChain, type SandboxChain } from '../../server/sandbox/chain/index';
import { sandboxSource } from '../../server/features/webhooks/chain-source';
import { ChainFollower } from '../../server/features/webhooks/follower';
import { Dispatcher } from '../../server/features/webhooks/dispatcher';
import { parseAllowlist } from '../../server/features/webhooks/ssrf';
import { createLogger } from '../../server/logger';
import { webhookMessages } from '../../shared/webhooks';
import { jsonPathMessages } from '../../shared/jsonpath';
import { messages } from '../../shared/messages';
import { baseAddress } from '../../shared/cardano/address';
import { assetFingerprint, poolBech32 } from '../../shared/cardano/fingerprint';

const app = useTestApp();
let owner: { client: Client; id: number; ws: number };
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let clock = Date.UTC(2026, 10, 1);
let chain: SandboxChain;

const logger = createLogger('silent');
const base = (over: Record<string, unknown> = {}) => ({
  name: 'My hook',
  description: 'for tests',
  network: 0,
  type: 'block',
  target_url: receiver.url,
  confirmations: 0,
  status: 'enabled',
  conditions: [],
  api_version: 1,
  ...over,
});

beforeAll(async () => {
  receiver = await startReceiver();
  owner = { client: new Client(app.url), id: 0, ws: 0 };
  await signIn(owner.client, app.mailer, 'hooks@example.com');
  owner.id = (await owner.client.get('/api/me')).body.data.id;
  owner.ws = (await owner.client.get('/api/workspaces')).body.data[0].id;
  await setSubscription(app.db, owner.id, 'DEVELOPER', 'active');
  chain = createSandboxChain({ network: 'mainnet', now: () => clock });
});
afterAll(async () => {
  await receiver.close();
});

describe('webhook API', () => {
  it('creates a webhook with the spec fields and an auth token', async () => {
    const res = await owner.client.post(`/api/workspaces/${owner.ws}/webhooks`, base({ conditions: [{ type: 'txCount', operator: '>=', value: '1' }] }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const w = res.body.data.webhook;
    expect(w).toEqual({
      id: res.body.data.id,
      name: 'My hook',
      description: 'for tests',
      network: 0,
      project: null,
      type: 'block',
      target_url: receiver.url,
      confirmations: 0,
      status: 'enabled',
      conditions: [{ type: 'txCount', operator: '>=', value: '1' }],
      auth_token: expect.stringMatching(/^[0-9a-f]{64}$/),
      workspace_id: owner.ws,
      workspace_name: 'My Workspace',
      role_name: 'owner',
      api_version: 1,
      fail_history: [],
      disabled_reason: null,
      previous_secret_expires_at: null,
    });
    const list = (await owner.client.get(`/api/workspaces/${owner.ws}/webhooks`)).body.data;
    expect(list.map((x: { id: string }) => x.id)).toContain(w.id);
    await owner.client.delete(`/api/workspaces/${owner.ws}/webhooks/${w.id}`);
  });

  it.each([
    [{ name: '' }, webhookMessages.required],
    [{ target_url: 'not a url' }, webhookMessages.invalidUrl],
    [{ target_url: 'example.com/hook' }, webhookMessages.invalidUrl],
    [{ target_url: 'ftp://example.com' }, webhookMessages.invalidUrl],
    [{ confirmations: 6 }, webhookMessages.confirmations],
    [{ confirmations: -1 }, webhookMessages.confirmations],
    [{ network: 1 }, webhookMessages.unsupportedNetwork],
    [{ network: 2 + 40 }, webhookMessages.unsupportedNetwork],
    [{ conditions: [{ type: 'txCount', operator: '>', value: '' }] }, webhookMessages.required],
    [{ conditions: [{ type: 'jsonPath', operator: '=', value: 'x' }] }, webhookMessages.required],
    [{ conditions: [{ type: 'recipient', operator: '=', value: 'addr1' }] }, 'A block webhook has no recipient condition.'],
    [{ type: 'epoch', conditions: [{ type: 'recipient', operator: '=', value: 'addr1' }] }, 'An epoch webhook has no recipient condition.'],
    [{ conditions: [{ type: 'poolId', operator: '>', value: 'pool1' }] }, 'The poolId condition takes =, !=.'],
    [{ conditions: Array(6).fill({ type: 'txCount', operator: '>', value: '1' }) }, webhookMessages.tooManyConditions],
    [{ type: 'transaction', conditions: [{ type: 'jsonPath', operator: '=', value: '1', selector: '$..*..*..*' }] }, jsonPathMessages.bigBudget],
    [{ type: 'transaction', conditions: [{ type: 'jsonPath', operator: '=', value: '1', selector: '$.outputs[(@.length-1)].address' }] }, jsonPathMessages.script],
  ])('refuses %j with its message and stores nothing', async (over, message) => {
    const before = await app.db('webhooks').count({ n: '*' });
    const res = await owner.client.post(`/api/workspaces/${owner.ws}/webhooks`, base(over));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(message);
    expect(await app.db('webhooks').count({ n: '*' })).toEqual(before);
  });

  it('takes a JSONPath filter expression', async () => {
    const res = await owner.client.post(
      `/api/workspaces/${owner.ws}/webhooks`,
      base({ type: 'transaction', conditions: [{ type: 'jsonPath', operator: '>', value: '1000000', selector: '$.outputs[?(@.amount[0].quantity > 5)].amount[0].quantity' }] }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await owner.client.delete(`/api/workspaces/${owner.ws}/webhooks/${res.body.data.id}`);
  });

  describe('condition values', () => {
    const POLICY = 'b0d07d45fe9514f80213f4020e5a61241458be626841cde717cb38a7';
    const MAINNET_ADDR = 'addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x';
    const STAKE = 'stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw';
    const TEST_ADDR = baseAddress('preprod', new Uint8Array(28).fill(1), new Uint8Array(28).fill(2));
    const tx = (type: string, value: string, network = 0) => base({ type: 'transaction', network, conditions: [{ type, operator: '=', value }] });
    const block = (value: string) => base({ conditions: [{ type: 'poolId', operator: '=', value }] });

    it.each([
      ['recipient 0', () => tx('recipient', '0')],
      ['policyId zzz', () => tx('policyId', 'zzz')],
      ['policyId of 55 hex', () => tx('policyId', POLICY.slice(1))],
      ['a test network address on mainnet', () => tx('recipient', TEST_ADDR)],
      ['a mainnet address on preprod', () => tx('sender', MAINNET_ADDR, 3)],
      ['an address with a bad checksum', () => tx('recipient', MAINNET_ADDR.slice(0, -1) + 'y')],
      ['a stake address with a bad checksum', () => tx('recipient', STAKE.slice(0, -1) + 'q')],
      ['assetHex of odd length', () => tx('assetHex', POLICY + 'abc')],
      ['a fingerprint that is not bech32', () => tx('fingerprint', 'asset1' + 'b'.repeat(38))],
      ['a pool id that is neither', () => block('pool1xyz')],
      ['a pool id with a bad checksum', () => block(poolBech32(new Uint8Array(28).fill(7)).slice(0, -1) + 'q')],
    ])('refuses %s with 400 and stores nothing', async (_what, body) => {
      const before = await app.db('webhooks').count({ n: '*' });
      const res = await owner.client.post(`/api/workspaces/${owner.ws}/webhooks`, body());
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.details[0].path).toBe('conditions.0.value');
      expect(await app.db('webhooks').count({ n: '*' })).toEqual(before);
    });

    it('accepts well-formed values of the right network, and stores hex in lower case', async () => {
      const res = await owner.client.post(
        `/api/workspaces/${owner.ws}/webhooks`,
        base({
          type: 'transaction',
          conditions: [
            { type: 'recipient', operator: '=', value: MAINNET_ADDR },
            { type: 'sender', operator: '!=', value: STAKE },
            { type: 'policyId', operator: '=', value: POLICY.toUpperCase() },
            { type: 'assetHex', operator: '=', value: POLICY + '4d494e' },
            { type: 'fingerprint', operator: '=', value: assetFingerprint(POLICY, '4d494e') },
          ],
        }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data.webhook.conditions[2].value).toBe(POLICY);
      const preprod = await owner.client.post(`/api/workspaces/${owner.ws}/webhooks`, tx('recipient', TEST_ADDR, 3));
      expect(preprod.status, JSON.stringify(preprod.body)).toBe(201);
      const pool = await owner.client.post(`/api/workspaces/${owner.ws}/webhooks`, block(poolBech32(new Uint8Array(28).fill(7))));
      expect(pool.status, JSON.stringify(pool.body)).toBe(201);
      for (const id of [res.body.data.id, preprod.body.data.id, pool.body.data.id]) await owner.client.delete(`/api/workspaces/${owner.ws}/webhooks/${id}`);
    });
  });

  it('enforces the pooled webhookCount', async () => {
    await setSubscription(app.db, owner.id, 'STARTER', 'active');
    try {
      const first = await owner.client.post(`/api/workspaces/${owner.ws}/webhooks`, base());
      expect(first.status).toBe(201);
      const second = await owner.client.post(`/api/workspaces/${owner.ws}/webhooks`, base());
      expect(second.status).toBe(422);
      expect(second.body.error.details).toMatchObject({ limit: 'webhookCount', max: 1 });
      expect((await owner.client.get(`/api/workspaces/${owner.ws}/quota`)).body.data.used.subscription.webhookCount).toBe(1);
      await owner.client.delete(`/api/workspaces/${owner.ws}/webhooks/${first.body.data.id}`);
    } finally {
      await setSubscription(app.db, owner.id, 'DEVELOPER', 'active');
    }
  });

  it('lets only roles that may change projects change webhooks, and hides them from strangers', async () => {
    const w = (await owner.client.post(`/api/workspaces/${owner.ws}/webhooks`, base())).body.data.webhook;
    const collab = new Client(app.url);
    await signIn(collab, app.mailer, 'hook-collab@example.com');
    const cid = (await collab.get('/api/me')).body.data.id;
    await app.db('workspace_members').insert({ workspace_id: owner.ws, user_id: cid, role: 'collaborator', created_at: Date.now() });
    expect((await collab.get(`/api/workspaces/${owner.ws}/webhooks/${w.id}`)).body.data.role_name).toBe('collaborator');
    const denied = await collab.post(`/api/workspaces/${owner.ws}/webhooks`, base());
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe(messages.permission.createResource('webhook'));
    expect((await collab.put(`/api/workspaces/${owner.ws}/webhooks/${w.id}`, base())).status).toBe(403);
    expect((await collab.delete(`/api/workspaces/${owner.ws}/webhooks/${w.id}`)).status).toBe(403);
    await app.db('workspace_members').where({ user_id: cid, workspace_id: owner.ws }).update({ role: 'maintainer' });
    expect((await collab.put(`/api/workspaces/${owner.ws}/webhooks/${w.id}`, base({ name: 'Renamed' }))).body.data.name).toBe('Renamed');

    const stranger = new Client(app.url);
    await signIn(stranger, app.mailer, 'hook-stranger@example.com');
    const sws = (await stranger.get('/api/workspaces')).body.data[0].id;
    expect((await stranger.get(`/api/workspaces/${owner.ws}/webhooks/${w.id}`)).status).toBe(404);
    expect((await stranger.get(`/api/workspaces/${sws}/webhooks/${w.id}`)).status).toBe(404);
    expect((await stranger.delete(`/api/workspaces/${sws}/webhooks/${w.id}`)).status).toBe(404);
    await owner.client.delete(`/api/workspaces/${owner.ws}/webhooks/${w.id}`);
  });

  it('answers a real sample payload for each trigger', async () => {
    for (const type of ['transaction', 'block', 'delegation', 'epoch']) {
      const res = await owner.client.get(`/api/webhooks/sample?type=${type}&network=0`);
      expect(res.status, type).toBe(200);
      expect(res.body.data).toBeTruthy();
    }
    expect((await owner.client.get('/api/webhooks/sample?type=block&network=1')).status).toBe(400);
  });

  it('limits sample requests per user', async () => {
    const sampler = new Client(app.url);
    await signIn(sampler, app.mailer, 'sampler@example.com');
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await sampler.get('/api/webhooks/sample?type=block&network=0')).status);
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    const refused = await sampler.get('/api/webhooks/sample?type=block&network=0');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe('Too many sample requests. Please wait a minute and try again.');
    // Another user is not affected.
    expect((await owner.client.get('/api/webhooks/sample?type=block&network=0')).status).toBe(200);
  });
});

describe('following the chain and delivering', () => {
  it('matches blocks, writes the outbox, and delivers signed events the SDK verifies, for every trigger', async () => {
    const hooks: Record<string, { id: string; auth_token: string }> = {};
    for (const type of ['transaction', 'block', 'delegation', 'epoch']) {
      const res = await owner.client.post(`/api/workspaces/${owner.ws}/webhooks`, base({ type, name: type }));
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      hooks[type] = res.body.data.webhook;
    }
    const follower = new ChainFollower(app.db, logger, sandboxSource(chain), { network: 0, maxBlocksPerTick: 500 });
    await follower.tick(); // places the cursors at the tip
    // Move forward to just past the next epoch switch.
    const tip = chain.tipHeight();
    const perEpoch = chain.params.blocksPerEpoch;
    const blocksToSwitch = perEpoch - (tip % perEpoch) + 2;
    clock += blocksToSwitch * chain.params.blockIntervalMs;
    await follower.tick();
    const cursor = await app.db('chain_cursors').where({ network: 0, confirmations: 0 }).first();
    expect(Number(cursor.height)).toBe(chain.tipHeight());

    const dispatcher = new Dispatcher(app.db, logger, app.mailer, { allowlist: parseAllowlist('127.0.0.1'), timeoutMs: 2000, retrySchedule: [0, 100], publicUrl: app.url });
    while ((await dispatcher.runOnce()) > 0);
    const byType = new Map<string, any[]>();
    for (const r of receiver.received) {
      const list = byType.get(r.body.type) ?? [];
      list.push(r);
      byType.set(r.body.type, list);
    }
    for (const type of ['transaction', 'block', 'delegation', 'epoch']) {
      const got = byType.get(type) ?? [];
      expect(got.length, type).toBeGreaterThan(0);
      for (const r of got) {
        const event = verifyWebhookSignature(r.raw, r.headers['blockfrost-signature'] as string, hooks[type]!.auth_token);
        expect(event).toMatchObject({ webhook_id: hooks[type]!.id, api_version: 1, type });
        expect(r.headers['blockfrost-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      }
    }
    expect(byType.get('block')).toHaveLength(blocksToSwitch);
    expect(byType.get('epoch')).toHaveLength(1);
    const epoch = byType.get('epoch')![0]!.body.payload;
    expect(epoch.current_epoch.epoch).toBe(epoch.previous_epoch.epoch + 1);
    const tx = byType.get('transaction')![0]!.body.payload[0];
    expect(Object.keys(tx).sort()).toEqual(['inputs', 'outputs', 'tx']);
    const delegation = byType.get('delegation')![0]!.body.payload[0];
    expect(delegation.delegations[0].pool.pool_id).toMatch(/^pool1/);
    // A wrong secret does not verify.
    const any = receiver.received[0]!;
    expect(() => verifyWebhookSignature(any.raw, any.headers['blockfrost-signature'] as string, 'wrong-secret')).toThrow();

    const events = await owner.client.get(`/api/workspaces/${owner.ws}/webhooks/${hooks.block!.id}/events`);
    expect(events.body.data.total).toBe(blocksToSwitch);
    expect(events.body.data.events[0]).toMatchObject({ status: 'delivered', attempts: [{ status_code: 200, success: true, response_excerpt: 'ok thanks' }] });
    for (const type of Object.keys(hooks)) await owner.client.delete(`/api/workspaces/${owner.ws}/webhooks/${hooks[type]!.id}`);
    receiver.received.length = 0;
  });
});
