import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { readFileDag } from '../../../../../server/features/ipfs/embedded-store';
import { openTempStore, type TempStore } from '../../../../helpers/embedded-store';
import { pseudoRandom } from '../../../../helpers/ipfs';

// A file of 175 chunks: the smallest two-level DAG of `ipfs add`'s layout (a root over two nodes
// of 174 leaves and 1 leaf), pseudo-random so every byte's place is checked.
const CHUNK = 262_144;
const SIZE = 175 * CHUNK - 1000;
const bytes = Buffer.concat([...pseudoRandom(SIZE, 'two-level reader')]);

let temp: TempStore;
let cid: string;
beforeAll(async () => {
  temp = await openTempStore('cairn-reader-');
  const content = (async function* () {
    yield* pseudoRandom(SIZE, 'two-level reader');
  })();
  cid = (await temp.store.add(content, async (r) => r)).cid;
});
afterAll(() => temp.remove());

const block = async (c: CID) => {
  const parts: Uint8Array[] = [];
  for await (const p of temp.store.blockstore.get(c)) parts.push(p);
  return Buffer.concat(parts);
};
/** The root's node and a block loader that notes every block it reads. */
async function counted() {
  const loads: string[] = [];
  const root = dagPb.decode(await block(CID.parse(cid)));
  return { root, loads, load: (c: CID) => (loads.push(c.toString()), block(c)) };
}
const readAll = async (parts: AsyncIterable<Uint8Array>) => {
  const out: Uint8Array[] = [];
  for await (const p of parts) out.push(p);
  return Buffer.concat(out);
};

describe('reading a file of the embedded store', () => {
  it('answers any range byte for byte: within a leaf, across leaves, across the two subtrees, the end, the whole', async () => {
    const file = await temp.store.cat(cid);
    if (!file || file === 'directory') throw new Error('the file is missing');
    expect(file.size).toBe(SIZE);
    const boundary = 174 * CHUNK; // where the second subtree starts
    for (const [offset, length] of [
      [0, 1],
      [10, 100],
      [CHUNK - 5, 10],
      [3 * CHUNK + 17, 2 * CHUNK + 3],
      [boundary - 1000, 2000],
      [boundary, 1],
      [SIZE - 1, 1],
      [SIZE - 300_000, 300_000],
      [0, SIZE],
    ] as Array<[number, number]>) {
      const got = await readAll(file.read({ offset, length }));
      expect(got.equals(bytes.subarray(offset, offset + length)), `${offset}+${length}`).toBe(true);
    }
    expect((await readAll(file.read())).equals(bytes)).toBe(true);
    expect(Buffer.from(file.head).equals(bytes.subarray(0, 512))).toBe(true);
  });

  it('reads only the blocks under the range', async () => {
    const { root, loads, load } = await counted();
    expect(root.Links).toHaveLength(2);
    // 700,000 bytes across the two subtrees: leaves 172 and 173 of the first, the one leaf of the second.
    const offset = 174 * CHUNK - 500_000;
    const got = await readAll(readFileDag(root, load, offset, offset + 700_000));
    expect(got.equals(bytes.subarray(offset, offset + 700_000))).toBe(true);
    expect(loads).toHaveLength(2 + 3);
    expect(loads.slice(0, 2)).toEqual(root.Links.map((l) => l.Hash.toString()));
    // Within one leaf: the first subtree's node and that leaf.
    loads.length = 0;
    expect((await readAll(readFileDag(root, load, 5 * CHUNK + 10, 5 * CHUNK + 20))).equals(bytes.subarray(5 * CHUNK + 10, 5 * CHUNK + 20))).toBe(true);
    expect(loads).toHaveLength(2);
  });

  it('reads a few blocks ahead of a reader that waits, not the rest of the file', async () => {
    const { root, loads, load } = await counted();
    const reader = readFileDag(root, load, 0, SIZE);
    const first = await reader.next();
    expect(first.value?.byteLength).toBe(CHUNK);
    await new Promise((r) => setTimeout(r, 30));
    // The root's two children and at most 8 leaves ahead: 2 MB, where the file is 45 MB.
    expect(loads.length).toBeLessThanOrEqual(2 + 8);
    await reader.return(undefined);
  });

  it('fails a read whose block is missing instead of answering short', async () => {
    const { root } = await counted();
    const missing = async (c: CID) => {
      if (c.toString() !== root.Links[0]!.Hash.toString()) return block(c);
      throw new Error('block missing');
    };
    await expect(readAll(readFileDag(root, missing, 0, SIZE))).rejects.toThrow('block missing');
  });
});
