import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startReceiver } from '../helpers/receiver';
import type { Db } from '../../server/db/index';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { serverData, spawnServerProcess, stopServerProcess, stopServerProcesses, type ServerData } from '../helpers/server-process';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let data: ServerData;
let db: Db;
let env: Record<string, string>;
let webhookId: string;

/** The real entry point, as the worker role an operator would run. */
const startWorker = (lines?: string[]) => spawnServerProcess({ role: 'worker', env, ...(lines ? { lines } : {}) });

beforeAll(async () => {
  receiver = await startReceiver();
  // Slow answers keep deliveries in flight when the process is killed.
  receiver.state.delayMs = 150;
  data = await serverData('crash');
  db = data.db;
  const user = await makeUser(db, 'crash@example.com', 'ENTERPRISE');
  const ws = await makeWorkspace(db, user.id, []);
  webhookId = crypto.randomUUID();
  const now = Date.now();
  await db('webhooks').insert({ id: webhookId, workspace_id: ws, name: 'crash', network: 0, type: 'block', target_url: receiver.url, confirmations: 0, status: 'enabled', conditions: '[]', auth_token: 'c'.repeat(64), created_at: now, updated_at: now });
  env = {
    ...data.env,
    SESSION_SECRET: 'x'.repeat(40),
    SANDBOX_BLOCK_INTERVAL_MS: '100',
    CHAIN_POLL_MS: '100',
    WEBHOOK_ALLOWLIST: '127.0.0.1',
    WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,1,1,1,1',
    WEBHOOK_TIMEOUT_MS: '2000',
  };
});
afterAll(async () => {
  await stopServerProcesses();
  await data.remove();
  await receiver.close();
});

describe('a crash while delivering', () => {
  it('loses no matched event: after a restart every one reaches the receiver at least once', { timeout: 480_000 }, async () => {
    receiver.state.respond = () => 200;
    const first = await startWorker();
    // Wait until events flow, then kill the process without warning (a cold start on a busy machine
    // may take a while: the built server loads and its follower reads the chain first; with the
    // suite's heaviest files beside it on two cores, a worker took over a minute to send its first
    // events, and a restarted one over half a minute to go on: the waits are for a slow machine, not
    // for what is tested, which is that nothing is lost).
    await receiver.waitFor((r) => r.length >= 10, 150_000);
    // The next delivery is held unanswered, so one is surely in flight when the process dies (on a busy
    // machine the process could otherwise be killed between two of them).
    const before = receiver.received.length;
    receiver.state.respond = () => 'hang';
    await receiver.waitFor((r) => r.length > before, 30_000);
    const heldId = receiver.received[before]!.body?.id as string;
    // A block's events are sent as soon as its write holds the cursor, before it commits: kill once the
    // held one is committed, claimed and not answered, so the crash surely cuts a delivery off.
    await vi.waitFor(
      async () => {
        const held = await db('webhook_events').where({ id: heldId }).first('status', 'claimed_until');
        expect(held?.status === 'pending' && held.claimed_until !== null, JSON.stringify(held)).toBe(true);
      },
      { timeout: 30_000, interval: 20 },
    );
    await stopServerProcess(first, 'SIGKILL');
    receiver.state.respond = () => 200;
    const atCrash = await db('webhook_events').where({ webhook_id: webhookId }).select('id', 'block_height', 'status', 'claimed_until');
    // Fewer than the receiver has, perhaps: a block's events are sent as soon as its write holds the cursor, before it commits.
    expect(atCrash.length).toBeGreaterThan(0);
    // Some were being sent when the process died: claimed, not yet recorded.
    expect(atCrash.some((e) => e.status === 'pending' && e.claimed_until !== null)).toBe(true);

    // What the restarted worker says (warnings and up), shown if its follower does not go on.
    const said: string[] = [];
    const second = await startWorker(said);
    try {
      const ids = new Set(atCrash.map((e) => e.id as string));
      await receiver.waitFor((r) => {
        const got = new Set(r.map((x) => x.body?.id));
        return [...ids].every((id) => got.has(id));
      }, 90_000);
      // The delivery the crash cut off is made again, answered this time (once its claim's lease ran
      // out; a busy machine's restarted worker may take a while to reach it).
      await receiver.waitFor((r) => r.filter((x) => x.body?.id === heldId).length >= 2, 90_000).catch(async (err: Error) => {
        // What the outbox holds of it, and what the restarted worker said: where a redelivery stopped.
        const row = await db('webhook_events').where({ id: heldId }).first('status', 'attempts', 'next_attempt_at', 'claimed_until');
        throw new Error(`${err.message}; the held event at ${Date.now()}: ${JSON.stringify(row)}; the restarted worker said:\n${said.slice(-20).join('\n')}`);
      });
      // The restarted worker's follower goes on past the crash: an event for a block after the last one
      // it left. (The receiver often has every event of the crash already, so without this the worker
      // could be stopped before it had even started.)
      const crashTop = Math.max(...atCrash.map((e) => Number(e.block_height)));
      const top = async () => Number((await db('webhook_events').where({ webhook_id: webhookId }).max({ h: 'block_height' }).first())?.h ?? 0);
      await vi.waitFor(async () => expect(await top(), said.slice(-20).join('\n')).toBeGreaterThan(crashTop), { timeout: 90_000, interval: 50 });
    } finally {
      await stopServerProcess(second, 'SIGTERM');
    }

    const events = await db('webhook_events').where({ webhook_id: webhookId }).orderBy('block_height').select('id', 'block_height', 'status');
    const heights = events.map((e) => Number(e.block_height));
    // No block was skipped across the crash: one event per block, contiguous.
    for (let i = 1; i < heights.length; i++) expect(heights[i]).toBe(heights[i - 1]! + 1);
    const received = new Map<string, number>();
    for (const r of receiver.received) received.set(r.body.id, (received.get(r.body.id) ?? 0) + 1);
    for (const e of events.filter((x) => x.status === 'delivered')) expect(received.get(e.id), e.id).toBeGreaterThanOrEqual(1);
    for (const e of atCrash) expect(received.get(e.id), `event ${e.id} at crash`).toBeGreaterThanOrEqual(1);
    // Every body received is one of ours, signed event shapes with the same id on a redelivery.
    for (const r of receiver.received) expect(events.some((e) => e.id === r.body.id)).toBe(true);
  });
});
