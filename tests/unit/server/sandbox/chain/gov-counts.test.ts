// The governance lists' counts per epoch, made from the draws alone (no proposal or vote built),
// against the votes and proposals themselves: a deep page finds its epochs by these counts, so a
// count that differs from its epoch's items by one shifts every page after it.
import { describe, expect, it } from 'vitest';
import { COMMITTEE_SIZE, VOTED_EPOCHS, createGovernance, type Governance, type Proposal, type Vote } from '../../../../../server/sandbox/chain/gov';
import { PROTOCOL } from '../../../../../server/sandbox/chain/protocol';
import { sliced } from '../../../../../server/sandbox/chain/budget';
import { DEFAULT_GENESIS_TIME } from '../../../../../server/sandbox/chain/index';
import { DAY_MS } from '../../../../../shared/time';
import { poolIdHex } from '../../../../../server/blockfrost/contract';
import { testChain } from './support';

const BPE = 30;
/** Two committee terms and a little more, the resignation of a member within them (epochs 100–300). */
const EPOCHS = 2 * PROTOCOL.committeeMaxTermLength + 40;

function model(seed: number, pools: Array<{ id: string; hex: string; owner?: number }>): Governance {
  const tip = (EPOCHS + 1) * BPE + 7;
  return createGovernance({
    key: new Uint8Array(32).fill(seed), protocol: PROTOCOL, blocksPerEpoch: BPE, tip: () => tip, live: () => [], liveIndex: () => 0,
    pools, stakeAddresses: ['stake_test1uqfu74w3wh4gfzu8m6e7j987h4lq9r3t7ef5gaw497uu85qsqfy27'], stakes: () => new Map(), timeOf: (h) => h * 20,
  });
}

const POOLS = Array.from({ length: 6 }, (_, i) => ({ id: `pool${i}`, hex: (i * 0x2f1b3c5d + 0x10203040).toString(16).padStart(8, '0').repeat(7), ...(i === 5 ? { owner: -1 } : {}) }));

/** The votes cast in epoch e, as the proposals of e and the three epochs before carry them. */
function castIn(g: Governance, e: number, keep: (v: Vote) => boolean): number {
  let n = 0;
  for (let pe = e - (VOTED_EPOCHS - 1); pe <= e; pe++) for (const p of g.worldProposals(pe)) for (const v of g.votesOnWorld(p)) if (Math.floor(v.height / BPE) === e && keep(v)) n++;
  return n;
}

