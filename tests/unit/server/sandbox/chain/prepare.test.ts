import { describe, expect, it } from 'vitest';
import { testChain } from './support';

describe('a chain prepared ahead', () => {
  it('answers as a chain that builds its UTXO set when asked, once built and kept as the tip moves block by block and by many', async () => {
    // A short address window keeps the test quick; the jump below is longer than it (the set is rebuilt).
    const prepared = testChain({ addressWindowBlocks: 120 });
    const cold = testChain({ addressWindowBlocks: 120 });
    await prepared.chain.prepare({ build: true });
    const addresses = prepared.chain.catalog().addresses.map((a) => a.address).slice(0, 40);
    const same = () => {
      for (const a of addresses) expect(prepared.chain.addressUtxos(a, { count: 100 }), a).toEqual(cold.chain.addressUtxos(a, { count: 100 }));
      expect(prepared.chain.accountAddressesTotal(prepared.chain.catalog().stakeAddresses[0]!)).toEqual(cold.chain.accountAddressesTotal(cold.chain.catalog().stakeAddresses[0]!));
    };
    same();
    const interval = prepared.chain.params.blockIntervalMs;
    // One block at a time across the end of a segment, then a jump of many blocks.
    for (let i = 0; i < prepared.chain.params.segmentLength + 2; i++) {
      prepared.clock.now += interval;
      cold.clock.now += interval;
      await prepared.chain.prepare();
    }
    same();
    prepared.clock.now += 200 * interval;
    cold.clock.now += 200 * interval;
    await prepared.chain.prepare();
    same();
  }, 60_000);
});
