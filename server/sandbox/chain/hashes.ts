// Block hashes that look like any 32-byte hash but can be mapped back to their position, so a
// lookup by hash costs O(1) instead of an index over the whole chain. Transaction hashes are the
// blake2b-256 of their bodies (tx-cbor.ts): `TxIndex` finds those the process has simulated.
//
// hash = prefix(24 bytes) ‖ (position(8 bytes) XOR mask(prefix)), where prefix is derived from the
// chain key and the position. Decoding recovers the position from the mask and then recomputes the
// whole hash: a hash not produced by this chain never decodes.
import { derive } from './rng';

function encode(key: Uint8Array, domain: string, position: bigint): string {
  const prefix = derive(key, domain, 'p', position).subarray(0, 24);
  const mask = derive(key, domain, 'm', prefix.toString('hex')).subarray(0, 8);
  const suffix = Buffer.alloc(8);
  suffix.writeBigUInt64BE(position ^ mask.readBigUInt64BE(0));
  return Buffer.concat([prefix, suffix]).toString('hex');
}

function decode(key: Uint8Array, domain: string, hash: string): bigint | null {
  if (!/^[0-9a-f]{64}$/.test(hash)) return null;
  const bytes = Buffer.from(hash, 'hex');
  const prefix = bytes.subarray(0, 24);
  const mask = derive(key, domain, 'm', prefix.toString('hex')).subarray(0, 8);
  const position = bytes.readBigUInt64BE(24) ^ mask.readBigUInt64BE(0);
  return encode(key, domain, position) === hash ? position : null;
}

/** Block hashes kept: a block's answer names its neighbours too, and a page of blocks repeats them. */
const BLOCK_HASHES_KEPT = 2048;

/** Which branch a height is on and each branch's key (chain.ts); a chain without forks has one branch, the chain key's. */
export interface HashBranches {
  of(height: number): number;
  keyOf(n: number): Uint8Array;
  live(): number[];
}

export class HashCodec {
  private readonly blocks = new Map<number, string>();
  private readonly branches: HashBranches;

  /** Blocks and transactions above a fork are hashed with their branch's key, so they differ from the abandoned branch's. */
  constructor(key: Uint8Array, branches?: HashBranches) {
    this.branches = branches ?? { of: () => 0, keyOf: () => key, live: () => [0] };
  }

  private keyAt(height: number): Uint8Array {
    return this.branches.keyOf(this.branches.of(height));
  }

  /** The position a hash was made for on a branch some block is still on, or null. */
  private decodeLive(domain: string, hash: string, heightOf: (position: bigint) => number): bigint | null {
    for (const n of this.branches.live()) {
      const position = decode(this.branches.keyOf(n), domain, hash);
      if (position !== null && position <= BigInt(Number.MAX_SAFE_INTEGER) && this.branches.of(heightOf(position)) === n) return position;
    }
    return null;
  }

  block(height: number): string {
    let hash = this.blocks.get(height);
    if (hash === undefined) {
      hash = encode(this.keyAt(height), 'block', BigInt(height));
      this.blocks.set(height, hash);
      if (this.blocks.size > BLOCK_HASHES_KEPT) this.blocks.delete(this.blocks.keys().next().value!);
    }
    return hash;
  }

  /** The height a block hash was made for, or null when this chain never made it (or made it on an abandoned branch). */
  blockHeight(hash: string): number | null {
    const position = this.decodeLive('block', hash.toLowerCase(), Number);
    return position === null ? null : Number(position);
  }
}

/** Transaction positions kept by hash: about 500 segments' transactions, some twenty megabytes. */
export const TX_POSITIONS_KEPT = 1 << 18;
const TX_INDEX_STRIDE = 2 ** 20;

/**
 * Where the transactions this process has simulated are, by hash (its first 52 bits, so the keys
 * are numbers; a caller compares the whole hash of what it finds). The oldest entries go first.
 */
export class TxIndex {
  private readonly positions = new Map<number, number>();

  private static keyOf(hash: string): number | null {
    return /^[0-9a-fA-F]{64}$/.test(hash) ? parseInt(hash.slice(0, 13), 16) : null;
  }

  record(hash: string, height: number, index: number): void {
    const k = TxIndex.keyOf(hash);
    if (k === null) return;
    this.positions.delete(k);
    this.positions.set(k, height * TX_INDEX_STRIDE + index);
    if (this.positions.size > TX_POSITIONS_KEPT) this.positions.delete(this.positions.keys().next().value!);
  }

  find(hash: string): { height: number; index: number } | null {
    const k = TxIndex.keyOf(hash);
    const p = k === null ? undefined : this.positions.get(k);
    if (p === undefined) return null;
    const height = Math.floor(p / TX_INDEX_STRIDE);
    return { height, index: p - height * TX_INDEX_STRIDE };
  }
}
