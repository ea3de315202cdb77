import { describe, expect, it } from 'vitest';
import { createSandboxChain } from '../../../../../server/sandbox/chain/index';
import { sandboxSource, type ChainSource } from '../../../../../server/features/webhooks/chain-source';
import { SAMPLE_TTL_MS, SampleCache } from '../../../../../server/features/webhooks/sample';

// A sample walks up to 30 blocks with several reads each, so it is shared and cached, never walked per request.
const counted = (source: ChainSource) => {
  const calls = { n: 0 };
  const wrap = <A extends unknown[], R>(f: (...a: A) => Promise<R>) => (...a: A) => {
    calls.n++;
    return f(...a);
  };
  const out: ChainSource = {
    tipHeight: wrap(source.tipHeight),
    blockAt: wrap(source.blockAt),
    blockTxDetails: wrap(source.blockTxDetails),
    epoch: wrap(source.epoch),
    epochStart: wrap(source.epochStart),
  };
  return { source: out, calls };
};

describe('SampleCache', () => {
  const start = Date.UTC(2026, 10, 1);
  const chain = createSandboxChain({ network: 'mainnet', now: () => start + 3_600_000 });

  it('walks the chain once per network and trigger while fresh, concurrent callers included', async () => {
    let now = start;
    const cache = new SampleCache(() => now);
    const { source, calls } = counted(sandboxSource(chain));
    const first = await Promise.all(Array.from({ length: 20 }, () => cache.get(0, 'transaction', source)));
    const walk = calls.n;
    expect(walk).toBeGreaterThan(0);
    expect(new Set(first).size).toBe(1);
    await cache.get(0, 'transaction', source);
    expect(calls.n).toBe(walk);
    // Another trigger, or another network, is its own entry.
    await cache.get(0, 'block', source);
    expect(calls.n).toBeGreaterThan(walk);
    const afterBlock = calls.n;
    now += SAMPLE_TTL_MS + 1;
    await cache.get(0, 'block', source);
    expect(calls.n).toBeGreaterThan(afterBlock);
  });
});
