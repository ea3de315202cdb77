// What every resource's queries (resources/*/queries.ts) share, built once by createSandboxChain (chain.ts):
// the options, the world and its keys, clocks and heights, the segment cache, the live ledger, and
// the UTXO set as of the tip. The modules take it and answer their paths from it; none keeps state
// another needs.
import type { AddressUtxo } from '../../../shared/chain';
import type { SandboxChainParams, SandboxNetwork } from './params';
import type { Governance } from './gov';
import type { HashCodec } from './hashes';
import type { LiveLedger, LiveTx } from './ledger';
import type { Nutlink } from './nutlink';
import type { PoolBook } from './pools';
import type { LeaderSchedule } from './schedule';
import type { EpochTotals } from './totals';
import type { BlockTotals, Segment, SimBlock, SimTx } from './simulate';
import type { LiveStake, StakeView, WorldStake } from './stake';
import type { Utxo, UnspentView } from './unspent';
import type { DevWallet, Faucet } from './wallets';
import type { World, WorldPool } from './world';

/** An unspent output as of the tip: a background one created within the address window, or the live ledger's. */
export type UnspentOutput = Utxo;

export interface ChainContext {
  readonly network: SandboxNetwork;
  readonly params: SandboxChainParams;
  /** The chain's key: every simulated value derives from it (rng.ts). */
  readonly key: Uint8Array;
  readonly world: World;
  readonly hashes: HashCodec;
  readonly schedule: LeaderSchedule;
  readonly book: PoolBook;
  readonly ledger: LiveLedger;
  readonly governance: Governance;
  readonly nutlink: Nutlink;
  /** Development wallets and the faucet exist (false in production). */
  readonly devAids: boolean;
  readonly wallets: DevWallet[];
  readonly faucetKeys: Faucet;
  readonly clock: () => number;
  readonly tipHeight: () => number;
  readonly slotOf: (height: number) => number;
  /** A block's time in UNIX seconds. */
  readonly timeOf: (height: number) => number;
  readonly epochOf: (height: number) => number;
  /** The block whose end is the stake snapshot of an epoch: its last block. */
  readonly snapshotHeight: (epoch: number) => number;
  readonly poolById: (id: string) => WorldPool | undefined;
  /** A simulated segment, from the cache. */
  readonly segment: (index: number) => Segment;
  readonly simBlock: (height: number) => SimBlock;
  /** A block's background totals, without keeping its segment (lists of blocks and epochs). */
  readonly blockTotals: (height: number) => BlockTotals;
  /**
   * Before a page of epochs between two heights: the epochs' sums of the closed segments not summed
   * yet, made from the segments' decisions alone (segmentSums), in time slices.
   */
  readonly epochSums: (from: number, to: number) => void;
  /** An epoch's background totals once every block of it has been summed (totals.ts), else null. */
  readonly epochTotals: (epoch: number) => EpochTotals | null;
  /** A live transaction's index in its block (after the block's background transactions). */
  readonly liveIndex: (t: LiveTx) => number;
  /** The live ledger's stake accounts as of a height. */
  readonly liveStakeAt: (height: number) => LiveStake;
  /** The world's stake keys as members of their home pools, and their shares of its stake. */
  readonly worldStake: WorldStake;
  /**
   * The stake distribution after the block at `height` (the tip at most): every account's
   * controlled lovelace and pool. An epoch's active stake is this at the end of epoch − 2.
   */
  readonly stakeAt: (height: number) => StakeView;
  /** Totals of a block's live transactions. */
  readonly liveSums: (height: number) => Readonly<{ count: number; size: number; output: bigint; fees: bigint }>;
  /** A block reference (height, decimal text or hash) as a height up to the tip, else null. */
  readonly resolveHeight: (ref: string | number, tip: number) => number | null;
  /** A background transaction by hash, up to the tip, else null. */
  readonly resolveTx: (hash: string, tip: number) => SimTx | null;
  /** A background transaction's hash by its position (the block's segment is simulated for it, a distribution's is not). */
  readonly txHash: (height: number, index: number) => string;
  /** A background transaction's CBOR in hex (tx-cbor.ts). */
  readonly txCbor: (tx: SimTx) => string;
  /** A world address's bech32. */
  readonly addressText: (index: number) => string;
  /** Background transactions touching a world address within the address window, ascending. */
  readonly addressHistory: (addressIndex: number, tip: number) => SimTx[];
  /** The UTXO set as of the tip, all of it and by address. */
  readonly unspentAt: (tip: number) => UnspentView;
  readonly utxoObject: (u: UnspentOutput) => AddressUtxo;
  readonly sumOf: (utxos: UnspentOutput[]) => { lovelace: bigint; assets: Map<string, bigint> };
  /** A world address or one the live ledger has seen. */
  readonly knownAddress: (text: string) => boolean;
}
