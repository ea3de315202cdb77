// The totals the lists of blocks and epochs read (a block's background transactions' count, size,
// output and fees), kept compactly once a segment has been simulated for them: per block for the
// segments read or indexed last, and per epoch for good, so a page of a hundred epochs reads a
// hundred sums and a page of a hundred blocks the blocks of two or three segments. Both need only the
// segment's decisions (segmentSums: no transaction made), a block's size measured from them. The
// chain's prepare() sums the segments ahead of the reads, in time slices (chain.ts).
import type { BlockTotals, SegmentSums, SimBlock } from './simulate';

/** The background totals of an epoch's blocks: every block of it summed. */
export interface EpochTotals {
  txCount: number;
  output: bigint;
  fees: bigint;
}

/** Per block: output and fees (float64), size (uint32), transaction count (uint8): 21 bytes. */
const BYTES_PER_BLOCK = 21;
const TWO_32 = 2 ** 32;

/** A segment's blocks' totals, block by block: output and fees in pairs, sizes, transaction counts. */
export interface SegmentColumns {
  readonly money: Float64Array;
  readonly sizes: Uint32Array;
  readonly counts: Uint8Array;
}

/** A segment's sums (segmentSums) as columns: counts, and output and fees in pairs. */
export function sumColumns(sums: SegmentSums): { counts: Uint8Array; money: Float64Array } {
  const blocks = sums.counts.length;
  const money = new Float64Array(blocks * 2);
  for (let i = 0; i < blocks; i++) {
    money[2 * i] = sums.outputs[i]!;
    money[2 * i + 1] = sums.fees[i]!;
  }
  return { counts: Uint8Array.from(sums.counts), money };
}

/** One segment's blocks' totals in one buffer. */
export class SegmentTotals implements SegmentColumns {
  readonly money: Float64Array;
  readonly sizes: Uint32Array;
  readonly counts: Uint8Array;
  constructor(blocks: number) {
    const buffer = new ArrayBuffer(blocks * BYTES_PER_BLOCK);
    this.money = new Float64Array(buffer, 0, blocks * 2);
    this.sizes = new Uint32Array(buffer, blocks * 16, blocks);
    this.counts = new Uint8Array(buffer, blocks * 20, blocks);
  }
}

/** A set of segments, one bit each. */
export class SegmentBits {
  private bits = new Uint8Array(0);
  has(segment: number): boolean {
    return ((this.bits[segment >> 3] ?? 0) & (1 << (segment & 7))) !== 0;
  }
  add(segment: number): void {
    if (this.bits.length <= segment >> 3) {
      const bits = new Uint8Array(Math.max((segment >> 3) + 1, this.bits.length * 2, 64));
      bits.set(this.bits);
      this.bits = bits;
    }
    this.bits[segment >> 3]! |= 1 << (segment & 7);
  }
  get bytes(): number {
    return this.bits.length;
  }
  /** Its bits, copied (to send to another thread). */
  copy(): Uint8Array {
    return this.bits.slice();
  }
  /** Adds every segment of bits made by copy(). */
  addAll(bits: Uint8Array): void {
    if (this.bits.length < bits.length) {
      const grown = new Uint8Array(bits.length);
      grown.set(this.bits);
      this.bits = grown;
    }
    for (let i = 0; i < bits.length; i++) this.bits[i]! |= bits[i]!;
  }
}

/**
 * The closed segments below a tip, the newest first and then the older ones down to 0, less those
 * `done` says are done: the next to do, or null once every one is (what prepare() sums ahead and
 * the sweep worker sums and sweeps). `done` is asked again of a segment only until it says yes.
 */
