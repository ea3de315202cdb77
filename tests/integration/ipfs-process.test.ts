import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ARTIFACTS, freshDatabase, type TestDatabase } from '../helpers/db-template';
import { createDb, migrateLatest, sqliteFileIn, type Db } from '../../server/db/index';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { ipfsAdd, ipfsCall, pseudoRandom } from '../helpers/ipfs';
import { storageUsed } from '../../server/services/ipfs';
import { IPFS_MAX_ADD_BYTES } from '../../shared/ipfs';

// The gateway as an operator runs it (server/main.ts --role gateway), in its own process, so its
// memory can be read from /proc and it can be killed without warning.
const root = path.resolve(import.meta.dirname, '../..');
let db: Db;
let pg: TestDatabase | null = null;
let env: Record<string, string>;
let dataDir: string;
let key: string;
let ownerId: number;
let url: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const exited = (p: ChildProcess) => new Promise((r) => (p.exitCode !== null || p.signalCode !== null ? r(null) : p.once('exit', r)));
const kib = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const blockFilesEnding = (ending: string) => {
  const dir = path.join(dataDir, 'ipfs', 'blocks');
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith(ending)).length : 0;
};
const blockFiles = () => blockFilesEnding('.data');
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

async function startGatewayProcess(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--role', 'gateway'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (ok) return child;
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('the gateway process did not start');
}

beforeAll(async () => {
  dataDir = path.join(ARTIFACTS, `ipfs-process-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);
  fs.mkdirSync(dataDir, { recursive: true });
  if (process.env.DATABASE_URL) {
    pg = await freshDatabase(inject('dbTemplate'));
    db = pg.db;
  } else {
    db = createDb({ sqliteFile: sqliteFileIn(dataDir) });
    await migrateLatest(db);
  }
  const user = await makeUser(db, 'ipfs-process@example.com', 'HOBBY');
  ownerId = user.id;
  const ws = await makeWorkspace(db, user.id, []);
  key = `ipfs${crypto.randomBytes(16).toString('hex')}`;
  await db('projects').insert({ uuid: crypto.randomUUID(), workspace_id: ws, name: 'ipfs', project_id: key, network_id: 2, created_at: Date.now(), updated_at: Date.now() });
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  env = {
    DATA_DIR: dataDir,
    GATEWAY_PORT: String(port),
    HOST: '127.0.0.1',
    SESSION_SECRET: 'x'.repeat(40),
    IPFS_GC_GRACE_SECONDS: '1',
    IPFS_GC_INTERVAL_SECONDS: '3600',
    ...(pg?.databaseUrl ? { DATABASE_URL: pg.databaseUrl } : {}),
  };
});
afterAll(async () => {
  if (pg) await pg.drop();
  else await db.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the IPFS add in a real gateway process', () => {
  let gateway: ChildProcess;
  let kept: string;

  it('streams a 100 MB add to disk: the process grows by less than 64 MB; one byte more is refused', async () => {
    gateway = await startGatewayProcess();
    const pid = gateway.pid!;
    // Warm up (modules loaded, first add and pin done), then take the baseline.
    const warm = await ipfsAdd(url, key, pseudoRandom(1_000_000, 'warm'));
    expect(warm.status, JSON.stringify(warm.body)).toBe(200);
    kept = warm.body.ipfs_hash;
    expect((await ipfsCall('POST', `${url}/api/v0/ipfs/pin/add/${kept}`, key)).body.state).toBe('pinned');
    await sleep(300);
    const baseline = kib(pid, 'VmRSS');
    const hwmBefore = kib(pid, 'VmHWM');
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, kib(pid, 'VmRSS'))), 25);
    const big = await ipfsAdd(url, key, pseudoRandom(IPFS_MAX_ADD_BYTES, 'big'), 'big.bin');
    clearInterval(sampler);
    const hwmAfter = kib(pid, 'VmHWM');
    if (hwmAfter > hwmBefore) peak = Math.max(peak, hwmAfter);
    expect(big.status, JSON.stringify(big.body)).toBe(200);
    expect(big.body.size).toBe(String(IPFS_MAX_ADD_BYTES));
    const growth = peak - baseline;
    console.log(`100 MB add: resident memory ${(baseline / 1e6).toFixed(1)} MB before, peak ${(peak / 1e6).toFixed(1)} MB (+${(growth / 1e6).toFixed(1)} MB)`);
    expect(growth).toBeLessThan(64 * 1024 * 1024);

    const over = await ipfsAdd(url, key, pseudoRandom(IPFS_MAX_ADD_BYTES + 1, 'over'), 'over.bin').catch((e: Error) => ({ status: -1, body: e.message }));
    expect(over).toMatchObject({ status: 400, body: { message: 'The file is larger than 100 MB, the most one add takes.' } });
  }, 120_000);

  it('a SIGKILL during an add leaves no object counted, and the next start collects its blocks', async () => {
    const objectsBefore = await db('ipfs_objects').count({ n: '*' }).first();
    const before = blockFiles();
    const upload = ipfsAdd(url, key, pseudoRandom(60_000_000, 'killed'), 'killed.bin').catch((e: Error) => e);
    // Kill once a good part of the file is on disk.
    while (blockFiles() < before + 40) await sleep(20);
    gateway.kill('SIGKILL');
    await exited(gateway);
    expect(await upload).toBeInstanceOf(Error);
    const orphans = blockFiles() - before;
    expect(orphans).toBeGreaterThanOrEqual(40);
    expect((await db('ipfs_objects').count({ n: '*' }).first())?.n).toEqual(objectsBefore?.n);
    expect(await db('ipfs_pins').whereNot({ cid: kept }).count({ n: '*' }).first()).toMatchObject({ n: expect.anything() });
    expect((await storageUsed(db, ownerId)).storage).toBe(1_000_000);

    // Restarted, the collector's first pass removes what no pin and no recent add keeps.
    await sleep(1100);
    gateway = await startGatewayProcess();
    try {
      for (let i = 0; i < 100 && blockFiles() > 5; i++) await sleep(100);
      // Only the pinned warm-up file is left: 4 leaves and its root, and no half-written block.
      expect(blockFiles()).toBe(5);
      expect(blockFilesEnding('.tmp')).toBe(0);
      expect((await ipfsCall('GET', `${url}/api/v0/ipfs/gateway/${kept}`, key)).raw.length).toBe(1_000_000);
      expect((await storageUsed(db, ownerId)).storage).toBe(1_000_000);
    } finally {
      gateway.kill('SIGTERM');
      await exited(gateway);
    }
  }, 120_000);
});
