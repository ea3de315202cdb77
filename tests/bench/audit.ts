// npm run bench:audit — the audit log page's query (listAuditEntries, the one GET
// /api/workspaces/:id/audit runs) over a workspace with 1 M entries spread over 400 days, on SQLite and
// on PostgreSQL (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test when reachable; a scratch
// database is created there and dropped after): the newest page, each filter alone (action, actor,
// a 7-day range 200 days back), all of them together, and a page 10,000 entries deep by cursor.
// Baseline of the same run: the newest page of a workspace with 1,000 entries, in the same database,
// so the ratio says how much a million entries cost. Target: p95 < 50 ms for each query on each engine.
//
// Environment: BENCH_AUDIT_ENTRIES (default 1000000), BENCH_AUDIT_REQUESTS (200 per query), BENCH_AUDIT_WARMUP (20).
import { createDb, isPostgres, migrateLatest, type Db } from '../../server/db/index';
import { listAuditEntries } from '../../server/features/audit/audit';
import { auditActions, type AuditPageQuery } from '../../shared/audit';
import { ms, ratio, row, summarize, table, machine, type LatencySummary } from './lib/report';
import { postgresEngine, sqliteEngine, type Engine as ScratchEngine } from './lib/scratch-db';
import { DAY_MS } from '../../shared/time';

const ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_AUDIT_REQUESTS ?? 200);
const WARMUP = Number(process.env.BENCH_AUDIT_WARMUP ?? 20);
const TARGET_MS = 50;
const SPAN_MS = 400 * DAY_MS;
const ACTORS = 20;
const BIG = 1;
const SMALL = 2;

setTimeout(() => {
  console.error('bench:audit: gave up after 840 s');
  process.exit(2);
}, 840_000).unref();

interface Engine {
  name: 'SQLite' | 'PostgreSQL';
  db: Db;
  drop(): Promise<void>;
}

/** A scratch database of lib/scratch-db.ts, opened; drop() closes it, then removes it. */
function opened(scratch: ScratchEngine): Engine {
  const db = createDb(scratch.databaseUrl ? { databaseUrl: scratch.databaseUrl } : { sqliteFile: scratch.sqliteFile! });
  return {
    name: scratch.name,
    db,
    drop: async () => {
      await db.destroy();
      await scratch.drop();
    },
  };
}

/**
 * `count` entries of workspace `ws` in one INSERT … SELECT over a number series, as the log grows:
 * times rising evenly over 400 days up to `now`, actions and actors spread pseudo-randomly.
 */
async function fill(db: Db, ws: number, count: number, now: number): Promise<void> {
  const pg = isPostgres(db);
  const n = 'n';
  const mix = (k: number, mod: number) => (pg ? `((${n}::bigint * ${k}) % ${mod})` : `((${n} * ${k}) % ${mod})`);
  const action = `CASE ${mix(7919, auditActions.length)} ${auditActions.map((a, i) => `WHEN ${i} THEN '${a}'`).join(' ')} END`;
  const actorNo = mix(104729, ACTORS + 2);
  const actor = `CASE WHEN ${actorNo} = ${ACTORS} THEN 'operator' WHEN ${actorNo} = ${ACTORS + 1} THEN 'system' ELSE 'user:' || (${actorNo} + 1) END`;
  const actorUserId = `CASE WHEN ${actorNo} < ${ACTORS} THEN ${actorNo} + 1 ELSE NULL END`;
  const label = `CASE WHEN ${actorNo} < ${ACTORS} THEN 'member' || (${actorNo} + 1) || '@bench.example' WHEN ${actorNo} = ${ACTORS} THEN 'operator@bench.example' ELSE 'Cairn' END`;
  const at = `${now - SPAN_MS} + ${pg ? `${n}::bigint` : n} * ${Math.floor(SPAN_MS / count)}`;
  const columns = 'workspace_id, at, actor, actor_user_id, actor_label, action, target_type, target_id, target_label, ip, user_agent, details';
  const select = `SELECT ${ws}, ${at}, ${actor}, ${actorUserId}, ${label}, ${action}, 'project', 'p-' || ${n}, 'Project ' || ${n}, '203.0.113.' || (${n} % 250), 'Mozilla/5.0 (X11; Linux x86_64) Bench/1.0', '{"from":"a","to":"b"}'`;
  // Chunks keep SQLite's one transaction (and PostgreSQL's WAL) to a moderate size.
  const CHUNK = 250_000;
  for (let start = 1; start <= count; start += CHUNK) {
    const end = Math.min(count, start + CHUNK - 1);
    if (pg) await db.raw(`INSERT INTO audit_entries (${columns}) ${select} FROM generate_series(${start}, ${end}) AS s(${n})`);
    else await db.raw(`WITH RECURSIVE s(${n}) AS (SELECT ${start} UNION ALL SELECT ${n} + 1 FROM s WHERE ${n} < ${end}) INSERT INTO audit_entries (${columns}) ${select} FROM s`);
  }
  await db.raw('ANALYZE');
}

