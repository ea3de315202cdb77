// The production build (server/build.ts) run as production runs it: node on the JavaScript in
// dist/server with start:prod's flags, no tsx. It migrates an empty database, answers /readyz and a
// keyed gateway call, writes its usage from the metering worker thread, stops cleanly, and the operator
// CLI of the build reads the same database. A preload writes down every module the process resolves,
// and /proc says which shared libraries it mapped: no TypeScript tooling, no development-only package.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { newDevnetState } from '../../server/sandbox/chain/index';
import type { FromDevnetSumsWorker, ToDevnetSumsWorker } from '../../server/sandbox/chain/devnet-sums';
import { createDb, sqliteFileIn, type Db } from '../../server/db/index';
import { emptyDatabase, type TestDatabase } from '../helpers/db-template';
import { call } from '../helpers/gateway';
import { loadedLibraries, makeKeyedProject, nodeArgsOf, repoRoot, stageBuiltApp, startBuiltServer, stopBuiltServers, type BuiltServer } from '../helpers/built-server';

/** Packages production never loads: development tooling, the EVM development chain, the desktop's, the readable log. */
const NOT_LOADED = ['tsx', 'typescript', 'esbuild', 'vite', 'vitest', '@nomicfoundation/edr', 'electron', '@napi-rs/keyring', 'pino-pretty'];

let root = '';
let packages: string[] = [];
let pg: TestDatabase | null = null;
let db: Db | null = null;
let server: BuiltServer | null = null;
let key = '';
const moduleLog = () => path.join(root, 'modules.log');
const dataDir = () => path.join(root, 'data');

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-built-'));
  ({ packages } = await stageBuiltApp(root));
  // The packages resolve from the repository's node_modules, development ones included: what is loaded
  // from there is what the build asks for, nothing more.
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'));
  pg = process.env.DATABASE_URL ? await emptyDatabase(inject('dbTemplate')) : null;
  server = await startBuiltServer(
    root,
    {
      NODE_ENV: 'production',
      DATA_DIR: dataDir(),
      ...(pg?.databaseUrl ? { DATABASE_URL: pg.databaseUrl } : {}),
      // Production needs SMTP; nothing here sends mail.
      SMTP_URL: 'smtp://127.0.0.1:1',
      SESSION_SECRET: 'p'.repeat(40),
      PUBLIC_URL: 'http://127.0.0.1',
      METERING_FLUSH_MS: '100000',
      CAIRN_MODULE_LOG: moduleLog(),
    },
    { nodeArgs: ['--import', path.join(repoRoot, 'tests/helpers/module-log.mjs')] },
  );
  db = pg ? pg.db : createDb({ sqliteFile: sqliteFileIn(dataDir()) });
  key = await makeKeyedProject(db, 'production-build@example.com');
}, 120_000);

