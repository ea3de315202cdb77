// The metering flush on the real database engine: many rows in several statements, counts that add
// up across flushes, free text stored verbatim, nothing lost when a flush fails, and every statement
// written by the worker thread through its own connection.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../helpers/db-template';
import { makeProject, makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { Meter, type MeteredRequest } from '../../server/gateway/metering';
import { createLogger } from '../../server/logger';
import { isPostgres } from '../../server/db/index';
import { compactLatency, projectInsight } from '../../server/features/stats/insight';
import { binValueMs, latencyBin, LATENCY_BINS, LATENCY_BINS_PER_ROW } from '../../shared/insight';
import { DAY_MS } from '../../shared/time';

let database: TestDatabase;
let ownerId: number;
const projectIds: number[] = [];
const logger = createLogger('silent');

beforeAll(async () => {
  database = await freshDatabase(inject('dbTemplate'));
  const owner = await makeUser(database.db, 'metering@example.com', 'ENTERPRISE');
  ownerId = owner.id;
  const ws = await makeWorkspace(database.db, owner.id, []);
  // More projects than one statement carries (200 rows), so every table takes several statements.
  for (let i = 0; i < 260; i++) await makeProject(database.db, ws, `m${i}`);
  projectIds.push(...(await database.db('projects').where({ workspace_id: ws }).orderBy('id').pluck('id')).map(Number));
});
afterAll(() => database.drop());

const AT = Date.UTC(2026, 10, 22, 10, 30, 15);
const request = (projectId: number, over: Partial<MeteredRequest> = {}): MeteredRequest => ({
  projectId,
  ownerId,
  endpoint: '/blocks/latest',
  status: 200,
  ip: '127.0.0.1',
  userAgent: 'curl/8.5.0',
  admitted: true,
  at: AT,
  started: performance.now(),
  ...over,
});

/** How many of this process's file descriptors are open on `file`. */
function openedFile(file: string): number {
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`) === file) n++;
    } catch {
      // The descriptor closed meanwhile (the directory listing's own, for one).
    }
  }
  return n;
}

const sum = async (table: string, where: Record<string, unknown>) => Number((await database.db(table).where(where).sum({ n: 'requests' }).first())?.n ?? 0);

describe('metering flush', () => {
  it('writes every project in several statements and adds to the stored counts on the next flush', async () => {
    const meter = new Meter(database.db, logger, 60_000);
    for (const id of projectIds) for (let k = 0; k < 3; k++) meter.record(request(id));
    await meter.flush();
    for (const id of projectIds) meter.record(request(id, { status: 404, admitted: false }));
    await meter.flush();

    const day = AT - (AT % DAY_MS);
    const rollups = await database.db('usage_rollups').whereIn('project_id', projectIds).select('project_id', 'granularity', 'bucket_ms', 'requests');
    // One hour row and one day row per project: nothing per minute.
    expect(rollups).toHaveLength(projectIds.length * 2);
    expect(rollups.every((r) => Number(r.requests) === 4)).toBe(true);
    expect(new Set(rollups.filter((r) => r.granularity === 'd').map((r) => Number(r.bucket_ms)))).toEqual(new Set([day]));
    expect(new Set(rollups.filter((r) => r.granularity === 'h').map((r) => Number(r.bucket_ms)))).toEqual(new Set([Date.UTC(2026, 10, 22, 10)]));

    expect(await sum('usage_dimensions', { project_id: projectIds[7], dimension: 'status', value: '200' })).toBe(3);
    expect(await sum('usage_dimensions', { project_id: projectIds[7], dimension: 'status', value: '404' })).toBe(1);
    expect(await sum('usage_dimensions', { dimension: 'browser', value: 'curl' })).toBe(projectIds.length * 4);
    // Only admitted requests count toward the daily quota.
    expect(await sum('quota_usage', { user_id: ownerId, day_ms: day })).toBe(projectIds.length * 3);
  });

  it('splits one busy project into statements of bounded size (more IPs than either engine binds at once)', async () => {
    const meter = new Meter(database.db, logger, 60_000);
    const id = projectIds[99]!;
    // 70,000 distinct client IPs in one interval: one statement binding them all would pass both
    // SQLite's 32,766 and PostgreSQL's 65,535 parameters and fail the whole flush, every time.
    const IPS = 70_000;
    const before = { rows: await database.db('usage_dimensions').where({ project_id: id, dimension: 'ip' }).count({ n: '*' }).first(), day: await sum('usage_rollups', { project_id: id, granularity: 'd' }) };
    for (let i = 0; i < IPS; i++) meter.record(request(id, { ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` }));
    await meter.flush();
    const ips = await database.db('usage_dimensions').where({ project_id: id, dimension: 'ip' }).count({ n: '*' }).first();
    expect(Number(ips?.n) - Number(before.rows?.n)).toBe(IPS);
    expect(await sum('usage_rollups', { project_id: id, granularity: 'd' })).toBe(before.day + IPS);
  }, 60_000);

  it('counts exactly when the texts outgrow their numbering and it starts again, mid-interval', async () => {
    // Room for 10 texts: the 3 of the first record, then 2 new IPs a record; the numbering starts again every few records.
    const meter = new Meter(database.db, logger, 60_000, Date.now, 10);
    const id = projectIds[140]!;
    const ipSum = (ip: string) => sum('usage_dimensions', { project_id: id, dimension: 'ip', value: ip });
    const ips = Array.from({ length: 40 }, (_, i) => `198.51.100.${100 + i}`);
    const endpointBefore = await sum('usage_dimensions', { project_id: id, dimension: 'endpoint', value: '/blocks/latest' });
    for (const ip of ips) meter.record(request(id, { ip, userAgent: `agent-${ip}` }));
    meter.record(request(id, { ip: ips[0]! }));
    await meter.flush();
    expect(await ipSum(ips[0]!)).toBe(2);
    for (const ip of ips.slice(1)) expect(await ipSum(ip)).toBe(1);
    expect(await sum('usage_dimensions', { project_id: id, dimension: 'endpoint', value: '/blocks/latest' })).toBe(endpointBefore + 41);
  });

  it('adds up exactly over many flushes while the same projects and IPs come and go', async () => {
    const meter = new Meter(database.db, logger, 60_000);
    const [a, b] = [projectIds[120]!, projectIds[121]!];
    const ipSum = (id: number, ip: string) => sum('usage_dimensions', { project_id: id, dimension: 'ip', value: ip });
    const before = { a: await sum('usage_rollups', { project_id: a, granularity: 'd' }), b: await sum('usage_rollups', { project_id: b, granularity: 'h' }) };
    // Flush by flush: a is busy, then quiet for two intervals, then back; b only now and then.
    const plan: Array<Array<[number, string]>> = [
      [[a, '198.51.100.1'], [a, '198.51.100.1'], [b, '198.51.100.2']],
      [[a, '198.51.100.3']],
      [[b, '198.51.100.2']],
      [],
      [[a, '198.51.100.1'], [b, '198.51.100.2']],
    ];
    for (const round of plan) {
      for (const [id, ip] of round) meter.record(request(id, { ip }));
      await meter.flush();
    }
    expect(await ipSum(a, '198.51.100.1')).toBe(3);
    expect(await ipSum(a, '198.51.100.3')).toBe(1);
    expect(await ipSum(b, '198.51.100.2')).toBe(3);
    expect(await sum('usage_rollups', { project_id: a, granularity: 'd' })).toBe(before.a + 4);
    expect(await sum('usage_rollups', { project_id: b, granularity: 'h' })).toBe(before.b + 3);
  });

  it("counts the requests of private, loopback, link-local and CGNAT clients per day and in the window (the stats' 'Private network')", async () => {
    const meter = new Meter(database.db, logger, 60_000);
    const id = projectIds[130]!;
    const day = AT - (AT % DAY_MS);
    // The first test's flushes already counted this project's 127.0.0.1 requests.
    const before = { day: await sum('usage_dimensions', { project_id: id, dimension: 'private', day_ms: day, value: '*' }), window: await sum('usage_window', { project_id: id, dimension: 'private', value: '*' }) };
    const clients: Array<[string, number]> = [
      ['127.0.0.1', 3],
      ['10.2.3.4', 2],
      ['::1', 1],
      ['::ffff:192.168.1.4', 4],
      ['fe80::1', 1],
      ['100.64.0.9', 2], // CGNAT
      ['100.128.0.1', 5], // public (just past 100.64/10)
      ['172.32.0.1', 7], // public (just past 172.16/12)
      ['8.8.8.8', 9],
    ];
    for (const [ip, n] of clients) for (let k = 0; k < n; k++) meter.record(request(id, { ip }));
    await meter.flush();
    meter.record(request(id, { ip: '10.0.0.1' }));
    await meter.flush();
    expect(await sum('usage_dimensions', { project_id: id, dimension: 'private', day_ms: day, value: '*' })).toBe(before.day + 3 + 2 + 1 + 4 + 1 + 2 + 1);
    expect(await sum('usage_window', { project_id: id, dimension: 'private', value: '*' })).toBe(before.window + 3 + 2 + 1 + 4 + 1 + 2 + 1);
  });

  it('stores free text verbatim, quotes, question marks and backslashes included', async () => {
    const meter = new Meter(database.db, logger, 60_000);
    const odd = `it's "odd"?; -- ? ' ?`;
    // The flush writes texts as SQL literals: a backslash before a quote must not end the literal on either engine.
    meter.record(request(projectIds[0]!, { userAgent: odd, endpoint: "/x/?'\\'; drop table users; --", ip: '203.0.113.9' }));
    await meter.flush();
    const dims = await database.db('usage_dimensions').where({ project_id: projectIds[0] }).whereIn('dimension', ['browser', 'endpoint', 'ip', 'country']).select('dimension', 'value');
    expect(dims).toEqual(
      expect.arrayContaining([
        { dimension: 'browser', value: 'it' },
        { dimension: 'endpoint', value: "/x/?'\\'; drop table users; --" },
        { dimension: 'ip', value: '203.0.113.9' },
      ]),
    );
  });

  it('keeps the counts of a failed flush for the next one', async () => {
    const meter = new Meter(database.db, logger, 60_000);
    const id = projectIds[42]!;
    const before = await sum('usage_rollups', { project_id: id, granularity: 'd' });
    meter.record(request(id));
    // The table is missing for a moment: the flush fails as a whole and changes nothing.
    await database.db.schema.renameTable('usage_dimensions', 'usage_dimensions_away');
    try {
      await meter.flush();
    } finally {
      await database.db.schema.renameTable('usage_dimensions_away', 'usage_dimensions');
    }
    expect(await sum('usage_rollups', { project_id: id, granularity: 'd' })).toBe(before);

    meter.record(request(id));
    await meter.flush();
    expect(await sum('usage_rollups', { project_id: id, granularity: 'd' })).toBe(before + 2);
  });

  it('adds latency bins, errors per hour and failed requests up across flushes, and keeps them through a failed one', async () => {
    const meter = new Meter(database.db, logger, 60_000);
    // A project of its own: the other tests meter every project of the fixture.
    const { workspace_id: ws } = await database.db('projects').where({ id: projectIds[0] }).first('workspace_id');
    const uuid = await makeProject(database.db, ws as number, 'insight');
    const id = Number((await database.db('projects').where({ uuid }).first('id')).id);
    // record()'s second argument is the clock when the answer went out: the latency is the difference.
    const answer = (latencyMs: number, status = 200) => meter.record(request(id, { status, started: 1000, endpoint: `/s${status}` }), 1000 + latencyMs);
    for (const ms of [1, 1, 1, 250]) answer(ms);
    answer(250, 404);
    await meter.flush();
    answer(2, 503);
    await database.db.schema.renameTable('usage_dimensions', 'usage_dimensions_away');
    try {
      await meter.flush();
    } finally {
      await database.db.schema.renameTable('usage_dimensions_away', 'usage_dimensions');
    }
    expect(await database.db('failed_requests').where({ project_id: id }).pluck('status')).toEqual([404]);
    await meter.flush();

    const hour = AT - (AT % 3_600_000);
    const expected = new Array<number>(LATENCY_BINS).fill(0);
    for (const ms of [1, 1, 1, 250, 250, 2]) expected[latencyBin(ms)]! += 1;
    const histogram = async (granularity: 'h' | 'd') => {
      const bins = new Array<number>(LATENCY_BINS).fill(0);
      for (const row of await database.db('usage_latency').where({ project_id: id, granularity })) {
        for (let i = 0; i < LATENCY_BINS_PER_ROW; i++) bins[Number(row.first_bin) + i]! += Number(row[`b${i}`]);
      }
      return bins;
    };
    // The flush writes the hour's histogram only.
    expect(await histogram('h')).toEqual(expected);
    expect(await database.db('usage_latency').where({ project_id: id, granularity: 'd' }).first()).toBeUndefined();

    const insight = await projectInsight(database.db, id, AT + 60_000);
    const latency = { requests: 6, p50Ms: binValueMs(latencyBin(1)), p95Ms: binValueMs(latencyBin(250)), p99Ms: binValueMs(latencyBin(250)) };
    expect(insight.latency).toMatchObject(latency);
    expect(insight.statusClasses).toEqual({ '2xx': 4, '3xx': 0, '4xx': 1, '5xx': 1 });
    expect(insight.today.hours.find((h) => h.time === hour)).toEqual({ time: hour, requests: 6, errors4xx: 1, errors5xx: 1, p95Ms: binValueMs(latencyBin(250)) });
    expect(insight.recentFailures.map((f) => [f.endpoint, f.status])).toEqual([
      ['/s503', 503],
      ['/s404', 404],
    ]);

    // Once the day is over the retention pass moves its hours into a day row: the 30 days read the same.
    expect(await compactLatency(database.db, AT + DAY_MS)).toBeGreaterThan(0);
    expect(await histogram('h')).toEqual(new Array<number>(LATENCY_BINS).fill(0));
    expect(await histogram('d')).toEqual(expected);
    expect((await projectInsight(database.db, id, AT + DAY_MS)).latency).toMatchObject(latency);
    expect(await compactLatency(database.db, AT + DAY_MS)).toBe(0);
  });

  it('writes a big batch in parts: a failing part and those after it come back on the next flush, none counted twice', async () => {
    const db = database.db;
    const meter = new Meter(db, logger, 60_000);
    const last = projectIds.at(-1)!;
    const before = new Map<number, number>();
    for (const id of projectIds) before.set(id, await sum('usage_rollups', { project_id: id, granularity: 'd' }));
    // The last project's rows are refused for a while: its part fails, the parts before it commit.
    if (isPostgres(db)) {
      await db.raw(`create function refuse_metering() returns trigger language plpgsql as $$ begin raise exception 'refused for the test'; end $$`);
      await db.raw(`create trigger refuse_metering before insert on usage_rollups for each row when (new.project_id = ${last}) execute function refuse_metering()`);
    } else {
      await db.raw(`create trigger refuse_metering before insert on usage_rollups when new.project_id = ${last} begin select raise(abort, 'refused for the test'); end`);
    }
    // 260 projects of about a dozen rows each: several parts of about 1000 rows.
    for (const id of projectIds) meter.record(request(id));
    try {
      await meter.flush();
      expect(await sum('usage_rollups', { project_id: projectIds[0], granularity: 'd' })).toBe(before.get(projectIds[0]!)! + 1);
      expect(await sum('usage_rollups', { project_id: last, granularity: 'd' })).toBe(before.get(last));
    } finally {
      await db.raw('drop trigger refuse_metering' + (isPostgres(db) ? ' on usage_rollups' : ''));
      if (isPostgres(db)) await db.raw('drop function refuse_metering()');
    }
    await meter.flush();
    for (const id of projectIds) expect(await sum('usage_rollups', { project_id: id, granularity: 'd' })).toBe(before.get(id)! + 1);
  });

  it("writes a flush through the worker thread's own connection, which it closes on stop", async () => {
    const db = database.db;
    const id = projectIds[7]!;
    const before = await sum('usage_rollups', { project_id: id, granularity: 'd' });
    // The worker's connections: PostgreSQL names them; a SQLite connection holds the database's WAL
    // file open (the app's own connection holds it too, and the meters of the tests before this one
    // keep their workers' connections open). Not the database file itself: SQLite keeps a closed
    // connection's descriptor of it for the next, while another connection of the process holds locks on it.
    const metering = isPostgres(db)
      ? () => db.raw(`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'cairn-metering'`).then((r: { rows: Array<{ n: number }> }) => r.rows[0]!.n)
      : () => Promise.resolve(openedFile(`${database.sqliteFile!}-wal`));
    const others = await metering();
    const client = db.client as { acquireConnection: () => Promise<unknown> };
    const acquire = client.acquireConnection;
    let asked = 0;
    client.acquireConnection = function (this: unknown) {
      asked++;
      return acquire.call(this);
    };
    const meter = new Meter(db, logger, 60_000);
    try {
      for (let k = 0; k < 5; k++) meter.record(request(id));
      await meter.flush();
      await meter.flush({ paced: false });
      // Not one statement of the flushes ran on the gateway thread's connections.
      expect(asked).toBe(0);
    } finally {
      client.acquireConnection = acquire;
    }
    expect(await sum('usage_rollups', { project_id: id, granularity: 'd' })).toBe(before + 5);
    expect(await metering()).toBe(others + 1);
    meter.record(request(id));
    await meter.stop();
    expect(await sum('usage_rollups', { project_id: id, granularity: 'd' })).toBe(before + 6);
    await expect.poll(metering).toBe(others);
  });
});
