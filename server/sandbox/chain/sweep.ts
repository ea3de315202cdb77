// A shared sandbox chain's side of its sweep worker (sweep-worker.ts): starts it with the chain's
// options, tells it the tip, installs the totals it sends (totals.ts), and asks it for the places of
// a transaction hash the chain has not simulated. The worker is unreferenced: it never keeps the
// process alive. Devnets have none (many a process, each read by one project); their lists sum what
// they read.
import { Worker } from 'node:worker_threads';
import type { FromSweepWorker, SegmentSumsMessage, SegmentTotalsMessage, SweepWorkerData, ToSweepWorker } from './sweep-protocol';
import { assistBuffer, PageAssist } from './sums-assist';
import { slicedWork } from './budget';

const SWEEP_WORKER = new URL(import.meta.url.endsWith('.ts') ? './sweep-worker.mjs' : './sandbox-sweep-worker.js', import.meta.url);

/**
 * The chains whose workers have not swept their history yet, in the order they were made (a chain
 * whose cold page is read goes first: prefer). One works on its own at a time, so a process's three
 * shared chains take one core at their first start rather than every core: first each chain's
 * epochs' sums in turn (a minute or so of a core each: what pages of epochs read), then each one's
 * sweep (several minutes each); the others wait, answering finds in what they swept and helping
 * pages. A worker done with its turn (or gone) hands on to the next; one whose sums are done keeps
 * summing the segments its tip closes, one whose sweep is done keeps sweeping them, one every 20
 * minutes. A worker that only sums (sumsOnly) leaves the queue once its history is summed: it never
 * sweeps.
 */
const queue: SweepClient[] = [];
let active: SweepClient | null = null;
function handOn(): void {
  active = queue.find((c) => !c.summedAll) ?? queue[0] ?? null;
  active?.background(active.summedAll ? 'all' : 'sums');
}
/**
 * A chain whose cold page of epochs a client reads takes the turn: its epochs are summed next, ahead
 * of chains nobody reads yet, so the network in use has all its pages read from sums within a minute
 * or so of its first cold page, however many chains were made before it. The worker whose turn it was
 * stops its own pass, and takes it up again when the turn comes back to it (handOn).
 */
function prefer(client: SweepClient): void {
  if (client.summedAll || active === client) return;
  const i = queue.indexOf(client);
  if (i < 0) return;
  queue.splice(i, 1);
  queue.unshift(client);
  const previous = active;
  handOn();
  if (previous && previous !== active) previous.background('off');
}

/** A chain's worker swept its history (or is gone): out of the queue, its turn handed on. */
function leave(client: SweepClient): void {
  const i = queue.indexOf(client);
  if (i >= 0) queue.splice(i, 1);
  if (active === client) handOn();
}

/** How long a gateway's first prepare() waits at most for the workers to be ready (started, their summing compiled). */
export const READY_WAIT_MS = 5_000;

/** The worker's old generation at most: some 60 MB of its resident memory is the rebuilt chain's code and data. */
const SWEEP_HEAP_MB = 256;

/** Finds answered, kept: a hash looked up again (its /txs, then /utxos, /cbor, …) asks the worker once. */
const FINDS_KEPT = 256;

export class SweepClient {
  private readonly worker: Worker;
  private told = -1;
  private sweptTip = -1;
  private nextId = 1;
  private readonly finds = new Map<number, (answer: { places: number[]; complete: boolean }) => void>();
  private readonly found = new Map<string, { places: number[]; complete: boolean; tip: number } | Promise<unknown>>();
  private sweptWaiters: Array<{ tip: number; resolve: () => void }> = [];
  private closed: Promise<void> | null = null;
  private arrivals: Array<() => void> = [];
  private readyWaiters: Array<() => void> | null = [];
  /** Whether the worker has sent every closed segment's sums (its turn of sums is over). */
  summedAll = false;
  /** A cold page of epochs' segments summed half here, half by the worker. */
  readonly assist: PageAssist;

