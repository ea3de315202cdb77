import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { startTestGateway } from '../helpers/gateway';
import { ipfsAdd, ipfsCall, pseudoRandom } from '../helpers/ipfs';
import type { RunningGateway } from '../../server/gateway-app';
import { BlockFrostIPFS, BlockfrostServerError } from '@blockfrost/blockfrost-js';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { PIN_QUEUE_LIMIT } from '../../shared/ipfs';
import { plans } from '../../shared/plans';

const app = useTestApp();
let gw: RunningGateway;
let dataDir: string;
/** The gateway's clock runs this far ahead of the wall clock: the garbage-collection test moves it past the grace period. */
let skewMs = 0;

interface Account {
  client: Client;
  id: number;
  ws: number;
}

// 'hello world\n' is the IPFS documentation's own example: `echo "hello world" | ipfs add` gives this CID.
const HELLO = 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o';
const NOT_FOUND = { status_code: 404, error: 'Not Found', message: 'The requested component has not been found.' };

async function account(email: string, plan: 'STARTER' | 'HOBBY' | 'DEVELOPER'): Promise<Account> {
  const client = new Client(app.url);
  await signIn(client, app.mailer, email);
  const id = (await client.get('/api/me')).body.data.id;
  const ws = (await client.get('/api/workspaces')).body.data[0].id;
  await setSubscription(app.db, id, plan, 'active');
  return { client, id, ws };
}

async function ipfsProject(a: Account): Promise<{ key: string; uuid: string }> {
  const res = await a.client.post(`/api/workspaces/${a.ws}/projects`, { projectName: `ipfs ${Math.random()}`, networkId: 2 });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { key: res.body.data.project.project_id, uuid: res.body.data.project.uuid };
}

