// GET /api/events: webhook notices derived from what the real dispatcher writes, heard by members only,
// resumable with Last-Event-ID.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { startReceiver } from '../helpers/receiver';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { Dispatcher } from '../../server/features/webhooks/dispatcher';
import { AUTO_DISABLE_AFTER_MS } from '../../shared/webhooks';
import { parseAllowlist } from '../../server/features/webhooks/ssrf';
import { enqueueBlockEvent } from '../helpers/webhook-events';
import { createLogger } from '../../server/logger';
import { deriveWebhookNotices } from '../../server/features/webhooks/notices';
import { SESSION_COOKIE } from '../../server/features/accounts/auth-routes';
import { openStream } from '../helpers/event-stream';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let owner: Client;
let member: Client;
let stranger: Client;
let workspaceId: number;
let now = Date.now();
const logger = createLogger('silent');

beforeAll(async () => {
  receiver = await startReceiver();
  receiver.state.respond = () => 500;
});
afterAll(async () => {
  await receiver?.close();
});
const app = useTestApp();

/**
 * Counts, from now on, the polls of the event streams of `client`'s session: each poll begins by
 * asking whether its session is still alive (sessionAlive, a query of sessions' sid alone, which the
 * session store never makes). Two polls begun means the first has ended, so a stream that was going to
 * hear an event that existed before the count started has heard it.
 */