  constructor(
    data: Omit<SweepWorkerData, 'assist' | 'slicedWork'>,
    private readonly install: {
      /** A segment's blocks' totals. */
      segment: (segment: SegmentTotalsMessage) => void;
      /** A segment's epochs' sums. */
      sums: (sums: SegmentSumsMessage) => void;
      /** A segment's distribution's hash. */
      distribution?: (segment: number, hash: string) => void;
      /** A folder of a chain simulated differently removed, unused (sweep-folders.ts). */
      removed?: (folder: string, bytes: number) => void;
    },
    /** Whether the worker only sums the epochs (and helps cold pages): no sweep, no hash looked up in it. */
    readonly sumsOnly = false,
  ) {
    // Its heap is bounded: what it keeps is small (every 512th key of each chunk, the chunks not yet
    // whole), and a worker that ran out would leave the chain computing as without one.
    const shared = assistBuffer();
    this.assist = new PageAssist(shared, {
      wake: () => {
        this.post({ t: 'assist' });
        prefer(this);
      },
      alive: () => !this.dead,
      arrival: (ms) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          this.arrivals.push(() => {
            clearTimeout(timer);
            resolve();
          });
        }),
    });
    this.worker = new Worker(SWEEP_WORKER, { workerData: { ...data, assist: shared, slicedWork: slicedWork.buffer as SharedArrayBuffer } satisfies SweepWorkerData, resourceLimits: { maxOldGenerationSizeMb: SWEEP_HEAP_MB } });
    this.worker.on('message', (m: FromSweepWorker) => this.receive(m));
    // A worker that fails leaves the chain as it was without one: every answer is computed here.
    this.worker.on('error', () => this.failed());
    this.worker.on('exit', () => this.failed());
    // Unreferenced after its listeners: a 'message' listener added later would hold the process again.
    this.worker.unref();
    queue.push(this);
    if (!active) handOn();
  }

  /** Tells the worker the segments whose sums this thread holds already (SegmentBits.copy()): it sums them no more. */
  held(segments: Uint8Array): void {
    this.post({ t: 'held', segments });
  }

  /** Lets the worker sum (and sweep, `all`) on its own, or only answer pages and finds (`off`: another chain has the turn). */
  background(work: 'off' | 'sums' | 'all'): void {
    this.post({ t: 'background', work });
  }

  /** Resolves once the worker is ready to help a page at full speed (at once when it is gone). */
  ready(): Promise<void> {
    const waiters = this.readyWaiters;
    return waiters ? new Promise((resolve) => waiters.push(resolve)) : Promise.resolve();
  }

  private isReady(): void {
    const waiters = this.readyWaiters ?? [];
    this.readyWaiters = null;
    for (const resolve of waiters) resolve();
  }

  /** Wakes whatever waits for the worker's next sums. */
  private arrived(): void {
    const waiting = this.arrivals;
    this.arrivals = [];
    for (const resolve of waiting) resolve();
  }

  private dead = false;
  private failed(): void {
    this.dead = true;
    this.arrived();
    this.isReady();
    leave(this);
    for (const r of this.finds.values()) r({ places: [], complete: false });
    this.finds.clear();
    for (const w of this.sweptWaiters) w.resolve();
    this.sweptWaiters = [];
  }

  private post(m: ToSweepWorker): void {
    if (!this.dead) this.worker.postMessage(m);
  }

  private receive(m: FromSweepWorker): void {
    switch (m.t) {
      case 'segments':
        for (const s of m.segments) this.install.segment(s);
        return;
      case 'sums':
        for (const s of m.sums) this.install.sums(s);
        this.assist.progressed();
        this.arrived();
        return;
      case 'distributions':
        m.segments.forEach((segment, i) => this.install.distribution?.(segment, m.hashes[i]!));
        return;
      case 'summed':
        if (this.sumsOnly) {
          // Its history summed is all it does: it keeps summing what its tip closes, out of the queue.
          this.summedAll = true;
          leave(this);
          this.doneThrough(m.tip);
          return;
        }
        // Its history summed: it keeps summing what its tip closes, and the next chain's sums (or the first sweep) begin.
        if (!this.summedAll) {
          this.summedAll = true;
          if (active === this) handOn();
        }
        return;
      case 'ready':
        this.isReady();
        return;
      case 'removed':
        this.install.removed?.(m.folder, m.bytes);
        return;
      case 'found':
        this.finds.get(m.id)?.({ places: m.places, complete: m.complete });
        this.finds.delete(m.id);
        return;
      case 'swept':
        // Its history swept: it keeps up with its tip on its own, and the next chain's worker begins.
        leave(this);
        this.doneThrough(m.tip);
        return;
    }
  }

  /** The worker's work is done through `tip` (swept, or summed for one that only sums): whatever waited for it goes on. */
  private doneThrough(tip: number): void {
    this.sweptTip = Math.max(this.sweptTip, tip);
    this.sweptWaiters = this.sweptWaiters.filter((w) => (w.tip <= this.sweptTip ? (w.resolve(), false) : true));
  }

  /** The chain's tip: the worker sweeps the segments it closes. */
  tip(tip: number): void {
    if (tip > this.told) this.post({ t: 'tip', tip: (this.told = tip) });
  }

  /** Whether the worker can still answer (it has not failed or been closed). */
  get alive(): boolean {
    return !this.dead;
  }

  /** Resolves once every segment closed by `tip` is swept, or summed by a worker that only sums (at once when the worker is gone). */
  swept(tip: number): Promise<void> {
    this.tip(tip);
    if (this.dead || tip <= this.sweptTip) return Promise.resolve();
    return new Promise((resolve) => this.sweptWaiters.push({ tip, resolve }));
  }

  /**
   * The worker's answer for a hash: the places of the transactions whose hash begins as it does,
   * once known (null: asked now, `until` settles when it is known).
   */
  lookup(hash: string, tip: number): { answer: { places: number[]; complete: boolean } | null; until: Promise<unknown> | null } {
    const hit = this.found.get(hash);
    if (hit && !(hit instanceof Promise)) {
      // A miss is asked again once the tip has moved: the segments it closed since may hold the hash.
      if (hit.places.length > 0 || hit.tip === tip || this.dead) return { answer: hit, until: null };
    } else if (hit) return { answer: null, until: hit };
    if (this.dead) return { answer: { places: [], complete: false }, until: null };
    this.tip(tip);
    const id = this.nextId++;
    const until = new Promise<void>((resolve) => {
      this.finds.set(id, (a) => {
        this.found.set(hash, { ...a, tip });
        if (this.found.size > FINDS_KEPT) this.found.delete(this.found.keys().next().value!);
        resolve();
      });
    });
    this.found.set(hash, until);
    this.post({ t: 'find', id, key: parseInt(hash.slice(0, 8), 16) });
    return { answer: null, until };
  }

  /** Stops the worker. */
  close(): Promise<void> {
    this.closed ??= this.dead ? Promise.resolve() : this.worker.terminate().then(() => undefined);
    return this.closed;
  }
}
