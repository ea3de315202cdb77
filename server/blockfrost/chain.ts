// The chain interfaces production code reads a Cardano backend through. A network's backend is a
// Blockfrost-compatible upstream over HTTP or a chain served in process (the sandbox chain); the
// composition roots hand either in, and features and the gateway know only these shapes.
import type { CardanoNetwork } from '../../shared/cardano/address';
import type { Block, Epoch, EpochStart, Tx, TxDetails } from '../../shared/chain';

/** What the webhook follower, the pay-as-you-go watcher, the status probes and the landing page read from a chain. */
export interface ChainSource {
  tipHeight(): Promise<number>;
  blockAt(height: number): Promise<Block | null>;
  blockTxDetails(hash: string): Promise<TxDetails[]>;
  /** Only the hashes of a block's transactions (cheaper than their details); absent: read from blockTxDetails. */
  blockTxHashes?(hash: string): Promise<string[]>;
  /** Which of these transactions wait in the mempool now; absent: none is known to. */
  inMempool?(hashes: string[]): Promise<Set<string>>;
  /** Sends a transaction (CBOR) to the mempool again; answers whether the backend took it. Absent: this backend cannot. */
  resubmit?(cbor: Uint8Array): Promise<boolean>;
  /** A chain read in process: the block holding a transaction (null while it is in none), read in memory. */
  txBlock?(hash: string): { height: number; hash: string } | null;
  epoch(n: number): Promise<Epoch | null>;
  /** {epoch, start_time, end_time} of an epoch (the current_epoch of the epoch payload). */
  epochStart(n: number): Promise<EpochStart | null>;
}

/** A Cardano chain served in this process (the sandbox chain implements it). */
export interface LocalChain {
  tipHeight(): number;
  /** When the block after the tip is due (UNIX ms): a chain made by the clock knows it, so a watcher wakes then instead of polling. */
  nextBlockAt(): number;
  /** The tip block; the same frozen object until the next block. */
  latestBlock(): Readonly<Block>;
  /** A height (number or decimal string) or a block hash; null when unknown or above the tip. */
  blockAt(hashOrHeight: string | number): Block | null;
  /** Every transaction of a block in full: tx, inputs, outputs and delegations with their pools. */
  blockTxDetails(hashOrHeight: string | number): TxDetails[] | null;
  epoch(n: number): Epoch | null;
  /** Start and end of an epoch (also of one not yet begun), as in the webhook epoch payload. */
  epochBounds(n: number): EpochStart;
  /** A transaction in a block (not one waiting for a block): the block's hash and height; null otherwise. */
  tx(hash: string): Tx | null;
  /** Reads transactions other processes accepted since the last read. */
  sync(): Promise<void>;
}

/** The chains served in process, by Cardano network (none in a process without simulators). */
export type LocalChains = Partial<Record<CardanoNetwork, LocalChain>>;
