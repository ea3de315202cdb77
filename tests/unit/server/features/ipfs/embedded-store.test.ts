import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NextToLast } from 'blockstore-fs/sharding';
import { CID } from 'multiformats/cid';
import { openTempStore, readStored, type TempStore } from '../../../../helpers/embedded-store';

const content = (bytes: Buffer) =>
  (async function* () {
    for (let off = 0; off < bytes.byteLength; off += 65_536) yield bytes.subarray(off, off + 65_536);
  })();

describe('the embedded store', () => {
  let temp: TempStore;
  beforeEach(async () => {
    temp = await openTempStore('cairn-store-');
  });
  afterEach(() => temp.remove());

  it('writes the blocks of an object again when it is added after a collection removed them', async () => {
    const bytes = crypto.randomBytes(700_000);
    const first = await temp.store.add(content(bytes), async (r) => r);
    expect((await readStored(temp.store, first.cid))?.equals(bytes)).toBe(true);
    expect((await temp.store.collect(async () => new Set())).removedBlocks).toBe(4);
    expect(await temp.store.stat(first.cid)).toBeNull();
    // The store remembers the blocks it wrote; after a collection it must not trust that memory.
    const again = await temp.store.add(content(bytes), async (r) => r);
    expect(again.cid).toBe(first.cid);
    expect((await readStored(temp.store, again.cid))?.equals(bytes)).toBe(true);
  });

  it('writes a block repeated within a file once, and keeps what a pin holds', async () => {
    const bytes = Buffer.alloc(5 * 262_144, 7);
    const r = await temp.store.add(content(bytes), async (x) => x);
    const files = fs.readdirSync(path.join(temp.dir, 'ipfs', 'blocks'), { recursive: true }).filter((f) => String(f).endsWith('.data'));
    expect(files).toHaveLength(2); // one leaf, five times over, and the root
    expect((await temp.store.collect(async () => new Set([r.cid]))).removedBlocks).toBe(0);
    expect((await readStored(temp.store, r.cid))?.equals(bytes)).toBe(true);
  });

  it('removes the half-written blocks a crash left when it collects', async () => {
    const r = await temp.store.add(content(crypto.randomBytes(1000)), async (x) => x);
    const shard = fs.readdirSync(path.join(temp.dir, 'ipfs', 'blocks'))[0]!;
    const stale = path.join(temp.dir, 'ipfs', 'blocks', shard, '.CIQSTALE.data.tmp');
    fs.writeFileSync(stale, 'half a block');
    await temp.store.collect(async () => new Set([r.cid]));
    expect(fs.existsSync(stale)).toBe(false);
    expect(await temp.store.stat(r.cid)).toMatchObject({ cid: r.cid, size: 1000 });
  });

  it('fails an add whose block write fails, once every write has ended, and records nothing', async () => {
    const store = temp.store as unknown as { writeBlock: (...a: unknown[]) => Promise<unknown> };
    const real = store.writeBlock.bind(temp.store);
    let writes = 0;
    let running = 0;
    let maxRunning = 0;
    store.writeBlock = async (...a: unknown[]) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      try {
        if (++writes === 3) throw new Error('no space left on device');
        return await real(...a);
      } finally {
        running--;
      }
    };
    let recorded = false;
    const add = temp.store.add(content(crypto.randomBytes(4_000_000)), async (r) => ((recorded = true), r));
    await expect(add).rejects.toThrow('no space left on device');
    expect(recorded).toBe(false);
    expect(running).toBe(0);
    // Leaves are written while the next ones are read, several at a time.
    expect(maxRunning).toBeGreaterThan(1);
  });

  it('checks the blocks of what it just added are there without reading them, and sees one go missing', async () => {
    const r = await temp.store.add(content(crypto.randomBytes(2_000_000)), async (x) => x);
    const store = temp.store as unknown as { readBlock: (...a: unknown[]) => Promise<Uint8Array> };
    const real = store.readBlock.bind(temp.store);
    let reads = 0;
    store.readBlock = (...a: unknown[]) => (reads++, real(...a));
    expect(await temp.store.stat(r.cid)).toMatchObject({ cid: r.cid, size: 2_000_000, type: 'file' });
    expect(reads).toBe(0);
    const blocks = path.join(temp.dir, 'ipfs', 'blocks');
    const files = fs.readdirSync(blocks, { recursive: true }).map(String).filter((f) => f.endsWith('.data'));
    expect(files).toHaveLength(8 + 1);
    // A leaf (not the root, which the exporter reads first) removed behind the store's back.
    const { dir, file } = new NextToLast().encode(CID.parse(r.cid));
    const leaf = files.find((f) => f !== path.join(dir, file))!;
    fs.rmSync(path.join(blocks, leaf));
    expect(await temp.store.stat(r.cid)).toBeNull();
  });
});
