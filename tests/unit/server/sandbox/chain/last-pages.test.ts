import { describe, expect, it } from 'vitest';
import { createSandboxChain, DEFAULT_GENESIS_TIME } from '../../../../../server/sandbox/chain/index';

// A page past the end of a governance list is answered without computing the epochs before it:
// walking them all took tens of seconds on a chain a year old, and held every other request.
const YEAR_MS = 365 * 24 * 3600 * 1000;
const LAST_PAGE = 21_474_836;

function timed<T>(f: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = f();
  return { value, ms: performance.now() - start };
}

describe('the last pages of governance lists', () => {
  const chain = createSandboxChain({ network: 'preprod', now: () => DEFAULT_GENESIS_TIME + YEAR_MS });
  const gov = chain.governance();

  it('answers the committee votes, proposals and a pool\'s votes past their end at once, in both orders', () => {
    const pool = chain.catalog().pools[0]!;
    const poolHex = chain.pool(pool)!.hex;
    // The first answer of a chain reads its live ledger: once, whatever the page.
    gov.committeeVotes({ count: 1, page: 1, order: 'desc' });
    for (const order of ['asc', 'desc'] as const) {
      const page = { count: 100, page: LAST_PAGE, order };
      const lists: Array<() => unknown[] | null | undefined> = [() => gov.committeeVotes(page), () => gov.proposals(page), () => gov.poolVotes(poolHex, page)];
      for (const list of lists) {
        const { value, ms } = timed(list);
        expect(value).toEqual([]);
        expect(ms).toBeLessThan(50);
      }
    }
  });

  it("answers a DRep's votes past their end at once", () => {
    const drep = gov.dreps({ count: 100, page: 1, order: 'asc' }, {}).find((d) => d.hex !== '')!;
    for (const order of ['asc', 'desc'] as const) {
      const { value, ms } = timed(() => gov.drepVotes(drep.drep_id, { count: 100, page: 500, order }));
      expect(value).toEqual([]);
      expect(ms).toBeLessThan(50);
    }
  });

  it('still answers the pages that hold votes', () => {
    expect(gov.committeeVotes({ count: 5, page: 1, order: 'desc' })).toHaveLength(5);
    expect(gov.proposals({ count: 5, page: 1, order: 'asc' })).toHaveLength(5);
  });
});
