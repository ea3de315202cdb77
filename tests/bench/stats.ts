// npm run bench:stats — the project page's two dashboard calls over busy projects:
// GET /api/workspaces/:id/projects/:uuid/stats and GET /api/projects/:uuid/history, through the real
// app over HTTP, signed in (magic link) as a collaborator of the workspace, on SQLite and on
// PostgreSQL (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test when reachable; a scratch
// database is created there and dropped after). Three projects in one database: 1 M and 10 M
// requests over 30 days, 100 M over 90 days, so the growth with traffic can be read. Baseline of the
// same run: GET /api/me (session, CSRF-free GET, JSON), the app's floor for a signed-in call.
// Targets: p95 ≤ 20 ms at 1 M and 10 M, ≤ 30 ms at 100 M, for each call on each engine.
//
// Environment: BENCH_STATS_REQUESTS (default 200 per endpoint and size), BENCH_STATS_WARMUP (20),
// BENCH_STATS_SIZES (e.g. "1,10": millions of requests, from 1, 10, 100).
import http from 'node:http';
import os from 'node:os';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../server/config';
import { createApp } from '../../server/app';
import { createDb, migrateLatest, type Db } from '../../server/db/index';
import { createLogger } from '../../server/logger';
import { devMailbox } from '../../server/mail/mailer';
import { makeProject, makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { seedUsage } from './lib/usage-seed';
import { machine, ms, ratio, row, summarize, table, type LatencySummary } from './lib/report';
import { writeGrowthChart } from './lib/chart';
import { postgresEngine, sqliteEngine, type Engine } from './lib/scratch-db';

interface Size {
  millions: number;
  days: number;
  targetMs: number;
}
const SIZES: Size[] = [
  { millions: 1, days: 30, targetMs: 20 },
  { millions: 10, days: 30, targetMs: 20 },
  { millions: 100, days: 90, targetMs: 30 },
].filter((s) => !process.env.BENCH_STATS_SIZES || process.env.BENCH_STATS_SIZES.split(',').map(Number).includes(s.millions));
const REQUESTS = Number(process.env.BENCH_STATS_REQUESTS ?? 200);
const WARMUP = Number(process.env.BENCH_STATS_WARMUP ?? 20);
const SESSION_SECRET = 'bench-session-secret-that-is-long-enough-0123456789';

setTimeout(() => {
  console.error('bench:stats: gave up after 600 s');
  process.exit(2);
}, 600_000).unref();

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
  if (back.status !== 302 || back.headers.get('location') !== '/dashboard') throw new Error(`sign-in callback answered ${back.status} → ${back.headers.get('location')}`);
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

interface SizeResult {
  size: Size;
  stats: LatencySummary;
  history: LatencySummary;
  me: LatencySummary;
}

interface EngineResult {
  engine: string;
  sizes: SizeResult[];
}

async function runEngine(engine: Engine): Promise<EngineResult> {
  const db: Db = createDb(engine.databaseUrl ? { databaseUrl: engine.databaseUrl } : { sqliteFile: engine.sqliteFile! });
  const server = http.createServer();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let close = () => undefined as void;
  try {
    await migrateLatest(db);
    // The owner's plan shows every card (the costliest /stats); the caller is a plain collaborator.
    const owner = await makeUser(db, 'bench-owner@example.com', 'ENTERPRISE');
    const member = await makeUser(db, 'bench-member@example.com');
    const workspaceId = await makeWorkspace(db, owner.id, [{ userId: member.id, role: 'collaborator' }], 'Bench workspace');
    const projects: Array<{ size: Size; uuid: string; lastMonth: number; privateLastMonth: number }> = [];
    for (const size of SIZES) {
      const uuid = await makeProject(db, workspaceId, `Busy project ${size.millions} M`);
      const projectId = ((await db('projects').where({ uuid }).first('id')) as { id: number }).id;
      const seedStart = performance.now();
      const seeded = await seedUsage(db, projectId, size.millions * 1_000_000, Date.now(), size.days);
      if (engine.name === 'PostgreSQL') await db.raw('ANALYZE');
      console.log(
        `${engine.name}: ${(size.millions * 1_000_000).toLocaleString('en')} requests over ${seeded.days} days in ${seeded.rollupRows.toLocaleString('en')} usage_rollups rows ` +
          `and ${seeded.dimensionRows.toLocaleString('en')} usage_dimensions rows (per day: ~50 countries, 2,000 IPs, 40 endpoints, 15 browsers, 6 statuses), ` +
          `seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s.`,
      );
      projects.push({ size, uuid, lastMonth: seeded.lastMonth, privateLastMonth: seeded.privateLastMonth });
    }

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
    // Request logging stays on at info, as in production; the lines go nowhere.
    const logger = createLogger('info', new Writable({ write: (_c, _e, cb) => cb() }));
    const mailer = devMailbox(logger);
    const app = createApp({ config, db, logger, mailer, sessionSecret: SESSION_SECRET });
    close = app.close;
    server.on('request', app.app);
    const cookie = await signIn(baseUrl, mailer, 'bench-member@example.com');

    const sizes: SizeResult[] = [];
    for (const p of projects) {
      const urls = { stats: `${baseUrl}/api/workspaces/${workspaceId}/projects/${p.uuid}/stats`, history: `${baseUrl}/api/projects/${p.uuid}/history`, me: `${baseUrl}/api/me` };
      // The first /stats also moves the project's window past the days that fell out (once a day in production).
      const first = { stats: await timedGet(agent, urls.stats, cookie), history: await timedGet(agent, urls.history, cookie) };
      for (const [name, r] of Object.entries(first)) if (r.status !== 200) throw new Error(`${name} answered ${r.status}: ${r.body}`);
      const stats = JSON.parse(first.stats.body).data;
      const history = JSON.parse(first.history.body);
      const historySum = (history.data as Array<{ requestCount: number }>).reduce((a, d) => a + d.requestCount, 0);
      if (stats.total !== p.lastMonth || stats.ips.length !== 10 || stats.countries.length !== 10 || historySum !== p.lastMonth || stats.privateNetworkRequests !== p.privateLastMonth) {
        throw new Error(
          `unexpected answers: stats total ${stats.total} (${stats.ips.length} IPs, ${stats.countries.length} countries, ${stats.privateNetworkRequests} private), history sum ${historySum}, expected ${p.lastMonth} (${p.privateLastMonth} private)`,
        );
      }
      console.log(`${engine.name} ${p.size.millions} M: first /stats (moves the window) ${ms(first.stats.ms)}`);

      // Alternating the three calls spreads any disturbance of the machine over all of them.
      const samples = { stats: new Float64Array(REQUESTS), history: new Float64Array(REQUESTS), me: new Float64Array(REQUESTS) };
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        for (const name of ['stats', 'history', 'me'] as const) {
          const r = await timedGet(agent, urls[name], cookie);
          if (r.status !== 200) throw new Error(`${name} answered ${r.status}: ${r.body}`);
          if (i >= WARMUP) samples[name][i - WARMUP] = r.ms;
        }
      }
      sizes.push({ size: p.size, stats: summarize(samples.stats), history: summarize(samples.history), me: summarize(samples.me) });
    }
    return { engine: engine.name, sizes };
  } finally {
    close();
    agent.destroy();
    server.closeAllConnections();
    if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    await db.destroy();
  }
}