export function newestFirst(segmentLength: number, done: (segment: number) => boolean): (tip: number) => number | null {
  /** The segments done without a gap, from low to high. */
  let run: { low: number; high: number } | null = null;
  return (tip) => {
    const closedLast = Math.floor((tip + 1) / segmentLength) - 1;
    if (closedLast < 0) return null;
    run ??= { low: closedLast + 1, high: closedLast };
    while (run.high < closedLast && done(run.high + 1)) run.high++;
    if (run.high < closedLast) return run.high + 1;
    while (run.low > 0 && done(run.low - 1)) run.low--;
    return run.low > 0 ? run.low - 1 : null;
  };
}

/** No epoch's sums (before a page is looked up). */
const EMPTY = new Float64Array(0);

/** Epochs a page of the epochs' sums holds (EpochSums): 192 KB a page. */
const EPOCHS_A_PAGE = 4096;
/** The six sums an epoch keeps, each a float64, at these places of its page's stride. */
const TX_COUNT = 0;
const OUTPUT_HIGH = 1;
const OUTPUT_LOW = 2;
const FEES_HIGH = 3;
const FEES_LOW = 4;
const BLOCKS_SUMMED = 5;
const STRIDE = 6;

/**
 * The epochs' sums in pages of EPOCHS_A_PAGE epochs, made as an epoch of theirs is first summed:
 * a chain whose newest epochs alone were summed (a gateway's start) holds their page, not columns
 * as long as its history (48 bytes an epoch: some 100 MB for the 2 million epochs of one-second blocks).
 */
class EpochSums {
  private readonly pages = new Map<number, Float64Array>();
  /** The page of epoch e, and e's place in it; made (zeroed) when `make`. */
  page(e: number, make: boolean): { at: number; sums: Float64Array } | null {
    const p = Math.floor(e / EPOCHS_A_PAGE);
    let sums = this.pages.get(p);
    if (!sums) {
      if (!make) return null;
      sums = new Float64Array(EPOCHS_A_PAGE * STRIDE);
      this.pages.set(p, sums);
    }
    return { at: (e - p * EPOCHS_A_PAGE) * STRIDE, sums };
  }
  get bytes(): number {
    return this.pages.size * EPOCHS_A_PAGE * STRIDE * 8;
  }
  /** Every page, with its first epoch. */
  *all(): Generator<{ first: number; sums: Float64Array }> {
    for (const [p, sums] of this.pages) yield { first: p * EPOCHS_A_PAGE, sums };
  }
}

/** A whole epoch as wholeEpochs() writes it: its number, then its sums but the blocks summed. */
const RECORD = STRIDE;

/**
 * Block and epoch totals of the segments summed so far. A segment is summed once into its epochs
 * (`summed`), whatever read it first: a list's page, the address window's cache or prepare(). An
 * epoch's sums are exact integers of any size: each is kept as a high and a low part of 32 bits.
 */
export class TotalsIndex {
  private readonly perBlock = new Map<number, SegmentColumns>();
  /** The segments summed into their epochs. */
  private readonly summedSegments = new SegmentBits();
  /** Each epoch's sums, and how many of its blocks are summed: they are whole once that is the epoch's length. */
  private readonly epochs = new EpochSums();
  /** How many epochs are whole: goes up as they are (what a devnet's history store saves on). */
  wholeCount = 0;

  constructor(
    private readonly segmentLength: number,
    readonly blocksPerEpoch: number,
    /** Segments whose blocks' totals are kept (the most recently read), beyond their epochs' sums. */
    private readonly keptSegments: number,
  ) {}

  /** A block's totals, when its segment's are kept. */
  block(height: number): BlockTotals | null {
    const s = Math.floor(height / this.segmentLength);
    const kept = this.perBlock.get(s);
    if (!kept) return null;
    const i = height - s * this.segmentLength;
    return { txCount: kept.counts[i]!, size: kept.sizes[i]!, outputLovelace: kept.money[2 * i]!, fees: kept.money[2 * i + 1]! };
  }

  /** Whether the segment's blocks have been summed into their epochs. */
  summed(segment: number): boolean {
    return this.summedSegments.has(segment);
  }

