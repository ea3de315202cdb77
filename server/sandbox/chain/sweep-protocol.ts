// The messages between a shared sandbox chain (sweep.ts, in the server's thread) and its sweep
// worker (sweep-worker.ts), which rebuilds the same deterministic chain from its options.

/** What the worker is started with: the chain's options that decide its background blocks, and where its chunks go. */
export interface SweepWorkerData {
  network: 'mainnet' | 'preprod' | 'preview';
  seed: string;
  genesisTime: number;
  blockIntervalMs: number;
  blocksPerEpoch: number;
  segmentLength: number;
  /** The folder the chain's directory goes under (its name is the chain's identity); null: chunks kept in memory. */
  dir: string | null;
  /** The memory through which a cold page of epochs asks the worker to sum half its segments (sums-assist.ts). */
  assist: SharedArrayBuffer;
  /** The server thread's count of answers computed in slices now (budget.ts's slicedWork). */
  slicedWork: SharedArrayBuffer;
}

/** One segment's blocks' totals (transferred). */
export interface SegmentTotalsMessage {
  index: number;
  counts: Uint8Array;
  sizes: Uint32Array;
  money: Float64Array;
  /** The segment's distribution's hash. */
  distribution: string;
}

/** One segment's epochs' sums: its blocks' transaction counts, and output and fees in pairs (transferred). */
export interface SegmentSumsMessage {
  index: number;
  counts: Uint8Array;
  money: Float64Array;
}

export type ToSweepWorker =
  /** The chain's tip: the worker sweeps the segments closed by it. */
  | { t: 'tip'; tip: number }
  /** What the worker does on its own: its history's sums, then its sweep too; one chain's at a time (sweep.ts). */
  | { t: 'background'; work: 'off' | 'sums' | 'all' }
  /** The places of the swept transactions whose hash begins with these 32 bits. */
  | { t: 'find'; id: number; key: number }
  /** A page's segments to sum are published in the shared memory (sums-assist.ts). */
  | { t: 'assist' }
  /**
   * Segments whose epochs' sums the server's thread holds already (a restart's, kept between starts:
   * kept-sums.ts), one bit each (totals.ts's SegmentBits): the worker's own pass makes only their
   * distributions' hashes, not their sums again.
   */
  | { t: 'held'; segments: Uint8Array };

export type FromSweepWorker =
  /** Segments' totals, swept or read from their chunks. */
  | { t: 'segments'; segments: SegmentTotalsMessage[] }
  /** Segments' epochs' sums, made before the sweep reaches them. */
  | { t: 'sums'; sums: SegmentSumsMessage[] }
  /** Segments' distributions' hashes (what nut.link's oracle records list), made with their sums before the sweep reaches them. */
  | { t: 'distributions'; segments: number[]; hashes: string[] }
  /** A find's answer: places (height × 128 + index); `complete`: every segment closed by the last tip told is swept. */
  | { t: 'found'; id: number; places: number[]; complete: boolean }
  /** Every segment closed by `tip` is swept. */
  | { t: 'swept'; tip: number }
  /** Every segment closed by `tip` is summed (sent as sums, or swept). */
  | { t: 'summed'; tip: number }
  /** The worker's chain is built, its chunks read and its summing compiled: it helps a page at full speed. */
  | { t: 'ready' }
  /** A folder of the network's chain simulated differently, unused (sweep-folders.ts), removed with the bytes it held. */
  | { t: 'removed'; folder: string; bytes: number };
