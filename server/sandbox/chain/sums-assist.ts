// A page of epochs read before its segments were summed, summed by two threads: the server's
// thread from the page's oldest segment up, the chain's sweep worker (sweep-worker.ts) from its
// newest down, until they meet, so the page waits about half as long. Who sums which segment is
// decided through memory both threads share: each segment of the page has a slot that either thread
// claims by an atomic compare-and-exchange, so none is summed twice. The worker sends the sums it
// makes as its other sums (a `sums` message, installed by sweep.ts); a segment's sums name their
// segment, so one that arrives late (its page answered meanwhile) is installed like any other.
import { Awaiting, inSlice, spent } from './budget';

/** Segments a request holds at most: a page of a hundred epochs of the shared chains' thirty blocks is fifty. */
export const ASSIST_SLOTS = 64;
/** Below this many segments to sum, a page sums them alone: asking the worker would cost more than it saves. */
export const ASSIST_MIN = 8;

// The shared words: the request's generation, its first segment, then a state word a slot, each the
// generation times four plus what the slot is: free, claimed by the server, claimed by the worker,
// or summed and sent by the worker. A claim expects its own generation's free slot, so a claim made
// from a request already replaced fails.
const GENERATION = 0;
const FIRST = 1;
const SLOT = 2;
const FREE = 0;
const SERVER = 1;
const WORKER = 2;
const SENT = 3;
const tag = (generation: number, state: number): number => generation * 4 + state;
/** Generations wrap before a tag leaves an int32. */
const GENERATIONS = 1 << 28;

/** How long a page waits for the worker's sums without any arriving before it sums the worker's claimed segments itself. */
const STALL_MS = 10;

/** The memory the two threads share for a chain. */
export function assistBuffer(): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer((SLOT + ASSIST_SLOTS) * 4);
  // Generation 0 asks for nothing: every slot is the server's.
  new Int32Array(buffer).fill(tag(0, SERVER), SLOT);
  return buffer;
}

/** Sums here each segment first…last that `summed` says is not, each a unit of sliced work (budget.ts). */
export function sumEach(first: number, last: number, summed: (s: number) => boolean, here: (s: number) => void): void {
  for (let s = first; s <= last; s++) {
    if (summed(s)) continue;
    here(s);
    spent();
  }
}

/** The server thread's side. */
export class PageAssist {
  private readonly words: Int32Array;
  private generation = 0;
  private request: { first: number; count: number; progressAt: number } | null = null;

  constructor(
    buffer: SharedArrayBuffer,
    private readonly worker: {
      /** Tells the worker a request is published. */
      wake: () => void;
      /** Whether the worker still answers. */
      alive: () => boolean;
      /** Settles when the worker's next sums have been installed, or after `ms`. */
      arrival: (ms: number) => Promise<void>;
    },
  ) {
    this.words = new Int32Array(buffer);
  }

  /**
   * Sums the segments first…last (at most ASSIST_SLOTS) that `summed` says are not, `here` summing
   * those this thread claims. Sliced work (budget.ts): each segment summed here is a unit, and while
   * the worker's are on their way the answer waits for them (Awaiting) with the event loop free;
   * asked again for the same segments it goes on where it was. Outside a slice nothing can wait for
   * the worker's messages: everything is summed here.
   */
  sum(first: number, last: number, summed: (s: number) => boolean, here: (s: number) => void): void {
    const count = last - first + 1;
    if (count > ASSIST_SLOTS) throw new Error(`an assisted request holds ${ASSIST_SLOTS} segments at most, not ${count}`);
    if (!inSlice() || !this.worker.alive()) {
      this.request = null;
      sumEach(first, last, summed, here);
      return;
    }
    if (this.request?.first !== first || this.request.count !== count) this.publish(first, count, summed);
    const g = this.generation;
    const words = this.words;
    for (let k = 0; k < count; k++) {
      if (Atomics.compareExchange(words, SLOT + k, tag(g, FREE), tag(g, SERVER)) !== tag(g, FREE)) continue;
      here(first + k);
      spent();
    }
    // The worker's: installed as they arrive (sweep.ts), taken over if none has come for a while.
    const stalled = performance.now() - this.request!.progressAt > STALL_MS;
    let waiting = 0;
    for (let k = 0; k < count; k++) {
      if (summed(first + k)) continue;
      // Claimed by the worker and not sent yet, while it sends nothing: summed here (a late one is installed once).
      if (stalled && Atomics.compareExchange(words, SLOT + k, tag(g, WORKER), tag(g, SERVER)) === tag(g, WORKER)) {
        here(first + k);
        spent();
      } else waiting++;
    }
    if (waiting === 0) {
      this.request = null;
      return;
    }
    throw new Awaiting(this.worker.arrival(STALL_MS));
  }

  /** The worker's sums installed (sweep.ts): a page waiting for them waits on. */
  progressed(): void {
    if (this.request) this.request.progressAt = performance.now();
  }

  /** Publishes a request for first…first + count − 1, the segments summed already claimed by the server. */
  private publish(first: number, count: number, summed: (s: number) => boolean): void {
    const g = (this.generation = (this.generation % (GENERATIONS - 1)) + 1);
    const words = this.words;
    Atomics.store(words, FIRST, first);
    for (let k = 0; k < ASSIST_SLOTS; k++) Atomics.store(words, SLOT + k, tag(g, k < count && !summed(first + k) ? FREE : SERVER));
    // Published last: a worker that reads this generation reads its first segment and slots.
    Atomics.store(words, GENERATION, g);
    this.request = { first, count, progressAt: performance.now() };
    this.worker.wake();
  }
}

/**
 * The worker's side: claims the published request's free segments from the newest down, summing
 * and sending each (`sum`), until none is free. Whether it summed any.
 */
export function serveAssist(buffer: SharedArrayBuffer, sum: (segment: number) => void): boolean {
  const words = new Int32Array(buffer);
  let served = false;
  for (;;) {
    const g = Atomics.load(words, GENERATION);
    const first = Atomics.load(words, FIRST);
    // A request published between the two reads: read again.
    if (Atomics.load(words, GENERATION) !== g) continue;
    let claimed = -1;
    for (let k = ASSIST_SLOTS - 1; k >= 0; k--) {
      if (Atomics.compareExchange(words, SLOT + k, tag(g, FREE), tag(g, WORKER)) === tag(g, FREE)) {
        claimed = k;
        break;
      }
    }
    if (claimed < 0) return served;
    sum(first + claimed);
    served = true;
    Atomics.compareExchange(words, SLOT + claimed, tag(g, WORKER), tag(g, SENT));
  }
}
