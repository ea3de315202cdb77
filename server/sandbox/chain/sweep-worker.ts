// A shared sandbox chain's sweep worker thread (started by sweep.ts). It rebuilds the same
// deterministic chain from the chain's options and simulates every closed segment once, the newest
// first and then down to block 0, then each new one as the tip closes it: it sends the server's
// thread each segment's blocks' totals (what the lists of blocks and epochs read) and keeps every
// background transaction's place by hash (sweep-store.ts), which the server's thread asks for when a
// hash it has not simulated is looked up. The chunks
// are written under a directory named by the chain's identity (its options and a probe segment's
// hashes), so a restart reads them back instead of simulating the chain again.
// The sweep is background work: first of all, this thread takes the lowest priority.
import './lowest-priority';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { COMPILED_SUMS, createSandboxChain, distributionHashOf, segmentSumsOf, sweptSegmentOf } from './chain';
import type { Segment } from './simulate';
import { keyOfHash, SweepStore, TX_INDEX_BITS, type SweptSegment } from './sweep-store';
import type { FromSweepWorker, SegmentSumsMessage, SegmentTotalsMessage, SweepWorkerData, ToSweepWorker } from './sweep-protocol';
import { newestFirst, SegmentBits, sumColumns } from './totals';
import { serveAssist } from './sums-assist';
import { MARK_EVERY_MS, markInUse, removeUnusedFolders } from './sweep-folders';

const port = parentPort!;
const data = workerData as SweepWorkerData;
const send = (m: FromSweepWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer);

let tip = -1;
const chain = createSandboxChain({
  network: data.network,
  seed: data.seed,
  genesisTime: data.genesisTime,
  blockIntervalMs: data.blockIntervalMs,
  blocksPerEpoch: data.blocksPerEpoch,
  segmentLength: data.segmentLength,
  devAids: false,
  now: () => data.genesisTime + Math.max(0, tip) * data.blockIntervalMs,
});
const L = data.segmentLength;

/** A segment's blocks' totals, block by block, how many transactions they hold, and its distribution's hash. */
function columns(made: Segment): { counts: Uint8Array; sizes: Uint32Array; money: Float64Array; n: number; distribution: string } {
  const counts = new Uint8Array(L);
  const sizes = new Uint32Array(L);
  const money = new Float64Array(2 * L);
  let n = 0;
  made.blocks.forEach((b, i) => {
    counts[i] = b.txs.length;
    sizes[i] = b.size;
    money[2 * i] = b.outputLovelace;
    money[2 * i + 1] = b.fees;
    n += b.txs.length;
  });
  return { counts, sizes, money, n, distribution: made.blocks[0]!.txs[0]!.hash };
}

/** A segment simulated whole, its transactions hashed: its totals and its transactions' keys and places. */
function sweep(index: number): SweptSegment {
  const made = sweptSegmentOf(chain, index);
  const { counts, sizes, money, n, distribution } = columns(made);
  const keys = new Uint32Array(n);
  const places = new Uint32Array(n);
  let j = 0;
  for (const b of made.blocks) {
    for (const tx of b.txs) {
      keys[j] = keyOfHash(tx.hash);
      places[j++] = tx.height * 2 ** TX_INDEX_BITS + tx.index;
    }
  }
  return { index, counts, sizes, money, distribution, keys, places };
}

/**
 * The chain's identity: its options and what a few probe segments simulate to (early, with the
 * first remints, and far on), so a chain simulated differently (another version of the simulation)
 * never reads another's chunks.
 */
function identity(): string {
  const h = createHash('sha256');
  h.update(JSON.stringify({ format: 2, network: data.network, seed: data.seed, genesisTime: data.genesisTime, blockIntervalMs: data.blockIntervalMs, blocksPerEpoch: data.blocksPerEpoch, segmentLength: L }));
  for (const s of PROBE_SEGMENTS) {
    const probe = sweep(s);
    for (const a of [probe.counts, probe.sizes, probe.money, probe.keys, probe.places]) h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    h.update(probe.distribution);
  }
  return `${data.network}-${h.digest('hex').slice(0, 20)}`;
}

