// IPFS and Filecoin through the gateway (blockfrost-compat.md, 'IPFS'): limits, pin states, the
// dashboard's shapes and its display rules (spec section 9: MB = bytes / 1,000,000, danger at 85 %).
import { smallSizeText } from './pricing';

/** The largest file one add takes by default: 100 MB, as the spec counts MB (IPFS_MAX_ADD_MB changes it). */
export const IPFS_MAX_ADD_BYTES = 100 * 1_000_000;
/** Queued pins per project before pin/add answers 425 Pin Queue Full. */
export const PIN_QUEUE_LIMIT = 100;
/** Storage usage turns the danger colour at this fraction of the limit. */
const STORAGE_DANGER_FRACTION = 0.85;

export const PIN_STATES = ['queued', 'pinned', 'unpinned', 'failed', 'gc'] as const;
export type PinState = (typeof PIN_STATES)[number];
/** States whose bytes count toward the storage quota: queued pins reserve theirs so parallel pins cannot overshoot. */
export const COUNTED_PIN_STATES: readonly PinState[] = ['queued', 'pinned'];

/** One pin as the gateway lists it (GET /ipfs/pin/list). Times in UNIX seconds, size in bytes as a string. */
export interface IpfsPin {
  time_created: number;
  time_pinned: number | null;
  ipfs_hash: string;
  size: string;
  state: PinState;
  filecoin: boolean;
}

/** GET /api/workspaces/{id}/projects/{uuid}/ipfs: what an IPFS project's page shows. */
export interface IpfsProjectDto {
  /** 'embedded' (this server's store) or 'kubo' (the operator's node); null when the gateway proxies an upstream. */
  store: 'embedded' | 'kubo' | 'upstream';
  /** Where Filecoin deals are made: a Pinning Service API provider's URL, or null when none is configured (no deal is made). */
  filecoinProvider: string | null;
  /** The largest file one add takes on this server (IPFS_MAX_ADD_MB); null when an upstream answers the adds. */
  maxAddBytes: number | null;
  storage: { used: number; limit: number; filecoinUsed: number; filecoinLimit: number };
  pins: IpfsPin[];
  totalPins: number;
}

export const ipfsMessages = {
  noFilecoinDeal:
    'No Filecoin provider is configured on this server: Filecoin pins are kept on its own IPFS store and no Filecoin storage deal is made.',
  embeddedStore: 'Embedded IPFS store: content lives on this Cairn server only and is not announced to the IPFS network.',
  filecoinRemove: 'Filecoin pins cannot be removed.',
} as const;

/** The answer to an add larger than the server takes. */
export const ipfsTooLarge = (maxBytes: number): string => `The file is larger than ${mbText(maxBytes)}, the most one add takes.`;

/** "12.35 MB" — MB as the spec counts it (bytes / 1,000,000), two decimals below 100 MB; below 1 MB in KB or bytes. */
export function mbText(bytes: number): string {
  const small = smallSizeText(bytes);
  if (small) return small;
  const mb = bytes / 1_000_000;
  return `${mb >= 100 ? Math.round(mb).toLocaleString('en-US') : mb.toLocaleString('en-US', { maximumFractionDigits: 2 })} MB`;
}

export const storageIsDanger = (used: number, limit: number): boolean => limit > 0 && used >= limit * STORAGE_DANGER_FRACTION;
