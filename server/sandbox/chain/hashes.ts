// Block and transaction hashes that look like any 32-byte hash but can be mapped back to their
// position, so a lookup by hash costs O(1) instead of an index over the whole chain.
//
// hash = prefix(24 bytes) ‖ (position(8 bytes) XOR mask(prefix)), where prefix is derived from the
// chain key and the position. Decoding recovers the position from the mask and then recomputes the
// whole hash: a hash not produced by this chain never decodes.
import { derive } from './rng';

const TX_INDEX_BITS = 20n;
const TX_INDEX_LIMIT = 1 << Number(TX_INDEX_BITS);

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
      if (position !== null && position <= BigInt(Number.MAX_SAFE_INTEGER) << (domain === 'tx' ? TX_INDEX_BITS : 0n) && this.branches.of(heightOf(position)) === n) return position;
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

  tx(height: number, index: number): string {
    if (index < 0 || index >= TX_INDEX_LIMIT) throw new Error('transaction index out of range');
    return encode(this.keyAt(height), 'tx', (BigInt(height) << TX_INDEX_BITS) | BigInt(index));
  }

  /** The (height, index) a transaction hash was made for, or null. */
  txPosition(hash: string): { height: number; index: number } | null {
    const position = this.decodeLive('tx', hash.toLowerCase(), (p) => Number(p >> TX_INDEX_BITS));
    if (position === null) return null;
    return { height: Number(position >> TX_INDEX_BITS), index: Number(position & (BigInt(TX_INDEX_LIMIT) - 1n)) };
  }
}
