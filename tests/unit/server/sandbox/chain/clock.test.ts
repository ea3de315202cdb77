// Slots mean the real network's time: the slot configurations built into Lucid Evolution, Mesh and
// Blaze compute the sandbox's current slot, and /genesis, /epochs, /blocks and /network/eras agree
// with each other and with that mapping.
import { describe, expect, it } from 'vitest';
import { unixTimeToSlot } from '@lucid-evolution/lucid';
import { resolveSlotNo } from '@meshsdk/core';
import { Blockfrost as BlazeBlockfrost } from '@blaze-cardano/sdk';
import { createSandboxChain, memoryLedgerStore, type SandboxNetwork } from '../../../../../server/sandbox/chain/index';

const NETWORKS = [
  { network: 'mainnet', lucid: 'Mainnet', blaze: 'cardano-mainnet' },
  { network: 'preprod', lucid: 'Preprod', blaze: 'cardano-preprod' },
  { network: 'preview', lucid: 'Preview', blaze: 'cardano-preview' },
] as const;

interface Era {
  start: { time: number; slot: number; epoch: number };
  end: { time: number; slot: number; epoch: number };
  parameters: { epoch_length: number; slot_length: number };
}

/** A slot's time through Ogmios-style era summaries, as their consumers compute it (UNIX seconds). */
function timeThroughEras(eras: Era[], systemStart: number, slot: number): number {
  const era = eras.find((e) => e.start.slot <= slot && slot < e.end.slot);
  if (!era) throw new Error(`slot ${slot} is past the era summaries' horizon`);
  return systemStart + era.start.time + (slot - era.start.slot) * era.parameters.slot_length;
}

describe.each(NETWORKS)('the sandbox $network keeps the real network’s time', ({ network, lucid, blaze }) => {
  const clock = { now: Date.UTC(2026, 10, 3, 9, 17, 23, 400) };
  const chain = createSandboxChain({ network: network as SandboxNetwork, store: memoryLedgerStore(), now: () => clock.now });
  const blazeProvider = new BlazeBlockfrost({ network: blaze, projectId: 'unused' });

  it('has its current slot computed by the SDKs’ built-in slot configurations', () => {
    for (const step of [0, 7_300, 20_000, 86_400_000]) {
      clock.now += step;
      const tip = chain.latestBlock();
      const sdkSlots = [unixTimeToSlot(lucid, clock.now), Number(resolveSlotNo(network, clock.now)), Number(blazeProvider.unixToSlot(clock.now))];
      // The current slot is within the tip block's interval, and a block's time is its slot's time.
      for (const s of sdkSlots) {
        expect(s - tip.slot!).toBeGreaterThanOrEqual(0);
        expect(s - tip.slot!).toBeLessThan(chain.params.slotsPerBlock);
      }
      expect(unixTimeToSlot(lucid, tip.time * 1000)).toBe(tip.slot);
      expect(Number(resolveSlotNo(network, tip.time * 1000))).toBe(tip.slot);
      expect(Number(blazeProvider.unixToSlot(tip.time * 1000))).toBe(tip.slot);
    }
  });

  it('serves /genesis, /epochs/latest, /blocks and /network/eras that agree with that mapping', () => {
    const genesis = chain.genesis();
    const eras = chain.eras() as Era[];
    const tip = chain.latestBlock();
    const epoch = chain.latestEpoch();
    expect(timeThroughEras(eras, genesis.system_start, tip.slot!)).toBe(tip.time);
    expect(timeThroughEras(eras, genesis.system_start, chain.blockAt(0)!.slot!)).toBe(chain.blockAt(0)!.time);
    // The sandbox's epochs, as the last era counts them.
    const sandbox = eras[eras.length - 1]!;
    expect(sandbox.parameters.epoch_length).toBe(genesis.epoch_length);
    const epochFirstSlot = sandbox.start.slot + (epoch.epoch - sandbox.start.epoch) * sandbox.parameters.epoch_length;
    expect(tip.epoch).toBe(epoch.epoch);
    expect(tip.epoch_slot).toBe(tip.slot! - epochFirstSlot);
    expect(epoch.start_time).toBe(timeThroughEras(eras, genesis.system_start, epochFirstSlot));
    expect(epoch.end_time).toBe(epoch.start_time + genesis.epoch_length * genesis.slot_length);
    expect(chain.blockAtSlot(tip.slot!)).toEqual(tip);
    expect(chain.blockAtEpochSlot(epoch.epoch, tip.epoch_slot!)).toEqual(tip);
    // The real network's slots before the sandbox: 20 s Byron slots where it had them, then 1 s.
    if (network !== 'preview') expect(timeThroughEras(eras, genesis.system_start, 1)).toBe(genesis.system_start + 20);
    expect(timeThroughEras(eras, genesis.system_start, sandbox.start.slot - 1)).toBe(chain.blockAt(0)!.time - 1);
  });
});

it('refuses a genesis before the real network’s Shelley era, whose slots it could not number', () => {
  expect(() => createSandboxChain({ network: 'preview', genesisTime: Date.UTC(2022, 0, 1) })).toThrow(/cannot start before 2022-10-25T00:00:00.000Z/);
});
