// npm run bench:dashboard — every GET the dashboard makes (desktop/renderer/src/**/queries.ts), through
// the real app over HTTP, signed in (magic link), over a user's data at three scales, on SQLite and on
// PostgreSQL (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test when reachable; a scratch
// database per scale is created there and dropped after). At 100× the user belongs to 100 workspaces;
// the one they own holds 1,000 projects, 100 webhooks with 10,000 deliveries each (1 M, one attempt
// apiece), 1 M audit entries, 100 members, 50 pending invitations and 10,000 pay-as-you-go orders (a
// third of them paid, each with its payment), the other workspaces 10 orders each, a workspace the user
// is not in another 10,000, and the user's subscription log 1,000 entries; 10× and 1× are that seed
// divided by 10 and by 100. Each call runs REQUESTS times after a warm-up, the calls alternating; the second
// pages of the paged lists are fetched with the cursor the first page answered. Baseline of the same
// run: GET /api/me. Target: p95 ≤ 30 ms for every call at every scale on each engine. Writes
// docs/benchmarks/dashboard-growth.svg (the slowest call's p95 and GET /api/me per engine and scale).
//
// Environment: BENCH_DASHBOARD_REQUESTS (default 50 per call and scale), BENCH_DASHBOARD_WARMUP (5),
// BENCH_DASHBOARD_SCALES (e.g. "1,10": from 1, 10, 100).
import crypto from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../server/config';
import { createApp } from '../../server/app';
import { createDb, isPostgres, migrateLatest, type Db } from '../../server/db/index';
import { createLogger } from '../../server/logger';
import { devMailbox } from '../../server/mail/mailer';
import { auditActions } from '../../shared/audit';
import { makeUser } from '../helpers/workspace-fixture';
import { machine, ms, ratio, row, summarize, table, type LatencySummary } from './lib/report';
import { writeGrowthChart } from './lib/chart';
import { postgresEngine, sqliteEngine, type Engine } from './lib/scratch-db';
import { DAY_MS } from '../../shared/time';

const SCALES = [1, 10, 100].filter((s) => !process.env.BENCH_DASHBOARD_SCALES || process.env.BENCH_DASHBOARD_SCALES.split(',').map(Number).includes(s));
const REQUESTS = Number(process.env.BENCH_DASHBOARD_REQUESTS ?? 50);
const WARMUP = Number(process.env.BENCH_DASHBOARD_WARMUP ?? 5);
const TARGET_MS = 30;
const SESSION_SECRET = 'bench-session-secret-that-is-long-enough-0123456789';
const EMAIL = 'bench-user@example.com';

setTimeout(() => {
  console.error('bench:dashboard: gave up after 880 s');
  process.exit(2);
}, 880_000).unref();

/** The data set at a scale: 100 is the full one. */
function seedSize(scale: number) {
  const f = scale / 100;
  return {
    workspaces: Math.max(1, Math.round(100 * f)),
    projects: Math.round(1000 * f),
    webhooks: Math.max(1, Math.round(100 * f)),
    deliveriesPerWebhook: Math.round(10_000 * f),
    audit: Math.round(1_000_000 * f),
    members: Math.max(1, Math.round(100 * f)),
    invitations: Math.max(1, Math.round(50 * f)),
    orders: Math.round(10_000 * f),
    ordersPerTeamWorkspace: 10,
    strangerOrders: Math.round(10_000 * f),
    subscriptionLogs: Math.round(1_000 * f),
  };
}
type SeedSize = ReturnType<typeof seedSize>;

/** INSERT … SELECT over the numbers start..end: generate_series on PostgreSQL, a recursive CTE on SQLite. */
async function insertSeries(db: Db, count: number, sql: (n: string) => { table: string; columns: string; select: string }): Promise<void> {
  const pg = isPostgres(db);
  const n = pg ? 'n::bigint' : 'n';
  const { table: t, columns, select } = sql(n);
  const CHUNK = 250_000;
  for (let start = 1; start <= count; start += CHUNK) {
    const end = Math.min(count, start + CHUNK - 1);
    if (pg) await db.raw(`INSERT INTO ${t} (${columns}) SELECT ${select} FROM generate_series(${start}, ${end}) AS s(n)`);
    else await db.raw(`WITH RECURSIVE s(n) AS (SELECT ${start} UNION ALL SELECT n + 1 FROM s WHERE n < ${end}) INSERT INTO ${t} (${columns}) SELECT ${select} FROM s`);
  }
}

