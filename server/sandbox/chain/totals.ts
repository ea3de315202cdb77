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
}

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

  constructor(
    private readonly segmentLength: number,
    private readonly blocksPerEpoch: number,
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
      sums[at + TX_COUNT]! += t.counts[i]!;
      sums[at + BLOCKS_SUMMED]! += 1;
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

  /** Bytes held: what a chain's lists' index costs. */
  bytes(): number {
    return this.perBlock.size * this.segmentLength * BYTES_PER_BLOCK + this.summedSegments.bytes + this.epochs.bytes;
  }
}
