import crypto from 'node:crypto';
import * as dagPb from '@ipld/dag-pb';
import { importer, type ImporterOptions } from 'ipfs-unixfs-importer';
import { UnixFS } from 'ipfs-unixfs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeLeaf, leafChunker } from '../../../../../server/features/ipfs/embedded-store';
import { openTempStore, readStored, type TempStore } from '../../../../helpers/embedded-store';

// The embedded store cuts files into leaf buffers and encodes each dag-pb leaf around its chunk in
// place (one copy instead of three). These compare it with the IPFS libraries doing it their way.

const library = (chunk: Uint8Array) => dagPb.encode({ Data: new UnixFS({ type: 'file', data: chunk }).marshal(), Links: [] });

/** `bytes` in pieces of random sizes (1 byte to 100 KB), as a socket hands them over. */
const pieces = (bytes: Uint8Array, seed: number) =>
  (async function* () {
    let x = seed;
    for (let off = 0; off < bytes.byteLength; ) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      const n = Math.min(bytes.byteLength - off, 1 + (x % 100_000));
      yield bytes.slice(off, off + n);
      off += n;
    }
  })();

describe('leaf blocks', () => {
  it('are byte for byte what dag-pb and ipfs-unixfs encode, at every varint boundary', async () => {
    const sizes = [1, 2, 127, 128, 129, 16_383, 16_384, 16_385, 100_000, 262_133, 262_134, 262_143, 262_144];
    for (const n of sizes) {
      const bytes = crypto.randomBytes(n);
      const chunks: Uint8Array[] = [];
      for await (const c of leafChunker(pieces(bytes, n))) chunks.push(c);
      expect(chunks).toHaveLength(1);
      expect(Buffer.from(chunks[0]!).equals(bytes)).toBe(true);
      expect(Buffer.from(encodeLeaf(chunks[0]!)).equals(Buffer.from(library(bytes)))).toBe(true);
      // A chunk not cut by leafChunker (no room around it) goes through the libraries.
      expect(Buffer.from(encodeLeaf(bytes)).equals(Buffer.from(library(bytes)))).toBe(true);
    }
  });

  it('are cut at 256 KiB like the importer\'s fixed-size chunker, and an empty file is one empty chunk', async () => {
    const bytes = crypto.randomBytes(3 * 262_144 + 5);
    const sizes: number[] = [];
    const parts: Buffer[] = [];
    for await (const c of leafChunker(pieces(bytes, 7))) {
      sizes.push(c.byteLength);
      parts.push(Buffer.from(c));
    }
    expect(sizes).toEqual([262_144, 262_144, 262_144, 5]);
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
    const empty: number[] = [];
    for await (const c of leafChunker(pieces(new Uint8Array(0), 1))) empty.push(c.byteLength);
    expect(empty).toEqual([0]);
  });
});

/** The importer only puts blocks: here they are thrown away. */
const discard = { put: async (cid: unknown) => cid } as unknown as Parameters<typeof importer>[1];
const libraryDefaults: ImporterOptions = { cidVersion: 0, rawLeaves: false };

describe('the embedded store and the importer with its own chunker and leaf writer', () => {
  let temp: TempStore;
  beforeAll(async () => {
    temp = await openTempStore('cairn-leaves-');
  });
  afterAll(() => temp.remove());

  for (const n of [0, 1, 262_143, 262_144, 262_145, 2 * 262_144, 3_000_001]) {
    it(`give the same CID for ${n.toLocaleString('en')} random bytes`, async () => {
      const bytes = crypto.randomBytes(n);
      let expected = '';
      for await (const e of importer([{ content: pieces(bytes, n + 1) }], discard, libraryDefaults)) expected = e.cid.toString();
      const r = await temp.store.add(pieces(bytes, n + 2), async (x) => x);
      expect(r).toEqual({ cid: expected, size: n });
      expect((await readStored(temp.store, r.cid))?.equals(bytes)).toBe(true);
    });
  }
});
