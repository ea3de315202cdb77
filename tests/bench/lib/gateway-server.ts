// Target (c): the Cairn gateway (startGateway) in its own process, with BENCH_UPSTREAM as the
// Cardano mainnet upstream, on a migrated temporary SQLite database holding one ENTERPRISE owner
// with BENCH_PROJECTS mainnet projects. Auth, limits and metering run as in production.
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../server/config';
import { createDb, migrateLatest } from '../../../server/db/index';
import { createLogger } from '../../../server/logger';
import { startGateway } from '../../../server/gateway-app';
import { makeUser } from '../../helpers/workspace-fixture';
import { insertProjects } from './fixtures';
import { serveUntilDisconnected } from './child-server';
import { loopStats } from './loop-stats';
import { Metrics, startMetricsServer } from '../../../server/metrics';

const reportLoop = loopStats('gateway');

export interface GatewayServerInfo {
  keys: string[];
  flushMs: number;
  /** BENCH_ALLOW_LISTS=1: the Origin header every project's allow-list admits (requests come from 127.0.0.1). */
  origin: string | null;
  /** BENCH_METRICS=1: the metrics listener, scraped every second while the gateway runs. */
  metricsUrl: string | null;
}

/**
 * BENCH_ALLOW_LISTS=1: every project holds 20 entries, 10 origins and 10 addresses, v4 and v6, and the
 * bench's requests match only the last ones: a wildcard origin (the exact set misses, then the host's
 * suffixes are looked up) and the last IPv4 range (every IPv4 range is tried).
 */
const ALLOW_LISTS = {
  origins: ['https://app.example.com', 'https://www.example.org', 'http://localhost:3000', '*.staging.example.net', 'https://*.preview.example.dev', 'https://wallet.example.io', '*.cdn.example.com', 'https://dapp.example.xyz', 'http://127.0.0.1:8080', '*.bench.example'],
  ips: ['203.0.113.0/24', '198.51.100.0/24', '192.0.2.10', '10.0.0.0/8', '172.16.0.0/12', '2001:db8::/32', '2001:db8:1::/48', 'fd00::/8', '::1', '127.0.0.0/8'],
};
const BENCH_ORIGIN = 'https://app.node-7.bench.example';

// BENCH_DATA_DIR: a data folder already seeded (lib/keys-seed.ts), kept as it is; otherwise a fresh
// one with BENCH_PROJECTS projects, removed at the end.
const seeded = process.env.BENCH_DATA_DIR;
const dataDir = seeded ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-gw-'));
const db = createDb({ sqliteFile: path.join(dataDir, 'cairn.sqlite') });
await migrateLatest(db);
// BENCH_EVM: the upstream is Milkomeda's EVM JSON-RPC and the projects are Milkomeda projects (bench:jsonrpc).
const evm = process.env.BENCH_EVM === '1';
let projects: Array<{ key: string }> = [];
if (!seeded) {
  const owner = await makeUser(db, 'bench-owner@example.com', 'ENTERPRISE');
  const workspace = (await db('workspaces').where({ owner_id: owner.id }).first('id')) as { id: number };
  projects = await insertProjects(db, workspace.id, Number(process.env.BENCH_PROJECTS), 200, evm ? { id: 3, prefix: 'milkmainnet' } : undefined);
}

const allowLists = process.env.BENCH_ALLOW_LISTS === '1';
if (allowLists) {
  await db('projects').update({ allowed_origins: JSON.stringify(ALLOW_LISTS.origins), allowed_ips: JSON.stringify(ALLOW_LISTS.ips) });
}

const config = loadConfig({
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  ...(evm ? { UPSTREAM_MILKOMEDA_MAINNET_URL: process.env.BENCH_UPSTREAM } : { UPSTREAM_CARDANO_MAINNET_URL: process.env.BENCH_UPSTREAM }),
  ...(process.env.METERING_FLUSH_MS ? { METERING_FLUSH_MS: process.env.METERING_FLUSH_MS } : {}),
  // BENCH_REDIS_URL: limits shared with the other gateways of the bench through Redis.
  ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
});
// BENCH_METRICS=1: metrics on, as with METRICS_PORT, and scraped every second (Prometheus scrapes every 15 s or so).
const metrics = process.env.BENCH_METRICS === '1' ? new Metrics('gateway') : undefined;
const gateway = await startGateway({ config, db, logger: createLogger('warn'), version: 'bench', port: 0, host: '127.0.0.1', ...(metrics ? { metrics } : {}) });
const listener = metrics ? await startMetricsServer({ metrics, port: 0, host: '127.0.0.1' }) : null;
const scraper = listener
  ? setInterval(() => {
      void fetch(listener.url).then((r) => r.text(), () => '');
    }, 1000)
  : null;
// A seeded database: the keys for the requests are a sample drawn evenly by id, read once the gateway runs.
const requestKeys = Number(process.env.BENCH_REQUEST_KEYS ?? 0) || undefined;
const total = seeded ? Number(((await db('projects').count({ n: '*' }).first()) as { n: number | string }).n) : projects.length;
if (seeded) {
  const every = Math.max(1, Math.floor(total / (requestKeys ?? total)));
  projects = (await db('projects').whereRaw('id % ? = 0', [every]).limit(requestKeys ?? total).select('project_id as key')) as Array<{ key: string }>;
}
if (gateway.keys.size !== total) throw new Error(`the key cache holds ${gateway.keys.size} keys, expected ${total}`);
if (allowLists && projects.some((p) => !gateway.keys.lookup(p.key)?.allow?.ip)) throw new Error('the key cache holds projects without their allow-lists');

// BENCH_HEAP_SAMPLES=<file>: V8's sampling heap profiler over the gateway's whole serving time, keeping
// the samples of objects that outlived a minor garbage collection (promoted or still alive; those a
// major collection freed later included): what the gateway keeps past a scavenge, by allocation site.
const heapSamples = process.env.BENCH_HEAP_SAMPLES;
const profiler = heapSamples ? new inspector.Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: false });
}

const info: GatewayServerInfo = { keys: projects.map((p) => p.key), flushMs: config.gateway.meteringFlushMs, origin: allowLists ? BENCH_ORIGIN : null, metricsUrl: listener?.url ?? null };
serveUntilDisconnected({ url: gateway.url, ...info }, async () => {
  reportLoop();
  if (profiler && heapSamples) {
    const { profile } = await profiler.post('HeapProfiler.stopSampling');
    fs.writeFileSync(heapSamples, JSON.stringify(profile));
    profiler.disconnect();
  }
  if (scraper) clearInterval(scraper);
  await listener?.close();
  await gateway.close();
  await db.destroy();
  if (!seeded) fs.rmSync(dataDir, { recursive: true, force: true });
});
