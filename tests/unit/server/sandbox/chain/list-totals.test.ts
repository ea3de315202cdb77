// The totals the lists of blocks and epochs read, and the committee's votes per epoch, summed ahead
// by prepare() (server/sandbox/chain/totals.ts): the pages read from them answer what a chain that
// simulates their blocks on the read answers, live transactions included, and a first read of a
// deep page costs the server thread little CPU once they are summed (walk/busy.ts: its own CPU
// time, which other processes holding the cores do not lengthen). An epoch's sums need no
// transaction made (segmentSums), nor a block's size (measured from the same decisions), so a cold
// page of a hundred epochs or blocks makes its own. A shared chain's sweep worker (sweep.ts) makes every segment in another
// thread from the start: a cold chain's deep pages cost the server thread little beside it, and any
// background transaction is found by hash through its index, again after a restart from its chunks,
// and it runs at the lowest priority, so it never keeps the server's thread off a core.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDevnet, memoryLedgerStore, newDevnetState, type SandboxChain } from '../../../../../server/sandbox/chain/index';
import { COMPILED_SUMS, distributionHashOf, segmentSumsOf, sweptSegmentOf } from '../../../../../server/sandbox/chain/chain';
import { SegmentBits } from '../../../../../server/sandbox/chain/totals';
import { sliced, slicedWork } from '../../../../../server/sandbox/chain/budget';
import { SweepClient } from '../../../../../server/sandbox/chain/sweep';
import { serve, sweepWorkerData, testChain } from './support';
import { threadCpuMs } from './walk/busy';

const BLOCKS = 4_400;
/** The target of a page's answer; the CPU time of a page read from the totals is a few milliseconds. */
const PAGE_CPU_MS = 50;

function chainOf(sweep?: { dir: string | null; sumsOnly?: boolean }): ReturnType<typeof testChain> {
  const now = Date.UTC(2026, 2, 1, 12);
  return testChain({ genesisTime: now - BLOCKS * 20_000, blockIntervalMs: 20_000, now: () => now, ...(sweep ? { sweep } : {}) });
}

/** A chain of `blocks` blocks of 20 s, to the same moment as chainOf's. */
function longChain(blocks: number): SandboxChain {
  const now = Date.UTC(2026, 2, 1, 12);
  return testChain({ genesisTime: now - blocks * 20_000, blockIntervalMs: 20_000, now: () => now }).chain;
}


/**
 * The wall-clock time of a read: what a test that a read costs at least so much measures (the
 * thread's clock may count in 4 ms steps, so a read of a few milliseconds can read as less; the
 * wall clock counts it all, and more when other threads held the core).
 */
const wallOf = (read: () => unknown): number => {
  const t0 = performance.now();
  read();
  return performance.now() - t0;
};

const cpuOf = <T>(read: () => T): { value: T; ms: number } => {
  const t0 = threadCpuMs();
  const value = read();
  return { value, ms: threadCpuMs() - t0 };
};

