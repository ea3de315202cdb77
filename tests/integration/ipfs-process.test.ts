import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/index';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { ipfsAdd, ipfsCall, pseudoRandom } from '../helpers/ipfs';
import { freePort, serverData, spawnServerProcess, stopServerProcess, stopServerProcesses, type ServerData } from '../helpers/server-process';
import { storageUsed } from '../../server/features/ipfs/pins';
import { IPFS_MAX_ADD_BYTES } from '../../shared/ipfs';

// The gateway as an operator runs it (server/main.ts --role gateway), in its own process, so its
// memory can be read from /proc and it can be killed without warning.
let data: ServerData;
let db: Db;
let env: Record<string, string>;
let key: string;
let ownerId: number;
let url: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const kib = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const blockFilesEnding = (ending: string) => {
  const dir = path.join(data.dir, 'ipfs', 'blocks');
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith(ending)).length : 0;
};
const blockFiles = () => blockFilesEnding('.data');
/** Resolves once the gateway answers /health. */
const startGatewayProcess = () => spawnServerProcess({ role: 'gateway', env, readyUrl: `${url}/health`, readyTimeoutMs: 30_000 });

beforeAll(async () => {
  data = await serverData('ipfs-process');
  db = data.db;
  const user = await makeUser(db, 'ipfs-process@example.com', 'HOBBY');
  ownerId = user.id;
  const ws = await makeWorkspace(db, user.id, []);
  key = `ipfs${crypto.randomBytes(16).toString('hex')}`;
  await db('projects').insert({ uuid: crypto.randomUUID(), workspace_id: ws, name: 'ipfs', project_id: key, network_id: 2, created_at: Date.now(), updated_at: Date.now() });
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  env = {
    ...data.env,
    GATEWAY_PORT: String(port),
    HOST: '127.0.0.1',
    SESSION_SECRET: 'x'.repeat(40),
    IPFS_GC_GRACE_SECONDS: '1',
    IPFS_GC_INTERVAL_SECONDS: '3600',
  };
});
afterAll(async () => {
  await stopServerProcesses();
  await data.remove();
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
    // The baseline once the warm-up's memory has settled: two readings 50 ms apart within 256 KiB.
    let settled = kib(pid, 'VmRSS');
    for (let i = 0; i < 40; i++) {
      await sleep(50);
      const now = kib(pid, 'VmRSS');
      if (Math.abs(now - settled) < 256 * 1024) break;
      settled = now;
    }
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
    // What counts against the owner's storage, read at one instant before and after the kill: the
    // pinned warm-up, and the 100 MB add while it is still within the grace of a recent add.
    const at = Date.now();
    const storageBefore = (await storageUsed(db, ownerId, 1000, at)).storage;
    expect([1_000_000, 1_000_000 + IPFS_MAX_ADD_BYTES]).toContain(storageBefore);
    const before = blockFiles();
    const upload = ipfsAdd(url, key, pseudoRandom(60_000_000, 'killed'), 'killed.bin').catch((e: Error) => e);
    // Kill once a good part of the file is on disk.
    while (blockFiles() < before + 40) await sleep(20);
    await stopServerProcess(gateway, 'SIGKILL');
    expect(await upload).toBeInstanceOf(Error);
    const orphans = blockFiles() - before;
    expect(orphans).toBeGreaterThanOrEqual(40);
    expect((await db('ipfs_objects').count({ n: '*' }).first())?.n).toEqual(objectsBefore?.n);
    expect(await db('ipfs_pins').whereNot({ cid: kept }).count({ n: '*' }).first()).toMatchObject({ n: expect.anything() });
    expect((await storageUsed(db, ownerId, 1000, at)).storage).toBe(storageBefore);

    // Restarted, the collector's first pass removes what no pin and no recent add keeps (the killed
    // add wrote no object row, so its blocks are no one's, however recent).
    gateway = await startGatewayProcess();
    try {
      // The collector's first pass: every block no pin keeps, and every half-written one, gone.
      for (let i = 0; i < 200 && (blockFiles() > 5 || blockFilesEnding('.tmp') > 0); i++) await sleep(50);
      // Only the pinned warm-up file is left: 4 leaves and its root, and no half-written block.
      expect(blockFiles()).toBe(5);
      expect(blockFilesEnding('.tmp')).toBe(0);
      expect((await ipfsCall('GET', `${url}/api/v0/ipfs/gateway/${kept}`, key)).raw.length).toBe(1_000_000);
      expect((await storageUsed(db, ownerId, 1000)).storage).toBe(1_000_000);
    } finally {
      await stopServerProcess(gateway, 'SIGTERM');
    }
  }, 120_000);
});
