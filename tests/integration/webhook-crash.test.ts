import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ARTIFACTS, freshDatabase, type TestDatabase } from '../helpers/db-template';
import { startReceiver } from '../helpers/receiver';
import { createDb, migrateLatest, sqliteFileIn, type Db } from '../../server/db/index';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';

const root = path.resolve(import.meta.dirname, '../..');
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let db: Db;
let pg: TestDatabase | null = null;
let env: Record<string, string>;
let dataDir: string;
let webhookId: string;

/** The real entry point, as the worker role an operator would run. */
const startWorker = (): ChildProcess =>
  spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--role', 'worker'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const exited = (p: ChildProcess) => new Promise((r) => (p.exitCode !== null || p.signalCode !== null ? r(null) : p.once('exit', r)));

beforeAll(async () => {
  receiver = await startReceiver();
  // Slow answers keep deliveries in flight when the process is killed.
  receiver.state.delayMs = 150;
  dataDir = path.join(ARTIFACTS, `crash-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);
  fs.mkdirSync(dataDir, { recursive: true });
  if (process.env.DATABASE_URL) {
    pg = await freshDatabase(inject('dbTemplate'));
    db = pg.db;
  } else {
    db = createDb({ sqliteFile: sqliteFileIn(dataDir) });
    await migrateLatest(db);
  }
  const user = await makeUser(db, 'crash@example.com', 'ENTERPRISE');
  const ws = await makeWorkspace(db, user.id, []);
  webhookId = crypto.randomUUID();
  const now = Date.now();
  await db('webhooks').insert({ id: webhookId, workspace_id: ws, name: 'crash', network: 0, type: 'block', target_url: receiver.url, confirmations: 0, status: 'enabled', conditions: '[]', auth_token: 'c'.repeat(64), created_at: now, updated_at: now });
  env = {
    DATA_DIR: dataDir,
    SESSION_SECRET: 'x'.repeat(40),
    SANDBOX_BLOCK_INTERVAL_MS: '100',
    CHAIN_POLL_MS: '100',
    WEBHOOK_ALLOWLIST: '127.0.0.1',
    WEBHOOK_RETRY_SCHEDULE_SECONDS: '0,1,1,1,1',
    WEBHOOK_TIMEOUT_MS: '2000',
    ...(pg?.databaseUrl ? { DATABASE_URL: pg.databaseUrl } : {}),
  };
});
afterAll(async () => {
  if (pg) await pg.drop();
  else await db.destroy();
  await receiver.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a crash while delivering', () => {
  it('loses no matched event: after a restart every one reaches the receiver at least once', async () => {
    receiver.state.respond = () => 200;
    const first = startWorker();
    // Wait until events flow, then kill the process without warning.
    await receiver.waitFor((r) => r.length >= 10, 30_000);
    first.kill('SIGKILL');
    await exited(first);
    const atCrash = await db('webhook_events').where({ webhook_id: webhookId }).select('id', 'block_height', 'status', 'claimed_until');
    expect(atCrash.length).toBeGreaterThanOrEqual(10);
    // Some were being sent when the process died: claimed, not yet recorded.
    expect(atCrash.some((e) => e.status === 'pending' && e.claimed_until !== null)).toBe(true);

    const second = startWorker();
    try {
      const ids = new Set(atCrash.map((e) => e.id as string));
      await receiver.waitFor((r) => {
        const got = new Set(r.map((x) => x.body?.id));
        return [...ids].every((id) => got.has(id));
      }, 30_000);
      await sleep(500);
    } finally {
      second.kill('SIGTERM');
      await exited(second);
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
