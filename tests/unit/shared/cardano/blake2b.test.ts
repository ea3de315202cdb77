// blake2b-256 against @noble/hashes, on every length around the block edges: the WebAssembly one the
// sandbox hashes with, and the JavaScript one that answers while it compiles.
import { blake2b } from '@noble/hashes/blake2.js';
import { describe, expect, it } from 'vitest';
import { blake2b256, blake2b256Js, blake2bReady } from '../../../../shared/cardano/blake2b';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('blake2b256', () => {
  it('is the WebAssembly one once it has loaded', async () => {
    expect(await blake2bReady()).toBe(true);
  });

  for (const [name, hash] of [['WebAssembly', blake2b256], ['JavaScript', blake2b256Js]] as const) {
    it(`(${name}) matches RFC 7693 for the empty input`, async () => {
      await blake2bReady();
      expect(hex(hash(new Uint8Array(0)))).toBe('0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
    });

    it(`(${name}) matches @noble/hashes on every length from 0 to 600 and on long inputs`, async () => {
      await blake2bReady();
      let seed = 7;
      const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
      for (const n of [...Array.from({ length: 601 }, (_, i) => i), 4096, 70_000]) {
        const data = bytes(n);
        expect(hex(hash(data)), `length ${n}`).toBe(hex(blake2b(data, { dkLen: 32 })));
      }
    });
  }
});
