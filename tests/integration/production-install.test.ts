// A production install from scratch, as the operations guide describes it: the build and
// package.json + package-lock.json in a folder of their own, `npm ci --omit=dev` there (so no
// development package is even on disk), then Cairn in production (/readyz, a keyed gateway call, the
// operator CLI) and in development on its embedded defaults, where the EVM development chain says it
// is off for want of its engine. It downloads the production packages with their install scripts
// off and takes the native SQLite module this checkout built (the same version, from the same lock
// file, for the same Node): compiling it again takes many minutes on a small machine and proves
// nothing about Cairn. It runs in CI (CI=true, on the SQLite pass: the install does not depend on the
// engine) and on demand (CAIRN_TEST_PRODUCTION_INSTALL=1), and says so when skipped.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, sqliteFileIn, type Db } from '../../server/db/index';
import { emptyDatabase, type TestDatabase } from '../helpers/db-template';
import { call } from '../helpers/gateway';
import { makeKeyedProject, nodeArgsOf, stageBuiltApp, startBuiltServer, stopBuiltServers } from '../helpers/built-server';

const enabled = (process.env.CI === 'true' && !process.env.DATABASE_URL) || process.env.CAIRN_TEST_PRODUCTION_INSTALL === '1';
if (!enabled) console.warn('SKIPPING the production install test (npm ci --omit=dev in a temporary folder): it runs when CI=true on SQLite, or CAIRN_TEST_PRODUCTION_INSTALL=1.');

// (@types/node is not among them: a production package depends on it.)
const NOT_INSTALLED = ['tsx', 'typescript', 'esbuild', 'vite', 'vitest', 'eslint', '@nomicfoundation/edr', 'electron', 'electron-builder', '@types/express'];

let root = '';
let install = '';
let pg: TestDatabase | null = null;
let db: Db | null = null;
const dataDir = () => path.join(root, 'data');

describe.skipIf(!enabled)('a production install (npm ci --omit=dev)', () => {
  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-install-'));
    await stageBuiltApp(root);
    const { stdout, stderr } = await promisify(execFile)('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production' },
      maxBuffer: 64 * 1024 * 1024,
      // Building the native SQLite module takes a minute or two, many more on a busy machine.
      timeout: 28 * 60_000,
    });
    install = stdout + stderr;
    const built = path.resolve(import.meta.dirname, '../../node_modules/sqlite3/build');
    fs.cpSync(built, path.join(root, 'node_modules', 'sqlite3', 'build'), { recursive: true });
    pg = process.env.DATABASE_URL ? await emptyDatabase(inject('dbTemplate')) : null;
  }, 30 * 60_000);

  afterAll(async () => {
    await stopBuiltServers();
    if (pg) await pg.drop();
    else await db?.destroy();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('installs no development package and warns of no engine or unapproved install script', () => {
    for (const name of NOT_INSTALLED) expect(fs.existsSync(path.join(root, 'node_modules', name)), name).toBe(false);
    expect(fs.existsSync(path.join(root, 'node_modules', 'sqlite3'))).toBe(true);
    expect(install).not.toMatch(/EBADENGINE|install-scripts/);
  });

  it('serves in production: /readyz, a keyed gateway call, then the operator CLI', async () => {
    const env = {
      NODE_ENV: 'production',
      DATA_DIR: dataDir(),
      ...(pg?.databaseUrl ? { DATABASE_URL: pg.databaseUrl } : {}),
      SMTP_URL: 'smtp://127.0.0.1:1',
      SESSION_SECRET: 'p'.repeat(40),
      PUBLIC_URL: 'http://127.0.0.1',
    };
    const server = await startBuiltServer(root, env, { timeoutMs: 150_000 });
    db = pg ? pg.db : createDb({ sqliteFile: sqliteFileIn(dataDir()) });
    const key = await makeKeyedProject(db, 'production-install@example.com');
    const res = await call(`${server.gatewayUrl}/api/v0/blocks/latest`, key);
    expect(res.status).toBe(200);
    expect(typeof res.body.height).toBe('number');
    expect(await server.stop()).toBe(0);
    const out = execFileSync(process.execPath, nodeArgsOf('operator:prod').concat('list'), { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, timeout: 60_000 });
    expect(out).toContain('production-install@example.com');
  }, 180_000);

  it('serves on its embedded defaults in development, with the EVM development chain off for want of its engine', async () => {
    const server = await startBuiltServer(root, { DATA_DIR: path.join(root, 'dev-data') }, { timeoutMs: 150_000 });
    expect((await call(`${server.gatewayUrl}/health`)).body).toEqual({ is_healthy: true });
    expect(server.output()).toContain('EVM development chain: off, because @nomicfoundation/edr (a development dependency) is not installed');
    const chainsDir = path.join(root, 'dev-data', 'sandbox-chains');
    expect(server.output()).toContain(`sandbox chain: each chain's epochs summed in a worker thread, their sums kept in ${chainsDir}`);
    expect(await server.stop()).toBe(0);
    // Nothing swept: only each chain's epochs' sums, saved as it stopped.
    expect(fs.readdirSync(chainsDir).sort()).toEqual(['epoch-sums-mainnet.bin', 'epoch-sums-preprod.bin', 'epoch-sums-preview.bin']);
  }, 180_000);
});