function countPolls(client: Client) {
  const signed = decodeURIComponent(client.cookies.get(SESSION_COOKIE)!); // s:<sid>.<signature>
  const sid = signed.slice(2, signed.lastIndexOf('.'));
  let polls = 0;
  const onQuery = (q: { sql: string; bindings?: unknown[] }) => {
    if (/^select [`"]sid[`"] from [`"]sessions[`"]/.test(q.sql) && q.bindings?.includes(sid)) polls++;
  };
  app.db.on('query', onQuery);
  return {
    async atLeast(n: number) {
      try {
        await expect.poll(() => polls, { timeout: 5000, interval: 20 }).toBeGreaterThanOrEqual(n);
      } finally {
        app.db.off('query', onQuery);
      }
    },
  };
}

const dispatcher = () =>
  new Dispatcher(app.db, logger, app.mailer, { allowlist: parseAllowlist('127.0.0.1'), timeoutMs: 1000, retrySchedule: [0, 5000, 300_000], publicUrl: app.url, now: () => now });

const enqueue = (webhookId: string) => enqueueBlockEvent(app.db, webhookId, now);

beforeAll(async () => {
  owner = new Client(app.url);
  member = new Client(app.url);
  stranger = new Client(app.url);
  await signIn(owner, app.mailer, 'stream-owner@example.com');
  await signIn(member, app.mailer, 'stream-member@example.com');
  await signIn(stranger, app.mailer, 'stream-stranger@example.com');
  const ownerId = (await owner.get('/api/me')).body.data.id;
  const memberId = (await member.get('/api/me')).body.data.id;
  await setSubscription(app.db, ownerId, 'ENTERPRISE', 'active');
  workspaceId = (await owner.get('/api/workspaces')).body.data[0].id;
  // The least role there is: collaborators may view webhooks in the permission matrix.
  await app.db('workspace_members').insert({ workspace_id: workspaceId, user_id: memberId, role: 'collaborator', created_at: Date.now() });
  // The deriver's first pass starts from now.
  await deriveWebhookNotices(app.db);
});

describe('GET /api/events', () => {
  it('announces a failed delivery, the 48-hour warning once, and the disabling after 5 days, to members only; resumable', async () => {
    const created = await owner.post(`/api/workspaces/${workspaceId}/webhooks`, {
      name: 'Flaky endpoint',
      network: 0,
      type: 'block',
      target_url: receiver.url,
      confirmations: 0,
      status: 'enabled',
      conditions: [],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const webhookId = created.body.data.id as string;

    const ownerStream = await openStream(app.url, owner);
    const memberStream = await openStream(app.url, member);
    const strangerStream = await openStream(app.url, stranger);
    expect(ownerStream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);

    // First failure: a failed delivery and the warning state.
    const eventId = await enqueue(webhookId);
    expect(await dispatcher().runOnce()).toBe(1);
    await deriveWebhookNotices(app.db);
    const first = await memberStream.waitFor(2);
    expect(first.map((e) => e.event)).toEqual(['webhook.delivery_failed', 'webhook.warning']);
    expect(first[0]!.notice).toEqual({
      id: Number(first[0]!.id),
      kind: 'delivery_failed',
      webhookId,
      webhookName: 'Flaky endpoint',
      workspaceId,
      at: now,
      eventId,
      statusCode: 500,
      error: null,
    });

    // A second failure within 48 hours: a failed delivery, no second warning. Deriving again adds nothing.
    now += 3600_000;
    await dispatcher().runOnce();
    await deriveWebhookNotices(app.db);
    await deriveWebhookNotices(app.db);
    const second = await ownerStream.waitFor(3);
    expect(second.map((e) => e.event)).toEqual(['webhook.delivery_failed', 'webhook.warning', 'webhook.delivery_failed']);

    // Five days of failures: the dispatcher disables the webhook, the stream says so. The failure before it had
    // no other in the 48 hours before it, so the webhook entered the warning state again too.
    now += AUTO_DISABLE_AFTER_MS;
    await dispatcher().runOnce();
    expect((await app.db('webhooks').where({ id: webhookId }).first()).status).toBe('disabled');
    await deriveWebhookNotices(app.db);
    const all = await ownerStream.waitFor(6);
    expect(all.map((e) => e.event)).toEqual([
      'webhook.delivery_failed',
      'webhook.warning',
      'webhook.delivery_failed',
      'webhook.delivery_failed',
      'webhook.warning',
      'webhook.disabled',
    ]);
    expect(all[5]!.notice).toMatchObject({ kind: 'disabled', webhookId, webhookName: 'Flaky endpoint' });
    await memberStream.waitFor(6);
    expect(memberStream.events.map((e) => e.id)).toEqual(all.map((e) => e.id));

    // Someone outside the workspace hears nothing at all.
    await countPolls(stranger).atLeast(2);
    expect(strangerStream.res.status).toBe(200);
    expect(strangerStream.events).toEqual([]);

    // Resuming after the second event replays exactly what came after it.
    const resumed = await openStream(app.url, member, all[1]!.id);
    await resumed.waitFor(4);
    expect(resumed.events.map((e) => e.id)).toEqual(all.slice(2).map((e) => e.id));
    // Even resumed from the start, the stranger gets none of them.
    // (In a session of its own, so its polls are told apart from those of the stream above.)
    const strangerAgain = new Client(app.url);
    await signIn(strangerAgain, app.mailer, 'stream-stranger@example.com');
    const resumedPolls = countPolls(strangerAgain);
    const strangerResumed = await openStream(app.url, strangerAgain, '0');
    await resumedPolls.atLeast(2);
    expect(strangerResumed.events).toEqual([]);

    for (const s of [ownerStream, memberStream, strangerStream, resumed, strangerResumed]) s.close();
  });

  it('stops a member who left the workspace hearing at once, and ends the stream on sign-out', async () => {
    const memberStream = await openStream(app.url, member, '0');
    await memberStream.waitFor(6);
    const memberId = (await member.get('/api/me')).body.data.id;
    await app.db('workspace_members').where({ workspace_id: workspaceId, user_id: memberId }).delete();
    const webhookId = (await app.db('webhooks').where({ workspace_id: workspaceId }).first('id')).id as string;
    await app.db('webhooks').where({ id: webhookId }).update({ status: 'enabled', failing_since: null });
    await enqueue(webhookId);
    await dispatcher().runOnce();
    await deriveWebhookNotices(app.db);
    const memberPolls = countPolls(member);
    const ownerStream = await openStream(app.url, owner, memberStream.events[5]!.id);
    await ownerStream.waitFor(1);
    await memberPolls.atLeast(2);
    expect(memberStream.events).toHaveLength(6);

    const out = await owner.post('/auth/signout', {});
    expect(out.status).toBe(200);
    // The server ends the stream of a session that ended.
    await expect.poll(() => ownerStream.state.ended, { timeout: 3000 }).toBe(true);
    expect(memberStream.state.ended).toBe(false);
    memberStream.close();
    ownerStream.close();
  });

  it("answers an event of the delivery history with its payload to members, 404 to anyone else (the sandbox's loader)", async () => {
    // The owner signed out in the test before: a fresh client signs in again.
    owner = new Client(app.url);
    await signIn(owner, app.mailer, 'stream-owner@example.com');
    const webhookId = (await app.db('webhooks').where({ workspace_id: workspaceId }).first('id')).id as string;
    const eventId = await enqueue(webhookId);
    const path = `/api/workspaces/${workspaceId}/webhooks/${webhookId}/events/${eventId}`;
    const mine = await owner.get(path);
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual({ id: eventId, type: 'block', created: expect.any(Number), payload: { hash: 'ab'.repeat(32) } });
    const theirs = await stranger.get(path);
    expect(theirs.status).toBe(404);
    const missing = await owner.get(`/api/workspaces/${workspaceId}/webhooks/${webhookId}/events/${crypto.randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Event not found.');
  });

  it('answers 401 when signed out and 400 for a Last-Event-ID that is not one of its ids', async () => {
    const anonymous = await fetch(`${app.url}/api/events`);
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.code).toBe('unauthorized');
    const bad = await openStream(app.url, stranger, 'abc');
    expect(bad.res.status).toBe(400);
    expect((await bad.res.json()).error.message).toBe('Last-Event-ID must be an event id from this stream.');
  });
});
