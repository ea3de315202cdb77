import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTempStore, type TempStore } from '../../../../helpers/embedded-store';

// Kubo cannot be installed here, so the expected CIDs are published values of `ipfs add` with its
// defaults (CIDv0, 256 KiB chunks, balanced layout, no raw leaves):
// - the empty file and 'hello world\n': the IPFS documentation's well-known examples;
// - n zero bytes: the vectors of Solidity's test/libsolutil/IpfsHash.cpp, which checks its own
//   `ipfs add` implementation against go-ipfs (one chunk, first two-chunk size, 1.25 MiB, the largest
//   single-level DAG of 174 chunks, and the smallest two-level one).
const zeros = (n: number) =>
  (async function* () {
    for (let left = n; left > 0; left -= 65536) yield new Uint8Array(Math.min(65536, left));
  })();
const text = (s: string) =>
  (async function* () {
    yield new TextEncoder().encode(s);
  })();

const VECTORS: Array<[string, () => AsyncIterable<Uint8Array>, string]> = [
  ['the empty file', () => zeros(0), 'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH'],
  ["'hello world\\n'", () => text('hello world\n'), 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o'],
  ["'Solidity\\n'", () => text('Solidity\n'), 'QmSsm9M7PQRBnyiz1smizk8hZw3URfk8fSeHzeTo3oZidS'],
  ['262,143 zero bytes (largest single chunk)', () => zeros(262_143), 'QmbNDspMkzkMFKyS3eCJGedG7GWRQHSCzJCZLjxP7wyVAx'],
  ['262,145 zero bytes (smallest two chunks)', () => zeros(262_145), 'QmbVuw4C4vcmVKqxoWtgDVobvcHrSn51qsmQmyxjk4sB2Q'],
  ['1,310,710 zero bytes', () => zeros(1_310_710), 'QmNg7BJo8gEMDK8yGQbHEwPtycesnE6FUULX5iVd5TAL9f'],
  ['45,613,056 zero bytes (174 chunks: one level)', () => zeros(45_613_056), 'QmY4HSz1oVGdUzb8poVYPLsoqBZjH6LZrtgnme9wWn2Qko'],
  ['45,613,057 zero bytes (two levels)', () => zeros(45_613_057), 'QmehMASWcBsX7VcEQqs6rpR5AHoBfKyBVEgmkJHjpPg8jq'],
];

let temp: TempStore;
beforeAll(async () => {
  temp = await openTempStore('cairn-cids-');
});
afterAll(() => temp.remove());

describe('the embedded store gives the CIDs `ipfs add` gives', () => {
  for (const [name, content, cid] of VECTORS) {
    it(name, async () => {
      const r = await temp.store.add(content(), async (x) => x);
      expect(r.cid).toBe(cid);
      const stat = await temp.store.stat(cid);
      expect(stat).toMatchObject({ cid, type: 'file' });
    });
  }

  it('reads back any range of a multi-level file', async () => {
    const file = await temp.store.cat('QmehMASWcBsX7VcEQqs6rpR5AHoBfKyBVEgmkJHjpPg8jq');
    if (!file || file === 'directory') throw new Error('missing');
    expect(file.size).toBe(45_613_057);
    let n = 0;
    for await (const part of file.read({ offset: 45_613_000, length: 57 })) n += part.byteLength;
    expect(n).toBe(57);
  });

  it('collects every block no root keeps, and keeps those a root needs', async () => {
    const keep = 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o';
    const { removedBlocks } = await temp.store.collect(async () => new Set([keep]));
    expect(removedBlocks).toBeGreaterThan(0);
    expect(await temp.store.stat(keep)).toMatchObject({ size: 12 });
    expect(await temp.store.stat('QmNg7BJo8gEMDK8yGQbHEwPtycesnE6FUULX5iVd5TAL9f')).toBeNull();
  });
});
