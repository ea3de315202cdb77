import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedIpfsStore } from '../../../../server/ipfs/embedded-store';

const content = (bytes: Buffer) =>
  (async function* () {
    for (let off = 0; off < bytes.byteLength; off += 65_536) yield bytes.subarray(off, off + 65_536);
  })();

const readAll = async (store: EmbeddedIpfsStore, cid: string) => {
  const file = await store.cat(cid);
  if (!file || file === 'directory') return null;
  const parts: Buffer[] = [];
  for await (const p of file.read()) parts.push(Buffer.from(p));
  return Buffer.concat(parts);
};

describe('the embedded store', () => {
  let dir: string;
  let store: EmbeddedIpfsStore;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-store-'));
    store = new EmbeddedIpfsStore(dir);
    await store.open();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes the blocks of an object again when it is added after a collection removed them', async () => {
    const bytes = crypto.randomBytes(700_000);
    const first = await store.add(content(bytes), async (r) => r);
    expect((await readAll(store, first.cid))?.equals(bytes)).toBe(true);
    expect((await store.collect(async () => new Set())).removedBlocks).toBe(4);
    expect(await store.stat(first.cid)).toBeNull();
    // The store remembers the blocks it wrote; after a collection it must not trust that memory.
    const again = await store.add(content(bytes), async (r) => r);
    expect(again.cid).toBe(first.cid);
    expect((await readAll(store, again.cid))?.equals(bytes)).toBe(true);
  });

  it('writes a block repeated within a file once, and keeps what a pin holds', async () => {
    const bytes = Buffer.alloc(5 * 262_144, 7);
    const r = await store.add(content(bytes), async (x) => x);
    const files = fs.readdirSync(path.join(dir, 'ipfs', 'blocks'), { recursive: true }).filter((f) => String(f).endsWith('.data'));
    expect(files).toHaveLength(2); // one leaf, five times over, and the root
    expect((await store.collect(async () => new Set([r.cid]))).removedBlocks).toBe(0);
    expect((await readAll(store, r.cid))?.equals(bytes)).toBe(true);
  });

  it('removes the half-written blocks a crash left when it collects', async () => {
    const r = await store.add(content(crypto.randomBytes(1000)), async (x) => x);
    const shard = fs.readdirSync(path.join(dir, 'ipfs', 'blocks'))[0]!;
    const stale = path.join(dir, 'ipfs', 'blocks', shard, '.CIQSTALE.data.tmp');
    fs.writeFileSync(stale, 'half a block');
    await store.collect(async () => new Set([r.cid]));
    expect(fs.existsSync(stale)).toBe(false);
    expect(await store.stat(r.cid)).toMatchObject({ cid: r.cid, size: 1000 });
  });
});