/** The segments the identity simulates: a few tens of milliseconds at the worker's start. */
const PROBE_SEGMENTS = [1, 7, 40, 1_000];

/** The chain's folder under the sweep's directory, named by its identity (none: its chunks kept in memory). */
const folder = data.dir === null ? null : { root: data.dir, own: identity() };
const store = new SweepStore(folder && path.join(folder.root, folder.own), L);

/**
 * The chain's folder kept marked in use, and the network's folders of chains simulated differently
 * that nothing used for a day (a week if never marked) removed (sweep-folders.ts): at the start, then every hour.
 */
function keepFolder(root: string, own: string): void {
  const tend = (): void => {
    try {
      markInUse(path.join(root, own));
    } catch {
      // A folder that cannot be marked cannot be written to either: the chunks' writes say so.
    }
    void removeUnusedFolders(root, data.network, own, (removed, bytes) => send({ t: 'removed', folder: removed, bytes })).catch(() => {});
  };
  tend();
  setInterval(tend, MARK_EVERY_MS).unref();
}
if (folder) keepFolder(folder.root, folder.own);

const message = (s: SweptSegment): SegmentTotalsMessage => ({ index: s.index, counts: s.counts.slice(), sizes: s.sizes.slice(), money: s.money.slice(), distribution: s.distribution });
const sendSegments = (list: SweptSegment[]): void => {
  const segments = list.map(message);
  send({ t: 'segments', segments }, segments.flatMap((m) => [m.counts.buffer, m.sizes.buffer, m.money.buffer] as ArrayBuffer[]));
};

/** The next segment to sweep: the newest closed ones, then the older ones down to 0. */
const nextToSweep = newestFirst(L, (s) => store.has(s));
let toldSwept = -1;

/**
 * Before it sweeps, the worker sums every closed segment not in its chunks from its decisions alone
 * (segmentSums: about a millisecond each, where the sweep takes some 7), the newest first, and sends
 * the epochs' sums and the segment's distribution's hash (made from its parent's: nut.link's oracle
 * records list one a segment): a page of epochs or of those records reads them within a minute or
 * so of a first start rather than once the sweep has reached it. A segment the tip closes is summed,
 * then swept.
 */
const sumsSent = new SegmentBits();
/** The segments whose distribution's hash was sent with their sums (a page's segments summed by assist() are sent without). */
const hashesSent = new SegmentBits();
const nextToSum = newestFirst(L, (s) => store.has(s) || hashesSent.has(s));

/** What this worker does on its own: the server's thread lets one chain's work at a time, every chain's sums before any sweep. */
let background: 'off' | 'sums' | 'all' = 'off';
let scheduled = false;
/**
 * A page's segments the server's thread asks for (sums-assist.ts), before anything else: each summed
 * and sent at once, as the page waits for them.
 */
function assist(): void {
  serveAssist(data.assist, (index) => {
    const sums: SegmentSumsMessage = { index, ...sumColumns(segmentSumsOf(chain, index)) };
    sumsSent.add(index);
    send({ t: 'sums', sums: [sums] }, [sums.counts.buffer as ArrayBuffer, sums.money.buffer as ArrayBuffer]);
  });
}

/**
 * While the server's thread computes answers in slices (a cold page of epochs, a deep page of
 * votes: budget.ts's slicedWork), the worker does only what a page asks of it (assist): neither its
 * own sums and sweeps nor V8's collector threads, which its garbage keeps busy at the normal
 * priority, then take the cores from the page. At most PAUSE_MS at a time, then one unit of its
 * own, so the sweep goes on under any load.
 */
const PAUSE_MS = 50;
const serverSlicing = new Int32Array(data.slicedWork);
let pausedSince = -1;
function pausing(): boolean {
  if (Atomics.load(serverSlicing, 0) === 0) {
    pausedSince = -1;
    return false;
  }
  const now = performance.now();
  if (pausedSince < 0) pausedSince = now;
  if (now - pausedSince < PAUSE_MS) return true;
  pausedSince = now;
  return false;
}

