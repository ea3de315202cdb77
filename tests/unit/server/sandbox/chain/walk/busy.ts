// How long this thread's event loop was held, in this thread's own CPU time: on a machine busy
// with other work a stretch of synchronous work takes several times its CPU time on the wall
// clock, so a wall-clock pause says as much about the machine as about the code. Linux reports each
// thread's time on a CPU in /proc (schedstat, in nanoseconds); elsewhere, or off the main thread,
// the process's CPU time stands in for it (which counts the collector's helper threads too).
import { openSync, readSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

/** This thread's CPU time in milliseconds. */
export const threadCpuMs: () => number = (() => {
  const file = `/proc/self/task/${process.pid}/schedstat`;
  if (isMainThread) {
    try {
      // Read through one descriptor kept open: the busy clock samples it every millisecond, and an
      // open, read and close each time cost the thread some 40 ms of CPU a second, charged to any
      // page that waited (for the sweep worker) meanwhile.
      const fd = openSync(file, 'r');
      const buf = Buffer.alloc(128);
      const fromProc = (): number => {
        const n = readSync(fd, buf, 0, buf.length, 0);
        let end = 0;
        while (end < n && buf[end] !== 0x20) end++;
        return Number(buf.toString('latin1', 0, end)) / 1e6;
      };
      if (Number.isFinite(fromProc()) && fromProc() > 0) return fromProc;
    } catch {
      // not Linux: the process's time below
    }
  }
  return () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
})();

/** The time in milliseconds since the epoch, to the fraction, the same in every thread. */
export const now = (): number => performance.timeOrigin + performance.now();

/** A turn of the event loop that took this much CPU time or more did some work besides sampling. */
const WORK_TURN_MS = 0.2;

/**
 * Samples the thread's CPU time at every turn of its event loop (a 1 ms timer): the CPU time
 * between two samples is what one turn did, so the longest such difference in a span is the
 * longest the event loop was held then, whatever else the machine ran.
 */
export function busyClock(): { stop: () => void; longestTurn: (from: number, to: number) => number; cpuDuring: (from: number, to: number) => number; workDuring: (from: number, to: number) => number } {
  const at: number[] = [now()];
  const cpu: number[] = [threadCpuMs()];
  const timer = setInterval(() => {
    at.push(now());
    cpu.push(threadCpuMs());
  }, 1);
  /** Index of the first sample at or after t. */
  const after = (t: number): number => {
    let [lo, hi] = [0, at.length];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (at[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return {
    stop: () => clearInterval(timer),
    /** The most CPU time one turn of the event loop took among those that ended in [from, to]. */
    longestTurn(from, to) {
      let most = 0;
      for (let i = Math.max(1, after(from)); i < at.length && at[i]! <= to; i++) most = Math.max(most, cpu[i]! - cpu[i - 1]!);
      return most;
    },
    /**
     * The thread's CPU time over [from, to]: that of the turns around it, which may begin before and
     * end after it, so never more than the span itself.
     */
    cpuDuring(from, to) {
      const first = Math.max(0, after(from) - 1);
      const last = Math.min(at.length - 1, after(to));
      return Math.min(to - from, cpu[last]! - cpu[first]!);
    },
    /**
     * The thread's CPU time over [from, to] in turns that did some work (WORK_TURN_MS or more): what
     * cpuDuring counts less the clock's own idle turns, some 30–50 µs each, a thousand a second,
     * which a page that waits for another thread (the sweep worker) would be charged otherwise.
     */
    workDuring(from, to) {
      let sum = 0;
      for (let i = Math.max(1, after(from)); i < at.length && at[i - 1]! <= to; i++) {
        const turn = cpu[i]! - cpu[i - 1]!;
        if (turn >= WORK_TURN_MS) sum += turn;
      }
      return Math.min(to - from, sum);
    },
  };
}