/** Waits for a key-cache poll that began after the changes so far (a project just created). */
const settle = () => gw.keys.catchUp();
const quotaStorage = async (a: Account) => (await a.client.get(`/api/workspaces/${a.ws}/quota`)).body.data.used.subscription.storage as number;
const blockFiles = () => fs.readdirSync(path.join(dataDir, 'ipfs', 'blocks'), { recursive: true }).filter((f) => String(f).endsWith('.data')).length;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-ipfs-'));
  gw = await startTestGateway(app, { DATA_DIR: dataDir, IPFS_GC_GRACE_SECONDS: '1', IPFS_GC_INTERVAL_SECONDS: '3600' }, undefined, { now: () => Date.now() + skewMs });
});
afterAll(async () => {
  await gw.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('IPFS through the gateway, on the embedded store', () => {
  let owner: Account;
  let p1: { key: string; uuid: string };
  let p2: { key: string; uuid: string };

  beforeAll(async () => {
    owner = await account('ipfs-owner@example.com', 'HOBBY');
    p1 = await ipfsProject(owner);
    p2 = await ipfsProject(owner);
    await settle();
  });

  it('adds a file and gives the CID Kubo gives', async () => {
    const res = await ipfsAdd(gw.url, p1.key, Buffer.from('hello world\n'), 'hello.txt');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ name: 'hello.txt', ipfs_hash: HELLO, size: '12' });
  });

  it('serves the bytes with a content type, whole or by range, by path or ?path=', async () => {
    const whole = await ipfsCall('GET', `${gw.url}/api/v0/ipfs/gateway/${HELLO}`, p1.key);
    expect(whole.status).toBe(200);
    expect(whole.raw.toString()).toBe('hello world\n');
    expect(whole.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['access-control-allow-origin']).toBe('*');
    const viaQuery = await ipfsCall('GET', `${gw.url}/ipfs/api/v0/ipfs/gateway?path=${HELLO}`, p1.key);
    expect(viaQuery.raw.toString()).toBe('hello world\n');
    const part = await ipfsCall('GET', `${gw.url}/api/v0/ipfs/gateway/${HELLO}`, p1.key, { range: 'bytes=6-10' });
    expect(part.status).toBe(206);
    expect(part.raw.toString()).toBe('world');
    expect(part.headers['content-range']).toBe('bytes 6-10/12');
    const suffix = await ipfsCall('GET', `${gw.url}/api/v0/ipfs/gateway/${HELLO}`, p1.key, { range: 'bytes=-3' });
    expect(suffix.raw.toString()).toBe('ld\n');
    const past = await ipfsCall('GET', `${gw.url}/api/v0/ipfs/gateway/${HELLO}`, p1.key, { range: 'bytes=50-' });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */12');
    expect(past.body).toMatchObject({ status_code: 416 });
  });

  it('answers ranges as RFC 9110 says: open and clamped ends, 416 for bad ones, a malformed or multiple one ignored, HEAD', async () => {
    const url = `${gw.url}/api/v0/ipfs/gateway/${HELLO}`;
    const open = await ipfsCall('GET', url, p1.key, { range: 'bytes=6-' });
    expect(open).toMatchObject({ status: 206, headers: { 'content-range': 'bytes 6-11/12', 'content-length': '6' } });
    expect(open.raw.toString()).toBe('world\n');
    const clamped = await ipfsCall('GET', url, p1.key, { range: 'bytes=0-1000' });
    expect(clamped).toMatchObject({ status: 206, headers: { 'content-range': 'bytes 0-11/12' } });
    expect(clamped.raw.toString()).toBe('hello world\n');
    const longSuffix = await ipfsCall('GET', url, p1.key, { range: 'bytes=-100' });
    expect(longSuffix).toMatchObject({ status: 206, headers: { 'content-range': 'bytes 0-11/12' } });
    for (const bad of ['bytes=5-2', 'bytes=-0', 'bytes=12-12']) {
      const res = await ipfsCall('GET', url, p1.key, { range: bad });
      expect(res.status, bad).toBe(416);
      expect(res.headers['content-range'], bad).toBe('bytes */12');
    }
    // Not a byte range this server serves (another unit, or several ranges): the whole object, as RFC 9110 allows.
    for (const ignored of ['items=0-1', 'bytes=0-1,4-5', 'bytes=x-1']) {
      const res = await ipfsCall('GET', url, p1.key, { range: ignored });
      expect(res.status, ignored).toBe(200);
      expect(res.raw.toString(), ignored).toBe('hello world\n');
    }
    const head = await ipfsCall('HEAD', url, p1.key);
    expect(head).toMatchObject({ status: 200, headers: { 'content-length': '12', 'accept-ranges': 'bytes', etag: `"${HELLO}"` } });
    expect(head.raw.byteLength).toBe(0);
    const headRange = await ipfsCall('HEAD', url, p1.key, { range: 'bytes=-5' });
    expect(headRange).toMatchObject({ status: 206, headers: { 'content-range': 'bytes 7-11/12', 'content-length': '5' } });
    expect(headRange.raw.byteLength).toBe(0);
  });

  it('answers 304 to a matching If-None-Match and honours If-Range', async () => {
    const url = `${gw.url}/api/v0/ipfs/gateway/${HELLO}`;
    const etag = `"${HELLO}"`;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await ipfsCall('GET', url, p1.key, { 'if-none-match': header });
      expect(res.status, header).toBe(304);
      expect(res.headers.etag).toBe(etag);
      expect(res.raw.byteLength).toBe(0);
    }
    expect((await ipfsCall('GET', url, p1.key, { 'if-none-match': '"QmSomethingElse"' })).status).toBe(200);
    // If-Range: the range while the client holds this object; the whole object otherwise (another tag, or a date).
    const same = await ipfsCall('GET', url, p1.key, { range: 'bytes=0-4', 'if-range': etag });
    expect(same.status).toBe(206);
    expect(same.raw.toString()).toBe('hello');
    for (const other of ['"QmSomethingElse"', 'Wed, 21 Oct 2015 07:28:00 GMT', `W/${etag}`]) {
      const res = await ipfsCall('GET', url, p1.key, { range: 'bytes=0-4', 'if-range': other });
      expect(res.status, other).toBe(200);
      expect(res.raw.toString()).toBe('hello world\n');
    }
  });

  it('serves a multi-block file by range across chunk boundaries', async () => {
    const size = 700_000;
    const content = Buffer.concat([...pseudoRandom(size, 'ranged')]);
    const added = await ipfsAdd(gw.url, p1.key, pseudoRandom(size, 'ranged'));
    expect(added.body.size).toBe(String(size));
    const res = await ipfsCall('GET', `${gw.url}/api/v0/ipfs/gateway/${added.body.ipfs_hash}`, p1.key, { range: 'bytes=262000-524500' });
    expect(res.status).toBe(206);
    expect(res.raw.equals(content.subarray(262000, 524501))).toBe(true);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    // Ranges in the last leaf, whole and suffix, and the whole file.
    const tail = await ipfsCall('GET', `${gw.url}/api/v0/ipfs/gateway/${added.body.ipfs_hash}`, p1.key, { range: 'bytes=-1000' });
    expect(tail).toMatchObject({ status: 206, headers: { 'content-range': `bytes ${size - 1000}-${size - 1}/${size}` } });
    expect(tail.raw.equals(content.subarray(size - 1000))).toBe(true);
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/gateway/${added.body.ipfs_hash}`, p1.key)).raw.equals(content)).toBe(true);
  });

  it('answers bad input in the Blockfrost shape and changes nothing', async () => {
    expect(await ipfsCall('GET', `${gw.url}/api/v0/ipfs/gateway/QmNotACidAtAll`, p1.key)).toMatchObject({ status: 400, body: { status_code: 400, error: 'Bad Request' } });
    // A valid CID nobody added.
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/gateway/QmRk1rduJvo5DfEYAaLobS2za9tDszk35hzaNSDCJ74DA7`, p1.key)).body).toEqual(NOT_FOUND);
    expect((await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/add/QmRk1rduJvo5DfEYAaLobS2za9tDszk35hzaNSDCJ74DA7`, p1.key)).body).toEqual(NOT_FOUND);
    expect((await ipfsCall('POST', `${gw.url}/api/v0/ipfs/add`, p1.key, { 'content-type': 'application/json' })).body).toMatchObject({ status_code: 400 });
    const wrongField = await ipfsAdd(gw.url, p1.key, Buffer.from('x'), 'x.txt', { field: 'upload' });
    expect(wrongField.body).toEqual({ status_code: 400, error: 'Bad Request', message: 'The multipart request has no field "file".' });
    const declared = await ipfsCall('POST', `${gw.url}/api/v0/ipfs/add`, p1.key, { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(200_000_000) });
    expect(declared.body).toMatchObject({ status_code: 400, message: 'The file is larger than 100 MB, the most one add takes.' });
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list?count=0`, p1.key)).status).toBe(400);
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list?order=up`, p1.key)).status).toBe(400);
    expect((await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/add/${HELLO}?filecoin=yes`, p1.key)).status).toBe(400);
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/nothing`, p1.key)).body).toEqual({ status_code: 400, error: 'Bad Request', message: 'Invalid path. Please check https://docs.blockfrost.io/' });
    // A path of Blockfrost's document this backend does not answer stays the 404.
    expect((await ipfsCall('GET', `${gw.url}/api/v0/blocks/latest`, p1.key)).body).toEqual(NOT_FOUND);
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list`, p1.key)).body).toEqual([]);
  });

  it('pins, lists, counts storage once per CID across the owner\'s projects, and unpins', async () => {
    // The adds so far count until the collector may remove them; past that, only pins count.
    expect(await quotaStorage(owner)).toBeGreaterThanOrEqual(700_000);
    await app.db('ipfs_objects').update({ created_at: 0 });
    expect(await quotaStorage(owner)).toBe(0);
    const pinned = await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/add/${HELLO}`, p1.key);
    expect(pinned.body).toEqual({ ipfs_hash: HELLO, state: 'pinned', filecoin: false });
    // The same CID pinned by the owner's other project is the same bytes: counted once.
    expect((await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/add/${HELLO}`, p2.key)).body.state).toBe('pinned');
    expect(await quotaStorage(owner)).toBe(12);
    const one = await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list/${HELLO}`, p1.key);
    expect(one.body).toEqual({ time_created: expect.any(Number), time_pinned: expect.any(Number), ipfs_hash: HELLO, size: '12', state: 'pinned', filecoin: false });
    expect(Math.abs(one.body.time_created - Date.now() / 1000)).toBeLessThan(30);
    const list = await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list?count=1&page=1&order=desc`, p1.key);
    expect(list.body).toHaveLength(1);
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list?count=1&page=2`, p1.key)).body).toEqual([]);

    expect((await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/remove/${HELLO}`, p1.key)).body).toEqual({ ipfs_hash: HELLO, state: 'unpinned' });
    expect(await quotaStorage(owner)).toBe(12); // p2 still pins it
    expect((await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/remove/${HELLO}`, p2.key)).body.state).toBe('unpinned');
    expect(await quotaStorage(owner)).toBe(0);
    // Pinning again brings it back.
    expect((await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/add/${HELLO}`, p1.key)).body.state).toBe('pinned');
    expect(await quotaStorage(owner)).toBe(12);
  });

  it("someone else's project sees none of it", async () => {
    const stranger = await account('ipfs-stranger@example.com', 'STARTER');
    const theirs = await ipfsProject(stranger);
    await settle();
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list/${HELLO}`, theirs.key)).body).toEqual(NOT_FOUND);
    expect((await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/remove/${HELLO}`, theirs.key)).body).toEqual(NOT_FOUND);
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list/${HELLO}`, p1.key)).body.state).toBe('pinned');
    // A Cardano key cannot call IPFS.
    const cardano = await stranger.client.get(`/api/workspaces/${stranger.ws}/projects`);
    expect(cardano.status).toBe(200);
  });

  it('Filecoin: queued, then pinned on the local store with no provider; never removable; counted against the Filecoin limit', async () => {
    const added = await ipfsAdd(gw.url, p1.key, Buffer.from('kept for good'), 'forever.txt');
    const cid = added.body.ipfs_hash as string;
    const res = await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/add/${cid}?filecoin=true`, p1.key);
    expect(res.body).toEqual({ ipfs_hash: cid, state: 'queued', filecoin: true });
    await gw.ipfs!.processQueue();
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list/${cid}`, p1.key)).body).toMatchObject({ state: 'pinned', filecoin: true });
    const remove = await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/remove/${cid}`, p1.key);
    expect(remove.body).toEqual({ status_code: 400, error: 'Bad Request', message: 'Filecoin pins cannot be removed.' });
    // The Filecoin pin counts against storageLimitFilecoin; its add, until collected, against the storage.
    expect(await quotaStorage(owner)).toBe(12 + 13);
    let page = await owner.client.get(`/api/workspaces/${owner.ws}/projects/${p1.uuid}/ipfs`);
    expect(page.body.data.storage).toMatchObject({ used: 12 + 13, limit: plans.HOBBY.storageLimit, filecoinUsed: 13, filecoinLimit: plans.HOBBY.storageLimitFilecoin });
    await app.db('ipfs_objects').where({ cid }).update({ created_at: 0 });
    expect(await quotaStorage(owner)).toBe(12);
    page = await owner.client.get(`/api/workspaces/${owner.ws}/projects/${p1.uuid}/ipfs`);
    expect(page.body.data.storage).toMatchObject({ used: 12, filecoinUsed: 13 });
    expect(page.body.data.filecoinProvider).toBeNull();
    expect(page.body.data.maxAddBytes).toBe(100_000_000);
  });

  it(`answers 425 Pin Queue Full at ${PIN_QUEUE_LIMIT} queued pins`, async () => {
    const project = await app.db('projects').where({ project_id: p2.key }).first('id');
    const now = Date.now();
    await app.db('ipfs_pins').insert(
      Array.from({ length: PIN_QUEUE_LIMIT }, (_, i) => ({ project_id: project.id, cid: `QmQueued${i}`, size: 1, state: 'queued', filecoin: true, time_created: now, updated_at: now + 3_600_000 })),
    );
    const full = await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/add/${HELLO}?filecoin=true`, p2.key);
    expect(full.status).toBe(425);
    expect(full.body).toMatchObject({ status_code: 425, error: 'Pin Queue Full' });
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list/${HELLO}`, p2.key)).body.state).toBe('unpinned');
    await app.db('ipfs_pins').where({ project_id: project.id }).andWhere('cid', 'like', 'QmQueued%').delete();
  });

  it('collects objects never pinned after the grace period, and unpinned ones go to gc, then away', async () => {
    const orphan = await ipfsAdd(gw.url, p1.key, Buffer.from('nobody pins me'), 'orphan.txt');
    const gone = await ipfsAdd(gw.url, p2.key, Buffer.from('pinned, then unpinned'), 'gone.txt');
    await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/add/${gone.body.ipfs_hash}`, p2.key);
    await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/remove/${gone.body.ipfs_hash}`, p2.key);
    // Within the grace period (1 s in this test) nothing goes.
    await gw.ipfs!.collect();
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/gateway/${orphan.body.ipfs_hash}`, p1.key)).status).toBe(200);
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list/${gone.body.ipfs_hash}`, p2.key)).body.state).toBe('gc');
    const before = blockFiles();
    skewMs += 1100; // past the grace period
    const { removedBlocks } = await gw.ipfs!.collect();
    expect(removedBlocks).toBeGreaterThanOrEqual(2);
    expect(blockFiles()).toBe(before - removedBlocks);
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/gateway/${orphan.body.ipfs_hash}`, p1.key)).body).toEqual(NOT_FOUND);
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/gateway/${gone.body.ipfs_hash}`, p1.key)).body).toEqual(NOT_FOUND);
    // gc pins older than the grace period leave the list.
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list/${gone.body.ipfs_hash}`, p2.key)).body).toEqual(NOT_FOUND);
    // Pinned content stays.
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/gateway/${HELLO}`, p1.key)).raw.toString()).toBe('hello world\n');
  });

  it('meters IPFS calls like every other gateway call', async () => {
    const project = await app.db('projects').where({ project_id: p1.key }).first('id');
    await gw.meter.flush({ paced: false });
    const rows = await app.db('usage_dimensions').where({ project_id: project.id, dimension: 'endpoint' }).select('value');
    expect(rows.map((r) => r.value)).toEqual(expect.arrayContaining(['/ipfs/add', '/ipfs/gateway/{IPFS_path}', '/ipfs/pin/add/{IPFS_path}']));
  });
});

