// Migration 2026-11-23-1900 fills in the per-day and 30-day 'private' counts (which the metering flush
// now writes) from the IP counts already stored, so 'Private network' keeps its figure after upgrading.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db-template';
import { makeProject, makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import * as migration from '../../server/db/migrations/2026-11-23-1900-private-network-counts';

let database: TestDatabase;
beforeAll(async () => {
  database = await freshDatabase(inject('dbTemplate'));
});
afterAll(() => database.drop());

describe('private network counts migration', () => {
  it('sums the private addresses of each project and day, and of each window', async () => {
    const { db } = database;
    const owner = await makeUser(db, 'backfill@example.com');
    const ws = await makeWorkspace(db, owner.id, []);
    const uuids = [await makeProject(db, ws, 'a'), await makeProject(db, ws, 'b')];
    const [a, b] = await Promise.all(uuids.map(async (uuid) => Number((await db('projects').where({ uuid }).first('id')).id)));
    const ip = (project_id: number, day_ms: number, value: string, requests: number) => ({ project_id, dimension: 'ip', day_ms, value, requests });
    const days = [ip(a!, 0, '127.0.0.1', 5), ip(a!, 0, 'FE80::1', 2), ip(a!, 0, '8.8.8.8', 9), ip(a!, 86_400_000, '10.0.0.1', 3), ip(a!, 86_400_000, '100.128.0.1', 4), ip(b!, 0, '::ffff:192.168.1.1', 6), ip(b!, 0, '172.32.0.1', 1)];
    await db('usage_dimensions').insert(days);
    await db('usage_window').insert([
      { project_id: a, dimension: 'ip', value: '127.0.0.1', requests: 5 },
      { project_id: a, dimension: 'ip', value: '10.0.0.1', requests: 3 },
      { project_id: a, dimension: 'ip', value: '8.8.8.8', requests: 9 },
      { project_id: b, dimension: 'ip', value: '203.0.113.1', requests: 2 },
    ]);
    await migration.up(db);
    const perDay = await db('usage_dimensions').where({ dimension: 'private' }).orderBy(['project_id', 'day_ms']).select('project_id', 'day_ms', 'value', 'requests');
    expect(perDay.map((r) => [Number(r.project_id), Number(r.day_ms), r.value, Number(r.requests)])).toEqual([
      [a, 0, '*', 7],
      [a, 86_400_000, '*', 3],
      [b, 0, '*', 6],
    ]);
    const window = await db('usage_window').where({ dimension: 'private' }).select('project_id', 'value', 'requests');
    expect(window.map((r) => [Number(r.project_id), r.value, Number(r.requests)])).toEqual([[a, '*', 8]]);
    await migration.down(db);
    expect(Number((await db('usage_dimensions').where({ dimension: 'private' }).count({ n: '*' }).first())?.n)).toBe(0);
    expect(Number((await db('usage_window').where({ dimension: 'private' }).count({ n: '*' }).first())?.n)).toBe(0);
  });
});
