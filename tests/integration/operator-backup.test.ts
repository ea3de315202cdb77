import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { runOperatorCommand } from '../../server/cli/operator';
import { createDb, isPostgres, sqliteFileIn, type Db } from '../../server/db/index';
import { EmbeddedIpfsStore } from '../../server/features/ipfs/embedded-store';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { emptyDatabase, freshDatabase, type TestDatabase } from '../helpers/db-template';
import { call } from '../helpers/gateway';
import { Client } from '../helpers/http-client';
import { ipfsAdd, ipfsCall, pseudoRandom } from '../helpers/ipfs';
import { readStored } from '../helpers/embedded-store';
import { signIn } from '../helpers/sign-in';
import { useTestApp, useTestGateway } from '../helpers/use-test-app';
import { enqueueBlockEvent } from '../helpers/webhook-events';
import { startReceiver } from '../helpers/receiver';

// Backup and restore of a running Cairn: filled through its API and gateway (users, workspaces,
// projects, webhooks with pending events, usage, orders, pins), backed up while calls keep coming,
// restored into an empty data directory and database, and compared table by table and block by block.

const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
const sourceDir = tmp('cairn-backup-src-');

/** The source Cairn's database: on SQLite the file inside its DATA_DIR, as an operator runs it. */
async function sourceDatabase(): Promise<TestDatabase> {
  const template = inject('dbTemplate');
  if (template.engine === 'postgres') return freshDatabase(template);
  const file = sqliteFileIn(sourceDir);
  fs.copyFileSync(template.template, file);
  return {
    db: createDb({ sqliteFile: file }),
    sqliteFile: file,
    reopen: () => createDb({ sqliteFile: file }),
    drop: async () => undefined,
  };
}