describe('storage quota', () => {
  it('is exact under 20 parallel adds and pins: the plan limit is never passed', async () => {
    const a = await account('ipfs-quota@example.com', 'STARTER'); // 100 MB
    const p = await ipfsProject(a);
    await settle();
    const size = 5_500_000; // 18 fit in 100 MB (99 MB), the 19th does not
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const added = await ipfsAdd(gw.url, p.key, pseudoRandom(size, `quota-${i}`), `q${i}.bin`);
        // Unpinned adds count too: the add itself may be the one refused.
        if (added.status !== 200) return added;
        return ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/add/${added.body.ipfs_hash}`, p.key);
      }),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(18);
    expect(refused.map((r) => r.body.status_code)).toEqual([402, 402]);
    // The first add refused reads 99 MB used; the one after it also counts what the first had
    // stored before it stopped (stranded until the next collection), so its figure may be higher.
    const messages = refused.map((r) => String(r.body.message));
    for (const m of messages) expect(m).toMatch(/^Storage limit of the STARTER plan reached: [\d.]+ MB of 100 MB used/);
    expect(messages.some((m) => m.startsWith('Storage limit of the STARTER plan reached: 99 MB of 100 MB used'))).toBe(true);
    expect(await quotaStorage(a)).toBe(18 * size);
  }, 60_000);
});

describe('storage quota of unpinned adds', () => {
  const blockBytes = () =>
    fs
      .readdirSync(path.join(dataDir, 'ipfs', 'blocks'), { recursive: true })
      .filter((f) => String(f).endsWith('.data'))
      .reduce((n, f) => n + fs.statSync(path.join(dataDir, 'ipfs', 'blocks', String(f))).size, 0);

  it('refuses adds past the plan storage with 402, so adds alone never grow the store past it', async () => {
    const starter = plans.STARTER as { storageLimit: number };
    const saved = starter.storageLimit;
    starter.storageLimit = 2_000_000; // a small plan for the test: 4 adds of 500 kB fit
    try {
      const a = await account('ipfs-unpinned-quota@example.com', 'STARTER');
      const p = await ipfsProject(a);
      await settle();
      const before = blockBytes();
      const size = 500_000;
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => ipfsAdd(gw.url, p.key, pseudoRandom(size, `unpinned-${i}`), `u${i}.bin`)));
      expect(results.filter((r) => r.status === 200)).toHaveLength(4);
      const refused = results.filter((r) => r.status !== 200);
      expect(refused.map((r) => r.body)).toEqual(
        Array.from({ length: 2 }, () => ({ status_code: 402, error: 'Project Over Limit', message: expect.stringMatching(/^Storage limit of the STARTER plan reached: 2 MB of 2 MB used/) })),
      );
      // The quota and the IPFS page show what the limit counted, before anything is pinned.
      expect(await quotaStorage(a)).toBe(4 * size);
      expect((await a.client.get(`/api/workspaces/${a.ws}/projects/${p.uuid}/ipfs`)).body.data.storage).toMatchObject({ used: 4 * size, limit: 2_000_000 });
      // The blocks of the 4 adds (their dag-pb framing adds a few bytes per 256 KiB chunk), nothing of the refused ones.
      expect(blockBytes() - before).toBeLessThanOrEqual(4 * size + 4 * 200);
      // A pin of what was added counts once; no room for more until something is collected.
      const pin = await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/add/${results[0]!.body.ipfs_hash}`, p.key);
      expect(pin.status, JSON.stringify(pin.body)).toBe(200);
      expect(await quotaStorage(a)).toBe(4 * size);
      expect((await ipfsAdd(gw.url, p.key, pseudoRandom(1000, 'one-more'), 'more.bin')).status).toBe(402);
    } finally {
      starter.storageLimit = saved;
    }
  }, 60_000);
});