  /** The segments summed into their epochs, one bit each (SegmentBits.copy()). */
  summedBits(): Uint8Array {
    return this.summedSegments.copy();
  }

  /** Whether the segment's blocks' totals are at hand. */
  kept(segment: number): boolean {
    return this.perBlock.has(segment);
  }

  /**
   * A whole segment's blocks: kept per block (`keep`: a read's, which pushes out the least recently
   * read; otherwise only while there is room, as prepare()'s indexing does) and summed into their
   * epochs unless they were already.
   */
  add(segment: number, blocks: readonly SimBlock[], keep: boolean): void {
    const t = new SegmentTotals(blocks.length);
    blocks.forEach((b, i) => {
      t.money[2 * i] = b.outputLovelace;
      t.money[2 * i + 1] = b.fees;
      t.sizes[i] = b.size;
      t.counts[i] = b.txs.length;
    });
    this.addTotals(segment, t, keep);
  }

  /** A segment's blocks' sums with their sizes (segmentSums measured): as add(). */
  addMeasured(segment: number, sums: SegmentSums, keep: boolean): void {
    if (!sums.sizes) throw new Error(`segment ${segment}'s sums were made without their sizes`);
    const blocks = sums.counts.length;
    const t = new SegmentTotals(blocks);
    for (let i = 0; i < blocks; i++) {
      t.money[2 * i] = sums.outputs[i]!;
      t.money[2 * i + 1] = sums.fees[i]!;
      t.sizes[i] = sums.sizes[i]!;
      t.counts[i] = sums.counts[i]!;
    }
    this.addTotals(segment, t, keep);
  }

  /** A whole segment's blocks' totals as the sweep worker sends them (sweep.ts): as add(). */
  addTotals(segment: number, t: SegmentColumns, keep: boolean): void {
    if (keep || this.perBlock.size < this.keptSegments) {
      this.perBlock.delete(segment);
      this.perBlock.set(segment, t);
      if (this.perBlock.size > this.keptSegments) this.perBlock.delete(this.perBlock.keys().next().value!);
    }
    this.addEpochSums(segment, t);
  }

  /** A segment's blocks' sums without their sizes (segmentSums): summed into their epochs, not kept per block. */
  addSums(segment: number, sums: SegmentSums): void {
    if (!this.summed(segment)) this.addEpochSums(segment, sumColumns(sums));
  }

  /** A segment's blocks' counts and money (output and fees in pairs) summed into their epochs, unless they were already. */
  addEpochSums(segment: number, t: Pick<SegmentColumns, 'counts' | 'money'>): void {
    if (this.summed(segment)) return;
    this.sumIntoEpochs(segment * this.segmentLength, t);
    this.summedSegments.add(segment);
  }

  /** Marks the kept totals of a segment as just read (the least recently read go first). */
  touch(segment: number): void {
    const t = this.perBlock.get(segment);
    if (t) {
      this.perBlock.delete(segment);
      this.perBlock.set(segment, t);
    }
  }

  private sumIntoEpochs(first: number, t: Pick<SegmentColumns, 'counts' | 'money'>): void {
    const blocks = t.counts.length;
    let epoch = -1;
    let at = 0;
    let sums: Float64Array = EMPTY;
    for (let i = 0; i < blocks; i++) {
      // An epoch's place looked up once for its blocks in the segment.
      const e = Math.floor((first + i) / this.blocksPerEpoch);
      if (e !== epoch) {
        epoch = e;
        ({ at, sums } = this.epochs.page(e, true)!);
      }
      // Whole already (installed from a store, beside a segment it shares with an epoch that is not): counted once.
      if (sums[at + BLOCKS_SUMMED] === this.blocksPerEpoch) continue;
      sums[at + TX_COUNT]! += t.counts[i]!;
      if ((sums[at + BLOCKS_SUMMED]! += 1) === this.blocksPerEpoch) this.wholeCount++;
      // Each total of a block is an exact integer below 2^53; the low part stays below 2^32 + 2^53.
      let low = sums[at + OUTPUT_LOW]! + t.money[2 * i]!;
      let carry = Math.floor(low / TWO_32);
      sums[at + OUTPUT_LOW] = low - carry * TWO_32;
      sums[at + OUTPUT_HIGH]! += carry;
      low = sums[at + FEES_LOW]! + t.money[2 * i + 1]!;
      carry = Math.floor(low / TWO_32);
      sums[at + FEES_LOW] = low - carry * TWO_32;
      sums[at + FEES_HIGH]! += carry;
    }
  }