describe('an epoch\'s sums from the segments\' decisions alone', () => {
  /** Each block's totals of segment s, made from its decisions (segmentSums) and from its transactions made whole. */
  const both = (chain: SandboxChain, s: number) => {
    const whole = sweptSegmentOf(chain, s).blocks;
    return { sums: segmentSumsOf(chain, s), whole: { index: s, counts: whole.map((b) => b.txs.length), outputs: whole.map((b) => b.outputLovelace), fees: whole.map((b) => b.fees) } };
  };

  it('measure each block\'s size as the transactions made measure it, on every network', () => {
    // Segments whose spends name outputs at index 24 and above, script spends with their datums
    // and redeemers, delegations, withdrawals and changes holding tokens of several policies.
    for (const network of ['mainnet', 'preprod', 'preview'] as const) {
      const { chain } = testChain({ network });
      for (const s of [0, 1, 3, 77, 4_096, 33_333]) {
        const whole = sweptSegmentOf(chain, s).blocks;
        const sums = segmentSumsOf(chain, s, true);
        expect(sums.sizes, `${network} segment ${s}`).toEqual(whole.map((b) => b.size));
        expect(sums.counts, `${network} segment ${s}`).toEqual(whole.map((b) => b.txs.length));
      }
    }
  });

  it('are the blocks\' totals of the transactions made, on every network, the genesis segment included', () => {
    for (const network of ['mainnet', 'preprod', 'preview'] as const) {
      const { chain } = testChain({ network });
      for (const s of [0, 1, 2, 7, 901, 20_001]) {
        const { sums, whole } = both(chain, s);
        expect(sums, `${network} segment ${s}`).toEqual(whole);
        expect(whole.counts.reduce((n, c) => n + c, 0), `${network} segment ${s}`).toBeGreaterThan(300);
      }
    }
  });

  it('are a devnet\'s, with the blocks above a rollback\'s fork emptied', async () => {
    const now = { t: Date.UTC(2026, 10, 2, 9) };
    const store = memoryLedgerStore();
    const first = createDevnet({ id: 'p1', state: newDevnetState({ now: now.t, seed: 'sums' }), store, now: () => now.t });
    await first.chain.ready();
    // The fork at 670, inside a segment (660–719) and inside epoch 1 (600–1199), which then closes.
    now.t += 700 * first.chain.params.blockIntervalMs;
    await first.control.rollback(30, 'drop');
    now.t += 600 * first.chain.params.blockIntervalMs;
    // Built again from its state (as after a restart), nothing of it simulated yet.
    const { chain } = createDevnet({ id: 'p1', state: first.control.state(), store, now: () => now.t });
    await chain.ready();
    // Every closed epoch's sums, the fork's included, are its blocks' as the chain answers them.
    const { blocksPerEpoch } = chain.params;
    const last = chain.epochOfHeight(chain.tipHeight()) - 1;
    expect(last).toBe(1);
    // The epochs read first, from their segments' decisions, then their blocks.
    const epochs = Array.from({ length: last + 1 }, (_, e) => chain.epoch(e)!);
    expect(chain.blockAt(680)!.tx_count).toBe(0);
    for (let e = 0; e <= last; e++) {
      const blocks = Array.from({ length: blocksPerEpoch }, (_, i) => chain.blockAt(e * blocksPerEpoch + i)!);
      const epoch = epochs[e]!;
      expect(epoch.tx_count, `epoch ${e}`).toBe(blocks.reduce((n, b) => n + b.tx_count, 0));
      expect(BigInt(epoch.fees!), `epoch ${e}`).toBe(blocks.reduce((n, b) => n + BigInt(b.fees ?? 0), 0n));
      expect(BigInt(epoch.output!), `epoch ${e}`).toBe(blocks.reduce((n, b) => n + BigInt(b.output ?? 0), 0n));
    }
  });
});