describe('IPFS_MAX_ADD_MB', () => {
  it('sets the largest add: up to it is taken, a byte more is refused, declared or streamed', async () => {
    const small = await startTestGateway(app, { DATA_DIR: dataDir, IPFS_MAX_ADD_MB: '1' });
    try {
      const a = await account('ipfs-max-add@example.com', 'STARTER');
      const p = await ipfsProject(a);
      await small.keys.catchUp();
      const fits = await ipfsAdd(small.url, p.key, pseudoRandom(1_000_000, 'max-add'), 'fits.bin');
      expect(fits.status, JSON.stringify(fits.body)).toBe(200);
      expect(fits.body.size).toBe('1000000');
      const message = 'The file is larger than 1 MB, the most one add takes.';
      // Streamed without a length, so the server counts.
      expect((await ipfsAdd(small.url, p.key, pseudoRandom(1_000_001, 'max-add+1'), 'over.bin')).body).toEqual({ status_code: 400, error: 'Bad Request', message });
      const declared = await ipfsCall('POST', `${small.url}/api/v0/ipfs/add`, p.key, { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(3_000_000) });
      expect(declared.body).toMatchObject({ status_code: 400, message });
    } finally {
      await small.close();
    }
  }, 30_000);
});

describe("@blockfrost/blockfrost-js's BlockFrostIPFS against Cairn, unchanged", () => {
  it('adds, reads through the gateway, pins, lists by path and removes the pin', async () => {
    const a = await account('ipfs-sdk@example.com', 'STARTER');
    const p = await ipfsProject(a);
    await settle();
    const file = path.join(dataDir, 'sdk-upload.txt');
    fs.writeFileSync(file, 'hello world\n');
    const ipfs = new BlockFrostIPFS({ projectId: p.key, customBackend: `${gw.url}/api/v0`, rateLimiter: false, retrySettings: { limit: 0 } as never, requestTimeout: 10_000 });
    const added = await ipfs.add(file);
    expect(added).toEqual({ name: 'sdk-upload.txt', ipfs_hash: HELLO, size: '12' });
    // The SDK's HTTP client parses every answer as JSON (with Blockfrost too), so its gateway() reads JSON objects.
    const json = path.join(dataDir, 'sdk-metadata.json');
    fs.writeFileSync(json, '{"name":"cairn","n":1}\n');
    const jsonAdded = await ipfs.add(json);
    expect(await ipfs.gateway(jsonAdded.ipfs_hash)).toEqual({ name: 'cairn', n: 1 });
    expect(await ipfs.pin(HELLO)).toEqual({ ipfs_hash: HELLO, state: 'pinned', filecoin: false });
    expect(await ipfs.listByPath(HELLO)).toMatchObject({ ipfs_hash: HELLO, state: 'pinned', size: '12', filecoin: false });
    expect((await ipfs.list()).map((x) => x.ipfs_hash)).toEqual([HELLO]);
    expect(await ipfs.pinRemove(HELLO)).toEqual({ ipfs_hash: HELLO, state: 'unpinned' });
    const err = await ipfs.listByPath('QmRk1rduJvo5DfEYAaLobS2za9tDszk35hzaNSDCJ74DA7').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockfrostServerError);
    expect(err).toMatchObject({ status_code: 404, error: 'Not Found' });
  });
});