let database: TestDatabase;
const app = useTestApp(async () => {
  database = await sourceDatabase();
  return { database, env: { DATA_DIR: sourceDir } };
});
const gw = useTestGateway(app, () => ({ DATA_DIR: sourceDir, METERING_FLUSH_MS: '50' }));
const envOf = (dataDir: string, databaseUrl?: string) => ({ NODE_ENV: 'test', DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
const sourceEnv = () => envOf(sourceDir, database.databaseUrl);

async function operator(args: string[], env: Record<string, string>) {
  const lines: string[] = [];
  const code = await runOperatorCommand(args, { env, out: (l) => lines.push(l) });
  return { code, text: lines.join('\n') };
}

/** Every table's rows, in a stable order, as comparable JSON. */
async function dumpTables(db: Db): Promise<Record<string, string[]>> {
  const names: string[] = isPostgres(db)
    ? ((await db.raw("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'")) as { rows: Array<{ name: string }> }).rows.map((r) => r.name)
    : ((await db.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")) as Array<{ name: string }>).map((r) => r.name);
  const out: Record<string, string[]> = {};
  for (const name of names.sort()) {
    const rows = (await db(name).select('*')) as Array<Record<string, unknown>>;
    out[name] = rows.map((r) => JSON.stringify(r, (_, v: unknown) => (Buffer.isBuffer(v) ? v.toString('hex') : v instanceof Date ? v.toISOString() : v))).sort();
  }
  return out;
}

async function pinnedCids(db: Db): Promise<string[]> {
  return ((await db('ipfs_pins').select('cid')) as Array<{ cid: string }>).map((r) => r.cid).sort();
}

interface Restored {
  dir: string;
  db: Db;
  drop(): Promise<void>;
}

/** Restores `file` into a new, empty data directory (and, on PostgreSQL, a new empty database). */
async function restoreInto(file: string): Promise<Restored & { text: string }> {
  const dir = path.join(tmp('cairn-backup-dst-'), 'data');
  const target = database.databaseUrl ? await emptyDatabase(inject('dbTemplate')) : null;
  const res = await operator(['restore', file], envOf(dir, target?.databaseUrl));
  expect(res.code, res.text).toBe(0);
  if (target) await target.db.destroy();
  const db = target ? target.reopen() : createDb({ sqliteFile: sqliteFileIn(dir) });
  return {
    dir,
    db,
    text: res.text,
    drop: async () => {
      await db.destroy();
      await target?.drop();
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    },
  };
}

describe('operator backup and restore', () => {
  const keys: { cardano: string; ipfs: string } = { cardano: '', ipfs: '' };
  let ws = 0;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const restored: Restored[] = [];
  const work = tmp('cairn-backup-files-');

  beforeAll(async () => {
    receiver = await startReceiver();
    const owner = new Client(app.url);
    await signIn(owner, app.mailer, 'backup-owner@example.com');
    const me = (await owner.get('/api/me')).body.data.id as number;
    ws = (await owner.get('/api/workspaces')).body.data[0].id as number;
    await setSubscription(app.db, me, 'DEVELOPER', 'active');
    const member = new Client(app.url);
    await signIn(member, app.mailer, 'backup-member@example.com');
    expect((await owner.post('/api/workspaces', { name: 'Second workspace' })).status).toBe(201);
    const cardano = await owner.post(`/api/workspaces/${ws}/projects`, { projectName: 'cardano', networkId: 0 });
    expect(cardano.status, JSON.stringify(cardano.body)).toBe(201);
    keys.cardano = cardano.body.data.project.project_id;
    const ipfs = await owner.post(`/api/workspaces/${ws}/projects`, { projectName: 'ipfs', networkId: 2 });
    expect(ipfs.status, JSON.stringify(ipfs.body)).toBe(201);
    keys.ipfs = ipfs.body.data.project.project_id;
    const hook = await owner.post(`/api/workspaces/${ws}/webhooks`, { name: 'hook', description: '', network: 0, type: 'block', target_url: receiver.url, confirmations: 0, status: 'enabled', conditions: [], api_version: 1 });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    // Pending events, due later than the test lasts so nothing delivers them meanwhile.
    for (let i = 0; i < 5; i++) await enqueueBlockEvent(app.db, hook.body.data.id, Date.now() + 3_600_000);
    const order = await owner.post(`/api/workspaces/${ws}/ppu/orders`, { items: [{ item_type: 'requests', item_quantity: 1_000_000 }] });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    // A devnet with an accepted transaction (a funding) and a snapshot: its tables go with the backup.
    const devnet = await owner.post(`/api/workspaces/${ws}/projects`, { projectName: 'devnet', networkId: 8 });
    expect(devnet.status, JSON.stringify(devnet.body)).toBe(201);
    await gw.keys.catchUp();
    const steer = (sub: string, body: unknown) => fetch(`${gw.url}/cairn/v1/devnet${sub}`, { method: 'POST', headers: { project_id: devnet.body.data.project.project_id, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await steer('/fund', { address: 'addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs68faae', lovelace: '5000000' })).status).toBe(200);
    expect((await steer('/snapshots', { name: 'kept' })).status).toBe(201);
    for (let i = 0; i < 20; i++) expect((await call(`${gw.url}/api/v0/blocks/latest`, keys.cardano)).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const added = await ipfsAdd(gw.url, keys.ipfs, [...pseudoRandom(300_000 + i, `pin-${i}`)], `file-${i}.bin`);
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect((await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/add/${added.body.ipfs_hash}`, keys.ipfs)).status).toBe(200);
    }
    await gw.meter.flush();
  });

  afterAll(async () => {
    await receiver?.close();
    for (const r of restored) await r.drop();
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(sourceDir, { recursive: true, force: true });
  });

  it('backs up while calls keep coming, and the restore is whole: every table readable, every pin complete', async () => {
    let stop = false;
    let calls = 0;
    const load = (async () => {
      while (!stop) {
        const i = calls++;
        await call(`${gw.url}/api/v0/blocks/latest`, keys.cardano);
        if (i % 10 === 0) await ipfsAdd(gw.url, keys.ipfs, Buffer.from(`load ${i} ${crypto.randomUUID()}`), `load-${i}.txt`);
      }
    })();
    const file = path.join(work, 'under-load.tar.gz');
    let res;
    try {
      res = await operator(['backup', file], sourceEnv());
    } finally {
      stop = true;
      await load;
    }
    expect(res.code, res.text).toBe(0);
    expect(res.text).toMatch(/^Backup written to /);
    expect(calls).toBeGreaterThan(0);

    const r = await restoreInto(file);
    restored.push(r);
    expect(r.text).toMatch(/^Restored the backup of /);
    if (!isPostgres(r.db)) {
      expect(await r.db.raw('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      expect(await r.db.raw('PRAGMA foreign_key_check')).toEqual([]);
    }
    expect(await r.db('users').whereIn('email', ['backup-owner@example.com', 'backup-member@example.com']).count({ n: '*' }).first()).toEqual({ n: 2 });
    expect(Number((await r.db('webhook_events').where({ status: 'pending' }).count({ n: '*' }).first())!.n)).toBe(5);
    const pins = await pinnedCids(r.db);
    expect(pins).toHaveLength(3);
    const store = new EmbeddedIpfsStore(r.dir);
    await store.open();
    const live = new EmbeddedIpfsStore(sourceDir);
    await live.open();
    for (const cid of pins) {
      const bytes = await readStored(store, cid);
      expect(bytes, cid).not.toBeNull();
      expect(bytes!.equals((await readStored(live, cid))!)).toBe(true);
    }
  });

  it('restores, once the calls stop, exactly what the running Cairn holds: every table and every pinned block', async () => {
    await gw.meter.flush();
    // A gateway's sandbox sweep is derived data: it is not in the archive.
    fs.mkdirSync(path.join(sourceDir, 'sandbox-chains', 'preview-0123456789abcdef0123'), { recursive: true });
    fs.writeFileSync(path.join(sourceDir, 'sandbox-chains', 'preview-0123456789abcdef0123', 'chunk-0.bin'), Buffer.alloc(64));
    const file = path.join(work, 'quiet.tar.gz');
    const res = await operator(['backup', file], sourceEnv());
    expect(res.code, res.text).toBe(0);
    const r = await restoreInto(file);
    restored.push(r);
    const [before, after] = [await dumpTables(app.db), await dumpTables(r.db)];
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
    expect((after.usage_rollups ?? []).length).toBeGreaterThan(0);
    expect((after.ppu_orders ?? []).length).toBe(1);
    expect((after.projects ?? []).length).toBe(3);
    expect((after.devnets ?? []).length).toBe(1);
    expect((after.devnet_snapshots ?? []).length).toBe(1);
    expect((after.sandbox_ledger ?? []).some((r) => r.includes('"devnet:'))).toBe(true);
    // Every block file of the live store (pinned content and everything added) is in the restored one, byte for byte.
    const blocks = (dir: string) => fs.readdirSync(path.join(dir, 'ipfs', 'blocks'), { recursive: true }).map(String).filter((f) => f.endsWith('.data')).sort();
    expect(blocks(r.dir)).toEqual(blocks(sourceDir));
    for (const f of blocks(sourceDir)) expect(fs.readFileSync(path.join(r.dir, 'ipfs', 'blocks', f)).equals(fs.readFileSync(path.join(sourceDir, 'ipfs', 'blocks', f)))).toBe(true);
    expect(fs.existsSync(path.join(r.dir, 'sandbox-chains'))).toBe(false);
    // The restored Cairn serves: a gateway key from the backup finds its project.
    expect(after.projects!.some((p) => p.includes(keys.cardano))).toBe(true);
  });

  it('writes the archive readable by its owner only, even over a file others could read, and says what it holds', async () => {
    const file = path.join(work, 'secret.tar.gz');
    fs.writeFileSync(file, 'an older archive', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const res = await operator(['backup', file], sourceEnv());
    expect(res.code, res.text).toBe(0);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(res.text).toContain('session secret, sessions, project keys and webhook secrets');
  });

  it('refuses a target that is not empty, a file that is not a backup, and a backup of the other engine, changing nothing', async () => {
    const file = path.join(work, 'quiet.tar.gz');
    const notEmpty = tmp('cairn-backup-busy-');
    fs.writeFileSync(path.join(notEmpty, 'keep.txt'), 'mine');
    const busy = await operator(['restore', file], envOf(notEmpty, database.databaseUrl));
    expect(busy.code).toBe(1);
    expect(busy.text).toMatch(/^Not done: Restore needs an empty data directory/);
    expect(fs.readdirSync(notEmpty)).toEqual(['keep.txt']);

    const junk = path.join(work, 'junk.tar.gz');
    fs.writeFileSync(junk, 'not an archive');
    const empty = path.join(tmp('cairn-backup-empty-'), 'data');
    const bad = await operator(['restore', junk], envOf(empty));
    expect(bad.code).toBe(1);
    expect(bad.text).toMatch(/^Not done: This file is not a readable Cairn backup/);
    expect(fs.existsSync(sqliteFileIn(empty))).toBe(false);

    const missing = await operator(['restore', path.join(work, 'nothing.tar.gz')], envOf(empty));
    expect(missing).toEqual({ code: 1, text: `Not done: There is no backup file at ${path.join(work, 'nothing.tar.gz')}.` });

    if (database.databaseUrl) {
      const other = await operator(['restore', file], envOf(empty));
      expect(other.code).toBe(1);
      expect(other.text).toMatch(/^Not done: This backup holds a PostgreSQL database/);
      const busyDb = await operator(['restore', file], envOf(path.join(tmp('cairn-backup-e2-'), 'data'), database.databaseUrl));
      expect(busyDb.code).toBe(1);
      expect(busyDb.text).toMatch(/^Not done: Restore needs an empty database/);
    }
    expect(await operator(['backup'], sourceEnv())).toMatchObject({ code: 2 });
  });
});
