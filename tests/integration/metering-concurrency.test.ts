// The metering worker writes the usage counts through a connection of its own while the app writes
// the same database through its own. On SQLite two connections write one file: every transaction of
// the app begins IMMEDIATE (server/db/sqlite-client.ts) and the worker's too, so neither fails with
// SQLITE_BUSY when the other commits between its reads and its writes. Here the app's read-then-write
// transactions (moving the 30-day window, the sign-in throttle, crediting a pay-as-you-go order,
// recording webhook deliveries, compacting the latency histograms) run over and over while the
// worker writes big flushes part by part, and every count comes out exact.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import sqlite3 from 'sqlite3';
import crypto from 'node:crypto';
import { freshDatabase, testEngine, type TestDatabase } from '../helpers/db-template';
import { makeProject, makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { enqueueBlockEvent } from '../helpers/webhook-events';
import { Meter, type MeteredRequest } from '../../server/gateway/metering';
import { createLogger } from '../../server/logger';
import { advanceWindow } from '../../server/features/stats/usage';
import { compactLatency } from '../../server/features/stats/insight';
import { takeSignInSlot } from '../../server/features/accounts/sign-in-throttle';
import { creditConfirmed } from '../../server/features/ppu/ppu';
import { recordAttempts } from '../../server/features/webhooks/outbox';
import { LATENCY_BINS_PER_ROW } from '../../shared/insight';
import { DAY_MS, dayStartOf } from '../../shared/time';

let database: TestDatabase;
let ownerId: number;
let workspaceId: number;
let webhookId: string;
let projectIds: number[];
const logger = createLogger('silent');

beforeAll(async () => {
  database = await freshDatabase(inject('dbTemplate'));
  const owner = await makeUser(database.db, 'concurrent@example.com', 'ENTERPRISE');
  ownerId = owner.id;
  workspaceId = await makeWorkspace(database.db, owner.id, []);
  for (let i = 0; i < PROJECTS; i++) await makeProject(database.db, workspaceId, `c${i}`);
  projectIds = (await database.db('projects').where({ workspace_id: workspaceId }).orderBy('id').pluck('id')).map(Number);
  webhookId = crypto.randomUUID();
  const now = Date.now();
  await database.db('webhooks').insert({ id: webhookId, workspace_id: workspaceId, name: 'concurrent', network: 0, type: 'block', target_url: 'https://hooks.example/c', confirmations: 0, status: 'enabled', conditions: '[]', auth_token: 'c'.repeat(64), created_at: now, updated_at: now });
});
afterAll(() => database.drop());

const PROJECTS = 40;
/** Distinct IPs per project and flush: about 5,000 rows a flush, written in several parts with pauses between them. */
const IPS = 30;
const ROUNDS = 5;

const sum = async (table: string, where: Record<string, unknown>, column = 'requests') => Number((await database.db(table).where(where).sum({ n: column }).first())?.n ?? 0);

describe('the app writing beside the metering worker', () => {
  it.runIf(testEngine() === 'sqlite')("takes SQLite's write lock when a transaction begins, before its first read; a nested one is a savepoint of it", async () => {
    const other = new sqlite3.Database(database.sqliteFile!);
    // No wait: whether the lock is free is answered at once.
    const lockFree = () => new Promise<boolean>((resolve) => other.run('begin immediate', (err) => (err ? resolve(false) : other.run('rollback', () => resolve(true)))));
    try {
      expect(await lockFree()).toBe(true);
      await database.db.transaction(async (trx) => {
        await trx('projects').first('id');
        expect(await lockFree()).toBe(false);
        await trx.transaction(async (inner) => {
          await inner('projects').first('id');
        });
        expect(await lockFree()).toBe(false);
      });
      expect(await lockFree()).toBe(true);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('runs read-then-write transactions while flushes commit, with no error, no flush failed and every count exact', { timeout: 120_000 }, async () => {
    const db = database.db;
    const today = dayStartOf(Date.now());
    // Yesterday's counts: inside the 30-day window, and hours the latency compaction moves into a day row.
    const at = today - DAY_MS + 10 * 3_600_000;
    const day = today - DAY_MS;
    const meter = new Meter(db, logger, 60_000);
    const flushes: boolean[] = [];
    meter.onFlushed = (_seconds, _rows, ok) => flushes.push(ok);
    const request = (projectId: number, ip: string): MeteredRequest => ({ projectId, ownerId, endpoint: '/blocks/latest', status: 200, ip, userAgent: 'curl/8.5.0', admitted: true, at, started: performance.now() });

    let windowMoves = 0;
    let slots = 0;
    let orders = 0;
    let events = 0;
    let during = 0;
    /** One turn of each of the app's transactions. */
    const appTurn = async (turn: number) => {
      // A window start that only ever grows, and lies before the counted day: the whole move runs and subtracts nothing.
      windowMoves++;
      await advanceWindow(db, projectIds[turn % PROJECTS]!, day - 10 * DAY_MS + windowMoves);
      expect(await takeSignInSlot(db, [{ key: 'concurrent', max: 1_000_000 }], at)).toBeNull();
      slots++;
      const now = Date.now();
      await db('ppu_orders').insert({ workspace_id: workspaceId, user_id: ownerId, network: 'preprod', address: `addr_test_c${turn}`, requests: 1000, price_per_unit_eur: 0.0000024, ada_eur_rate: 0.5, total_eur: 0.0024, lovelace: 4800, status: 'confirming', received_lovelace: 4800, first_payment_height: 10, created_at: now, expires_at: now + DAY_MS });
      expect(await creditConfirmed(db, 'preprod', 20, 1)).toBe(1);
      orders++;
      const eventId = await enqueueBlockEvent(db, webhookId, now);
      await recordAttempts(db, [{ eventId, webhookId, attemptsBefore: 0, attemptedAt: now, statusCode: 200, durationMs: 1, excerpt: null, error: null, success: true, status: 'delivered', nextAttemptAt: now }]);
      events++;
      await compactLatency(db, today);
    };

    let turn = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const id of projectIds) for (let k = 0; k < IPS; k++) meter.record(request(id, `198.51.${round}.${k}`));
      let flushing = true;
      const flush = meter.flush().finally(() => (flushing = false));
      // The app's transactions, one after another on its connection, for as long as the flush writes.
      do {
        await appTurn(turn++);
        if (flushing) during++;
      } while (flushing);
      await flush;
    }
    await meter.stop();

    expect(flushes.length).toBeGreaterThanOrEqual(ROUNDS);
    expect(flushes.every(Boolean)).toBe(true);
    // The app's transactions did run while flushes were being written, not only between them.
    expect(during).toBeGreaterThanOrEqual(ROUNDS);

    // The worker's counts, exact.
    for (const id of projectIds) {
      expect(await sum('usage_rollups', { project_id: id, granularity: 'd', bucket_ms: day })).toBe(ROUNDS * IPS);
      expect(await sum('usage_dimensions', { project_id: id, dimension: 'ip', day_ms: day })).toBe(ROUNDS * IPS);
      expect(await sum('usage_window', { project_id: id, dimension: 'ip' })).toBe(ROUNDS * IPS);
      expect(await sum('usage_window', { project_id: id, dimension: 'endpoint', value: '/blocks/latest' })).toBe(ROUNDS * IPS);
    }
    expect(await sum('quota_usage', { user_id: ownerId, day_ms: day })).toBe(PROJECTS * ROUNDS * IPS);
    // Every request is in one latency bin, of an hour row or (once compacted) of the day's row.
    let binned = 0;
    for (const row of await db('usage_latency').whereIn('project_id', projectIds)) for (let i = 0; i < LATENCY_BINS_PER_ROW; i++) binned += Number(row[`b${i}`]);
    expect(binned).toBe(PROJECTS * ROUNDS * IPS);

    // The app's, exact too.
    expect(await sum('sign_in_throttle', { key: 'concurrent' }, 'count')).toBe(slots);
    expect(await sum('ppu_balances', { workspace_id: workspaceId }, 'credited')).toBe(orders * 1000);
    expect(Number((await db('ppu_orders').where({ workspace_id: workspaceId, status: 'paid' }).count({ n: '*' }).first())?.n)).toBe(orders);
    expect(Number((await db('webhook_attempts').count({ n: '*' }).first())?.n)).toBe(events);
    expect(Number((await db('webhook_events').where({ webhook_id: webhookId, status: 'delivered' }).count({ n: '*' }).first())?.n)).toBe(events);
    expect(Number((await db('usage_window_starts').max({ m: 'day_ms' }).first())?.m)).toBe(day - 10 * DAY_MS + windowMoves);
  });
});
