// A chain's whole epochs' sums kept between loads, under the identity of the history they were
// summed from: a devnet's in its database row (devnet-sums.ts), a shared chain's in a file.
//
// A shared chain's between starts: summing a default chain's history takes
// its worker a minute or so of a core (sweep.ts: one chain at a time, so up to a few minutes for a
// process's three); until it has, a cold page of old epochs sums its fifty segments itself. Kept in
// a file under the sweep's directory (derived data: never in a backup) with the identity of the
// history they were summed from, a restart installs them before it serves, so only a first start
// has pages to sum. A chain simulated differently (a new version of the simulation, another block
// interval) has another identity and reads none.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { HistorySumsStore } from './params';
import type { SegmentSumsMessage } from './sweep-protocol';

/** Where a chain's history's sums are kept between loads, and the identity of the history it sums. */
export interface KeptHistory {
  store: HistorySumsStore;
  /** Made once the store is read: what decides the background blocks, and probe segments' sums (so a simulation changed since reads none). */
  identity: () => string;
}

/**
 * The identity of a history: `decides` (what decides its background blocks, as JSON) and what its
 * probe segments sum to.
 */
export function sumsIdentity(decides: unknown, probes: Array<Pick<SegmentSumsMessage, 'counts' | 'money'>>): string {
  const h = createHash('sha256');
  h.update(JSON.stringify(decides, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
  for (const p of probes) {
    h.update(p.counts);
    h.update(new Uint8Array(p.money.buffer, p.money.byteOffset, p.money.byteLength));
  }
  return h.digest('hex').slice(0, 40);
}

/** Whether a process of this id is running (one that exists but is not ours to signal counts too). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the part files (`<file>.<pid>.part`) a process stopped while writing left beside the file
 * (up to some 5 MB each): those of a process no longer running; a running one may still be writing its own.
 */
async function removeLeftParts(file: string): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = name.startsWith(prefix) && name.endsWith('.part') ? Number(name.slice(prefix.length, -'.part'.length)) : NaN;
    if (!Number.isInteger(pid) || pid <= 0 || running(pid)) continue;
    await rm(path.join(dir, name), { force: true }).catch(() => undefined);
  }
}

/**
 * The sums in one file: the identity on its first line, then the bytes (totals.ts's wholeEpochs()).
 * Written whole to a file beside it, then renamed over it, so a reader never sees half of one; what a
 * process stopped mid-write left beside it is removed at the next load.
 */
export function fileHistorySumsStore(file: string): HistorySumsStore {
  return {
    async load() {
      await removeLeftParts(file);
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

/**
 * A chain's whole epochs' sums and their store: load() installs what the store kept for this history
 * (none read, or another history's: summed again), save() writes them when more are whole than the
 * store holds, one save at a time (a failed one is tried again at the next).
 */
export class SumsKeeper {
  /** The whole epochs the store holds, as far as this process knows. */
  private saved = 0;
  private saving: Promise<void> | null = null;
  private identity = '';

  constructor(
    private readonly kept: KeptHistory,
    private readonly totals: KeptTotals,
  ) {}

  async load(): Promise<void> {
    const row = await this.kept.store.load().catch(() => null);
    // Made after the read, once the chain that holds this keeper is whole (its probes' sums need all of it).
    this.identity = this.kept.identity();
    if (row?.identity === this.identity) this.totals.installWholeEpochs(row.sums);
    this.saved = this.totals.wholeCount();
  }

  /** Saves what is newly whole (after load()); settles with the save under way, if there is one. */
  save(): Promise<void> {
    if (this.saving) return this.saving;
    const count = this.totals.wholeCount();
    if (count === this.saved) return Promise.resolve();
    this.saving = this.kept.store
      .save(this.identity, this.totals.wholeEpochs())
      .then(
        () => void (this.saved = count),
        // Not written (a full disk, a read-only directory): tried again at the next save.
        () => undefined,
      )
      .finally(() => (this.saving = null));
    return this.saving;
  }

  /** Saves what is whole now, after any save under way. */
  async flush(): Promise<void> {
    await this.saving;
    await this.save();
  }
}

/** A shared chain's sums kept: installed before it answers, saved every SAVE_EVERY_MS while more epochs are whole, and when it closes. */
export function keepSharedSums(kept: KeptHistory, totals: KeptTotals): { loaded: Promise<void>; close(): Promise<void> } {
  const keeper = new SumsKeeper(kept, totals);
  let timer: NodeJS.Timeout | null = null;
  const loaded = keeper.load().then(() => {
    timer = setInterval(() => void keeper.save(), SAVE_EVERY_MS);
    timer.unref();
  });
  return {
    loaded,
    async close() {
      await loaded;
      if (timer) clearInterval(timer);
      await keeper.flush();
    },
  };
}
