// What the sweep worker (sweep-worker.ts) keeps of the segments it has simulated, chunk by chunk: each
// block's totals (what the lists of blocks and epochs read), each segment's distribution hash, and
// every background transaction's place by the first 32 bits of its hash (what a lookup by hash
// reads, since a hash encodes no position).
// A chunk of CHUNK_SEGMENTS segments is written once all its segments are swept, as one file under
// the chain's directory (or kept as one buffer when the chain has none), its entries sorted by key;
// the worker keeps in memory only every FENCE_STRIDE-th key of each chunk, and reads the few
// hundred bytes a lookup needs from the file. A chunk's file is written whole under a temporary name
// and renamed, so a restart reads whole chunks or none.
import { closeSync, mkdirSync, openSync, readSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Segments per chunk: 3,840 blocks at 60 a segment, some 40,000 transactions, a file of about 410 KB. */
export const CHUNK_SEGMENTS = 64;
/** Keys between two fences: a lookup reads at most this many entries of a chunk. */
const FENCE_STRIDE = 512;
const MAGIC = 0x43535732; // 'CSW2'
const HEADER_BYTES = 24;
/** A transaction's place: height × 128 + index (a block holds fewer than 128 background transactions). */
export const TX_INDEX_BITS = 7;

/** One segment swept: its blocks' totals and its transactions' keys and places. */
export interface SweptSegment {
  index: number;
  counts: Uint8Array;
  sizes: Uint32Array;
  money: Float64Array;
  /** The segment's distribution's hash (its first transaction: nut.link's oracle records read it). */
  distribution: string;
  keys: Uint32Array;
  places: Uint32Array;
}

/** The first 32 bits of a hash in hex, as the index keys it. */
export const keyOfHash = (hash: string): number => parseInt(hash.slice(0, 8), 16);

interface Stored {
  n: number;
  fences: Uint32Array;
  /** Bytes of the chunk at an offset. */
  read: (offset: number, length: number) => Buffer;
}

/** A chunk still being swept: its segments' results, until every one is in. */
interface Open {
  segments: Map<number, SweptSegment>;
}

export class SweepStore {
  private readonly stored = new Map<number, Stored>();
  private readonly open = new Map<number, Open>();

  /** `dir`: where the chunks' files go (null: kept in memory). */
  constructor(
    private readonly dir: string | null,
    private readonly segmentLength: number,
  ) {
    if (dir) mkdirSync(dir, { recursive: true });
  }

  private get blocksPerChunk(): number {
    return CHUNK_SEGMENTS * this.segmentLength;
  }

  /** The chunks already written (a restart's), each read once for its totals: the segments they hold, with their totals. */
  *load(): Generator<SweptSegment[]> {
    if (!this.dir) return;
    for (const name of readdirSync(this.dir)) {
      const m = /^chunk-(\d+)\.bin$/.exec(name);
      if (!m) continue;
      const chunk = Number(m[1]);
      const file = path.join(this.dir, name);
      const read = fileReader(file);
      let size: number;
      try {
        size = statSync(file).size;
      } catch {
        continue;
      }
      if (size < HEADER_BYTES) continue;
      const header = read(0, HEADER_BYTES);
      const n = header.readUInt32LE(16);
      if (header.readUInt32LE(0) !== MAGIC || header.readUInt32LE(4) !== chunk || header.readUInt32LE(8) !== CHUNK_SEGMENTS || header.readUInt32LE(12) !== this.segmentLength || size !== this.fileBytes(n)) continue;
      // The totals and the fences, at the front: the keys and places stay on disk.
      const at = this.layout(n);
      const front = read(0, at.keys);
      const fences = new Uint32Array(Math.ceil(n / FENCE_STRIDE));
      for (let f = 0; f < fences.length; f++) fences[f] = front.readUInt32LE(at.fences + 4 * f);
      this.stored.set(chunk, { n, fences, read });
      yield Array.from({ length: CHUNK_SEGMENTS }, (_, k) => this.totalsIn(chunk * CHUNK_SEGMENTS + k, (offset, length) => front.subarray(offset, offset + length), n));
    }
  }

  /** Whether a segment has been swept (stored, or in an open chunk). */
  has(segment: number): boolean {
    const chunk = Math.floor(segment / CHUNK_SEGMENTS);
    return this.stored.has(chunk) || (this.open.get(chunk)?.segments.has(segment) ?? false);
  }

  /** A segment swept: kept with its chunk's others, and the chunk written once it is whole. */
  add(s: SweptSegment): void {
    const chunk = Math.floor(s.index / CHUNK_SEGMENTS);
    if (this.stored.has(chunk)) return;
    let o = this.open.get(chunk);
    if (!o) this.open.set(chunk, (o = { segments: new Map() }));
    o.segments.set(s.index, s);
    if (o.segments.size === CHUNK_SEGMENTS) {
      this.write(chunk, o);
      this.open.delete(chunk);
    }
  }

  /** A chunk's layout: the header, its blocks' totals, its distributions' hashes, its fences, then its keys and their places. */
  private layout(n: number): { money: number; sizes: number; counts: number; distributions: number; fences: number; keys: number; places: number; end: number } {
    const B = this.blocksPerChunk;
    const money = HEADER_BYTES;
    const sizes = money + 16 * B;
    const counts = sizes + 4 * B;
    const distributions = counts + B;
    const fences = Math.ceil((distributions + 32 * CHUNK_SEGMENTS) / 4) * 4;
    const keys = fences + 4 * Math.ceil(n / FENCE_STRIDE);
    const places = keys + 4 * n;
    return { money, sizes, counts, distributions, fences, keys, places, end: places + 4 * n };
  }

  private fileBytes(n: number): number {
    return this.layout(n).end;
  }

  private write(chunk: number, o: Open): void {
    const all = [...o.segments.values()].sort((a, b) => a.index - b.index);
    const n = all.reduce((sum, s) => sum + s.keys.length, 0);
    const order = new Uint32Array(n);
    const keys = new Uint32Array(n);
    const places = new Uint32Array(n);
    let j = 0;
    for (const s of all) {
      keys.set(s.keys, j);
      places.set(s.places, j);
      j += s.keys.length;
    }
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => keys[a]! - keys[b]! || places[a]! - places[b]!);
    const at = this.layout(n);
    const buf = Buffer.alloc(at.end);
    for (const [i, v] of [MAGIC, chunk, CHUNK_SEGMENTS, this.segmentLength, n].entries()) buf.writeUInt32LE(v, 4 * i);
    const fences = new Uint32Array(Math.ceil(n / FENCE_STRIDE));
    for (let i = 0; i < n; i++) {
      const k = keys[order[i]!]!;
      if (i % FENCE_STRIDE === 0) fences[i / FENCE_STRIDE] = k;
      buf.writeUInt32LE(k, at.keys + 4 * i);
      buf.writeUInt32LE(places[order[i]!]!, at.places + 4 * i);
    }
    fences.forEach((k, f) => buf.writeUInt32LE(k, at.fences + 4 * f));
    for (const s of all) {
      const b0 = (s.index % CHUNK_SEGMENTS) * this.segmentLength;
      for (let i = 0; i < s.counts.length; i++) {
        buf.writeDoubleLE(s.money[2 * i]!, at.money + 16 * (b0 + i));
        buf.writeDoubleLE(s.money[2 * i + 1]!, at.money + 16 * (b0 + i) + 8);
        buf.writeUInt32LE(s.sizes[i]!, at.sizes + 4 * (b0 + i));
        buf.writeUInt8(s.counts[i]!, at.counts + b0 + i);
      }
      buf.write(s.distribution, at.distributions + 32 * (s.index % CHUNK_SEGMENTS), 32, 'hex');
    }
    if (!this.dir) {
      this.stored.set(chunk, { n, fences, read: (offset, length) => buf.subarray(offset, offset + length) });
      return;
    }
    const file = path.join(this.dir, `chunk-${chunk}.bin`);
    writeFileSync(`${file}.tmp`, buf);
    renameSync(`${file}.tmp`, file);
    this.stored.set(chunk, { n, fences, read: fileReader(file) });
  }

  /** A segment's totals from its chunk's bytes. */
  private totalsIn(segment: number, read: (offset: number, length: number) => Buffer, n: number): SweptSegment {
    const at = this.layout(n);
    const b0 = (segment % CHUNK_SEGMENTS) * this.segmentLength;
    const len = this.segmentLength;
    const money = read(at.money + 16 * b0, 16 * len);
    const sizes = read(at.sizes + 4 * b0, 4 * len);
    const m = new Float64Array(2 * len);
    const z = new Uint32Array(len);
    for (let i = 0; i < 2 * len; i++) m[i] = money.readDoubleLE(8 * i);
    for (let i = 0; i < len; i++) z[i] = sizes.readUInt32LE(4 * i);
    const distribution = read(at.distributions + 32 * (segment % CHUNK_SEGMENTS), 32).toString('hex');
    return { index: segment, counts: new Uint8Array(read(at.counts + b0, len)), sizes: z, money: m, distribution, keys: new Uint32Array(0), places: new Uint32Array(0) };
  }

  /** The places of the swept transactions whose hash begins with `key`'s 32 bits (a caller compares the whole hash). */
  find(key: number): number[] {
    const out: number[] = [];
    for (const o of this.open.values()) {
      for (const s of o.segments.values()) for (let i = 0; i < s.keys.length; i++) if (s.keys[i] === key) out.push(s.places[i]!);
    }
    for (const st of this.stored.values()) {
      // The last fence below the key: equal keys may reach back past a fence equal to the key.
      let lo = 0;
      let hi = st.fences.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (st.fences[mid]! < key) lo = mid + 1;
        else hi = mid;
      }
      let from = Math.max(0, lo - 1) * FENCE_STRIDE;
      while (from < st.n) {
        const len = Math.min(FENCE_STRIDE, st.n - from);
        const at = this.layout(st.n);
        const keys = st.read(at.keys + 4 * from, 4 * len);
        let last = 0;
        for (let i = 0; i < len; i++) {
          last = keys.readUInt32LE(4 * i);
          if (last === key) out.push(st.read(at.places + 4 * (from + i), 4).readUInt32LE(0));
          if (last > key) break;
        }
        if (last > key) break;
        from += len;
      }
    }
    return out;
  }

  /** Bytes held in memory (fences and open chunks), and on disk or in memory for the stored chunks. */
  bytes(): { memory: number; stored: number } {
    let memory = 0;
    let stored = 0;
    for (const st of this.stored.values()) {
      memory += st.fences.byteLength;
      stored += this.fileBytes(st.n);
    }
    for (const o of this.open.values()) for (const s of o.segments.values()) memory += s.keys.byteLength * 2 + s.counts.length * 21;
    if (!this.dir) memory += stored;
    return { memory, stored };
  }
}

/** Reads a range of a file (opened for each read: a lookup reads a few ranges of each chunk). */
function fileReader(file: string): (offset: number, length: number) => Buffer {
  return (offset, length) => {
    const buf = Buffer.alloc(length);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, buf, 0, length, offset);
    } finally {
      closeSync(fd);
    }
    return buf;
  };
}