async function batchInsert(db: Db, table: string, rows: Array<Record<string, unknown>>): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) await db(table).insert(rows.slice(i, i + 200));
}

/** A uuid made of two numbers, the same text on both engines (PostgreSQL casts it to uuid). */
const uuidSql = (pg: boolean, a: string, b: string) =>
  pg
    ? `(lpad(to_hex(${a}), 8, '0') || '-0000-4000-8000-' || lpad(to_hex(${b}), 12, '0'))::uuid`
    : `(printf('%08x', ${a}) || '-0000-4000-8000-' || printf('%012x', ${b}))`;

interface Seeded {
  workspaceId: number;
  projectUuid: string;
  webhookId: string;
  eventId: string;
}

async function seed(db: Db, size: SeedSize, now: number): Promise<Seeded> {
  const pg = isPostgres(db);
  const user = await makeUser(db, EMAIL, 'ENTERPRISE');
  const other = await makeUser(db, 'bench-other-owner@example.com', 'ENTERPRISE');
  // The user's own workspace, then the others they were invited to as administrator.
  const [own] = await db('workspaces').insert({ name: 'Bench workspace', owner_id: user.id, created_at: now, updated_at: now }).returning('id');
  const workspaceId = typeof own === 'object' ? (own as { id: number }).id : (own as number);
  await db('workspace_members').insert({ workspace_id: workspaceId, user_id: user.id, role: 'owner', created_at: now });
  for (let i = 1; i < size.workspaces; i++) {
    const [r] = await db('workspaces').insert({ name: `Team workspace ${i}`, owner_id: other.id, created_at: now, updated_at: now }).returning('id');
    const id = typeof r === 'object' ? (r as { id: number }).id : (r as number);
    await db('workspace_members').insert([
      { workspace_id: id, user_id: other.id, role: 'owner', created_at: now },
      { workspace_id: id, user_id: user.id, role: 'administrator', created_at: now + 1 },
    ]);
  }
  // Members and pending invitations of the user's workspace.
  const memberIds: number[] = [];
  for (let i = 1; i < size.members; i++) memberIds.push((await makeUser(db, `bench-member-${i}@example.com`)).id);
  await batchInsert(db, 'workspace_members', memberIds.map((id, i) => ({ workspace_id: workspaceId, user_id: id, role: i % 3 === 0 ? 'maintainer' : 'collaborator', created_at: now + i + 1 })));
  await batchInsert(
    db,
    'workspace_invitations',
    Array.from({ length: size.invitations }, (_, i) => ({
      id: crypto.randomUUID(),
      workspace_id: workspaceId,
      token_hash: crypto.randomBytes(32).toString('hex'),
      email: `invited-${i}@example.com`,
      role: 'collaborator',
      invited_by: user.id,
      created_at: now - i,
      expires_at: now + 7 * DAY_MS,
    })),
  );
  // Projects, each with 30 days of daily usage (the 'requests today' of the list, the project page's history).
  const projects = Array.from({ length: size.projects }, (_, i) => ({
    uuid: crypto.randomUUID(),
    workspace_id: workspaceId,
    name: `Project ${String(i + 1).padStart(4, '0')}`,
    project_id: `mainnet${crypto.randomBytes(16).toString('hex')}`,
    network_id: 0,
    created_at: now - (size.projects - i),
    updated_at: now,
  }));
  await batchInsert(db, 'projects', projects);
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  await db.raw(
    `INSERT INTO usage_rollups (granularity, bucket_ms, project_id, requests) SELECT 'd', ${today} - CAST(d.k AS bigint) * ${DAY_MS}, p.id, 1000 + (p.id * 7 + d.k * 13) % 5000 FROM projects p CROSS JOIN (${Array.from({ length: 30 }, (_, k) => `SELECT ${k} AS k`).join(' UNION ALL ')}) d WHERE p.workspace_id = ?`,
    [workspaceId],
  );
  // Webhooks, each with its deliveries over the last 30 days (1 in 20 failed) and one attempt per delivery.
  const webhooks = Array.from({ length: size.webhooks }, (_, i) => ({
    id: `${(i + 1).toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`,
    workspace_id: workspaceId,
    name: `Webhook ${i + 1}`,
    description: null,
    network: 0,
    type: 'block',
    target_url: 'https://hooks.example.com/cairn',
    confirmations: 0,
    status: 'enabled',
    conditions: '[]',
    auth_token: crypto.randomBytes(32).toString('hex'),
    created_at: now - (size.webhooks - i),
    updated_at: now,
  }));
  await batchInsert(db, 'webhooks', webhooks);
  const perHook = size.deliveriesPerWebhook;
  const total = perHook * size.webhooks;
  const step = Math.max(1, Math.floor((30 * DAY_MS) / Math.max(1, perHook)));
  // Event n belongs to webhook (n - 1) / perHook + 1; its time runs over 30 days up to now.
  const hookNo = (n: string) => `((${n} - 1) / ${perHook} + 1)`;
  const createdAt = (n: string) => `(${now} - (${perHook} - ((${n} - 1) % ${perHook})) * ${step})`;
  await insertSeries(db, total, (n) => ({
    table: 'webhook_events',
    columns: 'id, webhook_id, type, network, block_height, block_hash, body, created, status, attempts, next_attempt_at, test, created_at',
    select: `${uuidSql(pg, hookNo(n), n)}, ${uuidSql(pg, hookNo(n), '0')}, 'block', 0, ${n}, NULL, '{"type":"block","payload":{"height":' || ${n} || '}}', ${createdAt(n)} / 1000, CASE WHEN ${n} % 20 = 0 THEN 'failed' ELSE 'delivered' END, 1, ${createdAt(n)}, ${pg ? 'false' : '0'}, ${createdAt(n)}`,
  }));
  await insertSeries(db, total, (n) => ({
    table: 'webhook_attempts',
    columns: 'event_id, attempted_at, status_code, duration_ms, response_excerpt, error, success',
    select: `${uuidSql(pg, hookNo(n), n)}, ${createdAt(n)} + 150, CASE WHEN ${n} % 20 = 0 THEN 500 ELSE 200 END, 120, 'ok', NULL, ${pg ? `${n} % 20 <> 0` : `CASE WHEN ${n} % 20 = 0 THEN 0 ELSE 1 END`}`,
  }));
  // The audit log: its entries over 400 days up to now, actions spread over every kind.
  const action = (n: string) => `CASE (${n} * 7919) % ${auditActions.length} ${auditActions.map((a, i) => `WHEN ${i} THEN '${a}'`).join(' ')} END`;
  await insertSeries(db, size.audit, (n) => ({
    table: 'audit_entries',
    columns: 'workspace_id, at, actor, actor_user_id, actor_label, action, target_type, target_id, target_label, ip, user_agent, details',
    select: `${workspaceId}, ${now - 400 * DAY_MS} + ${n} * ${Math.floor((400 * DAY_MS) / Math.max(1, size.audit))}, 'user:${user.id}', ${user.id}, '${EMAIL}', ${action(n)}, 'project', 'p-' || ${n}, 'Project ' || ${n}, '203.0.113.7', 'Mozilla/5.0 Bench/1.0', '{"from":"a","to":"b"}'`,
  }));
  // Pay-as-you-go orders: the user's workspace, each of the others, and a workspace the user is not in
  // (its orders never listed, nor read on the way to the user's).
  const [strangerWs] = await db('workspaces').insert({ name: 'Another team', owner_id: other.id, created_at: now, updated_at: now }).returning('id');
  const strangerWorkspaceId = typeof strangerWs === 'object' ? (strangerWs as { id: number }).id : (strangerWs as number);
  await db('workspace_members').insert({ workspace_id: strangerWorkspaceId, user_id: other.id, role: 'owner', created_at: now });
  const teamIds = (await db('workspace_members').where({ user_id: user.id }).whereNot({ workspace_id: workspaceId }).orderBy('workspace_id').pluck('workspace_id')).map(Number);
  const orders = (count: number, workspace: (n: string) => string, buyer: number, tag: string) =>
    insertSeries(db, count, (n) => ({
      table: 'ppu_orders',
      columns: 'workspace_id, user_id, network, address, requests, price_per_unit_eur, ada_eur_rate, total_eur, lovelace, status, received_lovelace, credited_requests, first_payment_height, created_at, expires_at, paid_at',
      select:
        `${workspace(n)}, ${buyer}, 'cardano-mainnet', 'addr_bench_${tag}_' || ${n}, 1000000, 0.0000015, 0.42, 1.5, 3571429, ` +
        `CASE WHEN ${n} % 3 = 0 THEN 'paid' ELSE 'expired' END, CASE WHEN ${n} % 3 = 0 THEN 3571429 ELSE 0 END, CASE WHEN ${n} % 3 = 0 THEN 1000000 ELSE 0 END, ` +
        `CASE WHEN ${n} % 3 = 0 THEN ${n} ELSE NULL END, ${now - 400 * DAY_MS} + ${n} * 60000, ${now - 400 * DAY_MS} + ${n} * 60000 + 3600000, CASE WHEN ${n} % 3 = 0 THEN ${now - 400 * DAY_MS} + ${n} * 60000 + 600000 ELSE NULL END`,
    }));
  await orders(size.orders, () => String(workspaceId), user.id, 'own');
  if (teamIds.length) await orders(teamIds.length * size.ordersPerTeamWorkspace, (n) => `CASE ((${n} - 1) % ${teamIds.length}) ${teamIds.map((id, i) => `WHEN ${i} THEN ${id}`).join(' ')} END`, user.id, 'team');
  await orders(size.strangerOrders, () => String(strangerWorkspaceId), other.id, 'stranger');
  const hex64 = (v: string) => (pg ? `lpad(to_hex(${v}), 64, '0')` : `printf('%064x', ${v})`);
  await db.raw(
    `INSERT INTO ppu_payments (tx_hash, output_index, order_id, lovelace, height, block_hash, seen_at) SELECT ${hex64('id')}, 0, id, lovelace, first_payment_height, ${hex64('first_payment_height')}, paid_at FROM ppu_orders WHERE status = 'paid'`,
  );
  // The user's subscription log: its entries over 400 days up to now.
  await insertSeries(db, size.subscriptionLogs, (n) => ({
    table: 'subscription_logs',
    columns: 'user_id, workspace_id, type, plan, period, status, amount, currency, provider, created_at',
    select: `${user.id}, ${workspaceId}, CASE WHEN ${n} % 10 = 0 THEN 'ppu_order' ELSE 'renewal' END, 'ENTERPRISE', 'month', 'paid', 4900, 'eur', 'local', ${now - 400 * DAY_MS} + ${n} * ${Math.floor((400 * DAY_MS) / Math.max(1, size.subscriptionLogs))}`,
  }));
  await db.raw('ANALYZE');
  const firstHook = webhooks[0]!.id;
  const newest = (await db('webhook_events').where({ webhook_id: firstHook }).orderBy('created_at', 'desc').first('id')) as { id: string };
  return { workspaceId, projectUuid: projects[0]!.uuid, webhookId: firstHook, eventId: newest.id };
}

