import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SerialTicker } from '../../../server/ticker';

// On vitest's fake clock: the ticker's interval and the work's own waits move only when the test
// advances the clock, so the counts below do not depend on how busy the machine is. setImmediate stays
// real: 'more is waiting' runs come at once, without the clock moving.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('SerialTicker', () => {
  it('never runs twice at once: ticks that come during a run are skipped', async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    const ticker = new SerialTicker(
      async () => {
        active += 1;
        most = Math.max(most, active);
        runs += 1;
        await sleep(30);
        active -= 1;
      },
      5,
      () => undefined,
    );
    ticker.start();
    expect(runs).toBe(1);
    // Runs take 30 ms and ticks come every 5 ms: the five ticks of the first run find it going.
    await vi.advanceTimersByTimeAsync(29);
    expect(runs).toBe(1);
    // In 100 ms at most four runs of 30 ms fit one after another, each started by a tick.
    await vi.advanceTimersByTimeAsync(71);
    await ticker.stop();
    expect(most).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(runs).toBeLessThanOrEqual(4);
  });

  it('runs again at once while the work says more is waiting, then waits for the interval', async () => {
    let left = 5;
    let runs = 0;
    let drained!: () => void;
    const empty = new Promise<void>((resolve) => (drained = resolve));
    const ticker = new SerialTicker(
      () => {
        runs += 1;
        if (--left === 0) drained();
        return Promise.resolve(left > 0);
      },
      60_000,
      () => undefined,
    );
    ticker.start();
    // The clock stands still: the four runs after the first come at once, not from the interval.
    await empty;
    expect(runs).toBe(5);
    // Then nothing until the interval's next tick.
    await vi.advanceTimersByTimeAsync(59_999);
    expect(runs).toBe(5);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(6);
    await ticker.stop();
  });

  it('wake runs at once when idle, and once more right after a run under way however often it came', async () => {
    let runs = 0;
    let release!: () => void;
    let gate: Promise<void> = Promise.resolve();
    const ticker = new SerialTicker(
      async () => {
        runs += 1;
        await gate;
      },
      60_000,
      () => undefined,
    );
    ticker.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(1);
    // Idle: a wake runs now, not at the interval's next tick.
    gate = new Promise((resolve) => (release = resolve));
    ticker.wake();
    expect(runs).toBe(2);
    // During that run, three wakes ask for one run more, which starts once the run ends.
    ticker.wake();
    ticker.wake();
    ticker.wake();
    expect(runs).toBe(2);
    gate = Promise.resolve();
    release();
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toBe(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toBe(3);
    // Stopped: a wake does nothing.
    await ticker.stop();
    ticker.wake();
    expect(runs).toBe(3);
  });

  it('reports a failed run and carries on', async () => {
    const errors: string[] = [];
    let runs = 0;
    const ticker = new SerialTicker(
      () => {
        runs += 1;
        return runs === 1 ? Promise.reject(new Error('boom')) : Promise.resolve();
      },
      5,
      (err) => errors.push(err.message),
    );
    ticker.start();
    await vi.advanceTimersByTimeAsync(40);
    await ticker.stop();
    expect(errors).toEqual(['boom']);
    // The failed run at 0 ms, then one every tick: 5, 10 … 40 ms.
    expect(runs).toBe(9);
  });

  it('stop waits for the run in progress and nothing runs after it', async () => {
    let finished = false;
    let runs = 0;
    const ticker = new SerialTicker(
      async () => {
        runs += 1;
        await sleep(30);
        finished = true;
        return true; // would ask for another run at once
      },
      5,
      () => undefined,
    );
    ticker.start();
    const stopped = ticker.stop();
    await vi.advanceTimersByTimeAsync(30);
    await stopped;
    expect(finished).toBe(true);
    // Long after: no tick and no 'more is waiting' run came.
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('with a phase, runs now, then after the phase, then every interval from there; stopped during the phase, runs no more', async () => {
    const at: number[] = [];
    const t0 = Date.now();
    const ticker = new SerialTicker(
      async () => {
        at.push(Date.now() - t0);
      },
      100,
      () => undefined,
    );
    ticker.start({ phaseMs: 30 });
    await vi.advanceTimersByTimeAsync(340);
    await ticker.stop();
    expect(at).toEqual([0, 30, 130, 230, 330]);

    const early: number[] = [];
    const again = new SerialTicker(
      async () => {
        early.push(Date.now());
      },
      100,
      () => undefined,
    );
    again.start({ phaseMs: 60 });
    await vi.advanceTimersByTimeAsync(20);
    await again.stop();
    await vi.advanceTimersByTimeAsync(500);
    expect(early).toHaveLength(1);
  });
});
