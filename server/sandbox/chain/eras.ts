// /network/eras of the sandbox chain. The chain is born in Conway: like preview and preprod after
// their hard forks at epoch 0, the earlier eras are empty (they start and end at slot 0), and
// Conway runs from slot 0 to the end of the safe zone past the tip, rounded up to an epoch
// boundary, as Ogmios and Blockfrost answer for the current era.
export interface EraBound {
  /** Seconds since the chain's start (slots are 1 s). */
  time: number;
  slot: number;
  epoch: number;
}

export interface Era {
  start: EraBound;
  end: EraBound;
  parameters: { epoch_length: number; slot_length: number; safe_zone: number };
}

const EARLIER_ERAS = 6; // Byron, Shelley, Allegra, Mary, Alonzo, Babbage

export function networkEras(o: { tip: number; slotsPerBlock: number; blocksPerEpoch: number; securityParam: number }): Era[] {
  const epochLength = o.blocksPerEpoch * o.slotsPerBlock;
  // 3k/f slots, with f = 1 / slotsPerBlock (the genesis' active_slots_coefficient).
  const safeZone = 3 * o.securityParam * o.slotsPerBlock;
  const parameters = { epoch_length: epochLength, slot_length: 1, safe_zone: safeZone };
  const origin: EraBound = { time: 0, slot: 0, epoch: 0 };
  const horizon = o.tip * o.slotsPerBlock + safeZone;
  const endEpoch = Math.ceil(horizon / epochLength);
  const end: EraBound = { time: endEpoch * epochLength, slot: endEpoch * epochLength, epoch: endEpoch };
  return [...Array.from({ length: EARLIER_ERAS }, () => ({ start: origin, end: origin, parameters })), { start: origin, end, parameters }];
}
