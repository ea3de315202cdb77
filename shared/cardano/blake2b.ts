// BLAKE2b (RFC 7693) with a 32-byte digest and no key: Cardano's transaction, datum and metadata
// hash. A self-contained implementation over 32-bit halves in typed arrays, with no call across a
// module boundary inside the compression loop: hashing every simulated transaction body of the
// sandbox's segments must cost microseconds, several times less than a general library's
// 64-bit emulation. Checked against @noble/hashes in tests/unit/shared/cardano/blake2b.test.ts.

const IV32 = new Int32Array([
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

const m = new Int32Array(32);
const h = new Int32Array(16);
const block = new Uint8Array(128);

// The compression function over sixteen 64-bit words held as 32 local halves (lo, hi): one round
// applies the mixing function G to the columns, then the diagonals, written out so every word stays
// in a register.
function compress(bytes: Uint8Array, offset: number, counter: number, last: boolean): void {
  for (let i = 0; i < 32; i++) {
    const j = offset + 4 * i;
    m[i] = bytes[j]! | (bytes[j + 1]! << 8) | (bytes[j + 2]! << 16) | (bytes[j + 3]! << 24);
  }
  let v0l = h[0]! | 0, v0h = h[1]! | 0, v1l = h[2]! | 0, v1h = h[3]! | 0, v2l = h[4]! | 0, v2h = h[5]! | 0, v3l = h[6]! | 0, v3h = h[7]! | 0, v4l = h[8]! | 0, v4h = h[9]! | 0, v5l = h[10]! | 0, v5h = h[11]! | 0, v6l = h[12]! | 0, v6h = h[13]! | 0, v7l = h[14]! | 0, v7h = h[15]! | 0;
  let v8l = IV32[0]! | 0, v8h = IV32[1]! | 0, v9l = IV32[2]! | 0, v9h = IV32[3]! | 0, v10l = IV32[4]! | 0, v10h = IV32[5]! | 0, v11l = IV32[6]! | 0, v11h = IV32[7]! | 0, v12l = IV32[8]! | 0, v12h = IV32[9]! | 0, v13l = IV32[10]! | 0, v13h = IV32[11]! | 0, v14l = IV32[12]! | 0, v14h = IV32[13]! | 0, v15l = IV32[14]! | 0, v15h = IV32[15]! | 0;
  v12l ^= counter | 0;
  v12h ^= Math.floor(counter / 0x100000000) | 0;
  if (last) {
    v14l = ~v14l;
    v14h = ~v14h;
  }
  let l: number, t: number, u: number, x: number;
  for (let s = 0; s < 192; s += 16) {
    // G0: v0 v4 v8 v12
    x = SIGMA2[s + 0]!;
    l = (v0l >>> 0) + (v4l >>> 0) + (m[x]! >>> 0);
    v0h = (v0h + v4h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v0l = l | 0;
    t = v12l ^ v0l;
    v12l = v12h ^ v0h;
    v12h = t;
    l = (v8l >>> 0) + (v12l >>> 0);
    v8h = (v8h + v12h + ((l / 0x100000000) | 0)) | 0;
    v8l = l | 0;
    t = v4l ^ v8l;
    u = v4h ^ v8h;
    v4l = (t >>> 24) | (u << 8);
    v4h = (u >>> 24) | (t << 8);
    x = SIGMA2[s + 1]!;
    l = (v0l >>> 0) + (v4l >>> 0) + (m[x]! >>> 0);
    v0h = (v0h + v4h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v0l = l | 0;
    t = v12l ^ v0l;
    u = v12h ^ v0h;
    v12l = (t >>> 16) | (u << 16);
    v12h = (u >>> 16) | (t << 16);
    l = (v8l >>> 0) + (v12l >>> 0);
    v8h = (v8h + v12h + ((l / 0x100000000) | 0)) | 0;
    v8l = l | 0;
    t = v4l ^ v8l;
    u = v4h ^ v8h;
    v4l = (u >>> 31) | (t << 1);
    v4h = (t >>> 31) | (u << 1);
    // G1: v1 v5 v9 v13
    x = SIGMA2[s + 2]!;
    l = (v1l >>> 0) + (v5l >>> 0) + (m[x]! >>> 0);
    v1h = (v1h + v5h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v1l = l | 0;
    t = v13l ^ v1l;
    v13l = v13h ^ v1h;
    v13h = t;
    l = (v9l >>> 0) + (v13l >>> 0);
    v9h = (v9h + v13h + ((l / 0x100000000) | 0)) | 0;
    v9l = l | 0;
    t = v5l ^ v9l;
    u = v5h ^ v9h;
    v5l = (t >>> 24) | (u << 8);
    v5h = (u >>> 24) | (t << 8);
    x = SIGMA2[s + 3]!;
    l = (v1l >>> 0) + (v5l >>> 0) + (m[x]! >>> 0);
    v1h = (v1h + v5h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v1l = l | 0;
    t = v13l ^ v1l;
    u = v13h ^ v1h;
    v13l = (t >>> 16) | (u << 16);
    v13h = (u >>> 16) | (t << 16);
    l = (v9l >>> 0) + (v13l >>> 0);
    v9h = (v9h + v13h + ((l / 0x100000000) | 0)) | 0;
    v9l = l | 0;
    t = v5l ^ v9l;
    u = v5h ^ v9h;
    v5l = (u >>> 31) | (t << 1);
    v5h = (t >>> 31) | (u << 1);
    // G2: v2 v6 v10 v14
    x = SIGMA2[s + 4]!;
    l = (v2l >>> 0) + (v6l >>> 0) + (m[x]! >>> 0);
    v2h = (v2h + v6h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v2l = l | 0;
    t = v14l ^ v2l;
    v14l = v14h ^ v2h;
    v14h = t;
    l = (v10l >>> 0) + (v14l >>> 0);
    v10h = (v10h + v14h + ((l / 0x100000000) | 0)) | 0;
    v10l = l | 0;
    t = v6l ^ v10l;
    u = v6h ^ v10h;
    v6l = (t >>> 24) | (u << 8);
    v6h = (u >>> 24) | (t << 8);
    x = SIGMA2[s + 5]!;
    l = (v2l >>> 0) + (v6l >>> 0) + (m[x]! >>> 0);
    v2h = (v2h + v6h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v2l = l | 0;
    t = v14l ^ v2l;
    u = v14h ^ v2h;
    v14l = (t >>> 16) | (u << 16);
    v14h = (u >>> 16) | (t << 16);
    l = (v10l >>> 0) + (v14l >>> 0);
    v10h = (v10h + v14h + ((l / 0x100000000) | 0)) | 0;
    v10l = l | 0;
    t = v6l ^ v10l;
    u = v6h ^ v10h;
    v6l = (u >>> 31) | (t << 1);
    v6h = (t >>> 31) | (u << 1);
    // G3: v3 v7 v11 v15
    x = SIGMA2[s + 6]!;
    l = (v3l >>> 0) + (v7l >>> 0) + (m[x]! >>> 0);
    v3h = (v3h + v7h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v3l = l | 0;
    t = v15l ^ v3l;
    v15l = v15h ^ v3h;
    v15h = t;
    l = (v11l >>> 0) + (v15l >>> 0);
    v11h = (v11h + v15h + ((l / 0x100000000) | 0)) | 0;
    v11l = l | 0;
    t = v7l ^ v11l;
    u = v7h ^ v11h;
    v7l = (t >>> 24) | (u << 8);
    v7h = (u >>> 24) | (t << 8);
    x = SIGMA2[s + 7]!;
    l = (v3l >>> 0) + (v7l >>> 0) + (m[x]! >>> 0);
    v3h = (v3h + v7h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v3l = l | 0;
    t = v15l ^ v3l;
    u = v15h ^ v3h;
    v15l = (t >>> 16) | (u << 16);
    v15h = (u >>> 16) | (t << 16);
    l = (v11l >>> 0) + (v15l >>> 0);
    v11h = (v11h + v15h + ((l / 0x100000000) | 0)) | 0;
    v11l = l | 0;
    t = v7l ^ v11l;
    u = v7h ^ v11h;
    v7l = (u >>> 31) | (t << 1);
    v7h = (t >>> 31) | (u << 1);
    // G4: v0 v5 v10 v15
    x = SIGMA2[s + 8]!;
    l = (v0l >>> 0) + (v5l >>> 0) + (m[x]! >>> 0);
    v0h = (v0h + v5h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v0l = l | 0;
    t = v15l ^ v0l;
    v15l = v15h ^ v0h;
    v15h = t;
    l = (v10l >>> 0) + (v15l >>> 0);
    v10h = (v10h + v15h + ((l / 0x100000000) | 0)) | 0;
    v10l = l | 0;
    t = v5l ^ v10l;
    u = v5h ^ v10h;
    v5l = (t >>> 24) | (u << 8);
    v5h = (u >>> 24) | (t << 8);
    x = SIGMA2[s + 9]!;
    l = (v0l >>> 0) + (v5l >>> 0) + (m[x]! >>> 0);
    v0h = (v0h + v5h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v0l = l | 0;
    t = v15l ^ v0l;
    u = v15h ^ v0h;
    v15l = (t >>> 16) | (u << 16);
    v15h = (u >>> 16) | (t << 16);
    l = (v10l >>> 0) + (v15l >>> 0);
    v10h = (v10h + v15h + ((l / 0x100000000) | 0)) | 0;
    v10l = l | 0;
    t = v5l ^ v10l;
    u = v5h ^ v10h;
    v5l = (u >>> 31) | (t << 1);
    v5h = (t >>> 31) | (u << 1);
    // G5: v1 v6 v11 v12
    x = SIGMA2[s + 10]!;
    l = (v1l >>> 0) + (v6l >>> 0) + (m[x]! >>> 0);
    v1h = (v1h + v6h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v1l = l | 0;
    t = v12l ^ v1l;
    v12l = v12h ^ v1h;
    v12h = t;
    l = (v11l >>> 0) + (v12l >>> 0);
    v11h = (v11h + v12h + ((l / 0x100000000) | 0)) | 0;
    v11l = l | 0;
    t = v6l ^ v11l;
    u = v6h ^ v11h;
    v6l = (t >>> 24) | (u << 8);
    v6h = (u >>> 24) | (t << 8);
    x = SIGMA2[s + 11]!;
    l = (v1l >>> 0) + (v6l >>> 0) + (m[x]! >>> 0);
    v1h = (v1h + v6h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v1l = l | 0;
    t = v12l ^ v1l;
    u = v12h ^ v1h;
    v12l = (t >>> 16) | (u << 16);
    v12h = (u >>> 16) | (t << 16);
    l = (v11l >>> 0) + (v12l >>> 0);
    v11h = (v11h + v12h + ((l / 0x100000000) | 0)) | 0;
    v11l = l | 0;
    t = v6l ^ v11l;
    u = v6h ^ v11h;
    v6l = (u >>> 31) | (t << 1);
    v6h = (t >>> 31) | (u << 1);
    // G6: v2 v7 v8 v13
    x = SIGMA2[s + 12]!;
    l = (v2l >>> 0) + (v7l >>> 0) + (m[x]! >>> 0);
    v2h = (v2h + v7h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v2l = l | 0;
    t = v13l ^ v2l;
    v13l = v13h ^ v2h;
    v13h = t;
    l = (v8l >>> 0) + (v13l >>> 0);
    v8h = (v8h + v13h + ((l / 0x100000000) | 0)) | 0;
    v8l = l | 0;
    t = v7l ^ v8l;
    u = v7h ^ v8h;
    v7l = (t >>> 24) | (u << 8);
    v7h = (u >>> 24) | (t << 8);
    x = SIGMA2[s + 13]!;
    l = (v2l >>> 0) + (v7l >>> 0) + (m[x]! >>> 0);
    v2h = (v2h + v7h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v2l = l | 0;
    t = v13l ^ v2l;
    u = v13h ^ v2h;
    v13l = (t >>> 16) | (u << 16);
    v13h = (u >>> 16) | (t << 16);
    l = (v8l >>> 0) + (v13l >>> 0);
    v8h = (v8h + v13h + ((l / 0x100000000) | 0)) | 0;
    v8l = l | 0;
    t = v7l ^ v8l;
    u = v7h ^ v8h;
    v7l = (u >>> 31) | (t << 1);
    v7h = (t >>> 31) | (u << 1);
    // G7: v3 v4 v9 v14
    x = SIGMA2[s + 14]!;
    l = (v3l >>> 0) + (v4l >>> 0) + (m[x]! >>> 0);
    v3h = (v3h + v4h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v3l = l | 0;
    t = v14l ^ v3l;
    v14l = v14h ^ v3h;
    v14h = t;
    l = (v9l >>> 0) + (v14l >>> 0);
    v9h = (v9h + v14h + ((l / 0x100000000) | 0)) | 0;
    v9l = l | 0;
    t = v4l ^ v9l;
    u = v4h ^ v9h;
    v4l = (t >>> 24) | (u << 8);
    v4h = (u >>> 24) | (t << 8);
    x = SIGMA2[s + 15]!;
    l = (v3l >>> 0) + (v4l >>> 0) + (m[x]! >>> 0);
    v3h = (v3h + v4h + m[x + 1]! + ((l / 0x100000000) | 0)) | 0;
    v3l = l | 0;
    t = v14l ^ v3l;
    u = v14h ^ v3h;
    v14l = (t >>> 16) | (u << 16);
    v14h = (u >>> 16) | (t << 16);
    l = (v9l >>> 0) + (v14l >>> 0);
    v9h = (v9h + v14h + ((l / 0x100000000) | 0)) | 0;
    v9l = l | 0;
    t = v4l ^ v9l;
    u = v4h ^ v9h;
    v4l = (u >>> 31) | (t << 1);
    v4h = (t >>> 31) | (u << 1);
  }
  h[0] = h[0]! ^ v0l ^ v8l;
  h[1] = h[1]! ^ v0h ^ v8h;
  h[2] = h[2]! ^ v1l ^ v9l;
  h[3] = h[3]! ^ v1h ^ v9h;
  h[4] = h[4]! ^ v2l ^ v10l;
  h[5] = h[5]! ^ v2h ^ v10h;
  h[6] = h[6]! ^ v3l ^ v11l;
  h[7] = h[7]! ^ v3h ^ v11h;
  h[8] = h[8]! ^ v4l ^ v12l;
  h[9] = h[9]! ^ v4h ^ v12h;
  h[10] = h[10]! ^ v5l ^ v13l;
  h[11] = h[11]! ^ v5h ^ v13h;
  h[12] = h[12]! ^ v6l ^ v14l;
  h[13] = h[13]! ^ v6h ^ v14h;
  h[14] = h[14]! ^ v7l ^ v15l;
  h[15] = h[15]! ^ v7h ^ v15h;
}

/** blake2b-256 of `data`. */
export function blake2b256(data: Uint8Array): Uint8Array {
  h.set(IV32);
  h[0] = h[0]! ^ 0x01010000 ^ 32;
  let offset = 0;
  // Every full block but the last is compressed as it comes; the last (full or not) is padded.
  while (data.length - offset > 128) {
    compress(data, offset, offset + 128, false);
    offset += 128;
  }
  block.fill(0);
  block.set(data.subarray(offset));
  compress(block, 0, data.length, true);
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++) out[i] = (h[i >> 2]! >>> (8 * (i & 3))) & 0xff;
  return out;
}
