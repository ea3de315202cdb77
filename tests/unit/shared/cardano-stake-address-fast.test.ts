// stakeAddressOf's fast bech32 path (the webhook matcher derives a stake address for every client
// address of every block) answers exactly what the general decoder and encoder answer: on the sandbox
// chains' addresses, on every header type and both networks, and on broken, odd-case and foreign text.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bech32 } from '@scure/base';
import { stakeAddressOf, stakeAddressOfGeneral } from '../../../shared/cardano/address';
import { decodeBech32, decodeBech32Fast, encodeBech32, encodeBech32Fast } from '../../../shared/cardano/bech32';
import { createSandboxChain } from '../../../server/sandbox/chain/index';

const encode = (prefix: string, bytes: Uint8Array) => bech32.encode(prefix, bech32.toWords(bytes), 1023);

function samples(): string[] {
  const out: string[] = [];
  for (const network of ['mainnet', 'preprod', 'preview'] as const) {
    const chain = createSandboxChain({ network, now: () => Date.UTC(2026, 10, 1) });
    for (let h = chain.tipHeight(), n = 0; n < 8; h--, n++) {
      const b = chain.blockAt(h);
      for (const t of (b && chain.blockTxDetails(b.hash)) ?? []) out.push(...t.outputs.map((o) => o.address), ...t.inputs.map((i) => i.address));
    }
  }
  for (let header = 0; header < 256; header += 1) {
    for (const length of [57, 29, 56, 58, 1]) {
      const bytes = crypto.randomBytes(length);
      bytes[0] = header;
      out.push(encode('addr', bytes), encode('addr_test', bytes), encode('stake', bytes));
    }
  }
  return out;
}

function broken(address: string, k: number): string[] {
  const i = 5 + (k % (address.length - 5));
  const swap = address[i] === 'q' ? 'p' : 'q';
  return [
    address.slice(0, i) + swap + address.slice(i + 1), // bad checksum
    address.toUpperCase(), // upper case is valid bech32
    address.slice(0, 6) + address.slice(6).toUpperCase().slice(0, 3) + address.slice(9), // mixed case
    address.slice(0, -1), // cut
    address + 'q',
    address.replace('1', '1b'), // not in the alphabet
    address.slice(0, 4) + '1' + address.slice(4), // a second separator
    'addr1',
    'addr1qqqqqq',
    '',
  ];
}

describe('stakeAddressOf fast path', () => {
  it('answers what the general path answers', () => {
    const all = samples();
    expect(all.length).toBeGreaterThan(1000);
    let stakes = 0;
    const differ: string[] = [];
    all.forEach((a, k) => {
      if (stakeAddressOf(a) !== stakeAddressOfGeneral(a)) differ.push(a);
      if (stakeAddressOf(a)) stakes++;
      for (const b of broken(a, k)) if (stakeAddressOf(b) !== stakeAddressOfGeneral(b)) differ.push(b);
    });
    expect(differ).toEqual([]);
    // Plenty of addresses with a stake part, and plenty without.
    expect(stakes).toBeGreaterThan(300);
    expect(stakes).toBeLessThan(all.length);
  }, 60_000);

  it('decodes and encodes like the general bech32 functions', () => {
    for (let n = 0; n < 300; n++) {
      const bytes = crypto.randomBytes(1 + (n % 70));
      const text = encodeBech32('addr', bytes);
      expect(encodeBech32Fast('addr', bytes)).toBe(text);
      expect(decodeBech32Fast(text, 'addr')).toEqual(decodeBech32(text)!.bytes);
      expect(decodeBech32Fast(text.slice(0, -1) + (text.endsWith('q') ? 'p' : 'q'), 'addr')).toBeUndefined();
    }
  });
});