describe("governance lists' counts per epoch", () => {
  for (const seed of [3, 71]) {
    const g = model(seed, POOLS);
    const epochs = Array.from({ length: EPOCHS }, (_, i) => i + 1);

    it(`are each epoch's proposals and votes, for the committee, each member, a hot key and each pool (key ${seed})`, () => {
      const byList: Array<[string, (from: number, to: number) => Uint32Array, (v: Vote) => boolean]> = [
        ['committee', (a, b) => g.committeeCastCounts(null, null, a, b), (v) => v.role === 'constitutional_committee'],
        ...Array.from({ length: COMMITTEE_SIZE }, (_, m): [string, (a: number, b: number) => Uint32Array, (v: Vote) => boolean] => [
          `member ${m}`, (a, b) => g.committeeCastCounts(m, null, a, b), (v) => v.role === 'constitutional_committee' && v.voterHex === g.hotAt(m, Math.floor(v.proposal.height / BPE)),
        ]),
        ['a second-term hot key', (a, b) => g.committeeCastCounts(0, g.hotAt(0, PROTOCOL.committeeMaxTermLength)!, a, b), (v) => v.voterHex === g.hotAt(0, PROTOCOL.committeeMaxTermLength)],
        ...POOLS.map((pool): [string, (a: number, b: number) => Uint32Array, (v: Vote) => boolean] => [`pool ${pool.id}`, (a, b) => g.poolCastCounts(pool, a, b), (v) => v.role === 'spo' && v.voterHex === pool.hex]),
        // Counted together, as prepare() counts them ahead: each pool's own counts.
        ...POOLS.map((pool, i): [string, (a: number, b: number) => Uint32Array, (v: Vote) => boolean] => [`pool ${pool.id} among all`, (a, b) => g.poolsCastCounts(POOLS, a, b)[i]!, (v) => v.role === 'spo' && v.voterHex === pool.hex]),
      ];
      let votes = 0;
      for (const [name, countsAt, keep] of byList) {
        const counts = countsAt(1, EPOCHS);
        const expected = epochs.map((e) => castIn(g, e, keep));
        expect([...counts], name).toEqual(expected);
        // Any range reads the same epochs: the first proposals a range needs lie before its start.
        expect([...countsAt(150, 200)], `${name}, epochs 150–200`).toEqual(expected.slice(149, 200));
        votes += expected.reduce((a, b) => a + b, 0);
      }
      expect([...g.proposalCounts(1, EPOCHS)]).toEqual(epochs.map((e) => g.worldProposals(e).length));
      // Not vacuous: every kind of voter voted, a genesis' pool never, and a member stops at its resignation.
      expect(votes).toBeGreaterThan(EPOCHS);
      expect([...g.poolCastCounts(POOLS[5]!, 1, EPOCHS)].every((n) => n === 0)).toBe(true);
      expect(g.committeeCastCounts(COMMITTEE_SIZE - 2, null, g.resignEpoch + 3, EPOCHS).every((n) => n === 0)).toBe(true);
      expect(g.committeeCastCounts(COMMITTEE_SIZE - 2, null, 1, g.resignEpoch - 1).some((n) => n > 0)).toBe(true);
    });
  }

  it("draw a proposal's kind, parameters and votes as the proposal itself shows them", () => {
    const g = model(9, POOLS);
    const seen = new Set<string>();
    for (let e = 1; e <= EPOCHS; e++) {
      g.worldProposals(e).forEach((p: Proposal, j: number) => {
        expect(p.height).toBe(g.proposalHeightAt(e));
        expect(p.type).toBe(g.proposalTypeAt(e, j));
        if (p.type === 'parameter_change') expect(p.parameters).toEqual(g.parametersAt(e, j));
        seen.add(p.type);
      });
    }
    expect(seen.size).toBeGreaterThanOrEqual(6);
  });

  it("count the pools' votes ahead together as each pool's own pages count them, whatever each had counted before", async () => {
    const start = DEFAULT_GENESIS_TIME + 30 * DAY_MS;
    const counted = testChain({ now: () => start });
    const fresh = testChain({ now: () => start + DAY_MS });
    const pools = counted.chain.catalog().pools.map((p) => poolIdHex(p)!);
    // Deep pages (their epochs found by the running counts), in both orders.
    const pages = (c: typeof counted.chain, pool: string) =>
      Promise.all((['asc', 'desc'] as const).map((order) => sliced(() => c.governance().poolVotes(pool, { count: 100, page: 7, order }))));
    // One pool counted through the first day's epochs by its own page; then a day later every pool counted ahead together.
    await pages(counted.chain, pools[0]!);
    counted.clock.now = start + DAY_MS;
    await sliced(() => counted.chain.governance().countPoolVotesAhead());
    for (const pool of pools) {
      const [asc, desc] = await pages(counted.chain, pool);
      expect(asc, pool).toHaveLength(100);
      expect([asc, desc], pool).toEqual(await pages(fresh.chain, pool));
    }
  }, 60_000);

  it('find every page of a list, walked or read through the counts, so that its pages in either order hold each item once', async () => {
    // Thirty days: 4,320 epochs, so the deep pages of each order read the lists' running counts.
    const { chain } = testChain({ now: () => DEFAULT_GENESIS_TIME + 30 * DAY_MS });
    const gov = chain.governance();
    const pool = poolIdHex(chain.catalog().pools[0]!)!;
    const lists: Array<[string, (page: { count: number; page: number; order: 'asc' | 'desc' }) => unknown[] | null | undefined]> = [
      ['/governance/committee/votes', (p) => gov.committeeVotes(p)],
      ['/pools/{pool_id}/votes', (p) => gov.poolVotes(pool, p)],
      ['/governance/proposals', (p) => gov.proposals(p)],
    ];
    for (const [name, read] of lists) {
      const all = async (order: 'asc' | 'desc'): Promise<string[]> => {
        const out: string[] = [];
        for (let page = 1; ; page++) {
          const items = (await sliced(() => read({ count: 100, page, order }))) as unknown[];
          out.push(...items.map((x) => JSON.stringify(x)));
          if (items.length < 100) return out;
        }
      };
        const asc = await all('asc');
      const desc = await all('desc');
      expect(asc.length, name).toBeGreaterThan(1_000);
      // In order of their blocks.
      const heights = asc.map((x) => (JSON.parse(x) as { block_height?: number }).block_height).filter((h) => h !== undefined);
      expect(heights, name).toEqual([...heights].sort((a, b) => a! - b!));
      expect(new Set(asc).size, `${name}: an item twice`).toBe(asc.length);
      // The same items (a descending page keeps items of one block in their own order, so not simply reversed).
      expect([...desc].sort(), name).toEqual([...asc].sort());
    }
  }, 60_000);
});
