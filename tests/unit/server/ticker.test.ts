import { describe, expect, it } from 'vitest';
import { SerialTicker } from '../../../server/ticker';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
    await sleep(100);
    await ticker.stop();
    expect(most).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(runs).toBeLessThanOrEqual(5);
  });

  it('runs again at once while the work says more is waiting, then waits for the interval', async () => {
    let left = 5;
    let runs = 0;
    const ticker = new SerialTicker(
      () => {
        runs += 1;
        return Promise.resolve(--left > 0);
      },
      60_000,
      () => undefined,
    );
    ticker.start();
    await sleep(50);
    expect(runs).toBe(5);
    await ticker.stop();
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
    await sleep(40);
    await ticker.stop();
    expect(errors).toEqual(['boom']);
    expect(runs).toBeGreaterThan(1);
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
    await ticker.stop();
    expect(finished).toBe(true);
    await sleep(30);
    expect(runs).toBe(1);
  });
});
