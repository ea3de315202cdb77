// A process's devnets' sums worker thread (started by devnet-sums.ts): for each devnet whose history
// is long, it rebuilds the devnet's chain from the options that decide its background blocks (forks
// included) and sums its closed segments from their decisions alone (segmentSums), the newest first,
// sending the sums back; then each segment the devnet's tip closes. Background work: this thread
// takes the lowest priority first, and sums one segment a turn, its devnets in turn, holding the
// chains of a few at once.
import './lowest-priority';
import { parentPort } from 'node:worker_threads';
import { createSandboxChain, segmentSumsOf } from './chain';
import { memoryLedgerStore } from './ledger';
import type { SandboxChain } from './api';
import type { DevnetHistory, FromDevnetSumsWorker, ToDevnetSumsWorker } from './devnet-sums';
import type { SegmentSumsMessage } from './sweep-protocol';
import { newestFirst, SegmentBits, sumColumns } from './totals';

const port = parentPort!;

interface Job {
  id: number;
  history: DevnetHistory;
  segmentLength: number;
  tip: number;
  /** The devnet's chain, rebuilt while the job has segments to sum. */
  chain: SandboxChain | null;
  sent: SegmentBits;
  next: (tip: number) => number | null;
  batch: SegmentSumsMessage[];
}

const jobs = new Map<number, Job>();
/** Devnets whose chains are held at once (some megabyte each): the others wait their turn. */
const HELD = 4;
/** Segments sent in one message (some 10 ms of summing). */
const BATCH = 16;

function build(job: Job): SandboxChain {
  const { network, seed, genesisTime, blockIntervalMs, devnet } = job.history;
  return createSandboxChain({
    network,
    seed,
    genesisTime,
    blockIntervalMs,
    segmentLength: job.segmentLength,
    devnet,
    devAids: false,
    store: memoryLedgerStore(),
    now: () => genesisTime + job.tip * blockIntervalMs,
    historySums: false,
  });
}

function flush(job: Job): void {
  if (job.batch.length === 0) return;
  const sums = job.batch.splice(0);
  const m: FromDevnetSumsWorker = { t: 'sums', id: job.id, sums };
  port.postMessage(m, sums.flatMap((s) => [s.counts.buffer as ArrayBuffer, s.money.buffer as ArrayBuffer]));
}

/** Where the round of jobs goes on: the first asked for a segment at the next turn. */
let turn = 0;
let scheduled = false;
function work(): void {
  scheduled = false;
  const held = [...jobs.values()].filter((j) => j.chain !== null).length;
  const ids = [...jobs.keys()];
  for (let k = 0; k < ids.length; k++) {
    const job = jobs.get(ids[(turn + k) % ids.length]!)!;
    const s = job.next(job.tip);
    if (s === null) {
      // Caught up: its sums sent and its chain let go until its tip closes another segment.
      flush(job);
      job.chain = null;
      continue;
    }
    if (!job.chain && held >= HELD) continue;
    job.chain ??= build(job);
    job.batch.push({ index: s, ...sumColumns(segmentSumsOf(job.chain, s)) });
    job.sent.add(s);
    if (job.batch.length >= BATCH) flush(job);
    turn = (turn + k + 1) % ids.length;
    schedule();
    return;
  }
}

function schedule(): void {
  if (!scheduled) {
    scheduled = true;
    setImmediate(work);
  }
}

port.on('message', (m: ToDevnetSumsWorker) => {
  switch (m.t) {
    case 'job': {
      const sent = new SegmentBits();
      jobs.set(m.id, { id: m.id, history: m.history, segmentLength: m.segmentLength, tip: m.tip, chain: null, sent, next: newestFirst(m.segmentLength, (s) => sent.has(s)), batch: [] });
      break;
    }
    case 'tip': {
      const job = jobs.get(m.id);
      if (job && m.tip > job.tip) job.tip = m.tip;
      break;
    }
    case 'end':
      jobs.delete(m.id);
      break;
  }
  schedule();
});
