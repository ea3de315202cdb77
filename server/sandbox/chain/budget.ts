// Time slices for the few answers whose own work is long (a page of a hundred epochs simulates
// their blocks; a deep page of governance votes first counts the votes of every epoch before it).
// The unit of a segment's simulation is one transaction (chain.ts keeps a segment half simulated).
// Such work keeps its progress in its caches and calls spent() after each unit: inside sliced(),
// once the slice is over, spent() throws Unfinished; sliced() lets the event loop serve other
// requests, then asks again, and the answer resumes from its caches. Outside sliced() it never throws.
export class Unfinished extends Error {}

/**
 * Thrown by work that waits for another thread's answer (the sweep worker's: sweep.ts): inside
 * sliced(), the answer is asked again once `until` settles, not at the next turn; the event loop
 * serves everything else meanwhile and the work costs this thread nothing while it waits.
 */
export class Awaiting extends Unfinished {
  constructor(readonly until: Promise<unknown>) {
    super('waiting for another thread');
  }
}

/** Whether the work runs inside sliced(), where it may wait for another thread by throwing Awaiting. */
export function inSlice(): boolean {
  return deadline !== Infinity;
}

const SLICE_MS = 10;
let deadline = Infinity;

/** Call after a unit of work, with its progress kept: inside sliced(), throws Unfinished once the slice is over. */
export function spent(): void {
  if (performance.now() > deadline) throw new Unfinished('the time slice is over');
}

/** Whether the slice is over (never outside sliced()): work whose progress is kept may stop here and call spent(). */
export function overdue(): boolean {
  return performance.now() > deadline;
}

// Answers waiting for their next slice, first come first served, one per turn of the event loop:
// with each waiting on an immediate of its own, twenty unfinished answers (twenty devnets' pages, a
// chain preparing ahead) ran twenty slices back to back in one turn, and every database answer and
// request that arrived meanwhile waited 200 ms for the loop to come back to it.
const waiting: Array<() => void> = [];
let turnScheduled = false;

function runNextSlice(): void {
  turnScheduled = false;
  const next = waiting.shift();
  // Scheduled from within this turn's immediates, the next one runs in the loop's next turn.
  if (waiting.length > 0) {
    turnScheduled = true;
    setImmediate(runNextSlice);
  }
  next?.();
}

/** Resolves at a later turn of the event loop, in turn with the other answers waiting for a slice. */
function nextSliceTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!turnScheduled) {
      turnScheduled = true;
      setImmediate(runNextSlice);
    }
  });
}

/**
 * How many pieces of work run in slices now (answers, and a chain's prepare()), in memory other
 * threads read: a shared chain's sweep worker (sweep-worker.ts) leaves its own work while there are
 * some, so that on a machine of few cores the page being made (and the worker's part of it) has the cores.
 */
export const slicedWork = new Int32Array(new SharedArrayBuffer(4));

/** The answer, computed in slices of about 10 ms with the event loop free in between (one slice a turn, whatever the number of answers). */
export async function sliced<T>(answer: () => T): Promise<T> {
  Atomics.add(slicedWork, 0, 1);
  try {
    return await slices(answer);
  } finally {
    Atomics.sub(slicedWork, 0, 1);
  }
}

async function slices<T>(answer: () => T): Promise<T> {
  for (;;) {
    deadline = performance.now() + SLICE_MS;
    try {
      return answer();
    } catch (err) {
      if (!(err instanceof Unfinished)) throw err;
      if (err instanceof Awaiting) {
        deadline = Infinity;
        await err.until.catch(() => undefined);
      }
    } finally {
      deadline = Infinity;
    }
    await nextSliceTurn();
  }
}
