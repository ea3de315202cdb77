import { bech32 } from '@scure/base';

/** Cardano bech32 strings (addresses in particular) exceed BIP-173's 90-character limit. */
const CARDANO_BECH32_LIMIT = 1023;

export function encodeBech32(prefix: string, bytes: Uint8Array): string {
  return bech32.encode(prefix, bech32.toWords(bytes), CARDANO_BECH32_LIMIT);
}

/** Decodes a bech32 string, or answers null when it is malformed (bad checksum, mixed case, …). */
export function decodeBech32(text: string): { prefix: string; bytes: Uint8Array } | null {
  const decoded = bech32.decodeUnsafe(text, CARDANO_BECH32_LIMIT);
  if (!decoded) return null;
  try {
    return { prefix: decoded.prefix, bytes: bech32.fromWords(decoded.words) };
  } catch {
    return null;
  }
}

// Without Node's Buffer: shared/ runs in the dashboard too (its forms check addresses with the server's schemas).
const HEX_OF_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX_OF_BYTE[bytes[i]!];
  return out;
}

/** Parses lowercase or uppercase hex of an exact byte length; null when it is not that. */
export function fromHex(hex: string, byteLength?: number): Uint8Array | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  if (byteLength !== undefined && hex.length !== byteLength * 2) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

// ---- a fast path for the one conversion the webhook matcher does per client address ----

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const WORD = new Int8Array(128).fill(-1);
for (let i = 0; i < CHARSET.length; i++) WORD[CHARSET.charCodeAt(i)] = i;
const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3] as const;

/** For each top five bits of the checksum, the generator terms they XOR in: one table read per character instead of five tests. */
const GEN_TABLE = new Int32Array(32);
for (let b = 0; b < 32; b++) for (let i = 0; i < 5; i++) if ((b >> i) & 1) GEN_TABLE[b]! ^= GEN[i]!;

// Written out where it is used (no call per character: the first block a process matches runs this
// before the JIT has compiled anything).
const polymodStep = (chk: number, v: number): number => ((chk & 0x1ffffff) << 5) ^ v ^ GEN_TABLE[chk >>> 25]!;

function prefixChecksum(prefix: string): number {
  let chk = 1;
  for (let i = 0; i < prefix.length; i++) chk = polymodStep(chk, prefix.charCodeAt(i) >> 5);
  chk = polymodStep(chk, 0);
  for (let i = 0; i < prefix.length; i++) chk = polymodStep(chk, prefix.charCodeAt(i) & 31);
  return chk;
}

/**
 * decodeBech32 for a lowercase string with the given prefix, written for speed: the bytes, or
 * undefined whenever it is anything else (another prefix, upper case, a bad checksum or padding, too
 * short or long), for the caller to hand to decodeBech32, which then decides exactly as always.
 */
export function decodeBech32Fast(text: string, prefix: string): Uint8Array | undefined {
  const n = text.length;
  if (n < 8 || n > CARDANO_BECH32_LIMIT || n - prefix.length - 1 < 6 || !text.startsWith(prefix) || text.charCodeAt(prefix.length) !== 49 /* '1' */) return undefined;
  let chk = prefixChecksum(prefix);
  const dataEnd = n - 6;
  const out = new Uint8Array((((dataEnd - prefix.length - 1) * 5) >> 3) + 1);
  let acc = 0;
  let bits = 0;
  let len = 0;
  for (let i = prefix.length + 1; i < n; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? WORD[c]! : -1;
    if (v < 0) return undefined;
    chk = ((chk & 0x1ffffff) << 5) ^ v ^ GEN_TABLE[chk >>> 25]!;
    if (i < dataEnd) {
      acc = ((acc << 5) | v) & 0xfff;
      bits += 5;
      if (bits >= 8) {
        bits -= 8;
        out[len++] = (acc >> bits) & 0xff;
      }
    }
  }
  if (chk !== 1 || bits >= 5 || ((acc << (8 - bits)) & 0xff) !== 0) return undefined;
  return out.subarray(0, len);
}

/** encodeBech32, written for speed (the same text). */
export function encodeBech32Fast(prefix: string, bytes: Uint8Array): string {
  let chk = prefixChecksum(prefix);
  let text = prefix + '1';
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < bytes.length; i++) {
    acc = ((acc << 8) | bytes[i]!) & 0x1fff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      const v = (acc >> bits) & 31;
      chk = polymodStep(chk, v);
      text += CHARSET[v];
    }
  }
  if (bits > 0) {
    const v = (acc << (5 - bits)) & 31;
    chk = polymodStep(chk, v);
    text += CHARSET[v];
  }
  for (let i = 0; i < 6; i++) chk = polymodStep(chk, 0);
  chk ^= 1;
  for (let i = 0; i < 6; i++) text += CHARSET[(chk >>> (5 * (5 - i))) & 31];
  return text;
}
