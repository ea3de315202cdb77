// /network/eras of the sandbox chain, as Ogmios's era summaries: times are seconds since the real
// network's system start, so slot ↔ time through these summaries is the real network's mapping
// (clock.ts). The real network's Byron era (20 s slots, where it had one) and its Shelley-to-Babbage
// history (1 s slots) lead up to the sandbox's first slot, where the sandbox's Conway era begins with
// its own short epochs, running to the end of the safe zone (3k/f slots) past the tip, rounded up to
// an epoch boundary, as Ogmios and Blockfrost answer for the current era. The sandbox counts its
// epochs from its first block, so the eras before it start and end at epoch 0.
import { BYRON_SLOT_MS, type NetworkTime } from './clock';

export interface EraBound {
  /** Seconds since the network's system start. */
  time: number;
  slot: number;
  epoch: number;
}

export interface Era {
  start: EraBound;
  end: EraBound;
  parameters: { epoch_length: number; slot_length: number; safe_zone: number };
}

export function networkEras(o: { time: NetworkTime; firstSlot: number; tip: number; slotsPerBlock: number; blocksPerEpoch: number; securityParam: number }): Era[] {
  const t = o.time;
  const slotMs = t.slotLengthMs;
  const epochLength = o.blocksPerEpoch * o.slotsPerBlock;
  // 3k/f slots, with f = 1 / slotsPerBlock (the genesis' active_slots_coefficient).
  const safeZone = 3 * o.securityParam * o.slotsPerBlock;
  const byronEnd: EraBound = { time: (t.byronSlots * BYRON_SLOT_MS) / 1000, slot: t.byronSlots, epoch: 0 };
  const sandboxStart: EraBound = { time: byronEnd.time + ((o.firstSlot - t.byronSlots) * slotMs) / 1000, slot: o.firstSlot, epoch: 0 };
  const byron = { start: { time: 0, slot: 0, epoch: 0 }, end: byronEnd, parameters: { epoch_length: t.byronEpochLength, slot_length: BYRON_SLOT_MS / 1000, safe_zone: 2 * t.securityParam } };
  const history = { epoch_length: t.epochLength, slot_length: slotMs / 1000, safe_zone: 3 * t.securityParam * 20 }; // f = 0.05
  // Shelley, Allegra, Mary and Alonzo are empty at Byron's end; Babbage holds the real history up to the sandbox.
  const empty = Array.from({ length: 4 }, () => ({ start: byronEnd, end: byronEnd, parameters: history }));
  const babbage = { start: byronEnd, end: sandboxStart, parameters: history };
  const endEpoch = Math.ceil((o.tip * o.slotsPerBlock + safeZone) / epochLength);
  const span = endEpoch * epochLength;
  const conway = {
    start: sandboxStart,
    end: { time: sandboxStart.time + (span * slotMs) / 1000, slot: o.firstSlot + span, epoch: endEpoch },
    parameters: { epoch_length: epochLength, slot_length: slotMs / 1000, safe_zone: safeZone },
  };
  return [byron, ...empty, babbage, conway];
}
