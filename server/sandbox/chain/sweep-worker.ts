// A shared sandbox chain's sweep worker thread (started by sweep.ts). It rebuilds the same
// deterministic chain from the chain's options and simulates every closed segment once, the newest
// first and then down to block 0, then each new one as the tip closes it: it sends the server's
// thread each segment's blocks' totals (what the lists of blocks and epochs read) and keeps every
// background transaction's place by hash (sweep-store.ts), which the server's thread asks for when a
// hash it has not simulated is looked up. A segment a page asks for goes before the rest. The chunks
// are written under a directory named by the chain's identity (its options and a probe segment's
// hashes), so a restart reads them back instead of simulating the chain again.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { createSandboxChain, sweptSegmentOf, totalsSegmentOf } from './chain';
import type { Segment } from './simulate';
import { sliced } from './budget';
import { keyOfHash, SweepStore, TX_INDEX_BITS, type SweptSegment } from './sweep-store';
import type { FromSweepWorker, SegmentTotalsMessage, SweepWorkerData, ToSweepWorker } from './sweep-protocol';

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

/**
 * A segment a page waits for, simulated for its totals alone (nothing hashed: about two thirds of a
 * sweep's time): no keys, so it is not stored, and the sweep's own pass sweeps it whole later.
 */
function totalsOf(index: number): SweptSegment {
  const { counts, sizes, money, distribution } = columns(totalsSegmentOf(chain, index));
  return { index, counts, sizes, money, distribution, keys: NO_KEYS, places: NO_KEYS };
}
const NO_KEYS = new Uint32Array(0);

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

const store = new SweepStore(data.dir === null ? null : path.join(data.dir, identity()), L);

const message = (s: SweptSegment): SegmentTotalsMessage => ({ index: s.index, counts: s.counts.slice(), sizes: s.sizes.slice(), money: s.money.slice(), distribution: s.distribution });
const sendSegments = (list: SweptSegment[], asked: boolean): void => {
  const segments = list.map(message);
  send({ t: 'segments', segments, asked }, segments.flatMap((m) => [m.counts.buffer, m.sizes.buffer, m.money.buffer] as ArrayBuffer[]));
};

/** Segments a page asked for, first come first served. */
const asked: number[] = [];
/** The segments swept without a gap, from low to high (the newest first, then down to 0). */
let swept: { low: number; high: number } | null = null;
let toldSwept = -1;

const closedLast = (): number => Math.floor((tip + 1) / L) - 1;

/** The next segment to sweep: one a page asked for, then (unless `askedOnly`) the newest closed ones, then the older ones down to 0. */
function next(askedOnly: boolean): { index: number; asked: boolean } | null {
  while (asked.length > 0) {
    const s = asked.shift()!;
    if (s <= closedLast()) return { index: s, asked: true };
  }
  if (askedOnly) return null;
  const last = closedLast();
  if (last < 0) return null;
  swept ??= { low: last + 1, high: last };
  while (swept.high < last && store.has(swept.high + 1)) swept.high++;
  if (swept.high < last) return { index: swept.high + 1, asked: false };
  while (swept.low > 0 && store.has(swept.low - 1)) swept.low--;
  return swept.low > 0 ? { index: swept.low - 1, asked: false } : null;
}

/** Whether this worker sweeps on its own: the server's thread lets one chain's do so at a time. */
let background = false;
let scheduled = false;
/**
 * One segment a turn, so the thread answers finds and asks in between. The votes are counted first
 * (a few seconds for a year's epochs, where the segments take minutes), in slices of about 10 ms:
 * meanwhile only the segments a page asked for are swept.
 */
function work(): void {
  scheduled = false;
  countVotes();
  const n = next(counting || !background);
  if (!n) {
    flushSwept();
    if (counting || !background) return;
    if (tip >= 0 && toldSwept !== tip && countedTip === tip) send({ t: 'swept', tip: (toldSwept = tip) });
    return;
  }
  const hit = store.has(n.index) ? store.totals(n.index) : null;
  const s = hit ?? (n.asked ? totalsOf(n.index) : sweep(n.index));
  if (!hit && !n.asked) store.add(s);
  if (n.asked) {
    // A page's asks go back together once its queue is empty (the page waits for all of them).
    answered.push(s);
    if (asked.length === 0 || answered.length >= SWEPT_BATCH) sendSegments(answered.splice(0), true);
  } else if (!hit) {
    // The sweep's own go in batches: one message for many segments costs the server's thread less.
    swept16.push(s);
    if (swept16.length >= SWEPT_BATCH) flushSwept();
  }
  schedule();
}

/** Segments swept and not yet sent (the sweep's own, and those asked for), and how many go in one message. */
const swept16: SweptSegment[] = [];
const answered: SweptSegment[] = [];
const SWEPT_BATCH = 16;
function flushSwept(): void {
  if (swept16.length > 0) sendSegments(swept16.splice(0), false);
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
      schedule();
      return;
    case 'background':
      background = m.on;
      schedule();
      return;
    case 'totals': {
      // Those already swept are read at once; the others go before the sweep's own.
      const ready: SweptSegment[] = [];
      for (const s of m.segments) {
        const t = store.totals(s);
        if (t) ready.push(t);
        else if (!asked.includes(s)) asked.push(s);
      }
      if (ready.length > 0) sendSegments(ready, true);
      schedule();
      return;
    }
    case 'find': {
      const last = closedLast();
      const complete = last < 0 || (swept !== null && swept.low === 0 && swept.high >= last);
      send({ t: 'found', id: m.id, places: store.find(m.key), complete });
      return;
    }
  }
});

// ---- the vote lists' running counts (the committee's, each pool's, the proposals'), counted in slices of about 10
// ms between the segments, sent as they grow and saved with the chunks. ----
const gov = chain.governance();
/** Entries of each list already sent to the server's thread. */
const sentCounts = new Map<string, number>();
let countedTip = -1;
let counting = false;
let savedEpoch = -1;
/** Epochs between two saves of the counts (the file holds every list whole). */
const SAVE_EVERY_EPOCHS = 256;

function sendCounts(through: number): void {
  const lists: Array<{ list: string; from: number; values: Uint32Array }> = [];
  for (const list of gov.countedLists()) {
    const from = sentCounts.get(list) ?? 0;
    const values = gov.runningCounts(list, from);
    if (!values) continue;
    lists.push({ list, from, values });
    sentCounts.set(list, from + values.length);
  }
  send({ t: 'counts', lists, through }, lists.map((l) => l.values.buffer as ArrayBuffer));
}

function countVotes(): void {
  if (counting || tip < 0 || countedTip === tip) return;
  counting = true;
  const target = tip;
  void sliced(() => {
    gov.countCommitteeVotesAhead();
    gov.countPoolVotesAhead();
    gov.countProposalsAhead();
  }).then(() => {
    counting = false;
    countedTip = target;
    sendCounts(target);
    const epoch = chain.epochOfHeight(target);
    if (savedEpoch < 0 || epoch - savedEpoch >= SAVE_EVERY_EPOCHS) {
      savedEpoch = epoch;
      store.saveCounts(new Map(gov.countedLists().map((list) => [list, gov.runningCounts(list, 0) ?? new Uint32Array(1)])));
    }
    schedule();
  });
}

// A restart's chunks and counts: their totals sent at once, a chunk a message.
for (const segments of store.load()) sendSegments(segments, false);
for (const [list, values] of store.loadCounts()) gov.adoptRunningCounts(list, 0, values);
sendCounts(-1);