/** One segment a turn, so the thread answers finds in between. */
function work(): void {
  scheduled = false;
  assist();
  if (background !== 'off' && pausing()) {
    // Looked at again in a millisecond, or at once when a page asks for its segments.
    scheduled = true;
    setTimeout(work, 1);
    return;
  }
  const summing = background !== 'off' ? nextToSum(tip) : null;
  if (summing !== null) {
    sumOne(summing);
    schedule();
    return;
  }
  flushSums();
  if (background !== 'off' && tip >= 0 && toldSummed !== tip) send({ t: 'summed', tip: (toldSummed = tip) });
  const n = background === 'all' ? nextToSweep(tip) : null;
  if (n === null) {
    flushSwept();
    if (background === 'all' && tip >= 0 && toldSwept !== tip) send({ t: 'swept', tip: (toldSwept = tip) });
    return;
  }
  if (!store.has(n)) {
    const s = sweep(n);
    store.add(s);
    // Sent in batches: one message for many segments costs the server's thread less.
    swept16.push(s);
    if (swept16.length >= SWEPT_BATCH) flushSwept();
  }
  schedule();
}

/** Segments summed and not yet sent, their distributions' hashes, and how many go in one message (some 30 ms of summing). */
const sums32: SegmentSumsMessage[] = [];
let hashes32: { segments: number[]; hashes: string[] } = { segments: [], hashes: [] };
const SUMS_BATCH = 32;
let toldSummed = -1;
/**
 * Segments whose sums the server's thread holds (a restart's kept sums: a 'held' message): once the
 * summing is compiled (warmUp), the pass makes only their distributions' hashes, a third of the work.
 */
const held = new SegmentBits();
/** A segment's epochs' sums made, to be sent with the batch (unless the server holds them). */
function sumOne(index: number): void {
  if (!sumsSent.has(index) && !(ready && held.has(index))) {
    sums32.push({ index, ...sumColumns(segmentSumsOf(chain, index)) });
    sumsSent.add(index);
    // A page waiting for its segments goes first (the hash may make a few of its parents' distributions too).
    if (ready) assist();
  }
  hashes32.segments.push(index);
  hashes32.hashes.push(distributionHashOf(chain, index));
  hashesSent.add(index);
  if (hashes32.segments.length >= SUMS_BATCH) flushSums();
}

/**
 * Before it says it is ready the worker sums its newest COMPILED_SUMS segments (sent as its other
 * sums): a page of epochs a cold worker helped would wait on V8 compiling the summing. None when its
 * chunks hold the whole history.
 */
let ready = false;
function warmUp(): void {
  for (let i = 0; i < COMPILED_SUMS; i++) {
    const s = nextToSum(tip);
    if (s === null) break;
    sumOne(s);
  }
  flushSums();
  ready = true;
  send({ t: 'ready' });
}
function flushSums(): void {
  if (sums32.length > 0) {
    const sums = sums32.splice(0);
    send({ t: 'sums', sums }, sums.flatMap((m) => [m.counts.buffer, m.money.buffer] as ArrayBuffer[]));
  }
  if (hashes32.segments.length > 0) {
    send({ t: 'distributions', segments: hashes32.segments, hashes: hashes32.hashes });
    hashes32 = { segments: [], hashes: [] };
  }
}

/** Segments swept and not yet sent, and how many go in one message. */
const swept16: SweptSegment[] = [];
const SWEPT_BATCH = 16;
function flushSwept(): void {
  if (swept16.length > 0) sendSegments(swept16.splice(0));
}
function schedule(): void {
  if (!scheduled) {
    scheduled = true;
    setImmediate(work);
  }
}

port.on('message', (m: ToSweepWorker) => {
  switch (m.t) {
    case 'tip':
      if (m.tip > tip) tip = m.tip;
      // The first tip told: the history is known, the summing is compiled on its newest segments.
      if (!ready) warmUp();
      schedule();
      return;
    case 'background':
      background = m.work;
      schedule();
      return;
    case 'assist':
      assist();
      return;
    case 'held':
      held.addAll(m.segments);
      return;
    case 'find': {
      // Complete: every segment closed by the tip told is swept.
      const complete = nextToSweep(tip) === null;
      send({ t: 'found', id: m.id, places: store.find(m.key), complete });
      return;
    }
  }
});

// A restart's chunks: their totals sent at once, a chunk a message.
for (const segments of store.load()) sendSegments(segments);