  /** An epoch's background totals, once every block of it has been summed; else null. */
  epoch(epoch: number): EpochTotals | null {
    const page = this.epochs.page(epoch, false);
    if (!page || page.sums[page.at + BLOCKS_SUMMED] !== this.blocksPerEpoch) return null;
    const { at, sums } = page;
    const whole = (high: number, low: number): bigint => BigInt(high) * BigInt(TWO_32) + BigInt(low);
    return { txCount: sums[at + TX_COUNT]!, output: whole(sums[at + OUTPUT_HIGH]!, sums[at + OUTPUT_LOW]!), fees: whole(sums[at + FEES_HIGH]!, sums[at + FEES_LOW]!) };
  }

  /** The whole epochs' sums, each its number and its five sums (float64): what a devnet's history store keeps. */
  wholeEpochs(): Uint8Array {
    const out = new Float64Array(this.wholeCount * RECORD);
    let n = 0;
    for (const { first, sums } of this.epochs.all()) {
      for (let at = 0; at < sums.length && n < out.length; at += STRIDE) {
        if (sums[at + BLOCKS_SUMMED] !== this.blocksPerEpoch) continue;
        out[n] = first + at / STRIDE;
        out.set(sums.subarray(at, at + BLOCKS_SUMMED), n + 1);
        n += RECORD;
      }
    }
    return new Uint8Array(out.buffer, 0, n * 8);
  }

  /**
   * Whole epochs' sums as wholeEpochs() wrote them, each installed unless a block of it is summed
   * already; then every segment whose epochs are all whole is summed. Epochs beyond `lastEpoch` are
   * left out. Malformed bytes install nothing.
   */
  installWholeEpochs(bytes: Uint8Array, lastEpoch: number): void {
    if (bytes.byteLength % (RECORD * 8) !== 0) return;
    const records = new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    const installed: number[] = [];
    for (let n = 0; n < records.length; n += RECORD) {
      const e = records[n]!;
      if (!Number.isSafeInteger(e) || e < 0 || e > lastEpoch) continue;
      const { at, sums } = this.epochs.page(e, true)!;
      if (sums[at + BLOCKS_SUMMED] !== 0) continue;
      sums.set(records.subarray(n + 1, n + RECORD), at);
      sums[at + BLOCKS_SUMMED] = this.blocksPerEpoch;
      this.wholeCount++;
      installed.push(e);
    }
    const whole = (e: number): boolean => {
      const page = this.epochs.page(e, false);
      return page !== null && page.sums[page.at + BLOCKS_SUMMED] === this.blocksPerEpoch;
    };
    const L = this.segmentLength;
    const epochOf = (height: number): number => Math.floor(height / this.blocksPerEpoch);
    const allWhole = (s: number): boolean => {
      for (let e = epochOf(s * L); e <= epochOf((s + 1) * L - 1); e++) if (!whole(e)) return false;
      return true;
    };
    for (const e of installed) {
      for (let s = Math.floor((e * this.blocksPerEpoch) / L); s <= Math.floor(((e + 1) * this.blocksPerEpoch - 1) / L); s++) if (allWhole(s)) this.summedSegments.add(s);
    }
  }

  /** Bytes held: what a chain's lists' index costs. */
  bytes(): number {
    return this.perBlock.size * this.segmentLength * BYTES_PER_BLOCK + this.summedSegments.bytes + this.epochs.bytes;
  }
}