afterAll(async () => {
  await stopBuiltServers();
  if (pg) await pg.drop();
  else await db?.destroy();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

describe('the production build', () => {
  it('is JavaScript only, with a source map beside each file', () => {
    const files = fs.readdirSync(path.join(root, 'dist/server'));
    expect(files).toEqual(expect.arrayContaining(['main.js', 'main.js.map', 'metering-worker.js', 'sandbox-sweep-worker.js', 'sandbox-devnet-sums-worker.js', 'operator.js']));
    expect(files.filter((f) => !/\.js(\.map)?$/.test(f))).toEqual([]);
    for (const f of files.filter((f) => f.endsWith('.js'))) expect(files).toContain(`${f}.map`);
  });

  it('runs the devnets\' sums worker from its own file: a job\'s segments summed, the newest first', async () => {
    const state = newDevnetState({ now: Date.UTC(2026, 10, 1), seed: 'built-devnet-sums' });
    const g = state.genesis;
    const worker = new Worker(path.join(root, 'dist/server/sandbox-devnet-sums-worker.js'));
    try {
      const first = new Promise<FromDevnetSumsWorker>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      const job: ToDevnetSumsWorker = {
        t: 'job',
        id: 1,
        segmentLength: 60,
        tip: 3_000,
        history: { network: 'preview', seed: state.seed, genesisTime: state.genesisTime, blockIntervalMs: g.blockIntervalMs, devnet: { id: 'built', networkMagic: 42, slotLengthMs: g.slotLengthMs, epochLength: g.epochLength, securityParam: g.securityParam } },
      };
      worker.postMessage(job);
      const m = await first;
      expect(m.id).toBe(1);
      // Block 3,000 closes segments 0–49: the newest first.
      expect(m.sums[0]!.index).toBe(49);
      expect(m.sums[0]!.counts).toHaveLength(60);
    } finally {
      await worker.terminate();
    }
  });

  it('imports only dependencies, and the EVM development chain\'s engine only from its own chunk', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(packages.filter((p) => !(p in pkg.dependencies))).toEqual(['@nomicfoundation/edr']);
    const chunks = fs.readdirSync(path.join(root, 'dist/server')).filter((f) => f.endsWith('.js') && fs.readFileSync(path.join(root, 'dist/server', f), 'utf8').match(/\bfrom\s*["']@nomicfoundation\/edr["']/));
    expect(chunks).toEqual([expect.stringMatching(/^evm-chain-\w+\.js$/)]);
  });

  it('migrates the empty database and answers /readyz and a keyed gateway call in production', async () => {
    expect((await fetch(`${server!.url}/readyz`)).status).toBe(200);
    const res = await call(`${server!.gatewayUrl}/api/v0/blocks/latest`, key);
    expect(res.status).toBe(200);
    expect(typeof res.body.height).toBe('number');
  });

  it('sweeps the sandbox chains from the start in the built worker thread, its chunks kept in the data directory', async () => {
    expect(server!.output()).toContain("sandbox chain: sweeping each chain's history in a worker thread");
    // Each chain's worker names its folder by the chain's identity (its options and a few probe segments simulated).
    const kept = path.join(dataDir(), 'sandbox-chains');
    // (Beside them, files of each chain's epochs' sums once saved.)
    const folders = () => (fs.existsSync(kept) ? fs.readdirSync(kept, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort() : []);
    await vi.waitFor(() => expect(folders()).toEqual([expect.stringMatching(/^mainnet-[0-9a-f]{20}$/), expect.stringMatching(/^preprod-[0-9a-f]{20}$/), expect.stringMatching(/^preview-[0-9a-f]{20}$/)]), { timeout: 20_000, interval: 100 });
  });

  it('maps no native add-on of a development-only package', () => {
    const addons = loadedLibraries(server!.child.pid!).filter((f) => f.endsWith('.node'));
    // The SQLite driver is loaded when the database is SQLite: the list is what the process has mapped.
    expect(addons.some((f) => f.includes('/node_modules/sqlite3/'))).toBe(!pg);
    for (const name of NOT_LOADED) expect(addons.filter((f) => f.includes(`/node_modules/${name}/`))).toEqual([]);
  });

  it('stops on SIGTERM with exit code 0, after the metering worker has written the counts', async () => {
    expect(await server!.stop()).toBe(0);
    const rows = (await db!('usage_rollups').sum({ n: 'requests' }).first()) as { n: number | string | null };
    expect(Number(rows.n)).toBeGreaterThanOrEqual(1);
  });

  it('loaded no TypeScript source, tooling or development-only package, in the main thread or the metering worker', () => {
    const modules = fs.readFileSync(moduleLog(), 'utf8').split('\n').filter(Boolean);
    // The metering worker thread ran (it wrote the counts on the way out) and resolved its own entry.
    expect(modules.some((m) => m.endsWith('/dist/server/metering-worker.js'))).toBe(true);
    expect(modules.some((m) => m.endsWith('/dist/server/sandbox-sweep-worker.js'))).toBe(true);
    expect(modules.filter((m) => /\.tsx?$/.test(m))).toEqual([]);
    for (const name of NOT_LOADED) expect(modules.filter((m) => m.includes(`/node_modules/${name}/`))).toEqual([]);
    const own = modules.filter((m) => m.startsWith('file:') && !m.includes('/node_modules/') && !/\/module-log(-hooks)?\.mjs$/.test(m));
    expect(own.length).toBeGreaterThan(1);
    expect(own.filter((m) => !m.startsWith(`file://${root}/dist/server/`))).toEqual([]);
  });

  it('runs the operator CLI from the build on the same database', () => {
    const out = execFileSync(process.execPath, nodeArgsOf('operator:prod').concat('list'), {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir(), ...(pg?.databaseUrl ? { DATABASE_URL: pg.databaseUrl } : {}) },
      timeout: 60_000,
    });
    expect(out).toContain('production-build@example.com');
  });
});
