// A devnet's history summed in the background, so its pages of epochs read sums. A devnet has no
// sweep worker (a process holds hundreds of devnets), and a page of a hundred epochs of the default
// genesis (600 blocks each) is a thousand segments to sum: some 0.3–0.5 s of the server's thread.
// One worker thread for all of a process's devnets (devnet-sums-worker.ts), started with the first
// devnet whose history is long enough, at the lowest priority: each devnet whose closed segments not
// summed reach HISTORY_MIN_SEGMENTS gets a job, the worker rebuilds the devnet's chain from the
// options that decide its background blocks (forks included) and sums its closed segments, the
// newest first, sending the sums back; every TICK_MS a loaded devnet's tip is told again, so the
// worker keeps up as the devnet's clock makes blocks. A devnet unloaded (its chain collected) or
// rebuilt (a new chain) ends its job. Fewer segments than the minimum a page sums itself in a few
// milliseconds. A devnet with a store (a gateway's: its devnet_history_sums row) saves its whole
// epochs' sums as more are whole, under its history's identity, and loaded again installs them
// before it answers, so neither its pages nor the worker sum that history again.
import { Worker } from 'node:worker_threads';
import type { DevnetChainOptions, SandboxNetwork } from './params';
import type { SegmentSumsMessage } from './sweep-protocol';
import { SumsKeeper, sumsIdentity, type KeptHistory } from './kept-sums';

/** What decides a devnet's background blocks: what the worker rebuilds its chain from. */
export interface DevnetHistory {
  network: SandboxNetwork;
  seed: string;
  genesisTime: number;
  blockIntervalMs: number;
  devnet: DevnetChainOptions;
}

export type ToDevnetSumsWorker =
  /** A devnet's history to sum: its closed segments below the tip, the newest first. */
  | { t: 'job'; id: number; history: DevnetHistory; segmentLength: number; tip: number }
  /** The devnet's tip now: the segments it closed are summed too. */
  | { t: 'tip'; id: number; tip: number }
  /** The devnet is gone (unloaded or rebuilt): its job is dropped. */
  | { t: 'end'; id: number };

/** A devnet's segments' sums (their buffers transferred). */
export type FromDevnetSumsWorker = { t: 'sums'; id: number; sums: SegmentSumsMessage[] };

/** Closed segments not summed from which a devnet's history goes to the worker (a page sums fewer itself in some 8 ms). */
export const HISTORY_MIN_SEGMENTS = 16;
/** How often each loaded devnet's tip is told the worker: a devnet at the default block a second closes a segment a minute. */
const TICK_MS = 10_000;
/** How far back from the newest closed segment a devnet looks for segments not summed before it has a job. */
const LOOK_BACK = 4_096;

const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './devnet-sums-worker.mjs' : './sandbox-devnet-sums-worker.js', import.meta.url);

/** The worker's old generation at most: the devnets' chains it holds at once and their sums' bits. */
const WORKER_HEAP_MB = 192;

/** What the worker's job needs of a devnet's chain: its tip, the segments it has summed, and where the worker's sums go. */
export interface WatchedDevnet {
  tipHeight: () => number;
  summed: (segment: number) => boolean;
  install: (sums: SegmentSumsMessage) => void;
  /** How many of its epochs are whole, their sums as a store keeps them, and those of a store installed (totals.ts). */
  wholeCount: () => number;
  wholeEpochs: () => Uint8Array;
  installWholeEpochs: (sums: Uint8Array) => void;
}

/** A chain's watch of its history's sums (a devnet's here, a shared chain's in kept-sums.ts), as its chain holds it. */
export interface HistoryWatch {
  /** Settles once the sums its store kept are installed (at once without a store). */
  loaded: Promise<void>;
  /** Ends the job (the chain is closed); a store's last save settles with it. */
  end(): void | Promise<void>;
}

/** The identity of a devnet's history: what decides its background blocks and what a probe segment sums to. */
export function historyIdentity(history: DevnetHistory, segmentLength: number, probe: SegmentSumsMessage): string {
  // (Its id names where its ledger is kept, not its blocks: the store is the devnet's own already.)
  const { id: _id, ...devnet } = history.devnet;
  return sumsIdentity({ format: 1, history: { ...history, devnet }, segmentLength }, [probe]);
}

let shared: DevnetSums | null = null;

/** Jobs given the worker, and segments whose sums it sent and a devnet installed, in this process (what a test reads). */
const stats = { jobs: 0, installed: 0 };
export const devnetSumsStats = (): Readonly<typeof stats> => ({ ...stats });

