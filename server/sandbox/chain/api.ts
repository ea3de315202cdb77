// The sandbox chain's interface: SandboxChain, composed of what production reads (LocalChain), what
// every resource reads of the chain as a whole (ChainBasics, params.ts) and one query interface per
// resource, each declared by the module that implements it (resources/<resource>/queries.ts).
//
// The types flow one way: this file imports the resources' interfaces, and no resource imports it
// (they take their own interface, and params.ts for the chain as a whole), so there is no cycle
// through the context the queries are built from (context.ts).
import type { LocalChain } from '../../blockfrost/chain';
import type { ChainBasics } from './params';
import type { BlockQueries } from './resources/blocks/queries';
import type { TxQueries } from './resources/txs/queries';
import type { EpochQueries } from './resources/epochs/queries';
import type { NetworkQueries } from './resources/network/queries';
import type { AddressQueries } from './resources/addresses/queries';
import type { AccountQueries } from './resources/accounts/queries';
import type { AssetQueries } from './resources/assets/queries';
import type { PoolQueries } from './resources/pools/queries';
import type { ScriptQueries } from './resources/scripts/queries';
import type { MetadataQueries } from './resources/metadata/queries';
import type { MempoolQueries } from './resources/mempool/queries';
import type { SubmitQueries } from './resources/submit/queries';
import type { UtilQueries } from './resources/utils/queries';
import type { NutlinkQueries } from './resources/nutlink/queries';
import type { GovernanceQueries } from './resources/governance/queries';

export interface CatalogAddress {
  address: string;
  stakeAddress: string | null;
  script: boolean;
}

export interface CatalogAsset {
  unit: string;
  policyId: string;
  assetName: string;
  fingerprint: string;
  nft: boolean;
}

export interface SandboxCatalog {
  addresses: CatalogAddress[];
  stakeAddresses: string[];
  pools: string[];
  assets: CatalogAsset[];
}

/** The sandbox chain: what production reads (LocalChain) and every path the sandbox serves (resources/). */
/** What a prepare() call does beyond keeping warm what answers warmed (SandboxChain.prepare). */
export interface PrepareOptions {
  /** The tip's segments and UTXO set built whatever was read. */
  build?: boolean;
  /** Every list's totals summed before it resolves. */
  lists?: boolean;
  /** A gateway's first call before it serves: the next blocks made, the pools' votes counted (up to 30 slices), the newest page of epochs summed, the summing compiled. */
  start?: boolean;
}

export interface SandboxChain
  extends LocalChain,
    ChainBasics,
    BlockQueries,
    TxQueries,
    EpochQueries,
    NetworkQueries,
    AddressQueries,
    AccountQueries,
    AssetQueries,
    PoolQueries,
    ScriptQueries,
    MetadataQueries,
    MempoolQueries,
    SubmitQueries,
    UtilQueries,
    NutlinkQueries,
    GovernanceQueries {
  /** The finite sets of addresses, stake addresses, pools and assets the chain uses. */
  catalog(): SandboxCatalog;
  /**
   * Does ahead, in time slices of about 10 ms (budget.ts), the work the next answers would otherwise
   * do in one stretch: simulates the segments of the next blocks, once answers read blocks near the
   * tip, and keeps the UTXO set at the tip, once an answer built it (the address window's blocks,
   * about 2 s of CPU); `build` does both whatever was read. A gateway calls it after every read of
   * the store, so a block's announcement or an address's answer does not hold the event loop for it,
   * and a chain nobody reads costs nothing. Once a list has read the chain's history, it also sums
   * the totals the lists of blocks and epochs and the committee's votes read (a few slices a call,
   * newest segments first: totals.ts), so their pages answer from them; `lists` sums every one
   * before it answers. A chain with a sweep worker (the `sweep` option: sweep.ts) leaves those to
   * the worker, from its creation: `prepare()` tells it the tip, and `lists` waits until it is done.
   * `start` is a gateway's first call, before it serves: it also makes the next blocks' segments,
   * counts the pools' votes (a default chain's whole, up to 30 slices) and sums the newest page of epochs (and, the process's first, enough further back
   * that V8 has compiled the summing).
   */
  prepare(opts?: PrepareOptions): Promise<void>;
  /** Stops the chain's sweep worker (a shared chain's `sweep` option: sweep.ts); nothing else to stop. */
  close(): Promise<void>;
}
