// A devnet's history summed in the background (server/sandbox/chain/devnet-sums.ts): a devnet whose
// closed segments not summed are many has the process's devnet sums worker rebuild its chain (forks
// included) and sum them, the newest first, so its pages of epochs read sums, exact ones, in little
// of the server thread's CPU; a devnet with a short history starts no worker job. A devnet keeps its
// whole epochs' sums in its store, and loaded again it reads them before it answers, unless its
// history has changed since (a rollback's fork).
import { afterAll, describe, expect, it } from 'vitest';
import type { HistorySumsStore, SandboxChain } from '../../../../../server/sandbox/chain/index';
import { agedDevnet } from '../../../../fixtures/chain/aged-devnet';
import { segmentSumsOf } from '../../../../../server/sandbox/chain/chain';
import { sliced } from '../../../../../server/sandbox/chain/budget';
import { devnetSumsStats, HISTORY_MIN_SEGMENTS } from '../../../../../server/sandbox/chain/devnet-sums';
import { DAY_MS } from '../../../../../shared/time';
import { threadCpuMs } from './walk/busy';

const chains: SandboxChain[] = [];
afterAll(() => Promise.all(chains.map((c) => c.close())));

/** A devnet of the default genesis `age` old (a block a second), as its runtime builds it, with `forks` (and where its history's sums are kept). */
function devnet(age: number, forks: Array<{ height: number; n: number }> = [], historySums = true, historyStore?: HistorySumsStore): SandboxChain {
  const chain = agedDevnet({ id: `history-${chains.length}`, seed: 'devnet-history', age, forks, historySums, ...(historyStore ? { historyStore } : {}) });
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
    // Some 0.2–0.5 s of CPU when a page sums its 470 segments itself.
    const t0 = threadCpuMs();
    const page = await sliced(() => chain.epochNext(0, { count: 100, page: 1, order: 'asc' }));
    const cpu = threadCpuMs() - t0;
    const lastClosed = chain.epochOfHeight(chain.tipHeight()) - 1;
    expect(page!.slice(0, lastClosed).map((e) => ({ epoch: e.epoch, tx_count: e.tx_count, output: e.output, fees: e.fees }))).toEqual(expectedEpochs(chain, 1, lastClosed));
    // The process's first page of epochs: its code is compiled on the way (some 100 ms on the slower VMs).
    expect(cpu, `${cpu.toFixed(1)} ms of CPU`).toBeLessThan(200);
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

  it('keeps a long-lived devnet\'s sums in its store, which the devnet loaded again reads before it answers, unless its history changed', async () => {
    // The store as the database keeps it: one row, bytes copied both ways.
    let row: { identity: string; sums: Uint8Array } | null = null;
    const store: HistorySumsStore = {
      load: async () => (row ? { identity: row.identity, sums: row.sums.slice() } : null),
      save: async (identity, sums) => void (row = { identity, sums: sums.slice() }),
    };
    const age = DAY_MS / 3;
    const first = devnet(age, [], true, store);
    await first.ready();
    const whole = Math.floor((first.tipHeight() + 1) / first.params.blocksPerEpoch);
    // Saved at the devnet's next check (every 10 s) once its worker has summed every closed epoch.
    await until(() => (row?.sums.byteLength ?? 0) === whole * 48, 120_000);
    expect(row!.sums.byteLength).toBe(whole * 48);

    // Loaded again (a restart, a reload after idling): no job, and a page of epochs reads the sums kept.
    const jobs = devnetSumsStats().jobs;
    const again = devnet(age, [], true, store);
    await again.ready();
    expect(devnetSumsStats().jobs).toBe(jobs);
    const t0 = threadCpuMs();
    const page = await sliced(() => again.epochNext(0, { count: 100, page: 1, order: 'asc' }));
    const cpu = threadCpuMs() - t0;
    const lastClosed = again.epochOfHeight(again.tipHeight()) - 1;
    expect(page!.slice(0, lastClosed).map((e) => ({ epoch: e.epoch, tx_count: e.tx_count, output: e.output, fees: e.fees }))).toEqual(expectedEpochs(again, 1, lastClosed));
    // Some 0.2–0.5 s of CPU when a page sums its 470 segments itself.
    expect(cpu, `${cpu.toFixed(1)} ms of CPU`).toBeLessThan(100);

    // Rolled back since (a fork): the sums kept are another history's, read by none; its own are summed.
    const forked = devnet(age, [{ height: 10_000, n: 1 }], true, store);
    await forked.ready();
    expect(devnetSumsStats().jobs).toBe(jobs + 1);
    const e20 = await sliced(() => forked.epoch(20));
    expect({ epoch: 20, tx_count: e20!.tx_count, output: e20!.output, fees: e20!.fees }).toEqual(expectedEpochs(forked, 20, 20)[0]);
    expect(expectedEpochs(forked, 20, 20)).not.toEqual(expectedEpochs(again, 20, 20));
  }, 200_000);

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