/** GET with a keep-alive agent; answers status, body text and the time to the last byte. */
function timedGet(agent: http.Agent, url: string, cookie: string): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    http
      .get(url, { agent, headers: { cookie, accept: 'application/json' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ms: Number(process.hrtime.bigint() - start) / 1e6 }));
      })
      .on('error', reject);
  });
}

/** The magic-link sign-in a person does: CSRF token, ask for a link, read it from the dev mailbox, open it. */
async function signIn(baseUrl: string, mailbox: ReturnType<typeof devMailbox>, email: string): Promise<string> {
  const jar = new Map<string, string>();
  const call = async (method: string, p: string, body?: unknown, csrf?: string) => {
    const headers: Record<string, string> = { accept: 'application/json', cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (csrf) headers['x-csrf-token'] = csrf;
    const res = await fetch(baseUrl + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      jar.set(pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim());
    }
    return res;
  };
  const csrf = ((await (await call('GET', '/auth/csrf')).json()) as { data: { csrfToken: string } }).data.csrfToken;
  const asked = await call('POST', '/auth/signin/email', { email, callbackUrl: '/dashboard' }, csrf);
  if (asked.status !== 200) throw new Error(`sign-in link request answered ${asked.status}: ${await asked.text()}`);
  const mail = mailbox.captured().find((m) => m.to === email);
  const link = mail && /(https?:\/\/\S+\/auth\/callback\/email\?\S+)/.exec(mail.text)?.[1];
  if (!link) throw new Error(`no sign-in mail to ${email}`);
  const u = new URL(link);
  const back = await call('GET', u.pathname + u.search);
  if (back.status !== 302) throw new Error(`sign-in callback answered ${back.status} → ${back.headers.get('location')}`);
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

/** Every GET the dashboard's screens make, by the path the renderer calls. */
function dashboardCalls(s: Seeded): Array<[name: string, path: string]> {
  const ws = `/api/workspaces/${s.workspaceId}`;
  const hook = `${ws}/webhooks/${s.webhookId}`;
  return [
    ['me', '/api/me'],
    ['session', '/api/session'],
    ['site', '/api/site'],
    ['has-new-deploy', '/api/has-new-deploy'],
    ['networks', '/api/networks'],
    ['workspaces', '/api/workspaces'],
    ['workspace', ws],
    ['quota', `${ws}/quota`],
    ['billing', `${ws}/billing`],
    ['addons', `${ws}/addons`],
    ['members', `${ws}/members`],
    ['invitations', `${ws}/invitations`],
    ['projects', `${ws}/projects`],
    ['projects search', `${ws}/projects?q=0042`],
    ['project', `/api/projects/${s.projectUuid}`],
    ['project stats', `${ws}/projects/${s.projectUuid}/stats`],
    ['project history', `/api/projects/${s.projectUuid}/history`],
    ['project insight', `${ws}/projects/${s.projectUuid}/insight`],
    ['webhooks', `${ws}/webhooks`],
    ['webhook', hook],
    ['deliveries', `${hook}/events?page=1`],
    ['deliveries, last page', `${hook}/events?page=LAST`],
    ['delivery payload', `${hook}/events/${s.eventId}`],
    ['audit log', `${ws}/audit`],
    ['audit log, action filter', `${ws}/audit?action=project.created`],
    ['ppu orders', '/api/ppu/orders'],
    ['subscription logs', '/api/logs'],
    ['customer settings', '/api/customer/settings'],
    ['account sessions', '/api/account/sessions'],
    ['billing plans', '/api/billing/plans'],
  ];
}

/** The paged lists whose second page is fetched with the first page's `next`. */
const PAGED = ['workspaces', 'members', 'projects', 'webhooks', 'ppu orders', 'subscription logs', 'account sessions'] as const;

interface ScaleResult {
  scale: number;
  calls: Map<string, LatencySummary>;
}

async function runScale(engine: Engine, scale: number): Promise<ScaleResult> {
  const db: Db = createDb(engine.databaseUrl ? { databaseUrl: engine.databaseUrl } : { sqliteFile: engine.sqliteFile! });
  const server = http.createServer();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let close = () => undefined as void;
  try {
    await migrateLatest(db);
    const size = seedSize(scale);
    const started = performance.now();
    const seeded = await seed(db, size, Date.now());
    console.log(
      `${engine.name} ${scale}×: ${size.workspaces} workspaces, ${size.projects} projects, ${size.webhooks} webhooks × ${size.deliveriesPerWebhook.toLocaleString('en')} deliveries, ` +
        `${size.audit.toLocaleString('en')} audit entries, ${size.members} members, ${size.invitations} invitations, ${size.orders.toLocaleString('en')} orders, ` +
        `${size.subscriptionLogs.toLocaleString('en')} subscription log entries seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const config = loadConfig({
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      SESSION_SECRET,
      DATA_DIR: os.tmpdir(),
      ...(engine.databaseUrl ? { DATABASE_URL: engine.databaseUrl } : {}),
    });
    const logger = createLogger('info', new Writable({ write: (_c, _e, cb) => cb() }));
    const mailer = devMailbox(logger);
    const app = createApp({ config, db, logger, mailer, sessionSecret: SESSION_SECRET });
    close = app.close;
    server.on('request', app.app);
    const cookie = await signIn(baseUrl, mailer, EMAIL);

    const calls = dashboardCalls(seeded);
    // The last page of deliveries, as the page links reach it.
    const first = JSON.parse((await timedGet(agent, baseUrl + calls.find(([n]) => n === 'deliveries')![1], cookie)).body) as { data: { pages: number } };
    for (const c of calls) c[1] = c[1].replace('page=LAST', `page=${first.data.pages}`);
    // Second pages, by the cursor of the first.
    for (const name of PAGED) {
      const [, p] = calls.find(([n]) => n === name)!;
      const r = await timedGet(agent, baseUrl + p, cookie);
      const body = JSON.parse(r.body) as { data: unknown[]; next: string | null };
      if (r.status !== 200 || !Array.isArray(body.data)) throw new Error(`${name} answered ${r.status}: ${r.body.slice(0, 300)}`);
      if (body.next) calls.push([`${name}, page 2`, `${p}?cursor=${encodeURIComponent(body.next)}`]);
    }
    // Every answer is checked once: a 200, and a page never longer than the largest page size.
    for (const [name, p] of calls) {
      const r = await timedGet(agent, baseUrl + p, cookie);
      if (r.status !== 200) throw new Error(`${name} (${p}) answered ${r.status}: ${r.body.slice(0, 300)}`);
      const body = JSON.parse(r.body) as { data: unknown };
      if (Array.isArray(body.data) && body.data.length > 100) throw new Error(`${name} answered ${body.data.length} items: not paged`);
    }
    const samples = new Map(calls.map(([name]) => [name, new Float64Array(REQUESTS)]));
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      for (const [name, p] of calls) {
        const r = await timedGet(agent, baseUrl + p, cookie);
        if (r.status !== 200) throw new Error(`${name} answered ${r.status}: ${r.body.slice(0, 300)}`);
        if (i >= WARMUP) samples.get(name)![i - WARMUP] = r.ms;
      }
    }
    return { scale, calls: new Map([...samples].map(([name, s]) => [name, summarize(s)])) };
  } finally {
    close();
    agent.destroy();
    server.closeAllConnections();
    if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    await db.destroy();
  }
}

async function main() {
  console.log(`bench:dashboard on ${machine()}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`${REQUESTS} sequential requests per call and scale after ${WARMUP} warm-up rounds, the calls alternating, one keep-alive connection.\n`);
  const results: Array<{ engine: string; scales: ScaleResult[] }> = [];
  const engines: Array<() => Promise<Engine | null>> = [async () => sqliteEngine('dash'), () => postgresEngine('dash')];
  for (const make of engines) {
    const scales: ScaleResult[] = [];
    let name = '';
    for (const scale of SCALES) {
      const engine = await make();
      if (!engine) break;
      name = engine.name;
      try {
        scales.push(await runScale(engine, scale));
      } finally {
        await engine.drop();
      }
    }
    if (scales.length) results.push({ engine: name, scales });
  }

  for (const r of results) {
    const names = [...new Set(r.scales.flatMap((z) => [...z.calls.keys()]))];
    const lines = names.map((name) => [name, ...r.scales.map((z) => (z.calls.get(name) ? ms(z.calls.get(name)!.p95) : '—'))]);
    console.log(`\n${r.engine}, p95 per call\n${table(['call', ...r.scales.map((z) => `${z.scale}×`)], lines)}\n`);
  }

  const slowest = (z: ScaleResult) => [...z.calls].reduce((a, b) => (b[1].p95 > a[1].p95 ? b : a));
  if (SCALES.length === 3) {
    writeGrowthChart({
      name: 'dashboard-growth',
      title: "The dashboard's calls as a user's data grows",
      xs: SCALES,
      xLabel: (x) => `${x}×`,
      xTitle: 'the seed (100× = 100 workspaces, 1,000 projects, 1 M deliveries, 1 M audit entries)',
      yUnit: 'p95, ms',
      series: results.flatMap((r) => [
        { name: `${r.engine} slowest call`, values: r.scales.map((z) => slowest(z)[1].p95) },
        { name: `${r.engine} /api/me (baseline)`, values: r.scales.map((z) => z.calls.get('me')!.p95) },
      ]),
      target: TARGET_MS,
    });
  }
  for (const r of results) {
    for (const z of r.scales) {
      const me = z.calls.get('me')!;
      for (const [name, s] of z.calls) {
        if (name === 'me') continue;
        row({
          bench: 'dashboard',
          measure: `${r.engine} ${name} p95 at ${z.scale}×`,
          figure: ms(s.p95),
          baseline: `${ms(me.p95)} /api/me`,
          ratio: ratio(s.p95, me.p95),
          target: `≤ ${TARGET_MS} ms`,
          pass: s.p95 <= TARGET_MS,
        });
      }
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
