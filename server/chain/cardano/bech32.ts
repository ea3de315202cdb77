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

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Parses lowercase or uppercase hex of an exact byte length; null when it is not that. */
export function fromHex(hex: string, byteLength?: number): Uint8Array | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  if (byteLength !== undefined && hex.length !== byteLength * 2) return null;
  return new Uint8Array(Buffer.from(hex, 'hex'));
}
