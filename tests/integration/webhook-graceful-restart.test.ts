import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../helpers/receiver';
import type { Db } from '../../server/db/index';
import { enqueue } from '../../server/features/webhooks/outbox';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { serverData, spawnServerProcess, stopServerProcess, stopServerProcesses, type ServerData } from '../helpers/server-process';

// Two worker PROCESSES deliver a backlog of webhook events while they are restarted gracefully
// (SIGTERM) again and again: each stopping worker finishes the deliveries under way and gives back
// the events it claimed but did not send, so every event reaches the receiver exactly once.

const EVENTS = 3_000;
const RESTARTS = 6;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let data: ServerData;
let db: Db;
let env: Record<string, string>;
let webhookId: string;

beforeAll(async () => {
  receiver = await startReceiver();
  // Slow answers keep deliveries in flight at every SIGTERM, and a worker's claimed batches (4 lanes of
  // 256 events over 64 connections) would take about 10 s to send: longer than it is given to stop.
  receiver.state.delayMs = 600;
  data = await serverData('graceful-workers');
  db = data.db;
  const user = await makeUser(db, 'graceful@example.com', 'ENTERPRISE');
  const ws = await makeWorkspace(db, user.id, []);
  webhookId = crypto.randomUUID();
  const now = Date.now();
  await db('webhooks').insert({ id: webhookId, workspace_id: ws, name: 'graceful', network: 0, type: 'block', target_url: receiver.url, confirmations: 0, status: 'enabled', conditions: '[]', auth_token: 'g'.repeat(64), created_at: now, updated_at: now });
  await enqueue(
    db,
    Array.from({ length: EVENTS }, (_, i) => ({ webhookId, type: 'block' as const, network: 0, blockHeight: i + 1, blockHash: crypto.randomBytes(32).toString('hex'), payload: { height: i + 1 } })),
  );
  env = {
    ...data.env,
    SESSION_SECRET: 'x'.repeat(40),
    // No new blocks on the sandbox chain: the backlog is all there is to deliver. The chain's tip is
    // derived from the clock, so an hourly block would still appear whenever a run crosses the hour.
    SANDBOX_BLOCK_INTERVAL_MS: String(1e12),
    WEBHOOK_ALLOWLIST: '127.0.0.1',
    // No attempt times out, so nothing is sent twice for a reason of its own.
    WEBHOOK_TIMEOUT_MS: '20000',
    SHUTDOWN_TIMEOUT_MS: '2000',
  };
}, 60_000);
afterAll(async () => {
  await stopServerProcesses();
  await data?.remove();
  await receiver?.close();
});

/** Starts a worker and waits for its heartbeat (its parts, and its SIGTERM handler, are up by then). */
async function startWorker(): Promise<ChildProcess> {
  const before = new Set((await db('service_heartbeats').where({ role: 'worker' }).select('instance')).map((r) => r.instance as string));
  const child = await spawnServerProcess({ role: 'worker', env });
  await expect
    .poll(async () => (await db('service_heartbeats').where({ role: 'worker' }).select('instance')).some((r) => !before.has(r.instance as string)), { timeout: 60_000, interval: 50 })
    .toBe(true);
  return child;
}

describe('graceful worker restarts under load', () => {
  it(`deliver each of ${EVENTS.toLocaleString('en-US')} events exactly once across ${RESTARTS} restarts`, { timeout: 240_000 }, async () => {
    const workers: ChildProcess[] = [await startWorker(), await startWorker()];
    const step = Math.floor(EVENTS / (RESTARTS + 2));
    const stops: number[] = [];
    for (let i = 0; i < RESTARTS; i++) {
      await receiver.waitFor((r) => r.length >= step * (i + 1), 60_000);
      const w = i % 2;
      const t0 = Date.now();
      await stopServerProcess(workers[w]!, 'SIGTERM');
      stops.push(Date.now() - t0);
      // It stopped on its own, not by the shutdown deadline (SHUTDOWN_TIMEOUT_MS + 5 s, exit code 1).
      expect(workers[w]!.exitCode).toBe(0);
      workers[w] = await startWorker();
    }
    await receiver.waitFor((r) => new Set(r.map((x) => x.body?.id)).size >= EVENTS, 120_000);
    for (const w of workers) {
      await stopServerProcess(w, 'SIGTERM');
      expect(w.exitCode).toBe(0);
    }

    const counts = new Map<string, number>();
    for (const r of receiver.received) counts.set(r.body.id, (counts.get(r.body.id) ?? 0) + 1);
    const duplicates = [...counts.values()].reduce((sum, n) => sum + n - 1, 0);
    console.info(`graceful worker restarts: ${receiver.received.length} deliveries of ${EVENTS} events, ${duplicates} duplicates, ${RESTARTS} SIGTERMs answered in ${stops.join(', ')} ms`);
    const events = await db('webhook_events').where({ webhook_id: webhookId }).select('id', 'status', 'attempts', 'claimed_until');
    expect(events).toHaveLength(EVENTS);
    expect(events.filter((e) => e.status !== 'delivered')).toEqual([]);
    // One attempt each: an event given back unsent was not counted as an attempt.
    expect(events.filter((e) => Number(e.attempts) !== 1)).toEqual([]);
    expect(counts.size).toBe(EVENTS);
    expect(duplicates).toBe(0);
  });
});
