import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { makeProject, makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { RETENTION, pruneOnce } from '../../server/features/stats/retention';
import * as dropMinuteRollups from '../../server/db/migrations/2026-11-24-2300-drop-minute-rollups';
import { DAY_MS } from '../../shared/time';

// The retention pass keeps the tables that only grow from growing without bound.
const app = useTestApp();

const count = async (table: string, where: Record<string, unknown> = {}) => Number((await app.db(table).where(where).count({ n: '*' }))[0]!.n);

describe('retention', () => {
  it('prunes old and orphaned rows on this engine, keeps everything still in use, and calls the outbox hook', async () => {
    const now = Date.UTC(2026, 10, 23, 12);
    const today = now - (now % DAY_MS);
    const owner = await makeUser(app.db, 'keeper@retention.example');
    const ws = await makeWorkspace(app.db, owner.id, []);
    const uuid = await makeProject(app.db, ws);
    const live = (await app.db('projects').where({ uuid }).first('id')).id as number;
    const gone = live + 100_000;

    await app.db('gateway_changes').insert([
      { kind: 'project', ref: 'old', created_at: now - RETENTION.gatewayChangesMs - 1 },
      { kind: 'project', ref: 'recent', created_at: now - 1000 },
    ]);
    await app.db('usage_rollups').insert([
      { project_id: live, granularity: 'h', bucket_ms: now - RETENTION.hourRollupsMs - 3_600_000, requests: 1 },
      { project_id: live, granularity: 'h', bucket_ms: today, requests: 1 },
      { project_id: live, granularity: 'd', bucket_ms: today - RETENTION.dayRollupsMs - DAY_MS, requests: 1 },
      { project_id: live, granularity: 'd', bucket_ms: today - 29 * DAY_MS, requests: 1 },
      { project_id: gone, granularity: 'd', bucket_ms: today, requests: 5 },
    ]);
    await app.db('usage_dimensions').insert([
      { project_id: live, dimension: 'country', day_ms: today - RETENTION.dimensionsMs - DAY_MS, value: 'DE', requests: 1 },
      { project_id: live, dimension: 'country', day_ms: today - 29 * DAY_MS, value: 'DE', requests: 1 },
      { project_id: gone, dimension: 'country', day_ms: today, value: 'FR', requests: 1 },
    ]);
    await app.db('quota_usage').insert([
      { user_id: owner.id, day_ms: today - RETENTION.quotaUsageMs - DAY_MS, requests: 1 },
      { user_id: owner.id, day_ms: today, requests: 1 },
    ]);
    await app.db('sessions').insert([
      { sid: crypto.randomUUID(), sess: '{}', expires_at: now - 1 },
      { sid: crypto.randomUUID(), sess: '{}', expires_at: now + 3_600_000 },
    ]);
    await app.db('sign_in_throttle').insert([
      { key: 'ip:old', window_start: now - 3_600_000, count: 3 },
      { key: 'ip:current', window_start: now - (now % 900_000), count: 3 },
    ]);
    const signIn = (name: string, row: Record<string, unknown>) => ({
      request_hash: crypto.createHash('sha256').update(name).digest('hex'),
      code_challenge: 'c',
      state: name,
      redirect_uri: 'http://127.0.0.1:45678/callback',
      created_at: now - 60_000,
      ...row,
    });
    const code = (name: string) => crypto.createHash('sha256').update(`code ${name}`).digest('hex');
    await app.db('desktop_sign_ins').insert([
      signIn('expired', { expires_at: now - 1 }),
      signIn('waiting', { expires_at: now + 60_000 }),
      signIn('code-live', { expires_at: now - 1, user_id: owner.id, code_hash: code('live'), code_expires_at: now + 60_000 }),
      signIn('code-expired', { expires_at: now + 60_000, user_id: owner.id, code_hash: code('expired'), code_expires_at: now - 1 }),
      signIn('spent', { expires_at: now + 60_000, user_id: owner.id, code_hash: code('spent'), code_expires_at: now + 60_000, used_at: now - 1 }),
    ]);
    const changesBefore = await count('gateway_changes');
    const hookCalls: number[] = [];

    const report = await pruneOnce(app.db, now, { pruneWebhookOutbox: async (_db, at) => (hookCalls.push(at), 7) });

    expect(hookCalls).toEqual([now]);
    expect(report.webhook_outbox).toBe(7);
    expect(await count('gateway_changes')).toBe(changesBefore - 1);
    expect(await app.db('gateway_changes').where({ ref: 'old' }).first()).toBeUndefined();
    expect((await app.db('usage_rollups').where({ project_id: live }).orderBy(['granularity', 'bucket_ms']).select('granularity')).map((r) => r.granularity)).toEqual(['d', 'h']);
    expect(await count('usage_rollups', { project_id: gone })).toBe(0);
    expect(await count('usage_dimensions', { project_id: live })).toBe(1);
    expect(await count('usage_dimensions', { project_id: gone })).toBe(0);
    expect(await count('quota_usage', { user_id: owner.id })).toBe(1);
    expect(await app.db('sessions').where('expires_at', '<=', now).first()).toBeUndefined();
    expect(await count('sessions')).toBeGreaterThanOrEqual(1);
    expect(await app.db('sign_in_throttle').select('key')).toEqual([{ key: 'ip:current' }]);
    expect(report.usage_of_deleted_projects).toBe(2);
    // A desktop sign-in goes as soon as it can do nothing more: not at its expiry plus a window.
    expect((await app.db('desktop_sign_ins').orderBy('state').select('state')).map((r) => r.state)).toEqual(['code-live', 'waiting']);
    expect(report.desktop_sign_ins).toBe(3);

    // A second pass finds nothing more to do.
    const again = await pruneOnce(app.db, now);
    expect(Object.values(again).reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('keeps request insight for its chart and its 30 days only, and drops it with its project', async () => {
    const now = Date.UTC(2026, 10, 23, 12);
    const today = now - (now % DAY_MS);
    const owner = await makeUser(app.db, 'insight@retention.example');
    const ws = await makeWorkspace(app.db, owner.id, []);
    const uuid = await makeProject(app.db, ws);
    const live = (await app.db('projects').where({ uuid }).first('id')).id as number;
    const gone = live + 200_000;
    const bins = { first_bin: 16, b3: 1, b4: 0 };
    await app.db('usage_latency').insert([
      // Hours of days gone by become day rows; today's stay for the chart.
      { project_id: live, granularity: 'h', bucket_ms: today - 2 * DAY_MS + 11 * 3_600_000, ...bins },
      { project_id: live, granularity: 'h', bucket_ms: today - 2 * DAY_MS + 15 * 3_600_000, first_bin: 16, b3: 2, b4: 5 },
      { project_id: live, granularity: 'h', bucket_ms: today, ...bins },
      { project_id: live, granularity: 'd', bucket_ms: today - RETENTION.dayLatencyMs - DAY_MS, ...bins },
      { project_id: live, granularity: 'd', bucket_ms: today - 29 * DAY_MS, ...bins },
      { project_id: gone, granularity: 'd', bucket_ms: today, ...bins },
    ]);
    await app.db('usage_error_hours').insert([
      { project_id: live, hour_ms: now - RETENTION.hourInsightMs - 3_600_000, status_class: 4, requests: 2 },
      { project_id: live, hour_ms: today, status_class: 5, requests: 1 },
      { project_id: gone, hour_ms: today, status_class: 4, requests: 1 },
    ]);
    await app.db('failed_requests').insert([
      { project_id: live, at_ms: now - RETENTION.failedRequestsMs - 1, endpoint: '/old', status: 404, ip: '203.0.113.1' },
      { project_id: live, at_ms: now - 1000, endpoint: '/recent', status: 500, ip: '203.0.113.1' },
      { project_id: gone, at_ms: now - 1000, endpoint: '/gone', status: 500, ip: '203.0.113.1' },
    ]);

    const report = await pruneOnce(app.db, now);

    expect(await app.db('usage_latency').where({ project_id: live }).orderBy(['granularity', 'bucket_ms']).select('granularity', 'bucket_ms', 'b3', 'b4')).toEqual([
      { granularity: 'd', bucket_ms: today - 29 * DAY_MS, b3: 1, b4: 0 },
      { granularity: 'd', bucket_ms: today - 2 * DAY_MS, b3: 3, b4: 5 },
      { granularity: 'h', bucket_ms: today, b3: 1, b4: 0 },
    ]);
    expect(await app.db('usage_error_hours').where({ project_id: live }).pluck('hour_ms')).toEqual([today]);
    expect(await app.db('failed_requests').where({ project_id: live }).pluck('endpoint')).toEqual(['/recent']);
    for (const table of ['usage_latency', 'usage_error_hours', 'failed_requests']) expect(await count(table, { project_id: gone })).toBe(0);
    expect(report.usage_latency_hours_moved).toBe(2);
    expect(report.usage_latency).toBe(1);
    expect(report.usage_error_hours).toBe(1);
    expect(report.failed_requests).toBe(1);
  });

  it('never removes the newest gateway change, however old', async () => {
    await app.db('gateway_changes').delete();
    await app.db('gateway_changes').insert({ kind: 'project', ref: 'only', created_at: 1 });
    await pruneOnce(app.db, Date.now());
    expect(await count('gateway_changes')).toBe(1);
  });

  it('drops per-minute rollups (the meter writes none), and only those', async () => {
    const owner = await makeUser(app.db, 'minutes@retention.example');
    const uuid = await makeProject(app.db, await makeWorkspace(app.db, owner.id, []));
    const id = (await app.db('projects').where({ uuid }).first('id')).id as number;
    await app.db('usage_rollups').insert([
      { project_id: id, granularity: 'm', bucket_ms: 60_000, requests: 1 },
      { project_id: id, granularity: 'm', bucket_ms: 120_000, requests: 2 },
      { project_id: id, granularity: 'h', bucket_ms: 0, requests: 3 },
      { project_id: id, granularity: 'd', bucket_ms: 0, requests: 3 },
    ]);
    await dropMinuteRollups.up(app.db);
    expect((await app.db('usage_rollups').where({ project_id: id }).orderBy('granularity').select('granularity')).map((r) => r.granularity)).toEqual(['d', 'h']);
  });
});
