// A devnet's history summed in the background (server/sandbox/chain/devnet-sums.ts): a devnet whose
// closed segments not summed are many has the process's devnet sums worker rebuild its chain (forks
// included) and sum them, the newest first, so its pages of epochs read sums, exact ones, in little
// of the server thread's CPU; a devnet with a short history starts no worker job.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandboxChain, memoryLedgerStore, newDevnetState, type SandboxChain } from '../../../../../server/sandbox/chain/index';
import { segmentSumsOf } from '../../../../../server/sandbox/chain/chain';
import { sliced } from '../../../../../server/sandbox/chain/budget';
import { devnetSumsStats, HISTORY_MIN_SEGMENTS } from '../../../../../server/sandbox/chain/devnet-sums';
import { DAY_MS } from '../../../../../shared/time';
import { threadCpuMs } from './walk/busy';

const chains: SandboxChain[] = [];
afterAll(() => Promise.all(chains.map((c) => c.close())));

/** A devnet of the default genesis `age` old (a block a second), as its runtime builds it, with `forks`. */
function devnet(age: number, forks: Array<{ height: number; n: number }> = [], historySums = true): SandboxChain {
  const start = Date.UTC(2026, 10, 1);
  const state = newDevnetState({ now: start, seed: 'devnet-history' });
  const g = state.genesis;
  const chain = createSandboxChain({
    network: 'preview',
    seed: state.seed,
    genesisTime: state.genesisTime,
    blockIntervalMs: g.blockIntervalMs,
    now: () => start + age,
    store: memoryLedgerStore(),
    historySums,
    devnet: { id: `history-${chains.length}`, networkMagic: 42, slotLengthMs: g.slotLengthMs, epochLength: g.epochLength, securityParam: g.securityParam, forks },
  });
  chains.push(chain);
  return chain;
}

/** Each epoch's background tx count, output and fees from its segments' decisions (no live transaction after block 0). */
function expectedEpochs(chain: SandboxChain, from: number, to: number) {
  const { segmentLength: L, blocksPerEpoch: E } = chain.params;
  return Array.from({ length: to - from + 1 }, (_, i) => {
    const epoch = from + i;
    let txCount = 0;
    let output = 0n;
    let fees = 0n;
    for (let s = (epoch * E) / L; s < ((epoch + 1) * E) / L; s++) {
      const sums = segmentSumsOf(chain, s);
      for (let b = 0; b < L; b++) {
        txCount += sums.counts[b]!;
        output += BigInt(sums.outputs[b]!);
        fees += BigInt(sums.fees[b]!);
      }
    }
    return { epoch, tx_count: txCount, output: String(output), fees: String(fees) };
  });
}

const until = async (done: () => boolean, ms: number): Promise<void> => {
  for (const t0 = Date.now(); !done() && Date.now() - t0 < ms; ) await new Promise((r) => setTimeout(r, 50));
};

describe('a devnet\'s history summed by the devnet sums worker', () => {
  it('gives a long-lived devnet\'s pages of epochs their sums, exact, in little of the server thread\'s CPU', async () => {
    const before = devnetSumsStats().installed;
    // Eight hours at a block a second: 480 segments, 48 epochs of 600 blocks.
    const chain = devnet(DAY_MS / 3);
    const closed = Math.floor((chain.tipHeight() + 1) / chain.params.segmentLength);
    expect(chain.params.blocksPerEpoch).toBe(600);
    // The worker runs at the lowest priority: beside a busy suite it may wait long for a core.
    await until(() => devnetSumsStats().installed - before >= closed, 100_000);
    expect(devnetSumsStats().installed - before).toBeGreaterThanOrEqual(closed);
    // Some 0.2–0.4 s of CPU when a page sums its 470 segments itself.
    const t0 = threadCpuMs();
    const page = await sliced(() => chain.epochNext(0, { count: 100, page: 1, order: 'asc' }));
    const cpu = threadCpuMs() - t0;
    const lastClosed = chain.epochOfHeight(chain.tipHeight()) - 1;
    expect(page!.slice(0, lastClosed).map((e) => ({ epoch: e.epoch, tx_count: e.tx_count, output: e.output, fees: e.fees }))).toEqual(expectedEpochs(chain, 1, lastClosed));
    expect(cpu, `${cpu.toFixed(1)} ms of CPU`).toBeLessThan(100);
  }, 150_000);

  it('sums a forked devnet\'s branch with the branch\'s key', async () => {
    const before = devnetSumsStats().installed;
    // Rolled back at block 30,000 and grown on: the blocks above it are branch 1's.
    const chain = devnet(DAY_MS / 2, [{ height: 30_000, n: 1 }]);
    const closed = Math.floor((chain.tipHeight() + 1) / chain.params.segmentLength);
    await until(() => devnetSumsStats().installed - before >= closed, 100_000);
    const page = await sliced(() => chain.epochNext(40, { count: 20, page: 1, order: 'asc' }));
    expect(page!.map((e) => ({ epoch: e.epoch, tx_count: e.tx_count, output: e.output, fees: e.fees }))).toEqual(expectedEpochs(chain, 41, 60));
    // Not the unforked chain's.
    expect(expectedEpochs(devnet(DAY_MS / 2, [], false), 51, 51)).not.toEqual(expectedEpochs(chain, 51, 51));
  }, 150_000);

  it('starts a job for a devnet once its history is long, none while it is short', () => {
    // The check runs as the chain is made, and again every 10 s while it is loaded.
    const before = devnetSumsStats().jobs;
    const short = devnet((HISTORY_MIN_SEGMENTS - 2) * 60_000);
    expect(Math.floor((short.tipHeight() + 1) / short.params.segmentLength)).toBeLessThan(HISTORY_MIN_SEGMENTS);
    expect(devnetSumsStats().jobs).toBe(before);
    devnet((HISTORY_MIN_SEGMENTS + 1) * 60_000);
    expect(devnetSumsStats().jobs).toBe(before + 1);
  });
});