async function main() {
  console.log(`bench:stats on ${machine()}`);
  console.log(`${REQUESTS} sequential requests per endpoint and size after ${WARMUP} warm-up requests, the calls alternating, one keep-alive connection.\n`);
  const results: EngineResult[] = [];
  const engines: Array<() => Promise<Engine | null>> = [async () => sqliteEngine('stats'), () => postgresEngine('stats')];
  for (const make of engines) {
    const engine = await make();
    if (!engine) continue;
    try {
      results.push(await runEngine(engine));
    } finally {
      await engine.drop();
    }
  }

  const label = (s: Size) => `${s.millions} M / ${s.days} d`;
  const lines = results.flatMap((r) =>
    r.sizes.flatMap((z) =>
      (['stats', 'history', 'me'] as const).map((e) => [`${r.engine} ${label(z.size)} /${e}`, ms(z[e].p50), ms(z[e].p95), ms(z[e].p99), ms(z[e].max)]),
    ),
  );
  console.log(`\n${table(['call', 'p50', 'p95', 'p99', 'max'], lines)}\n`);
  if (SIZES.length === 3) {
    writeGrowthChart({
      name: 'stats-growth',
      title: "The project page's statistics calls as traffic grows",
      xs: SIZES.map((z) => z.millions * 1e6),
      xLabel: (x) => `${x / 1e6} M requests`,
      xTitle: 'requests in the project’s history (1×, 10×, 100×)',
      yUnit: 'p95, ms',
      series: results.flatMap((r) => (['stats', 'history', 'me'] as const).map((e) => ({ name: `${r.engine} /${e === 'me' ? 'api/me (baseline)' : e}`, values: r.sizes.map((z) => z[e].p95) }))),
      target: 20,
    });
  }
  for (const r of results) {
    for (const z of r.sizes) {
      for (const e of ['stats', 'history'] as const) {
        row({
          bench: 'stats',
          measure: `${r.engine} /${e} p95 at ${label(z.size)}`,
          figure: ms(z[e].p95),
          baseline: `${ms(z.me.p95)} /api/me`,
          ratio: ratio(z[e].p95, z.me.p95),
          target: `≤ ${z.size.targetMs} ms`,
          pass: z[e].p95 <= z.size.targetMs,
        });
      }
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
