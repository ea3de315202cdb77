// Slots and wall-clock time as the real network has them. A slot number of the sandbox's mainnet,
// preprod or preview means the same moment as on the real network, so the slot configurations built
// into transaction builders (Lucid Evolution's, Mesh's and Blaze's SLOT_CONFIG_NETWORK) compute the
// sandbox's current slot, and validity intervals and POSIX-time validators made with them hold.
import type { CardanoNetwork as SandboxNetwork } from '../../../shared/cardano/address';

export interface NetworkTime {
  /** The network's system start (slot 0), UNIX milliseconds. */
  systemStart: number;
  /** Slots of the Byron era (20 s each); Shelley and later eras have 1 s slots. */
  byronSlots: number;
  byronEpochLength: number;
  /** Slots per epoch from Shelley on. */
  epochLength: number;
  /** The real network's k (its era summaries' safe zones derive from it). */
  securityParam: number;
  /** Length of a slot from Shelley on, in milliseconds (1000 on the real networks; a devnet's genesis may shorten it). */
  slotLengthMs: number;
}

export const BYRON_SLOT_MS = 20_000;
export const SLOT_MS = 1000;

/** The real networks' genesis: mainnet and preprod began in Byron, preview in Alonzo at slot 0. */
export const NETWORK_TIME: Record<SandboxNetwork, NetworkTime> = {
  mainnet: { systemStart: Date.UTC(2017, 8, 23, 21, 44, 51), byronSlots: 4_492_800, byronEpochLength: 21_600, epochLength: 432_000, securityParam: 2160, slotLengthMs: SLOT_MS },
  preprod: { systemStart: Date.UTC(2022, 5, 1), byronSlots: 86_400, byronEpochLength: 21_600, epochLength: 432_000, securityParam: 2160, slotLengthMs: SLOT_MS },
  preview: { systemStart: Date.UTC(2022, 9, 25), byronSlots: 0, byronEpochLength: 4_320, epochLength: 86_400, securityParam: 432, slotLengthMs: SLOT_MS },
};

/** The moment Shelley began: what the SDKs call zeroTime, with zeroSlot the Byron slots before it. */
export const shelleyStart = (t: NetworkTime): number => t.systemStart + t.byronSlots * BYRON_SLOT_MS;

/** The slot in progress at `ms` (UNIX milliseconds), from Shelley on. */
export function slotAt(network: SandboxNetwork | NetworkTime, ms: number): number {
  const t = typeof network === 'string' ? NETWORK_TIME[network] : network;
  const start = shelleyStart(t);
  if (ms < start) throw new Error(`the sandbox ${typeof network === 'string' ? network : 'chain'} cannot start before ${new Date(start).toISOString()}, when its Shelley era began`);
  return t.byronSlots + Math.floor((ms - start) / t.slotLengthMs);
}

/** When a slot (from Shelley on) begins, UNIX milliseconds. */
export function timeOfSlot(network: SandboxNetwork | NetworkTime, slot: number): number {
  const t = typeof network === 'string' ? NETWORK_TIME[network] : network;
  return shelleyStart(t) + (slot - t.byronSlots) * t.slotLengthMs;
}
