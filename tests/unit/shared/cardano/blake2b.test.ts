// The sandbox's own blake2b-256 against @noble/hashes, on every length around the block edges.
import { blake2b } from '@noble/hashes/blake2.js';
import { describe, expect, it } from 'vitest';
import { blake2b256 } from '../../../../shared/cardano/blake2b';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('blake2b256', () => {
  it('matches RFC 7693 for the empty input', () => {
    expect(hex(blake2b256(new Uint8Array(0)))).toBe('0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
  });

  it('matches @noble/hashes on every length from 0 to 600 and on long inputs', () => {
    let seed = 7;
    const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
    for (const n of [...Array.from({ length: 601 }, (_, i) => i), 4096, 70_000]) {
      const data = bytes(n);
      expect(hex(blake2b256(data)), `length ${n}`).toBe(hex(blake2b(data, { dkLen: 32 })));
    }
  });
});
