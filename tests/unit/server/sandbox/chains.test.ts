import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSandboxSync } from '../../../../server/sandbox/chains';
import type { SandboxChain } from '../../../../server/sandbox/chain/index';

/** A chain whose reads of the store answer only when the test lets them. */
function slowChain() {
  let calls = 0;
  const waiting: Array<() => void> = [];
  const chain = {
    ready: () => Promise.resolve(),
    prepare: () => Promise.resolve(),
    sync: () => {
      calls++;
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
  } as unknown as SandboxChain;
  return { chain, calls: () => calls, answer: () => waiting.splice(0).forEach((r) => r()) };
}

// The reads' timer is faked: intervals pass when the test moves the clock.
const elapse = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('sandbox sync', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts a read of a chain only once its previous read has answered', async () => {
    const a = slowChain();
    const b = slowChain();
    const stop = await startSandboxSync({ mainnet: a.chain, preprod: b.chain }, () => undefined, 5);
    try {
      await elapse(80);
      // Many intervals passed while the first reads were unanswered: one read each, not one per interval.
      expect(a.calls()).toBe(1);
      expect(b.calls()).toBe(1);
      a.answer();
      await elapse(80);
      expect(a.calls()).toBe(2);
      expect(b.calls()).toBe(1);
    } finally {
      stop();
    }
  });

  it('goes on reading after a read fails', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const chain = { ready: () => Promise.resolve(), prepare: () => Promise.resolve(), sync: () => (calls++, Promise.reject(new Error('database busy'))) } as unknown as SandboxChain;
    const stop = await startSandboxSync({ mainnet: chain }, (err) => errors.push(err), 5);
    try {
      await elapse(80);
      expect(calls).toBeGreaterThan(1);
      expect(errors.length).toBe(calls);
    } finally {
      stop();
    }
  });

  it('prepares a chain once before it serves, then after each read, and reads it again only once it is prepared', async () => {
    const steps: string[] = [];
    const preparing: Array<() => void> = [];
    const chain = {
      ready: () => Promise.resolve(),
      sync: () => (steps.push('sync'), Promise.resolve()),
      prepare: (opts?: { start?: boolean }) => (steps.push(opts?.start ? 'prepare to serve' : 'prepare'), new Promise<void>((resolve) => preparing.push(resolve))),
    } as unknown as SandboxChain;
    const starting = startSandboxSync({ mainnet: chain }, () => undefined, 5);
    await elapse(20);
    // The first preparation (the newest page of epochs summed too) holds the start: no read before it has answered.
    expect(steps).toEqual(['prepare to serve']);
    preparing.splice(0).forEach((r) => r());
    const stop = await starting;
    try {
      await elapse(80);
      expect(steps).toEqual(['prepare to serve', 'sync', 'prepare']);
      preparing.splice(0).forEach((r) => r());
      await elapse(8);
      expect(steps).toEqual(['prepare to serve', 'sync', 'prepare', 'sync', 'prepare']);
    } finally {
      stop();
    }
  });
});
