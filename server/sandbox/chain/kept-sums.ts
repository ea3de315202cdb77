// A shared chain's whole epochs' sums kept between starts. Summing a default chain's history takes
// its worker a minute or so of a core (sweep.ts: one chain at a time, so up to a few minutes for a
// process's three); until it has, a cold page of old epochs sums its fifty segments itself. Kept in
// a file under the sweep's directory (derived data: never in a backup) with the identity of the
// history they were summed from, a restart installs them before it serves, so only a first start
// has pages to sum. A chain simulated differently (a new version of the simulation, another block
// interval) has another identity and reads none.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { HistorySumsStore } from './params';
import type { SegmentSumsMessage } from './sweep-protocol';

/** What decides a shared chain's background blocks. */
export interface SharedHistory {
  network: string;
  seed: string;
  genesisTime: number;
  blockIntervalMs: number;
  blocksPerEpoch: number;
  segmentLength: number;
}

/** The identity of a shared chain's history: what decides its blocks, and what its probe segments sum to. */
export function sharedHistoryIdentity(history: SharedHistory, probes: SegmentSumsMessage[]): string {
  const h = createHash('sha256');
  h.update(JSON.stringify({ format: 1, shared: history }));
  for (const p of probes) {
    h.update(String(p.index));
    h.update(p.counts);
    h.update(new Uint8Array(p.money.buffer, p.money.byteOffset, p.money.byteLength));
  }
  return h.digest('hex').slice(0, 40);
}

/**
 * The sums in one file: the identity on its first line, then the bytes (totals.ts's wholeEpochs()).
 * Written whole to a file beside it, then renamed over it, so a reader never sees half of one.
 */
export function fileHistorySumsStore(file: string): HistorySumsStore {
  return {
    async load() {
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch {
        return null;
      }
      const nl = bytes.indexOf(0x0a);
      if (nl <= 0) return null;
      const sums = bytes.subarray(nl + 1);
      // A copy on its own buffer: the records are read as float64 from their start.
      return { identity: bytes.subarray(0, nl).toString('latin1'), sums: new Uint8Array(sums) };
    },
    async save(identity, sums) {
      await mkdir(path.dirname(file), { recursive: true });
      const part = `${file}.${process.pid}.part`;
      await writeFile(part, Buffer.concat([Buffer.from(`${identity}\n`, 'latin1'), sums]));
      await rename(part, file);
    },
  };
}

/** What keeping needs of the chain's totals (totals.ts). */
export interface KeptTotals {
  wholeCount: () => number;
  wholeEpochs: () => Uint8Array;
  installWholeEpochs: (sums: Uint8Array) => void;
}

/** How often the sums are saved when more epochs are whole than the file holds (a default chain's worker makes them all within minutes). */
const SAVE_EVERY_MS = 60_000;

export interface KeptSums {
  /** Settles once the sums kept are installed (or found missing, or another history's). */
  loaded: Promise<void>;
  /** Saves what is newly whole, and stops saving. */
  close(): Promise<void>;
}

/** Installs the sums the store kept for this history, then saves them as more epochs are whole. */
export function keepSums(store: HistorySumsStore, identity: () => string, totals: KeptTotals): KeptSums {
  let saved = 0;
  let saving: Promise<void> | null = null;
  let id = '';
  const save = (): Promise<void> => {
    if (saving) return saving;
    const count = totals.wholeCount();
    if (count === saved) return Promise.resolve();
    saving = store
      .save(id, totals.wholeEpochs())
      .then(
        () => void (saved = count),
        // Not written (a full disk, a read-only directory): tried again at the next turn; the chain sums as before.
        () => undefined,
      )
      .finally(() => (saving = null));
    return saving;
  };
  let timer: NodeJS.Timeout | null = null;
  const loaded = (async () => {
    const row = await store.load().catch(() => null);
    id = identity();
    if (row?.identity === id) totals.installWholeEpochs(row.sums);
    saved = totals.wholeCount();
    timer = setInterval(() => void save(), SAVE_EVERY_MS);
    timer.unref();
  })();
  return {
    loaded,
    async close() {
      await loaded;
      if (timer) clearInterval(timer);
      if (saving) await saving;
      await save();
    },
  };
}