describe('the lists\' totals summed ahead', () => {
  it('answer the pages of epochs and blocks as the blocks simulated on the read do, live transactions included', async () => {
    const prepared = chainOf();
    const cold = chainOf();
    await prepared.chain.prepare({ lists: true });
    // A live transaction in the next block of both, then the chains move on: the prepared one sums the new segments too.
    for (const c of [prepared, cold]) {
      await c.chain.faucet({ address: c.chain.catalog().addresses[3]!.address, lovelace: 7_000_000n });
      c.clock.now += 150 * c.chain.params.blockIntervalMs;
    }
    await prepared.chain.prepare({ lists: true });
    const tip = cold.chain.tipHeight();
    const lastEpoch = cold.chain.epochOfHeight(tip);
    const liveHeight = BLOCKS + 1;
    expect(cold.chain.blockAt(liveHeight)!.tx_count).toBeGreaterThan(0);
    for (let e = 0; e <= lastEpoch; e++) expect(prepared.chain.epoch(e), `epoch ${e}`).toEqual(cold.chain.epoch(e));
    // An epoch's sums are its blocks' (read from a third chain, block by block).
    const third = chainOf();
    await third.chain.faucet({ address: third.chain.catalog().addresses[3]!.address, lovelace: 7_000_000n });
    third.clock.now = cold.clock.now;
    for (const e of [0, 17, third.chain.epochOfHeight(liveHeight)]) {
      const blocks = Array.from({ length: third.chain.params.blocksPerEpoch }, (_, i) => third.chain.blockAt(e * third.chain.params.blocksPerEpoch + i)!);
      const epoch = prepared.chain.epoch(e)!;
      expect(epoch.tx_count).toBe(blocks.reduce((n, b) => n + b.tx_count, 0));
      expect(BigInt(epoch.fees!)).toBe(blocks.reduce((n, b) => n + BigInt(b.fees ?? 0), 0n));
      expect(BigInt(epoch.output!)).toBe(blocks.reduce((n, b) => n + BigInt(b.output ?? 0), 0n));
    }
    const pages = (c: SandboxChain) => [
      c.epochNext(0, { count: 100, page: 1, order: 'asc' }),
      c.epochPrevious(lastEpoch, { count: 100, page: 1, order: 'asc' }),
      c.blockNext(1_000, { count: 100, page: 7, order: 'asc' }),
      c.blockPrevious(tip, { count: 100, page: 1, order: 'asc' }),
      c.governance().committeeVotes({ count: 100, page: 3, order: 'asc' }),
      c.governance().committeeVotes({ count: 100, page: 3, order: 'desc' }),
    ];
    expect(pages(prepared.chain)).toEqual(pages(cold.chain));
  }, 120_000);

  it('make a first read of a deep page of epochs, blocks or committee votes cheap in CPU time', async () => {
    const { chain } = chainOf();
    await chain.prepare({ lists: true });
    // Pages of blocks read first, of other segments: the code that makes a segment runs compiled,
    // as in a server that has answered for a while (its first makings in a process cost up to several times more).
    for (const page of [5, 8, 11, 14]) chain.blockNext(0, { count: 100, page, order: 'asc' });
    const lastEpoch = chain.epochOfHeight(chain.tipHeight());
    const reads: Array<[string, () => unknown[] | null | undefined]> = [
      ['/epochs/0/next', () => chain.epochNext(0, { count: 100, page: 1, order: 'asc' })],
      [`/epochs/${lastEpoch}/previous`, () => chain.epochPrevious(lastEpoch, { count: 100, page: 1, order: 'asc' })],
      ['/blocks/0/next page 20', () => chain.blockNext(0, { count: 100, page: 20, order: 'asc' })],
      ['/blocks/{tip}/previous page 30', () => chain.blockPrevious(chain.tipHeight(), { count: 100, page: 30, order: 'asc' })],
      ['/governance/committee/votes page 4', () => chain.governance().committeeVotes({ count: 100, page: 4, order: 'asc' })],
      ['/governance/committee/votes page 2 desc', () => chain.governance().committeeVotes({ count: 100, page: 2, order: 'desc' })],
    ];
    for (const [name, read] of reads) {
      const { value, ms } = cpuOf(read);
      expect(value, name).toHaveLength(100);
      expect(ms, `${name}: ${ms.toFixed(1)} ms of CPU`).toBeLessThan(PAGE_CPU_MS);
    }
  }, 120_000);

  it('are summed a few slices a prepare() once a list has read the history, and not at all before', async () => {
    const { chain } = chainOf();
    const lastEpoch = chain.epochOfHeight(chain.tipHeight());
    // A page of twenty epochs read and timed: ten segments summed from their decisions (several
    // milliseconds of CPU), or read from their sums (a fraction of one).
    const page = (from: number) => () => chain.epochNext(from, { count: 20, page: 1, order: 'asc' });
    for (let i = 0; i < 30; i++) await chain.prepare();
    // Nothing read yet: the history's epochs are not summed ahead.
    page(lastEpoch - 60)();
    expect(wallOf(page(20))).toBeGreaterThan(1);
    // That read the history: each prepare() now sums a few slices of it, newest first, until none
    // is left; then pages never read before read their sums.
    let calls = 0;
    for (; calls < 100; calls++) {
      const t0 = threadCpuMs();
      await chain.prepare();
      const ms = threadCpuMs() - t0;
      // A few slices of about 10 ms (each may end a segment late).
      expect(ms).toBeLessThan(200);
      if (ms < 2) break;
    }
    expect(calls).toBeLessThan(100);
    // Seventy of these hundred epochs were never read (thirty-five segments: 20 ms of CPU or more to sum).
    expect(cpuOf(() => chain.epochNext(30, { count: 100, page: 1, order: 'asc' })).ms).toBeLessThan(PAGE_CPU_MS / 5);
  }, 120_000);

  it('are summed for the newest page of epochs by a gateway\'s first prepare(), before it serves, with the next blocks made, and by no other', async () => {
    const newestPage = (c: SandboxChain): unknown[] | null | undefined => c.epochPrevious(c.epochOfHeight(c.tipHeight()), { count: 100, page: 1, order: 'asc' });
    const plainChain = chainOf().chain;
    const expected = newestPage(plainChain);
    // A chain prepared as any is: its newest epochs are summed by the page that reads them (fifty
    // segments: some 20 ms of CPU on a fast machine, 50 ms or more on a slow one).
    const { chain: other } = chainOf();
    await other.prepare();
    const summing = wallOf(() => newestPage(other));
    // As a gateway's before it serves: the page reads sums (the hundred epochs' fifty segments summed ahead).
    const { chain } = chainOf();
    await chain.prepare({ start: true });
    const { value, ms } = cpuOf(() => newestPage(chain));
    expect(value).toEqual(expected);
    expect(ms).toBeLessThan(PAGE_CPU_MS / 4);
    // Less than the page that sums, by more than a step of the thread's clock.
    expect(ms + 4).toBeLessThan(summing);
    // And the next blocks made: the first read at the tip does not make the tip's segment (as the other chain's does).
    // (On the wall clock: making twenty blocks costs a few milliseconds, near the thread clock's 4 ms step.)
    const atTip = (c: SandboxChain): number => wallOf(() => c.blockTxs(c.tipHeight(), { count: 100, page: 1, order: 'asc' }));
    const made = atTip(chain);
    const making = atTip(other);
    expect(making).toBeGreaterThan(1);
    expect(made).toBeLessThan(making / 2);
  }, 120_000);
});