/** Watches a devnet's history: the sums kept are installed, and the process's worker sums the rest once it is long enough. */
export function watchDevnetHistory(history: DevnetHistory, segmentLength: number, chain: WatchedDevnet, kept: KeptHistory | null = null): HistoryWatch {
  shared ??= new DevnetSums();
  return shared.watch(history, segmentLength, chain, kept);
}

class Watch {
  private told = -1;
  private job = false;
  private ended = false;
  private loaded = false;
  private readonly keeper: SumsKeeper | null;

  constructor(
    readonly id: number,
    private readonly history: DevnetHistory,
    private readonly segmentLength: number,
    readonly chain: WatchedDevnet,
    private readonly post: (m: ToDevnetSumsWorker) => void,
    kept: KeptHistory | null,
  ) {
    this.keeper = kept ? new SumsKeeper(kept, chain) : null;
  }

  /** Installs the sums the store kept for this history (none read: the history is summed again), then checks. */
  async load(): Promise<void> {
    // Without a store it checks at once, as the chain is made.
    if (this.keeper) await this.keeper.load();
    this.loaded = true;
    this.check();
  }

  /** Tells the worker the tip, with a job once the history not summed is long enough, and saves what is newly whole (a failed save is tried again at the next check). */
  check(): void {
    if (this.ended || !this.loaded) return;
    void this.keeper?.save();
    const tip = this.chain.tipHeight();
    const closed = Math.floor((tip + 1) / this.segmentLength);
    if (this.job) {
      // Told again once the tip has closed another segment.
      if (closed > Math.floor((this.told + 1) / this.segmentLength)) this.post({ t: 'tip', id: this.id, tip: (this.told = tip) });
      return;
    }
    let missing = 0;
    for (let s = closed - 1; s >= Math.max(0, closed - LOOK_BACK) && missing < HISTORY_MIN_SEGMENTS; s--) if (!this.chain.summed(s)) missing++;
    if (missing < HISTORY_MIN_SEGMENTS) return;
    this.job = true;
    stats.jobs++;
    this.post({ t: 'job', id: this.id, history: this.history, segmentLength: this.segmentLength, tip: (this.told = tip) });
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.job) this.post({ t: 'end', id: this.id });
  }
}

/** The process's devnet sums worker and the devnets it sums for (held weakly: a devnet unloaded is collected). */
class DevnetSums {
  private worker: Worker | null = null;
  private dead = false;
  private nextId = 1;
  private readonly watches = new Map<number, WeakRef<Watch>>();
  private readonly gone = new FinalizationRegistry<number>((id) => this.forget(id));
  private timer: NodeJS.Timeout | null = null;

  watch(history: DevnetHistory, segmentLength: number, chain: WatchedDevnet, kept: KeptHistory | null): HistoryWatch {
    const id = this.nextId++;
    const w = new Watch(id, history, segmentLength, chain, (m) => this.post(m), kept);
    this.watches.set(id, new WeakRef(w));
    this.gone.register(w, id, w);
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), TICK_MS);
      this.timer.unref();
    }
    return {
      loaded: w.load(),
      end: () => {
        this.gone.unregister(w);
        this.watches.delete(id);
        w.end();
      },
    };
  }

  /** Every loaded devnet's tip, told. */
  private tick(): void {
    for (const [id, ref] of this.watches) {
      const w = ref.deref();
      if (w) w.check();
      else this.forget(id);
    }
  }

  /** A devnet collected: its job ends. */
  private forget(id: number): void {
    if (this.watches.delete(id)) this.post({ t: 'end', id });
  }

  private post(m: ToDevnetSumsWorker): void {
    if (this.dead) return;
    // Started with the first job: a process whose devnets never grow long starts none.
    if (!this.worker) {
      if (m.t !== 'job') return;
      this.worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
      this.worker.on('message', (r: FromDevnetSumsWorker) => {
        const w = this.watches.get(r.id)?.deref();
        if (!w) return this.forget(r.id);
        for (const s of r.sums) w.chain.install(s);
        stats.installed += r.sums.length;
      });
      // A worker that fails leaves every devnet summing what its pages read, as with a short history.
      const failed = (): void => {
        this.dead = true;
      };
      this.worker.on('error', failed);
      this.worker.on('exit', failed);
      // Unreferenced after its listeners: a 'message' listener added later would hold the process again.
      this.worker.unref();
    }
    this.worker.postMessage(m);
  }
}
