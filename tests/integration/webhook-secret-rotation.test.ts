import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '@blockfrost/blockfrost-js';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { makeUser } from '../helpers/workspace-fixture';
import { startReceiver, type Received } from '../helpers/receiver';
import { enqueueBlockEvent } from '../helpers/webhook-events';
import { Dispatcher } from '../../server/features/webhooks/dispatcher';
import { parseAllowlist } from '../../server/features/webhooks/ssrf';
import { createLogger } from '../../server/logger';
import { HOUR_MS } from '../../shared/time';

const app = useTestApp();
let owner: Client;
let collaborator: Client;
let ws: number;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** The dispatcher's clock: moved by hand to cross the end of an overlap. */
let now = Date.now();

const dispatcher = () =>
  new Dispatcher(app.db, createLogger('silent'), app.mailer, { allowlist: parseAllowlist('127.0.0.1'), timeoutMs: 2000, retrySchedule: [0, 5000], publicUrl: app.url, now: () => now });

/** Sends what is due once and answers the delivery the receiver got. */
async function deliver(): Promise<Received> {
  const before = receiver.received.length;
  const d = dispatcher();
  try {
    await d.runOnce();
  } finally {
    await d.stop();
  }
  expect(receiver.received.length).toBe(before + 1);
  return receiver.received[before]!;
}

/** blockfrost-js's own check, with a tolerance wide enough for the moved clock. */
const verifies = (r: Received, secret: string): boolean => {
  try {
    // It answers the parsed event when a signature matches, and throws otherwise.
    const event = verifyWebhookSignature(r.raw, r.headers['blockfrost-signature'] as string, secret, 10 * 24 * 3600) as { id?: string };
    return typeof event?.id === 'string' && event.id === (JSON.parse(r.raw) as { id: string }).id;
  } catch {
    return false;
  }
};

async function newHook(): Promise<{ id: string; auth_token: string }> {
  const res = await owner.post(`/api/workspaces/${ws}/webhooks`, { name: 'Rotating', network: 0, type: 'block', target_url: receiver.url, confirmations: 0, status: 'enabled', conditions: [] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.webhook;
}

const rotate = (id: string, overlap: unknown, client = owner) => client.post(`/api/workspaces/${ws}/webhooks/${id}/rotate-secret`, { overlap_seconds: overlap });

beforeAll(async () => {
  receiver = await startReceiver();
  await makeUser(app.db, 'rotate@example.com', 'ENTERPRISE');
  owner = new Client(app.url);
  await signIn(owner, app.mailer, 'rotate@example.com');
  ws = (await owner.get('/api/workspaces')).body.data[0].id;
  const me = await makeUser(app.db, 'rotate-collab@example.com');
  await app.db('workspace_members').insert({ workspace_id: ws, user_id: me.id, role: 'collaborator', created_at: Date.now() });
  collaborator = new Client(app.url);
  await signIn(collaborator, app.mailer, 'rotate-collab@example.com');
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(() => {
  now = Date.now();
});

describe('rotating a signing secret', () => {
  it('signs with the old and the new secret during the overlap, and with the new one only after it', async () => {
    const hook = await newHook();
    const old = hook.auth_token;
    const rotated = await rotate(hook.id, 3600);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const fresh = rotated.body.data.auth_token as string;
    expect(fresh).toMatch(/^[0-9a-f]{64}$/);
    expect(fresh).not.toBe(old);
    expect(rotated.body.data.previous_secret_expires_at).toBeGreaterThan(Date.now() + HOUR_MS - 60_000);
    expect(JSON.stringify(rotated.body)).not.toContain(old);

    await enqueueBlockEvent(app.db, hook.id, now);
    const during = await deliver();
    expect(during.headers['blockfrost-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifies(during, fresh)).toBe(true);
    expect(verifies(during, old)).toBe(true);
    expect(verifies(during, 'f'.repeat(64))).toBe(false);

    now += HOUR_MS + 1000;
    await enqueueBlockEvent(app.db, hook.id, now);
    const after = await deliver();
    expect(after.headers['blockfrost-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifies(after, fresh)).toBe(true);
    expect(verifies(after, old)).toBe(false);
  });

  it('with no overlap, stops the old secret at once, also for deliveries queued before the rotation', async () => {
    const hook = await newHook();
    await enqueueBlockEvent(app.db, hook.id, now);
    const rotated = await rotate(hook.id, 0);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.previous_secret_expires_at).toBeNull();
    const sent = await deliver();
    expect(verifies(sent, rotated.body.data.auth_token)).toBe(true);
    expect(verifies(sent, hook.auth_token)).toBe(false);
  });

  it('rotating again during an overlap keeps the two newest secrets signing', async () => {
    const hook = await newHook();
    const second = (await rotate(hook.id, 86_400)).body.data.auth_token as string;
    const third = (await rotate(hook.id, 604_800)).body.data.auth_token as string;
    await enqueueBlockEvent(app.db, hook.id, now);
    const sent = await deliver();
    expect([verifies(sent, hook.auth_token), verifies(sent, second), verifies(sent, third)]).toEqual([false, true, true]);
  });

  it('refuses an overlap not offered, and roles that may not update webhooks, changing nothing', async () => {
    const hook = await newHook();
    for (const bad of [5, -1, '3600', null, 10 ** 9]) {
      const res = await rotate(hook.id, bad);
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.error.message).toBe('overlap_seconds must be 0, 3600, 86400 or 604800.');
    }
    const denied = await rotate(hook.id, 3600, collaborator);
    expect(denied.status).toBe(403);
    const stranger = new Client(app.url);
    await signIn(stranger, app.mailer, 'rotate-stranger@example.com');
    expect((await rotate(hook.id, 3600, stranger)).status).toBe(404);
    const row = await app.db('webhooks').where({ id: hook.id }).first();
    expect(row.auth_token).toBe(hook.auth_token);
    expect(row.previous_auth_token).toBeNull();
    // Collaborators see neither secret nor the overlap's secret.
    const seen = await collaborator.get(`/api/workspaces/${ws}/webhooks/${hook.id}`);
    expect(seen.body.data.auth_token).toBeNull();
  });
});