describe('a shared chain\'s sweep worker', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cairn-sweep-'));
  const chains: SandboxChain[] = [];
  const swept = (): ReturnType<typeof testChain> => {
    const c = chainOf({ dir });
    chains.push(c.chain);
    return c;
  };
  afterAll(async () => {
    await Promise.all(chains.map((c) => c.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  /** A page read as the router reads it (in time slices, where it may wait for the worker), with the server thread's CPU time. */
  const slicedCpu = async <T>(read: () => T): Promise<{ value: T; ms: number }> => {
    const t0 = threadCpuMs();
    const value = await sliced(read);
    return { value, ms: threadCpuMs() - t0 };
  };
  const plain = chainOf().chain;
  const lastEpoch = plain.epochOfHeight(plain.tipHeight());
  const deepPages: Array<[string, (c: SandboxChain) => unknown[] | null | undefined]> = [
    [`/epochs/${lastEpoch}/previous page 1`, (c) => c.epochPrevious(lastEpoch, { count: 100, page: 1, order: 'asc' })],
    ['/epochs/2/next page 1', (c) => c.epochNext(2, { count: 100, page: 1, order: 'asc' })],
    ['/blocks/0/next page 20', (c) => c.blockNext(0, { count: 100, page: 20, order: 'asc' })],
    ['/blocks/{tip}/previous page 30', (c) => c.blockPrevious(c.tipHeight(), { count: 100, page: 30, order: 'asc' })],
    ['/governance/committee/votes page 4', (c) => c.governance().committeeVotes({ count: 100, page: 4, order: 'asc' })],
  ];

  it('answers a cold chain\'s deep pages in little of the server thread\'s CPU, as a chain simulating them does', async () => {
    // Read at once, before the sweep reached them: the pages of blocks measure their two or three
    // segments here, the pages of epochs sum theirs from the segments' decisions here (the
    // answers expected are read first, so the code that sums runs compiled, as in a server that has
    // answered for a while).
    const { chain } = swept();
    const expected = deepPages.slice(0, 4).map(([, read]) => read(plain));
    for (const [i, [name, read]] of deepPages.slice(0, 4).entries()) {
      const { value, ms } = await slicedCpu(() => read(chain));
      expect(value, name).toEqual(expected[i]);
      // A page of blocks measures two or three segments from their decisions; a page of epochs sums fifty
      // segments here, some 40 ms on a quiet 2-core VM (npm run bench:sandbox judges the target):
      // under the suite's parallel files, and beside the worker's start in this process (its code
      // compiled and its heap collected by V8's helper threads, which this thread shares), a
      // thread's CPU time stretches up to twice, so it gets three times the room.
      expect(ms, `${name}: ${ms.toFixed(1)} ms of CPU`).toBeLessThan(name.startsWith('/epochs') ? 3 * PAGE_CPU_MS : PAGE_CPU_MS);
    }
    // Once the sweep has had its chance, every deep page reads what it left; the server thread did
    // not simulate the history for it (some 75 segments: over a second of CPU).
    const t0 = threadCpuMs();
    await chain.prepare({ lists: true });
    expect(threadCpuMs() - t0).toBeLessThan(400);
    for (const [name, read] of deepPages) {
      const { value, ms } = await slicedCpu(() => read(chain));
      expect(value, name).toHaveLength(100);
      expect(value, name).toEqual(read(plain));
      expect(ms, `${name}: ${ms.toFixed(1)} ms of CPU`).toBeLessThan(PAGE_CPU_MS);
    }
  }, 120_000);

  /** A thread's nice value from its stat file (Linux: field 19, the 17th after the command's closing parenthesis). */
  const niceIn = (stat: string): number => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  /** The nice value of each of this process's threads (/proc/self/task/<tid>/stat). */
  const niceOfThreads = (): number[] =>
    readdirSync('/proc/self/task').flatMap((tid) => {
      try {
        return [niceIn(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8'))];
      } catch {
        return [];
      }
    });

  it('sends every closed segment\'s epochs\' sums and its distribution\'s hash before it sweeps the segment, equal to the segment\'s decisions\' sums and its first transaction\'s hash', async () => {
    const p = plain.params;
    const events: Array<{ kind: 'sums' | 'swept'; index: number; counts: number[]; money: number[]; distribution?: string }> = [];
    const hashes = new Map<number, { hash: string; beforeSweep: boolean }>();
    const client = new SweepClient(
      sweepWorkerData(p),
      {
        segment: (t) => events.push({ kind: 'swept', index: t.index, counts: [...t.counts], money: [...t.money], distribution: t.distribution }),
        sums: (t) => events.push({ kind: 'sums', index: t.index, counts: [...t.counts], money: [...t.money] }),
        distribution: (index, hash) => hashes.set(index, { hash, beforeSweep: !events.some((e) => e.kind === 'swept') }),
      },
    );
    try {
      await client.swept(plain.tipHeight());
      const closed = Math.floor((plain.tipHeight() + 1) / p.segmentLength);
      const sums = events.filter((e) => e.kind === 'sums');
      expect(new Set(sums.map((e) => e.index)).size).toBe(closed);
      expect(sums).toHaveLength(closed);
      // Every segment summed before any is swept: the newest first, then down to 0.
      const firstSwept = events.findIndex((e) => e.kind === 'swept');
      expect(firstSwept).toBeGreaterThanOrEqual(closed);
      expect(sums[0]!.index).toBe(closed - 1);
      for (const e of sums) {
        const own = segmentSumsOf(plain, e.index);
        expect(e.counts, `segment ${e.index}`).toEqual(own.counts);
        expect(e.money, `segment ${e.index}`).toEqual(own.outputs.flatMap((o, i) => [o, own.fees[i]!]));
        const swept = events.find((w) => w.kind === 'swept' && w.index === e.index)!;
        expect(swept.counts).toEqual(e.counts);
        expect(swept.money).toEqual(e.money);
        // With its distribution's hash, what nut.link's oracle records list: the hash of the segment's first transaction made whole.
        const distribution = sweptSegmentOf(plain, e.index).blocks[0]!.txs[0]!.hash;
        expect(hashes.get(e.index), `segment ${e.index}`).toEqual({ hash: distribution, beforeSweep: true });
        expect(swept.distribution).toBe(distribution);
      }
    } finally {
      await client.close();
    }
  }, 60_000);

  it('sums every chain\'s history before it sweeps any, and says it is ready once its summing has run on the newest segments', async () => {
    // Two chains of 700 segments each: each worker sums its newest segments as it starts, then the
    // first sums the rest and the second does, and only then does the first sweep.
    const blocks = 42_000;
    const long = longChain(blocks);
    const p = long.params;
    const closed = Math.floor((long.tipHeight() + 1) / p.segmentLength);
    const events: Array<{ chain: number; kind: 'sums' | 'swept' | 'ready'; index: number }> = [];
    const clients = [0, 1].map(
      (chain) =>
        new SweepClient(
          sweepWorkerData(p),
          { segment: (t) => events.push({ chain, kind: 'swept', index: t.index }), sums: (t) => events.push({ chain, kind: 'sums', index: t.index }) },
        ),
    );
    try {
      for (const [chain, client] of clients.entries()) {
        client.tip(long.tipHeight());
        void client.ready().then(() => events.push({ chain, kind: 'ready', index: -1 }));
      }
      await Promise.all(clients.map((c) => c.swept(long.tipHeight())));
      for (const chain of [0, 1]) {
        const own = events.filter((e) => e.chain === chain);
        const ready = own.findIndex((e) => e.kind === 'ready');
        // Ready once it has summed its newest segments (COMPILED_SUMS of them), not later than its other sums.
        expect(closed).toBeGreaterThan(COMPILED_SUMS);
        expect(own.slice(0, ready).map((e) => e.index)).toEqual(Array.from({ length: COMPILED_SUMS }, (_, i) => closed - 1 - i));
        expect(new Set(own.filter((e) => e.kind === 'sums').map((e) => e.index)).size).toBe(closed);
      }
      const lastSums = events.findLastIndex((e) => e.kind === 'sums');
      const firstSwept = events.findIndex((e) => e.kind === 'swept');
      expect(lastSums).toBeLessThan(firstSwept);
      // The first chain's sweep before the second's.
      expect(events[firstSwept]!.chain).toBe(0);
      expect(events.findLastIndex((e) => e.kind === 'swept' && e.chain === 0)).toBeLessThan(events.findIndex((e) => e.kind === 'swept' && e.chain === 1));
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  }, 120_000);

  it('sums no segment the server holds already (a restart\'s kept sums), only its distribution\'s hash, once its summing has run', async () => {
    // A sums-only worker (development's) on a chain of 800 segments, told that the server holds the
    // sums of every other one: it sums its newest segments as it starts (its summing compiled), then
    // of the rest only those the server does not hold, and sends every segment's distribution's hash.
    const blocks = 48_000;
    const long = longChain(blocks);
    const p = long.params;
    const closed = Math.floor((long.tipHeight() + 1) / p.segmentLength);
    expect(closed).toBeGreaterThan(COMPILED_SUMS + 100);
    const held = new SegmentBits();
    for (let s = 0; s < closed; s += 2) held.add(s);
    const summed: number[] = [];
    const hashed = new Map<number, string>();
    const client = new SweepClient(
      sweepWorkerData(p),
      { segment: () => undefined, sums: (t) => summed.push(t.index), distribution: (index, hash) => hashed.set(index, hash) },
      true,
    );
    try {
      client.held(held.copy());
      await client.swept(long.tipHeight());
      const warm = summed.slice(0, COMPILED_SUMS);
      expect(warm).toEqual(Array.from({ length: COMPILED_SUMS }, (_, i) => closed - 1 - i));
      const after = summed.slice(COMPILED_SUMS);
      const older = Array.from({ length: closed - COMPILED_SUMS }, (_, i) => closed - COMPILED_SUMS - 1 - i);
      expect(after).toEqual(older.filter((s) => !held.has(s)));
      expect(hashed.size).toBe(closed);
      for (const s of [0, 2, 1, closed - 1]) expect(hashed.get(s), `segment ${s}`).toBe(distributionHashOf(long, s));
    } finally {
      await client.close();
      await long.close();
    }
  }, 120_000);

  it('never holds the process, which stays up while it waits for its sweep worker to be ready and exits when it leaves both workers at work', () => {
    const script = fileURLToPath(new URL('../../../../fixtures/chain/workers-left.ts', import.meta.url));
    const t0 = Date.now();
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 90_000 });
    expect(run.stderr).toBe('');
    expect(run.signal, `still running after ${Date.now() - t0} ms`).toBeNull();
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('left');
  }, 120_000);

  it('leaves its own work while the server thread computes answers in slices, and takes it up again after', async () => {
    // 2,000 segments: 1,400 left to sum once the worker is ready.
    const blocks = 120_000;
    const long = longChain(blocks);
    const p = long.params;
    let sums = 0;
    const client = new SweepClient(
      sweepWorkerData(p),
      { segment: () => {}, sums: () => void sums++ },
    );
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    try {
      // Ready: its newest segments summed and sent (they come before its own work is let go).
      Atomics.add(slicedWork, 0, 1);
      client.tip(long.tipHeight());
      await client.ready();
      await pause(100);
      const before = sums;
      await pause(600);
      // A segment every 50 ms at most, sent in batches of 32: one batch at most.
      expect(sums - before).toBeLessThanOrEqual(32);
      Atomics.sub(slicedWork, 0, 1);
      const after = sums;
      const deadline = Date.now() + 30_000;
      while (sums - after < 320 && Date.now() < deadline) await pause(20);
      expect(sums - after).toBeGreaterThanOrEqual(320);
    } finally {
      if (Atomics.load(slicedWork, 0) > 0) Atomics.sub(slicedWork, 0, 1);
      await client.close();
    }
  }, 60_000);

  it('compiles the summing before a gateway serves so that no page of any epochs throws it out', () => {
    // V8 compiles a function on the turns it has seen run: a turn met first by a page (a refused
    // transaction whose sender holds tokens) throws the compiled summing out, and the page runs it
    // unoptimised while V8 compiles it again on another core (50–70 ms).
    const script = fileURLToPath(new URL('../../../../fixtures/chain/summing-kept.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--trace-deopt', '--import', 'tsx', script], { encoding: 'utf8', timeout: 90_000 });
    expect(run.status, run.stderr).toBe(0);
    const served = run.stdout.slice(run.stdout.indexOf('-- served from here'));
    expect(served).toContain('-- done');
    const thrownOut = [...served.matchAll(/deoptimizing \S+ <JSFunction (\w+)/g)].map((m) => m[1]!);
    // The segment simulator's own steps (the small helpers around them cost little to compile again).
    expect(thrownOut.filter((name) => ['build', 'plan', 'step', 'totals', 'openBlock', 'sender', 'distribution'].includes(name))).toEqual([]);
  }, 120_000);

  it.skipIf(!existsSync('/proc/thread-self'))('sweeps at the lowest priority, the server\'s thread keeping its own', async () => {
    const before = niceOfThreads().filter((n) => n === 19).length;
    const { chain } = swept();
    await chain.ready();
    const deadline = Date.now() + 10_000;
    while (niceOfThreads().filter((n) => n === 19).length === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(niceOfThreads().filter((n) => n === 19)).toHaveLength(before + 1);
    expect(niceIn(readFileSync('/proc/thread-self/stat', 'utf8'))).toBe(0);
    await chain.close();
  }, 30_000);

  it('only sums when told so (development\'s default): every closed segment\'s epochs, no sweep, nothing written, and the next chain\'s sweep goes on', async () => {
    const p = plain.params;
    const closed = Math.floor((plain.tipHeight() + 1) / p.segmentLength);
    const data = sweepWorkerData(p);
    const seen = { sums: new Set<number>(), swept: 0, sweptAfter: new Set<number>() };
    const only = new SweepClient(data, { segment: () => seen.swept++, sums: (t) => seen.sums.add(t.index) }, true);
    // Made after it, a chain that sweeps: its turn comes once the first has summed its history.
    const full = new SweepClient(data, { segment: (t) => seen.sweptAfter.add(t.index), sums: () => {} });
    try {
      only.tip(plain.tipHeight());
      // Resolves once its history is summed: what a sweep is for a worker that sweeps.
      await only.swept(plain.tipHeight());
      expect(seen.sums.size).toBe(closed);
      await full.swept(plain.tipHeight());
      expect(seen.sweptAfter.size).toBe(closed);
      expect(seen.swept).toBe(0);
    } finally {
      await Promise.all([only.close(), full.close()]);
    }
    // A chain whose worker only sums: its cold pages as a plain chain's, no hash asked of the worker
    // (a block never read keeps its transactions unknown, as without a worker), no folder made.
    const under = mkdtempSync(path.join(tmpdir(), 'cairn-sums-only-'));
    const { chain } = chainOf({ dir: under, sumsOnly: true });
    try {
      await chain.prepare({ lists: true });
      const read = (c: SandboxChain) => c.epochNext(2, { count: 100, page: 1, order: 'asc' });
      expect(await sliced(() => read(chain))).toEqual(read(plain));
      const far = plain.blockTxs(1_234, { count: 100, page: 1, order: 'asc' })![2]!;
      expect(await sliced(() => chain.txCbor(far))).toBeNull();
      expect(readdirSync(under)).toEqual([]);
    } finally {
      await chain.close();
      rmSync(under, { recursive: true, force: true });
    }
  }, 120_000);

  it('finds any background transaction by hash, one this process never showed included, and after a restart from the chunks it wrote', async () => {
    const { chain } = swept();
    const http = await serve(chain);
    try {
      // Far below the address window (720 blocks), from another chain: this process never simulated its block.
      const hash = plain.blockTxs(1_234, { count: 100, page: 1, order: 'asc' })![2]!;
      const cbor = await sliced(() => plain.txCbor(hash));
      expect(cbor).not.toBeNull();
      await chain.prepare({ lists: true });
      const tx = await http.get(`/txs/${hash}`);
      expect(tx.status).toBe(200);
      expect((tx.body as { block_height: number }).block_height).toBe(1_234);
      const got = await http.get(`/txs/${hash}/cbor`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(cbor);
      expect((await http.get(`/txs/${'ab'.repeat(32)}`)).status).toBe(404);
    } finally {
      await http.close();
      await chain.close();
    }
    // The chunk holding block 1,234 was written; a chain started again reads it, not the history:
    // none of the chunks written is written again (each is written to a part file and renamed over
    // the old one: a new inode), as a sweep of the segments again would.
    const chunks = (): string[] =>
      readdirSync(dir).flatMap((d) =>
        readdirSync(path.join(dir, d))
          .filter((f) => f.startsWith('chunk-'))
          .map((f) => {
            const st = statSync(path.join(dir, d, f));
            return `${d}/${f} ${st.ino} ${st.mtimeMs}`;
          }),
      );
    const written = chunks();
    expect(written).not.toHaveLength(0);
    const again = swept().chain;
    const hash = plain.blockTxs(2_000, { count: 100, page: 1, order: 'asc' })![1]!;
    const found = await sliced(() => again.txCbor(hash));
    expect(found).toEqual(await sliced(() => plain.txCbor(hash)));
    expect(chunks()).toEqual(expect.arrayContaining(written));
  }, 120_000);
});
