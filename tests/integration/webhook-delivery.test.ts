import { execFileSync } from 'node:child_process';
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { startReceiver } from '../helpers/receiver';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { deliveryAgent, Dispatcher, post } from '../../server/features/webhooks/dispatcher';
import { parseAllowlist } from '../../server/features/webhooks/ssrf';
import { enqueueBlockEvent } from '../helpers/webhook-events';
import { cancelRolledBack, claim, enqueue as enqueueEvents, insertEvents, OUTBOX_RETENTION, prepareEvents, pruneOutbox, targetsOf } from '../../server/features/webhooks/outbox';
import { testEngine } from '../helpers/db-template';
import { createLogger } from '../../server/logger';
import { AUTO_DISABLE_AFTER_MS, webhookDisplayState } from '../../shared/webhooks';
import { DAY_MS } from '../../shared/time';

const app = useTestApp();
let owner: { client: Client; id: number; ws: number; email: string };
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const logger = createLogger('silent');
let now = Date.now();

const dispatcher = (over: Partial<ConstructorParameters<typeof Dispatcher>[3]> = {}) =>
  new Dispatcher(app.db, logger, app.mailer, {
    allowlist: parseAllowlist('127.0.0.1'),
    timeoutMs: 1000,
    retrySchedule: [0, 5000, 300_000],
    publicUrl: app.url,
    now: () => now,
    ...over,
  });

