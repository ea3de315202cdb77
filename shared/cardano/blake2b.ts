// BLAKE2b (RFC 7693) with a 32-byte digest and no key: Cardano's transaction, datum and metadata
// hash. The sandbox hashes every simulated transaction body of the segments it simulates, so this
// runs some hundreds of thousands of times a minute of sweeping: it is the WebAssembly BLAKE2b of
// `blake2b-wasm` (about a microsecond for a body, a tenth of any JavaScript implementation), which
// compiles asynchronously in the first milliseconds after this module loads; until then the
// self-contained implementation below answers (32-bit halves in typed arrays, no call across a
// module boundary inside the compression loop). Both are checked against @noble/hashes in
// tests/unit/shared/cardano/blake2b.test.ts.
import Blake2b from 'blake2b-wasm';

let wasm = false;
const wasmLoaded: Promise<boolean> = new Promise<boolean>((resolve) => {
  Blake2b.ready((err?: Error) => resolve(!err));
}).then((ok) => (wasm = ok));

/** Resolves once the WebAssembly BLAKE2b answers (false where WebAssembly is missing: the JavaScript one goes on). */
export const blake2bReady = (): Promise<boolean> => wasmLoaded;

/** blake2b-256 of `data`. */
export function blake2b256(data: Uint8Array): Uint8Array {
  if (!wasm) return blake2b256Js(data);
  const out = new Uint8Array(32);
  Blake2b(32, null, null, null, true).update(data).digest(out);
  return out;
}

const IV32 = new Uint32Array([
  0xf3bcc908, 0x6a09e667, 0x84caa73b, 0xbb67ae85, 0xfe94f82b, 0x3c6ef372, 0x5f1d36f1, 0xa54ff53a,
  0xade682d1, 0x510e527f, 0x2b3e6c1f, 0x9b05688c, 0xfb41bd6b, 0x1f83d9ab, 0x137e2179, 0x5be0cd19,
]);

const SIGMA = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
  14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3,
  11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4,
  7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8,
  9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13,
  2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9,
  12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11,
  13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10,
  6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5,
  10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0,
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
  14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3,
];
/** SIGMA as offsets into the message's 32-bit halves. */
const SIGMA2 = new Uint8Array(SIGMA.map((x) => x * 2));

const v = new Uint32Array(32);
const m = new Uint32Array(32);
const h = new Uint32Array(16);
const block = new Uint8Array(128);

/** v[a] += v[b] (64-bit, as two halves). */
function add(a: number, b: number): void {
  const lo = v[a]! + v[b]!;
  v[a + 1] = v[a + 1]! + v[b + 1]! + (lo >= 0x100000000 ? 1 : 0);
  v[a] = lo;
}

/** v[a] += (hi, lo). */
function addWord(a: number, lo: number, hi: number): void {
  const l = v[a]! + lo;
  v[a + 1] = v[a + 1]! + hi + (l >= 0x100000000 ? 1 : 0);
  v[a] = l;
}

function mix(a: number, b: number, c: number, d: number, ix: number, iy: number): void {
  add(a, b);
  addWord(a, m[ix]!, m[ix + 1]!);
  let x0 = v[d]! ^ v[a]!;
  let x1 = v[d + 1]! ^ v[a + 1]!;
  v[d] = x1;
  v[d + 1] = x0;
  add(c, d);
  x0 = v[b]! ^ v[c]!;
  x1 = v[b + 1]! ^ v[c + 1]!;
  v[b] = (x0 >>> 24) ^ (x1 << 8);
  v[b + 1] = (x1 >>> 24) ^ (x0 << 8);
  add(a, b);
  addWord(a, m[iy]!, m[iy + 1]!);
  x0 = v[d]! ^ v[a]!;
  x1 = v[d + 1]! ^ v[a + 1]!;
  v[d] = (x0 >>> 16) ^ (x1 << 16);
  v[d + 1] = (x1 >>> 16) ^ (x0 << 16);
  add(c, d);
  x0 = v[b]! ^ v[c]!;
  x1 = v[b + 1]! ^ v[c + 1]!;
  v[b] = (x1 >>> 31) ^ (x0 << 1);
  v[b + 1] = (x0 >>> 31) ^ (x1 << 1);
}

function compress(bytes: Uint8Array, counter: number, last: boolean): void {
  for (let i = 0; i < 16; i++) {
    v[i] = h[i]!;
    v[i + 16] = IV32[i]!;
  }
  v[24] = v[24]! ^ counter;
  v[25] = v[25]! ^ Math.floor(counter / 0x100000000);
  if (last) {
    v[28] = ~v[28]!;
    v[29] = ~v[29]!;
  }
  for (let i = 0; i < 32; i++) {
    const j = 4 * i;
    m[i] = bytes[j]! | (bytes[j + 1]! << 8) | (bytes[j + 2]! << 16) | (bytes[j + 3]! << 24);
  }
  for (let r = 0; r < 12; r++) {
    const s = r * 16;
    mix(0, 8, 16, 24, SIGMA2[s]!, SIGMA2[s + 1]!);
    mix(2, 10, 18, 26, SIGMA2[s + 2]!, SIGMA2[s + 3]!);
    mix(4, 12, 20, 28, SIGMA2[s + 4]!, SIGMA2[s + 5]!);
    mix(6, 14, 22, 30, SIGMA2[s + 6]!, SIGMA2[s + 7]!);
    mix(0, 10, 20, 30, SIGMA2[s + 8]!, SIGMA2[s + 9]!);
    mix(2, 12, 22, 24, SIGMA2[s + 10]!, SIGMA2[s + 11]!);
    mix(4, 14, 16, 26, SIGMA2[s + 12]!, SIGMA2[s + 13]!);
    mix(6, 8, 18, 28, SIGMA2[s + 14]!, SIGMA2[s + 15]!);
  }
  for (let i = 0; i < 16; i++) h[i] = h[i]! ^ v[i]! ^ v[i + 16]!;
}

/** blake2b-256 of `data`, in JavaScript: what answers until the WebAssembly one is compiled. */
export function blake2b256Js(data: Uint8Array): Uint8Array {
  h.set(IV32);
  h[0] = h[0]! ^ 0x01010000 ^ 32;
  let offset = 0;
  // Every full block but the last is compressed as it comes; the last (full or not) is padded.
  while (data.length - offset > 128) {
    compress(data.subarray(offset, offset + 128), offset + 128, false);
    offset += 128;
  }
  block.fill(0);
  block.set(data.subarray(offset));
  compress(block, data.length, true);
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = h[i >> 2]! >>> (8 * (i & 3));
  return out;
}
