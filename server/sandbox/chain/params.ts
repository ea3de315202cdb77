// The sandbox chain's network, its options with their defaults, the parameters resolved from them,
// and what every resource may read of the chain as a whole. The bottom of the chain's types: the
// resources (resources/*) and their shared context import it, and it imports none of them.
import type { CardanoNetwork } from '../../../shared/cardano/address';
import { cardanoOfSandbox, sandboxNetworks } from '../../../shared/networks';
import type { LedgerStore } from './ledger';
import type { NetworkTime } from './clock';
import type { Protocol, ProtocolOverrides } from './protocol';
import type { GenesisPoolSpec } from './genesis-pools';

export type SandboxNetwork = CardanoNetwork;

/** 2025-01-01T00:00:00Z: at 20 s blocks the chain starts with well over a year of history. */
export const DEFAULT_GENESIS_TIME = Date.UTC(2025, 0, 1);
export const DEFAULT_BLOCK_INTERVAL_MS = 20_000;
/** 30 blocks: an epoch every 10 minutes at 20 s blocks, so a delegation earns rewards within half an hour, as on a devnet. */
export const DEFAULT_BLOCKS_PER_EPOCH = 30;
/** Address balances and histories cover the most recent 720 blocks (4 hours at 20 s blocks). */
export const DEFAULT_ADDRESS_WINDOW_BLOCKS = 720;
export const DEFAULT_SEGMENT_LENGTH = 60;
export const DEFAULT_SEED = 'cairn';

/** Each sandbox chain's network magic, from the network table. */
export const NETWORK_MAGIC = Object.fromEntries(sandboxNetworks.map((n) => [n.sandbox, cardanoOfSandbox(n.sandbox).networkMagic])) as Record<SandboxNetwork, number>;

export interface SandboxChainOptions {
  network: SandboxNetwork;
  /** Milliseconds between blocks; default 20000. */
  blockIntervalMs?: number;
  /** Time of block 0 in UNIX milliseconds; default 2025-01-01T00:00:00Z. */
  genesisTime?: number;
  /** Any string; chains with different seeds share nothing. Default 'cairn'. */
  seed?: string;
  /** Clock in UNIX milliseconds; default Date.now. */
  now?: () => number;
  /** Blocks per epoch; default 30. */
  blocksPerEpoch?: number;
  /** How many recent blocks address balances and histories cover; default 720. */
  addressWindowBlocks?: number;
  /** Simulation unit in blocks (see simulate.ts); default 60. */
  segmentLength?: number;
  /** Segments kept in memory; default 48, never fewer than the address window needs. */
  cacheSegments?: number;
  /** Where accepted transactions (submissions, faucet payments) are kept; memory when absent. */
  store?: LedgerStore;
  /** Development wallets and the faucet (default true); false in production, where neither exists. */
  devAids?: boolean;
  /**
   * A private development chain (devnet.ts) instead of a shared network's: its own genesis (network
   * magic, system start at genesisTime, slot length, epoch length, k, protocol parameters, funds) and
   * its forks. Its addresses are testnet ones (network id 0): `network` must be a testnet.
   */
  devnet?: DevnetChainOptions;
  /**
   * A shared chain's sweep (sweep.ts): a worker thread simulates every closed segment once, from
   * the start, for the lists' totals and an index of every background transaction by hash, kept in
   * chunks under `dir` (a folder named by the chain's identity inside it; null: in memory), so a
   * restart reads them back. Not for devnets. Without it a list sums what it reads (prepare() sums
   * ahead once a list has read the history) and a hash is found once this process simulated its block.
   * The worker keeps its folder marked in use and removes the network's folders of chains simulated
   * differently that nothing used for a day, or for a week if never marked (sweep-folders.ts), telling `removed` each.
   * `sumsOnly`: the worker sums every closed segment's epochs and helps cold pages of them, and
   * never sweeps (no hash is looked up in it; `dir` is not used).
   */
  sweep?: { dir: string | null; removed?: (folder: string, bytes: number) => void; sumsOnly?: boolean };
  /**
   * A devnet's history summed by the process's devnet sums worker (devnet-sums.ts) once it is long
   * (default true for a devnet; the worker's own chains have none).
   */
  historySums?: boolean;
  /**
   * Where the chain keeps its history's whole epochs' sums between loads: a devnet loaded again (a
   * restart, a reload after idling: devnet-sums.ts) or a shared chain started again (kept-sums.ts)
   * reads them before it answers rather than summing its history again. None: they are summed again
   * at each load.
   */
  historyStore?: HistorySumsStore;
}

/** A chain's history's whole epochs' sums, kept under the identity of the history they were summed from. */
export interface HistorySumsStore {
  load(): Promise<{ identity: string; sums: Uint8Array } | null>;
  save(identity: string, sums: Uint8Array): Promise<void>;
}

/** Where the chain's blocks left an abandoned branch: blocks above `height` belong to branch `n` (0 is the first). */
export interface ChainFork {
  height: number;
  n: number;
}

export interface DevnetChainOptions {
  /** The devnet's id: its ledger entries are stored under `devnet:<id>`. */
  id: string;
  networkMagic: number;
  slotLengthMs: number;
  /** Slots per epoch; a multiple of the slots between blocks. */
  epochLength: number;
  securityParam: number;
  protocol?: ProtocolOverrides;
  /** Extra outputs of the genesis transaction (block 0). */
  initialFunds?: Array<{ address: string; lovelace: bigint }>;
  /** DReps the genesis transaction registers (credential hex, key or script). */
  initialDReps?: Array<{ credential: string; script: boolean }>;
  /** The genesis' constitutional committee, in place of the world's: its members' cold credentials and last epochs, and its quorum. */
  committee?: { members: Array<{ coldHex: string; script: boolean; expiryEpoch: number }>; quorum: { numerator: number; denominator: number } } | null;
  /** Stake pools registered from block 0, after the world's (the world's own pools keep leading every block). */
  initialPools?: GenesisPoolSpec[];
  /** Stake keys of initial funds the genesis transaction registers and delegates: `pool` is a place in initialPools, `drep` a DRep of initialDReps (or one of the two special ones). */
  initialDelegations?: Array<{ stakeAddress: string; pool: number | null; drep: { hex: string; script: boolean } | 'abstain' | 'no_confidence' | null }>;
  /** The forks made so far, ascending by height (each later one above the earlier). */
  forks?: ChainFork[];
}

export interface SandboxChainParams {
  network: SandboxNetwork;
  networkMagic: number;
  seed: string;
  genesisTime: number;
  blockIntervalMs: number;
  blocksPerEpoch: number;
  slotsPerBlock: number;
  /** Block 0's slot: the real network's slot at genesisTime. */
  firstSlot: number;
  addressWindowBlocks: number;
  segmentLength: number;
  /** Slot ↔ time: the real network's (clock.ts), or a devnet's genesis. */
  time: NetworkTime;
  /** The genesis' k. */
  securityParam: number;
  /** The protocol parameters the chain serves and its ledger enforces. */
  protocol: Protocol;
  /** A devnet's id; null for the shared chains. */
  devnet: string | null;
  /** The key the live ledger's entries are stored under: the network, or `devnet:<id>`. */
  ledgerKey: string;
}


/** What every resource may read of the chain as a whole: its network and parameters, its clock and its tip. */
export interface ChainBasics {
  readonly network: SandboxNetwork;
  readonly params: SandboxChainParams;
  now(): number;
  tipHeight(): number;
  epochOfHeight(height: number): number;
}
