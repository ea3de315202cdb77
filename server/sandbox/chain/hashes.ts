// Block hashes that look like any 32-byte hash but can be mapped back to their height, so a
// lookup by hash costs O(1) instead of an index over the whole chain; and the index of background
// transaction hashes, which are the blake2b-256 of their bodies and so cannot be decoded.
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

export class HashCodec {
  private readonly blocks = new Map<number, string>();

  constructor(private readonly key: Uint8Array) {}

  block(height: number): string {
    let hash = this.blocks.get(height);
    if (hash === undefined) {
      hash = encode(this.key, 'block', BigInt(height));
      this.blocks.set(height, hash);
      if (this.blocks.size > BLOCK_HASHES_KEPT) this.blocks.delete(this.blocks.keys().next().value!);
    }
    return hash;
  }

  /** The height a block hash was made for, or null when this chain never made it. */
  blockHeight(hash: string): number | null {
    const position = decode(this.key, 'block', hash.toLowerCase());
    return position === null || position > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(position);
  }
}

/**
 * Background transaction hashes → the segment that made them, for the segments this process has
 * simulated, the most recently simulated `maxSegments` kept. An entry is the hash's first 28 bits
 * (a small integer, so the map stays compact: about 45 bytes a transaction); a lookup answers the
 * candidate segments, whose transactions the caller compares in full.
 */
export class TxHashIndex {
  /** Prefix → its segment, or −1 when several segments share the prefix (then in `shared`). */
  private readonly bySegment = new Map<number, number>();
  private readonly shared = new Map<number, number[]>();
  /** Indexed segments in the order they were indexed, with their prefixes. */
  private readonly segments = new Map<number, Uint32Array>();

  constructor(private readonly maxSegments: number) {}

  static prefix(hash: string): number {
    return parseInt(hash.slice(0, 7), 16);
  }

  has(segment: number): boolean {
    return this.segments.has(segment);
  }

  get size(): number {
    return this.segments.size;
  }

  add(segment: number, hashes: Iterable<string>): void {
    if (this.segments.has(segment)) return;
    const prefixes = Uint32Array.from(new Set([...hashes].map(TxHashIndex.prefix)));
    this.segments.set(segment, prefixes);
    for (const p of prefixes) {
      const current = this.bySegment.get(p);
      if (current === undefined) this.bySegment.set(p, segment);
      else {
        const list = current === -1 ? this.shared.get(p)! : [current];
        list.push(segment);
        this.shared.set(p, list);
        this.bySegment.set(p, -1);
      }
    }
    while (this.segments.size > this.maxSegments) this.drop(this.segments.keys().next().value!);
  }

  private drop(segment: number): void {
    for (const p of this.segments.get(segment)!) {
      const current = this.bySegment.get(p);
      if (current === segment) this.bySegment.delete(p);
      else if (current === -1) {
        const list = this.shared.get(p)!.filter((s) => s !== segment);
        if (list.length === 1) {
          this.shared.delete(p);
          this.bySegment.set(p, list[0]!);
        } else this.shared.set(p, list);
      }
    }
    this.segments.delete(segment);
  }

  /** The indexed segments that may hold a transaction with this hash. */
  candidates(hash: string): number[] {
    if (!/^[0-9a-f]{64}$/.test(hash)) return [];
    const p = TxHashIndex.prefix(hash);
    const s = this.bySegment.get(p);
    return s === undefined ? [] : s === -1 ? [...this.shared.get(p)!] : [s];
  }
}