async function measure(db: Db, ws: number, query: AuditPageQuery): Promise<{ summary: LatencySummary; rows: number }> {
  let rows = 0;
  for (let i = 0; i < WARMUP; i++) rows = (await listAuditEntries(db, ws, query)).entries.length;
  const samples = new Float64Array(REQUESTS);
  for (let i = 0; i < REQUESTS; i++) {
    const start = process.hrtime.bigint();
    await listAuditEntries(db, ws, query);
    samples[i] = Number(process.hrtime.bigint() - start) / 1e6;
  }
  return { summary: summarize(samples), rows };
}

async function run(engine: Engine): Promise<string[][]> {
  const { db } = engine;
  await migrateLatest(db);
  const now = Date.now();
  const started = Date.now();
  await fill(db, BIG, ENTRIES, now);
  await fill(db, SMALL, 1000, now);
  console.log(`${engine.name}: ${ENTRIES.toLocaleString('en-US')} entries written in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const day = (msAgo: number) => new Date(now - msAgo).toISOString().slice(0, 10);
  // A cursor 10,000 entries back: the page a user reaches after 200 clicks on Older.
  const deep = (await db('audit_entries').where({ workspace_id: BIG }).orderBy([{ column: 'at', order: 'desc' }, { column: 'id', order: 'desc' }]).offset(10_000).first('at', 'id')) as { at: number; id: number };
  // The combined filter asks for an actor and action that occur together in its range (one entry's own).
  const sample = (await db('audit_entries')
    .where({ workspace_id: BIG })
    .andWhere('at', '>=', now - 120 * DAY_MS + DAY_MS)
    .andWhere('actor', 'like', 'user:%')
    .orderBy('at')
    .first('actor', 'action')) as { actor: string; action: AuditPageQuery['action'] };
  const cases: Array<[string, AuditPageQuery]> = [
    ['newest page', {}],
    ['action filter', { action: 'webhook.secret_rotated' }],
    ['actor filter', { actor: 'user:7' }],
    ['7-day range 200 days back', { from: day(207 * DAY_MS), to: day(200 * DAY_MS) }],
    ['actor + action + 30-day range', { actor: sample.actor, action: sample.action, from: day(120 * DAY_MS), to: day(90 * DAY_MS) }],
    ['page 10,000 entries deep', { before: `${Number(deep.at)}.${Number(deep.id)}` }],
  ];
  const baseline = await measure(db, SMALL, {});
  const out: string[][] = [];
  for (const [name, query] of cases) {
    const { summary, rows } = await measure(db, BIG, query);
    const pass = summary.p95 < TARGET_MS && rows > 0;
    row({
      bench: 'audit',
      measure: `${engine.name} audit page, ${name}, p95 at ${(ENTRIES / 1e6).toLocaleString('en-US')} M entries`,
      figure: ms(summary.p95),
      baseline: ms(baseline.summary.p95),
      ratio: ratio(summary.p95, baseline.summary.p95),
      target: `< ${TARGET_MS} ms`,
      pass,
    });
    out.push([engine.name, name, String(rows), ms(summary.p50), ms(summary.p95), ms(summary.p99), ms(baseline.summary.p95)]);
  }
  return out;
}

async function main(): Promise<void> {
  console.log(`bench:audit on ${machine()}: ${REQUESTS} calls per query after ${WARMUP} warm-up calls\n`);
  const lines: string[][] = [];
  const openPostgres = async () => {
    const scratch = await postgresEngine('audit');
    return scratch ? opened(scratch) : null;
  };
  for (const make of [async () => opened(sqliteEngine('audit')), openPostgres]) {
    const engine = await make();
    if (!engine) continue;
    try {
      lines.push(...(await run(engine)));
    } finally {
      await engine.drop();
    }
  }
  console.log(`\n${table(['engine', 'query', 'rows', 'p50', 'p95', 'p99', 'baseline p95 (1,000 entries)'], lines, 2)}`);
}

main()
  .then(() => process.exit(process.exitCode ?? 0))
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