async function webhook(target = receiver.url) {
  const res = await owner.client.post(`/api/workspaces/${owner.ws}/webhooks`, {
    name: 'delivery',
    network: 0,
    type: 'block',
    target_url: target,
    confirmations: 0,
    status: 'enabled',
    conditions: [],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.webhook as { id: string; auth_token: string };
}

const enqueue = (webhookId: string) => enqueueBlockEvent(app.db, webhookId, now);

const event = (id: string) => app.db('webhook_events').where({ id }).first();

beforeAll(async () => {
  receiver = await startReceiver();
  owner = { client: new Client(app.url), id: 0, ws: 0, email: 'delivery@example.com' };
  await signIn(owner.client, app.mailer, owner.email);
  owner.id = (await owner.client.get('/api/me')).body.data.id;
  owner.ws = (await owner.client.get('/api/workspaces')).body.data[0].id;
  await setSubscription(app.db, owner.id, 'ENTERPRISE', 'active');
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(async () => {
  receiver.received.length = 0;
  receiver.state.respond = () => 200;
  now = Date.now();
  await app.db('webhooks').delete();
});

describe('delivery', () => {
  it("sends the events its follower hands off, claimed at their write, without claiming them, and lets the lanes have them only when the lease runs out", async () => {
    const w = await webhook();
    const d = dispatcher();
    const capacity = d.handOffCapacity();
    expect(capacity.count).toBe(256);
    const { ids, claimed } = await app.db.transaction((trx) =>
      enqueueEvents(trx, [1, 2, 3].map((height) => ({ webhookId: w.id, type: 'block' as const, network: 0, blockHeight: height, blockHash: 'ef'.repeat(32), payload: { height } })), now, { count: 2, leaseMs: capacity.leaseMs }),
    );
    expect(claimed.map((e) => e.id)).toEqual(ids.slice(0, 2));
    // Written claimed: a lane's claim takes only the third.
    expect((await claim(app.db, 100, 1000, now)).map((e) => e.id).filter((id) => ids.includes(id))).toEqual([ids[2]]);
    const second = await app.db.transaction((trx) => enqueueEvents(trx, [{ webhookId: w.id, type: 'block' as const, network: 0, blockHeight: 4, blockHash: 'ee'.repeat(32), payload: { height: 4 } }], now, { count: 1, leaseMs: capacity.leaseMs }));
    ids.push(...second.ids);
    d.handOff(claimed);
    // Two hand-offs at a time (a follower's poll often finds two blocks): the write after that leaves its events to the lanes.
    expect(d.handOffCapacity().count).toBe(256);
    d.handOff(second.claimed);
    expect(d.handOffCapacity().count).toBe(0);
    await vi.waitFor(() => expect(receiver.received.map((r) => r.body.id).sort()).toEqual([ids[0]!, ids[1]!, ids[3]!].sort()), { timeout: 5000, interval: 20 });
    await vi.waitFor(async () => expect((await event(ids[0]!)).status).toBe('delivered'), { timeout: 5000, interval: 20 });
    expect((await event(ids[1]!)).status).toBe('delivered');
    expect(Number((await app.db('webhook_attempts').whereIn('event_id', ids.slice(0, 2)).count({ n: '*' }))[0]!.n)).toBe(2);
    await vi.waitFor(() => expect(d.handOffCapacity().count).toBe(256), { timeout: 5000, interval: 20 });
    await d.stop();
    // A stopped dispatcher takes no hand-off.
    expect(d.handOffCapacity().count).toBe(0);
  });

  it('sends a hand-off before its write commits, records its attempts once it has, and records nothing of a write that did not', async () => {
    const w = await webhook();
    const d = dispatcher();
    const capacity = d.handOffCapacity();
    const events = (height: number) => [{ webhookId: w.id, type: 'block' as const, network: 0, blockHeight: height, blockHash: 'cd'.repeat(32), payload: { height } }];
    const write = (height: number) => prepareEvents(events(height), now, { count: 1, leaseMs: capacity.leaseMs });
    const deferred = () => {
      let settle!: (committed: boolean) => void;
      return { promise: new Promise<boolean>((resolve) => (settle = resolve)), settle: (c: boolean) => settle(c) };
    };
    // Committed: sent while the write was open, recorded after it committed.
    const a = write(1);
    const aCommit = deferred();
    d.handOff(a.claimed, targetsOf(app.db, [w.id]), aCommit.promise);
    await vi.waitFor(() => expect(receiver.received.map((r) => r.body.id)).toContain(a.rows[0]!.id), { timeout: 5000, interval: 20 });
    await insertEvents(app.db, a);
    aCommit.settle(true);
    await vi.waitFor(async () => expect((await event(a.rows[0]!.id)).status).toBe('delivered'), { timeout: 5000, interval: 20 });
    // Not committed (the follower's transaction failed): sent, and nothing is recorded of an event that is not in the outbox.
    const b = write(2);
    const bCommit = deferred();
    d.handOff(b.claimed, targetsOf(app.db, [w.id]), bCommit.promise);
    await vi.waitFor(() => expect(receiver.received.map((r) => r.body.id)).toContain(b.rows[0]!.id), { timeout: 5000, interval: 20 });
    bCommit.settle(false);
    await vi.waitFor(() => expect(d.handOffCapacity().count).toBe(256), { timeout: 5000, interval: 20 });
    expect(await event(b.rows[0]!.id)).toBeUndefined();
    expect(Number((await app.db('webhook_attempts').where({ event_id: b.rows[0]!.id }).count({ n: '*' }))[0]!.n)).toBe(0);
    await d.stop();
  });

  it('gives a hand-off that arrives while it stops back to the outbox, and a crashed worker\'s hand-off is claimed again once its lease runs out', async () => {
    const w = await webhook();
    const d = dispatcher();
    const { ids, claimed } = await app.db.transaction((trx) =>
      enqueueEvents(trx, [1, 2].map((height) => ({ webhookId: w.id, type: 'block' as const, network: 0, blockHeight: height, blockHash: 'fa'.repeat(32), payload: { height } })), now, { count: 2, leaseMs: 60_000 }),
    );
    const stopping = d.stop();
    d.handOff(claimed.slice(0, 1));
    await stopping;
    await vi.waitFor(async () => expect((await event(ids[0]!)).claimed_until).toBeNull(), { timeout: 5000, interval: 20 });
    expect(receiver.received).toHaveLength(0);
    // The second was never handed to anyone (its worker died): no lane takes it within the lease, any lane after it.
    const mine = (claimed: Array<{ id: string }>) => claimed.map((e) => e.id).filter((id) => ids.includes(id));
    expect(mine(await claim(app.db, 100, 120_000, now))).toEqual([ids[0]]);
    expect(mine(await claim(app.db, 100, 1000, now + 60_001))).toEqual([ids[1]]);
  });

  it('retries on the contract statuses with the same event id, on the backoff schedule', async () => {
    const w = await webhook();
    const id = await enqueue(w.id);
    let calls = 0;
    receiver.state.respond = () => (++calls === 1 ? 503 : 200);
    const d = dispatcher();
    expect(await d.runOnce()).toBe(1);
    expect(await event(id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(Number((await event(id)).next_attempt_at)).toBe(now + 5000);
    expect(await d.runOnce()).toBe(0); // not due yet
    now += 5000;
    expect(await d.runOnce()).toBe(1);
    expect(await event(id)).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(receiver.received.map((r) => r.body.id)).toEqual([id, id]);
    const history = (await owner.client.get(`/api/workspaces/${owner.ws}/webhooks/${w.id}/events`)).body.data.events[0];
    expect(history.attempts.map((a: { status_code: number; success: boolean }) => [a.status_code, a.success])).toEqual([
      [503, false],
      [200, true],
    ]);
    // It succeeded in the end, so the dashboard shows no failure.
    const dto = (await owner.client.get(`/api/workspaces/${owner.ws}/webhooks/${w.id}`)).body.data;
    expect(dto.fail_history).toEqual([{ fired_at: expect.any(Number), success: true }]);
    expect(webhookDisplayState(dto)).toBe('enabled');
  });

  it('fails at once on a status outside the retry list, and gives up after the schedule', async () => {
    const w = await webhook();
    const once = await enqueue(w.id);
    receiver.state.respond = () => 404;
    await dispatcher().runOnce();
    expect(await event(once)).toMatchObject({ status: 'failed', attempts: 1 });

    const retried = await enqueue(w.id);
    receiver.state.respond = () => 500;
    const d = dispatcher();
    for (const step of [0, 5000, 300_000]) {
      now += step;
      await d.runOnce();
    }
    expect(await event(retried)).toMatchObject({ status: 'failed', attempts: 3 });
    const dto = (await owner.client.get(`/api/workspaces/${owner.ws}/webhooks/${w.id}`)).body.data;
    expect(dto.fail_history.some((f: { success: boolean }) => !f.success)).toBe(true);
    expect(webhookDisplayState(dto, now)).toBe('enabled-warning');
  });

  it('treats a timeout as retryable', async () => {
    const w = await webhook();
    const id = await enqueue(w.id);
    receiver.state.respond = () => 'hang';
    await dispatcher({ timeoutMs: 300 }).runOnce();
    const e = await event(id);
    expect(e).toMatchObject({ status: 'pending', attempts: 1 });
    const attempt = await app.db('webhook_attempts').where({ event_id: id }).first();
    expect(attempt.error).toMatch(/No answer within/);
  });

  it('does not follow redirects', async () => {
    const redirector = http.createServer((_req, res) => res.writeHead(302, { location: receiver.url }).end());
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    try {
      const w = await webhook(`http://127.0.0.1:${(redirector.address() as AddressInfo).port}/moved`);
      const id = await enqueue(w.id);
      await dispatcher().runOnce();
      expect(await event(id)).toMatchObject({ status: 'failed' });
      expect(receiver.received).toHaveLength(0);
    } finally {
      redirector.close();
    }
  });

  it('resends an event with the same id, and sends a test event', async () => {
    const w = await webhook();
    const id = await enqueue(w.id);
    const d = dispatcher();
    await d.runOnce();
    const resend = await owner.client.post(`/api/workspaces/${owner.ws}/webhooks/${w.id}/events/${id}/resend`);
    expect(resend.status).toBe(200);
    expect((await owner.client.post(`/api/workspaces/${owner.ws}/webhooks/${w.id}/events/${id}/resend`)).status).toBe(409);
    now = Date.now();
    await d.runOnce();
    expect(receiver.received.map((r) => r.body.id)).toEqual([id, id]);

    const test = await owner.client.post(`/api/workspaces/${owner.ws}/webhooks/${w.id}/test`);
    expect(test.status).toBe(201);
    now = Date.now();
    await d.runOnce();
    const last = receiver.received.at(-1)!;
    expect(last.body).toMatchObject({ id: test.body.data.id, type: 'block', payload: { hash: expect.any(String) } });
    const events = (await owner.client.get(`/api/workspaces/${owner.ws}/webhooks/${w.id}/events`)).body.data.events;
    expect(events.find((e: { id: string }) => e.id === test.body.data.id).test).toBe(true);
  });

  it('refuses to resend an event cancelled because its block was rolled back, but resends one cancelled for a disabled webhook', async () => {
    const w = await webhook();
    const rolledBack = await enqueue(w.id);
    expect(await cancelRolledBack(app.db, 0, ['ab'.repeat(32)])).toBe(1);
    expect(await event(rolledBack)).toMatchObject({ status: 'cancelled', cancel_reason: 'rollback' });
    const refused = await owner.client.post(`/api/workspaces/${owner.ws}/webhooks/${w.id}/events/${rolledBack}/resend`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe('This event was cancelled because its block was rolled back off the chain, so it cannot be sent again.');
    expect(await event(rolledBack)).toMatchObject({ status: 'cancelled' });

    const other = await enqueue(w.id);
    await app.db('webhooks').where({ id: w.id }).update({ status: 'disabled' });
    await dispatcher().runOnce();
    expect(await event(other)).toMatchObject({ status: 'cancelled', cancel_reason: 'disabled' });
    await app.db('webhooks').where({ id: w.id }).update({ status: 'enabled' });
    expect((await owner.client.post(`/api/workspaces/${owner.ws}/webhooks/${w.id}/events/${other}/resend`)).status).toBe(200);
    now = Date.now();
    await dispatcher().runOnce();
    expect(await event(other)).toMatchObject({ status: 'delivered', cancel_reason: null });
    expect(receiver.received.map((r) => r.body.id)).toEqual([other]);
  });

  it('records a batch of attempts to several webhooks in one go, each with its own outcome and failure clock', async () => {
    const good = await webhook();
    const bad = await webhook(`${receiver.url}?fail`);
    receiver.state.respond = (r) => (r.body.webhook_id === bad.id ? 500 : 200);
    const goodIds = await Promise.all(Array.from({ length: 30 }, () => enqueue(good.id)));
    const badIds = await Promise.all(Array.from({ length: 20 }, () => enqueue(bad.id)));
    expect(await dispatcher({ concurrency: 64 }).runOnce()).toBe(50);
    const rows = await app.db('webhook_events').whereIn('id', [...goodIds, ...badIds]).select('id', 'status', 'attempts', 'next_attempt_at');
    expect(rows.filter((r) => goodIds.includes(r.id)).every((r) => r.status === 'delivered' && r.attempts === 1)).toBe(true);
    expect(rows.filter((r) => badIds.includes(r.id)).every((r) => r.status === 'pending' && r.attempts === 1 && Number(r.next_attempt_at) === now + 5000)).toBe(true);
    expect(Number((await app.db('webhook_attempts').whereIn('event_id', [...goodIds, ...badIds]).count({ n: '*' }).first())?.n)).toBe(50);
    expect((await app.db('webhooks').where({ id: good.id }).first()).failing_since).toBeNull();
    expect(Number((await app.db('webhooks').where({ id: bad.id }).first()).failing_since)).toBe(now);
  });

  it('prunes finished events past their retention with their attempts, never pending ones', async () => {
    const w = await webhook();
    const ids = { delivered: await enqueue(w.id), failed: await enqueue(w.id), pending: await enqueue(w.id), recent: await enqueue(w.id) };
    receiver.state.respond = (r) => (r.body.id === ids.failed ? 404 : 200);
    await dispatcher().runOnce();
    await app.db('webhook_events').where({ id: ids.pending }).update({ status: 'pending' });
    const old = now - (OUTBOX_RETENTION.doneDays + 1) * DAY_MS;
    await app.db('webhook_events').whereIn('id', [ids.delivered, ids.failed, ids.pending]).update({ created_at: old });
    expect(await event(ids.failed)).toMatchObject({ status: 'failed' });
    // Failed events are kept longer than delivered ones.
    expect(await pruneOutbox(app.db, now)).toBe(1);
    expect(await event(ids.delivered)).toBeUndefined();
    expect(await app.db('webhook_attempts').where({ event_id: ids.delivered }).first()).toBeUndefined();
    expect(await event(ids.failed)).toBeDefined();
    await app.db('webhook_events').where({ id: ids.failed }).update({ created_at: now - (OUTBOX_RETENTION.failedDays + 1) * DAY_MS });
    expect(await pruneOutbox(app.db, now)).toBe(1);
    expect(await event(ids.failed)).toBeUndefined();
    expect(await event(ids.pending)).toMatchObject({ status: 'pending' });
    expect(await event(ids.recent)).toMatchObject({ status: 'delivered' });
  });

  it('cancels events of a disabled webhook instead of sending them', async () => {
    const w = await webhook();
    const id = await enqueue(w.id);
    await app.db('webhooks').where({ id: w.id }).update({ status: 'disabled' });
    await dispatcher().runOnce();
    expect(await event(id)).toMatchObject({ status: 'cancelled' });
    expect(receiver.received).toHaveLength(0);
  });

  it('disables a webhook that failed every attempt for 5 days, and mails the owner', async () => {
    const w = await webhook();
    receiver.state.respond = () => 500;
    const d = dispatcher({ retrySchedule: [0, 1000] });
    await enqueue(w.id);
    await d.runOnce();
    expect((await app.db('webhooks').where({ id: w.id }).first()).status).toBe('enabled');
    now += AUTO_DISABLE_AFTER_MS;
    await enqueue(w.id);
    await d.runOnce();
    const row = await app.db('webhooks').where({ id: w.id }).first();
    expect(row).toMatchObject({ status: 'disabled', disabled_reason: 'Disabled automatically: every delivery attempt failed for 5 days.' });
    const mail = app.mailer.captured()[0]!;
    expect(mail.to).toBe(owner.email);
    expect(mail.subject).toBe('Webhook "delivery" was disabled');
    // Re-enabling in the dashboard starts afresh.
    const put = await owner.client.put(`/api/workspaces/${owner.ws}/webhooks/${w.id}`, {
      name: 'delivery', network: 0, type: 'block', target_url: receiver.url, confirmations: 0, status: 'enabled', conditions: [],
    });
    expect(put.body.data).toMatchObject({ status: 'enabled', disabled_reason: null });
  });

  it('claims at once when woken, not at its next poll', async () => {
    const w = await webhook();
    // Polls once a minute: only a wake can deliver within the test.
    const d = dispatcher({ pollMs: 60_000 });
    d.start();
    try {
      // The start-up claims have read the clock already: an event due a second later is not theirs.
      const id = await enqueueBlockEvent(app.db, w.id, now + 1000);
      now += 1000;
      d.wake();
      await vi.waitFor(() => expect(receiver.received.map((r) => r.body.id)).toEqual([id]), { timeout: 5000, interval: 20 });
    } finally {
      await d.stop();
    }
  });

  it.skipIf(testEngine() !== 'postgres')('on PostgreSQL, claims events any connection commits at once: enqueue notifies every dispatcher', async () => {
    const w = await webhook();
    const listening = async () => Number((await app.db.raw(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN cairn_webhook_events'`)).rows[0].n);
    const d = dispatcher({ pollMs: 60_000 });
    d.start();
    try {
      // The listener connects in the background; until it listens, new events wait for the next poll.
      await vi.waitFor(async () => expect(await listening()).toBe(1), { timeout: 5000, interval: 20 });
      const ids = await app.db.transaction(async (trx) => {
        const { ids: queued } = await enqueueEvents(trx, [{ webhookId: w.id, type: 'block', network: 0, blockHeight: 1, blockHash: 'cd'.repeat(32), payload: { n: 1 } }], now + 1000);
        now += 1000;
        return queued;
      });
      await vi.waitFor(() => expect(receiver.received.map((r) => r.body.id)).toEqual(ids), { timeout: 5000, interval: 20 });
    } finally {
      await d.stop();
    }
    // Stopped, it listens no more.
    await vi.waitFor(async () => expect(await listening()).toBe(0), { timeout: 5000, interval: 20 });
  });

  it('never sends one attempt twice when two workers run at once', async () => {
    const w = await webhook();
    const ids = await Promise.all(Array.from({ length: 40 }, () => enqueue(w.id)));
    await Promise.all([dispatcher({ concurrency: 10 }), dispatcher({ concurrency: 10 }), dispatcher({ concurrency: 10 })].map(async (d) => {
      while ((await d.runOnce()) > 0);
    }));
    const got = receiver.received.map((r) => r.body.id).sort();
    expect(got).toEqual([...ids].sort());
  });
});

describe('SSRF protection', () => {
  // Only loopback addresses are ever aimed at; the allow-list holds none of them.
  const strict = () => dispatcher({ allowlist: parseAllowlist('127.0.0.9/32') });

  it.each([
    () => receiver.url,
    () => `http://127.0.0.2:${receiver.port}/hook`,
    () => `http://[::1]:${receiver.port}/hook`,
    () => `http://[::ffff:127.0.0.1]:${receiver.port}/hook`,
    () => `http://[::ffff:7f00:1]:${receiver.port}/hook`,
    () => `http://[::ffff:0:7f00:1]:${receiver.port}/hook`,
    () => `http://localhost:${receiver.port}/hook`,
  ])('refuses %s, finally, naming WEBHOOK_ALLOWLIST', async (target) => {
    const w = await webhook(target());
    const id = await enqueue(w.id);
    await strict().runOnce();
    const attempt = await app.db('webhook_attempts').where({ event_id: id }).first();
    expect(attempt.error).toMatch(/webhooks may not reach unless WEBHOOK_ALLOWLIST lists it/);
    expect(attempt.status_code).toBeNull();
    // The guard's refusal is not retried on the schedule.
    expect(await event(id)).toMatchObject({ status: 'failed' });
    expect(receiver.received).toHaveLength(0);
  });

  it('delivers to an allow-listed host name', async () => {
    const w = await webhook(`http://localhost:${receiver.port}/hook`);
    const id = await enqueue(w.id);
    await dispatcher({ allowlist: parseAllowlist('localhost') }).runOnce();
    expect(await event(id)).toMatchObject({ status: 'delivered' });
  });
});

describe('transport', () => {
  afterEach(() => vi.restoreAllMocks());

  /** A local endpoint that counts the connections opened to it. */
  async function countingEndpoint(host = '127.0.0.1', handler: http.RequestListener = (req, res) => req.resume().on('end', () => res.end('ok'))) {
    const server = http.createServer(handler);
    let connections = 0;
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, host, r));
    return {
      url: `http://${host}:${(server.address() as AddressInfo).port}/hook`,
      port: (server.address() as AddressInfo).port,
      connections: () => connections,
      close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
    };
  }

  /** dns.lookup answering `address` for `name` (the guard and net.connect both resolve through it). */
  function resolveName(name: string, address: () => string) {
    const real = dns.lookup;
    vi.spyOn(dns, 'lookup').mockImplementation(((host: string, options: unknown, callback: (...args: unknown[]) => void) => {
      if (host !== name) return (real as (...args: unknown[]) => void)(host, options, callback);
      const a = address();
      const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
      process.nextTick(() => (all ? callback(null, [{ address: a, family: 4 }]) : callback(null, a, 4)));
    }) as unknown as typeof dns.lookup);
  }

  it('sends one endpoint event after event over the same kept-alive connection; another dispatcher opens its own', async () => {
    const endpoint = await countingEndpoint();
    try {
      const w = await webhook(endpoint.url);
      const d = dispatcher();
      for (let i = 0; i < 3; i++) {
        const id = await enqueue(w.id);
        expect(await d.runOnce()).toBe(1);
        expect(await event(id)).toMatchObject({ status: 'delivered' });
      }
      expect(endpoint.connections()).toBe(1);
      // Sockets belong to the dispatcher (and the allow-list) that checked them.
      await enqueue(w.id);
      await dispatcher().runOnce();
      expect(endpoint.connections()).toBe(2);
      await d.stop();
    } finally {
      await endpoint.close();
    }
  });

  it('connects a name only to the address the guard approved, and refuses it once it resolves to a blocked one', async () => {
    const other = await startReceiver('127.0.0.2');
    let address = '127.0.0.1';
    resolveName('hooks.cairn.test', () => address);
    try {
      const w = await webhook(`http://hooks.cairn.test:${receiver.port}/hook`);
      const allow = parseAllowlist('127.0.0.1/32');
      const first = await enqueue(w.id);
      const d = dispatcher({ allowlist: allow });
      await d.runOnce();
      expect(await event(first)).toMatchObject({ status: 'delivered' });
      expect(receiver.received.map((r) => r.body.id)).toEqual([first]);

      // The name now resolves to another loopback address, outside the allow-list. A new connection is
      // refused at connect time, finally, and nothing reaches that address.
      address = '127.0.0.2';
      const second = await enqueue(w.id);
      await dispatcher({ allowlist: allow }).runOnce();
      const attempt = await app.db('webhook_attempts').where({ event_id: second }).first();
      expect(attempt.error).toBe(`The endpoint hooks.cairn.test resolves to 127.0.0.2, a private, loopback or reserved address webhooks may not reach unless WEBHOOK_ALLOWLIST lists it.`);
      expect(await event(second)).toMatchObject({ status: 'failed', attempts: 1 });
      expect(other.received).toHaveLength(0);
      await d.stop();
    } finally {
      await other.close();
    }
  });

  it('refuses a blocked literal address in the connector itself, before any byte is sent', async () => {
    const other = await startReceiver('127.0.0.2');
    const agent = deliveryAgent(parseAllowlist('127.0.0.1/32'), 1000);
    try {
      const err = await agent.request({ origin: `http://127.0.0.2:${other.port}`, path: '/hook', method: 'POST', body: '{}' }).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(/resolves to 127\.0\.0\.2, .* unless WEBHOOK_ALLOWLIST lists it/);
      expect(other.received).toHaveLength(0);
    } finally {
      await agent.destroy();
      await other.close();
    }
  });

  it('stops an attempt whose answer keeps trickling in past the timeout', async () => {
    const endpoint = await countingEndpoint('127.0.0.1', (req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      const drip = setInterval(() => res.write('.'), 100);
      res.on('close', () => clearInterval(drip));
    });
    try {
      const w = await webhook(endpoint.url);
      const id = await enqueue(w.id);
      const started = Date.now();
      await dispatcher({ timeoutMs: 300 }).runOnce();
      expect(Date.now() - started).toBeLessThan(5000);
      const attempt = await app.db('webhook_attempts').where({ event_id: id }).first();
      expect(attempt.error).toBe('No answer within 0 s.');
      expect(await event(id)).toMatchObject({ status: 'pending', attempts: 1 });
    } finally {
      await endpoint.close();
    }
  });

  it('delivers to an https endpoint, with the same headers, and refuses a certificate it cannot verify', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-webhook-tls-'));
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
    const seen: http.IncomingHttpHeaders[] = [];
    const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
      seen.push(req.headers);
      req.resume().on('end', () => res.writeHead(201, { 'content-type': 'text/plain' }).end('made it'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const allow = parseAllowlist('127.0.0.1');
    try {
      const agent = deliveryAgent(allow, 1000, { ca: fs.readFileSync(cert) });
      const body = '{"id":"é"}';
      const result = await post(url, body, { 'Blockfrost-Signature': 't=1,v1=ab' }, 1000, allow, agent);
      expect(result).toMatchObject({ statusCode: 201, excerpt: 'made it', error: null });
      expect(seen[0]).toMatchObject({ 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Cairn-Webhooks/1', 'blockfrost-signature': 't=1,v1=ab' });
      await agent.destroy();

      // The dispatcher trusts the system's roots only.
      const w = await webhook(url);
      const id = await enqueue(w.id);
      await dispatcher().runOnce();
      const attempt = await app.db('webhook_attempts').where({ event_id: id }).first();
      expect(attempt.error).toMatch(/self.signed certificate/);
      expect(seen).toHaveLength(1);
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sends credentials written in the URL as Basic authorization, and a query string as is', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const urls: string[] = [];
    const endpoint = await countingEndpoint('127.0.0.1', (req, res) => {
      seen.push(req.headers);
      urls.push(req.url!);
      req.resume().on('end', () => res.end('ok'));
    });
    try {
      const w = await webhook(`http://hook%20user:p%40ss@127.0.0.1:${endpoint.port}/hook?x=1&y=%C3%A9`);
      const id = await enqueue(w.id);
      await dispatcher().runOnce();
      expect(await event(id)).toMatchObject({ status: 'delivered' });
      expect(seen[0]!.authorization).toBe(`Basic ${Buffer.from('hook user:p@ss').toString('base64')}`);
      expect(urls).toEqual(['/hook?x=1&y=%C3%A9']);
    } finally {
      await endpoint.close();
    }
  });

  it('records the status and the first 500 characters of the answer', async () => {
    const long = 'ü'.repeat(300) + 'x'.repeat(700);
    const endpoint = await countingEndpoint('127.0.0.1', (req, res) => req.resume().on('end', () => res.writeHead(202).end(long)));
    try {
      const w = await webhook(endpoint.url);
      const id = await enqueue(w.id);
      await dispatcher().runOnce();
      const attempt = await app.db('webhook_attempts').where({ event_id: id }).first();
      expect(attempt).toMatchObject({ status_code: 202, response_excerpt: long.slice(0, 500), error: null });
      expect(await event(id)).toMatchObject({ status: 'delivered' });
    } finally {
      await endpoint.close();
    }
  });
});
