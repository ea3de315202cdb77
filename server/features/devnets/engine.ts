// What the devnets feature needs of a development chain. The chain itself is a simulator
// (server/sandbox/), which no feature imports: the composition root hands an engine over. The
// chain's state is opaque JSON here: the engine alone reads it, the feature keeps it in the database.
import type { sandboxBackend } from '../../gateway/backends';
import type { LocalChain } from '../../blockfrost/chain';
import type { AdvanceTime, DevnetGenesisSettings, DevnetTipDto } from '../../../shared/devnets';

/** A chain's state as JSON: everything that rebuilds it (genesis, seed, clock, forks). */
export type DevnetStateJson = Record<string, unknown>;
/** A snapshot as JSON: the state and the ledger entries as they were. */
export type DevnetSnapshotJson = Record<string, unknown>;

/** What the steering calls do to a chain; each changes `state()` or the ledger, or both. */
export interface DevnetSteering {
  state(): DevnetStateJson;
  produce(count: number): Promise<void>;
  pause(): void;
  resume(): void;
  setBlockInterval(ms: number): void;
  rollback(blocks: number, txs: 'mempool' | 'drop'): Promise<{ requeued: string[]; dropped: string[] }>;
  advance(by: AdvanceTime): Promise<void>;
  /** Throws RangeError with a reason a caller may read when the address or an amount is refused. */
  fund(address: string, lovelace: bigint, assets?: Array<{ assetName: string; quantity: bigint }>): Promise<{ txHash: string; height: number; policyId: string }>;
  reset(): Promise<void>;
  snapshot(): Promise<DevnetSnapshotJson>;
  /** Throws RangeError when the snapshot is not one this engine can restore. */
  restore(snapshot: DevnetSnapshotJson): Promise<void>;
}

/** One devnet's chain, loaded. */
export interface DevnetChain {
  /** The chain's Blockfrost API (paths after /api/v0); the same object for as long as the chain is held. */
  router: Parameters<typeof sandboxBackend>[0];
  tip(): DevnetTipDto;
  /** The chain as a webhook follower reads it: blocks, their transactions, epochs. */
  local: LocalChain;
  /** Whether an accepted transaction waits for a block (a rollback's requeued ones do). */
  waiting(txHash: string): boolean;
  facts(): { paused: boolean; blockIntervalMs: number; slotLengthMs: number; epochLength: number; networkMagic: number; systemStart: number };
  /** When (wall-clock UNIX ms) the clock makes the next block; null while paused (only steering makes blocks then). */
  nextBlockDue(): number | null;
  /** Reads the ledger entries other processes appended since the last read. */
  sync(): Promise<void>;
  /** The ledger's last entry read or appended (its sequence number): sync() has more to read when the store's last one is past it. */
  ledgerSeq(): number;
  /** Takes the state another process saved (and the ledger as the store now has it): the same object, rebuilt. */
  reload(state: DevnetStateJson): Promise<void>;
  steering: DevnetSteering;
}

export interface DevnetEngine {
  /** A new chain's state from a genesis, starting now. */
  genesisState(genesis: DevnetGenesisSettings, now: number): DevnetStateJson;
  /** Whether a state's clock runs (not paused): kept beside it, for the webhook worker. */
  running(state: DevnetStateJson): boolean;
  /** Builds the chain of a devnet from its state (its ledger from the store, under the devnet's key) and loads its ledger. */
  open(devnetId: number, state: DevnetStateJson): Promise<DevnetChain>;
  /** Forgets a devnet's ledger entries (its project was deleted, or it starts from a new genesis). */
  forget(devnetId: number): Promise<void>;
  /** The key of a devnet's entries in the ledger's table (sandbox_ledger's `network`). */
  ledgerKey(devnetId: number): string;
}
