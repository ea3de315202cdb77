// Deterministic randomness for the sandbox chain. Everything random is derived by hashing the
// chain key with a domain and coordinates (height, index, …), so any process computes the same
// values in any order. Math.random is never used.
import { hash } from 'node:crypto';

export type Part = string | number | bigint;

/**
 * sha256(key ‖ parts joined by '|', UTF-8): the root of every derived value. One buffer hashed in
 * one call: the simulation and the vote counts derive hundreds of thousands of values a minute, and
 * a Hash object a value cost a third more.
 */
export function derive(key: Uint8Array, ...parts: Part[]): Buffer {
  const text = parts.join('|');
  const input = Buffer.allocUnsafe(key.length + Buffer.byteLength(text));
  input.set(key, 0);
  input.write(text, key.length);
  return hash('sha256', input, 'buffer');
}

/** `len` pseudo-random bytes for (key, parts); up to 64 bytes. */
export function deriveBytes(key: Uint8Array, len: number, ...parts: Part[]): Uint8Array {
  if (len <= 32) return new Uint8Array(derive(key, ...parts).subarray(0, len));
  const a = derive(key, ...parts, 'a');
  const b = derive(key, ...parts, 'b');
  return new Uint8Array(Buffer.concat([a, b]).subarray(0, len));
}

/** A float in [0, 1) for (key, parts). */
export function deriveFloat(key: Uint8Array, ...parts: Part[]): number {
  const d = derive(key, ...parts);
  return (d.readUInt32BE(0) * 2 ** 21 + (d.readUInt32BE(4) >>> 11)) / 2 ** 53;
}

/** murmur3's 32-bit finaliser: every bit of the input moves every bit of the output. */
function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A 32-bit word keyed on a seed word and an integer coordinate (x ≥ −1): the coordinate spread by
 * the golden ratio, folded into the seed and mixed (murmur3's finaliser). Chained, it keys a value
 * on several coordinates in a few nanoseconds, where a SHA-256 a value costs a microsecond: what
 * counting a long history value by value needs. Signed, so that V8 keeps it a small integer rather
 * than a heap number between calls; `unitOf` makes it a float in [0, 1).
 */
export function mixWord(seed: number, x: number): number {
  return mix32(seed ^ Math.imul(x + 1, 0x9e3779b9)) | 0;
}

/** A word of mixWord as a float in [0, 1). */
export function unitOf(word: number): number {
  return (word >>> 0) / 2 ** 32;
}

/** sfc32: a small fast PRNG with a 128-bit state, seeded from a derived hash. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** From a derived hash's first 16 bytes, or four 32-bit words. */
  constructor(seed: Uint8Array | readonly number[]) {
    if (seed instanceof Uint8Array) {
      const view = Buffer.from(seed.buffer, seed.byteOffset, seed.byteLength);
      seed = [view.readUInt32BE(0), view.readUInt32BE(4), view.readUInt32BE(8), view.readUInt32BE(12)];
    }
    this.a = seed[0]!;
    this.b = seed[1]!;
    this.c = seed[2]!;
    this.d = seed[3]!;
    for (let i = 0; i < 12; i++) this.u32();
  }

  static of(key: Uint8Array, ...parts: Part[]): Rng {
    return new Rng(derive(key, ...parts));
  }

  /**
   * The generator of member `n` of a family whose seed was derived once (a segment's blocks): the
   * seed's words and n mixed (murmur3's finaliser) rather than a hash a member, which costs more
   * than the member's own draws.
   */
  static member(seed: readonly number[], n: number): Rng {
    const m = Math.imul(n + 1, 0x9e3779b9);
    return new Rng([mix32((seed[0]! ^ m) >>> 0), mix32((seed[1]! ^ m) >>> 0), mix32((seed[2]! ^ m) >>> 0), mix32((seed[3]! ^ m) >>> 0)]);
  }

  /** A family's seed (Rng.member): four words of a derived hash. */
  static familySeed(key: Uint8Array, ...parts: Part[]): number[] {
    const d = derive(key, ...parts);
    return [d.readUInt32BE(0), d.readUInt32BE(4), d.readUInt32BE(8), d.readUInt32BE(12)];
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** [0, 1): two words of u32, its steps written out here (the simulation draws some twenty a transaction, and V8 does not inline u32 into its large callers). */
  float(): number {
    let a = this.a;
    let b = this.b;
    let c = this.c;
    let d = this.d;
    let t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    const high = t >>> 0;
    t = (((a + b) | 0) + d) | 0;
    this.d = (d + 1) | 0;
    this.a = b ^ (b >>> 9);
    this.b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    this.c = (c + t) | 0;
    return (high * 2 ** 21 + ((t >>> 0) >>> 11)) / 2 ** 53;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** Log-uniform value in [min, max): many small values, few large ones. */
  logUniform(min: number, max: number): number {
    return this.logUniformSpan(min, Math.log(max / min));
  }

  /** logUniform(min, max) given span = Math.log(max / min), for a span drawn from many times. */
  logUniformSpan(min: number, span: number): number {
    return min * Math.exp(this.float() * span);
  }

  /** Fisher-Yates shuffle of a copy. */
  shuffled<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.float() * (i + 1));
      const tmp = out[i]!;
      out[i] = out[j]!;
      out[j] = tmp;
    }
    return out;
  }
}
