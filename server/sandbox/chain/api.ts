// The sandbox chain's interface: its options and parameters, and the SandboxChain every path
// module (resources/*/queries.ts) implements a part of.
import type { PageRequest } from '../../blockfrost/http';
import type { LocalChain } from '../../blockfrost/chain';
import type { CardanoNetwork } from '../../../shared/cardano/address';
import { cardanoOfSandbox, sandboxNetworks } from '../../../shared/networks';
import type { LedgerStore, LiveScript } from './ledger';
import type { ProtocolParameters } from './protocol';
import type { Evaluation, ResolvedOutput } from './plutus';
import type { Governance } from './gov';
import type { Era } from './eras';
import type { Nutlink } from './nutlink';
import type { PoolMetadata, PoolRelay } from './pools';
import type { AccountAddressesTotal, AccountDelegation, AccountHistoryItem, AccountRegistration, AccountReward, AccountTransaction, AccountWithdrawal, PoolHistoryItem, PoolUpdate, TxPoolUpdate, TxStakeCert } from './stake';
import type { AddressTotal, AssetAction, AssetUtxo, BlockAddress, MempoolTx, ScriptRedeemer, ScriptUtxo, TxRedeemer } from './txs';
import type { AddressInfo, AddressTransaction, Asset, Block, Epoch, EpochStart, Genesis, Network, Pagination, Pool, PoolExtended, Account, AddressExtended, AddressUtxo, AssetHolder, AssetListItem, MetadataLabel, Tx, TxDelegation, TxDetails, TxUtxos } from '../../../shared/chain';

export { isAddressOfNetwork, isStakeAddressOfNetwork } from '../../blockfrost/contract';

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
}

/** What the faucet is asked for (the dashboard button, /dev/faucet, pay-as-you-go orders in development). */
export interface FaucetRequest {
  address: string;
  lovelace: bigint | number | string;
  /** Test native assets minted under the faucet's policy: asset name in hex, quantity. */
  assets?: Array<{ assetName: string; quantity: bigint | number | string }>;
}

export interface FaucetPayment {
  txHash: string;
  /** The block the payment goes into (the next one). */
  height: number;
  lovelace: string;
  assets: Array<{ unit: string; quantity: string }>;
}

/** A development wallet: test keys derived from the seed, funded in block 0. */
export interface DevWalletInfo {
  mnemonic: string;
  address: string;
  stakeAddress: string;
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
}


export interface AddressTxQuery extends Pagination {
  /** Inclusive lower bound: "height" or "height:index". */
  from?: string;
  /** Inclusive upper bound: "height" or "height:index". */
  to?: string;
}

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
export interface SandboxChain extends LocalChain {
  readonly network: SandboxNetwork;
  readonly params: SandboxChainParams;
  now(): number;
  tipHeight(): number;
  epochOfHeight(height: number): number;
  /** The tip block; the same frozen object until the next block. */
  latestBlock(): Readonly<Block>;
  /** A height (number or decimal string) or a block hash; null when unknown or above the tip. */
  blockAt(hashOrHeight: string | number): Block | null;
  blockNext(hashOrHeight: string | number, page?: Pagination): Block[] | null;
  blockPrevious(hashOrHeight: string | number, page?: Pagination): Block[] | null;
  /** Transaction hashes of a block, all of them unless a page is asked for. */
  blockTxs(hashOrHeight: string | number, page?: Pagination): string[] | null;
  /** Every transaction of a block in full: tx, inputs, outputs and delegations with their pools. */
  blockTxDetails(hashOrHeight: string | number): TxDetails[] | null;
  tx(hash: string): Tx | null;
  txUtxos(hash: string): TxUtxos | null;
  txDelegations(hash: string): TxDelegation[] | null;
  txDetails(hash: string): TxDetails | null;
  latestEpoch(): Epoch;
  epoch(n: number): Epoch | null;
  /** Start and end of an epoch (also of one not yet begun), as in the webhook epoch payload. */
  epochBounds(n: number): EpochStart;
  networkInfo(): Network;
  genesis(): Genesis;
  address(address: string): AddressInfo | null;
  addressTransactions(address: string, query?: AddressTxQuery): AddressTransaction[] | null;
  pool(poolId: string): Pool | null;
  asset(unit: string): Asset | null;
  /** Base addresses controlled by a stake address (empty when unknown). */
  addressesOfStake(stakeAddress: string): string[];
  /** The finite sets of addresses, stake addresses, pools and assets the chain uses. */
  catalog(): SandboxCatalog;

  parameters(epoch: number): ProtocolParameters | null;
  addressExtended(address: string): AddressExtended | null;
  /** Unspent outputs at an address (optionally holding one asset), in chain order; null when the address was never seen. */
  addressUtxos(address: string, page?: Pagination, asset?: string): AddressUtxo[] | null;
  txMetadata(hash: string): Array<{ label: string; json_metadata: unknown }> | null;
  txMetadataCbor(hash: string): Array<{ label: string; cbor_metadata: string | null; metadata: string | null }> | null;
  account(stakeAddress: string): Account | null;
  accountAddresses(stakeAddress: string, page?: Pagination): Array<{ address: string }> | null;
  accountUtxos(stakeAddress: string, page?: Pagination): AddressUtxo[] | null;
  assets(page?: Pagination): AssetListItem[];
  assetAddresses(unit: string, page?: Pagination): AssetHolder[] | null;
  assetsOfPolicy(policyId: string, page?: Pagination): AssetListItem[] | null;
  pools(page?: Pagination): string[];
  poolsExtended(page?: Pagination): PoolExtended[];
  script(hash: string): { script_hash: string; type: LiveScript['type']; serialised_size: number | null } | null;
  scriptCbor(hash: string): { cbor: string | null } | null;
  datum(hash: string): { json_value: unknown } | null;
  datumCbor(hash: string): { cbor: string } | null;
  metadataLabels(page?: Pagination): MetadataLabel[];
  metadataLabel(label: string, page?: Pagination): Array<{ tx_hash: string; json_metadata: unknown }> | null;
  xpubAddress(xpub: string, role: number, index: number): string;

  /** Loads the accepted transactions of the store (once); call before serving. */
  ready(): Promise<void>;
  /** Reads transactions other processes accepted since the last read. */
  sync(): Promise<void>;
  /** Validates a signed transaction (CBOR) and puts it into the next block; answers its hash or throws LedgerRefusal. */
  submit(cbor: Uint8Array): Promise<string>;
  /** /utils/txs/evaluate: the Plutus scripts' budgets or failures (throws LedgerRefusal for CBOR that is no transaction). */
  evaluate(cbor: Uint8Array, additional?: ResolvedOutput[]): Promise<Evaluation>;
  /** Pays test ada (and mints test assets) to an address in the next block; answers the transaction. */
  faucet(request: FaucetRequest): Promise<FaucetPayment>;
  devWallets(): DevWalletInfo[];
  faucetInfo(): { address: string; policyId: string };

  // ---- stake ----
  accountRewards(stakeAddress: string, page?: Pagination): AccountReward[] | null;
  accountHistory(stakeAddress: string, page?: Pagination): AccountHistoryItem[] | null;
  accountDelegations(stakeAddress: string, page?: Pagination): AccountDelegation[] | null;
  accountRegistrations(stakeAddress: string, page?: Pagination): AccountRegistration[] | null;
  accountWithdrawals(stakeAddress: string, page?: Pagination): AccountWithdrawal[] | null;
  /** Instantaneous rewards: none on this chain (Conway has no MIR certificates). */
  accountMirs(stakeAddress: string, page?: Pagination): AccountWithdrawal[] | null;
  accountAddressesAssets(stakeAddress: string, page?: Pagination): Array<{ unit: string; quantity: string }> | null;
  accountAddressesTotal(stakeAddress: string): AccountAddressesTotal | null;
  accountTransactions(stakeAddress: string, query?: AddressTxQuery): AccountTransaction[] | null;
  poolsRetired(page?: Pagination): Array<{ pool_id: string; epoch: number }>;
  poolsRetiring(page?: Pagination): Array<{ pool_id: string; epoch: number }>;
  poolHistory(poolId: string, page?: Pagination): PoolHistoryItem[] | null;
  /** The pool's metadata (every pool of the chain has some); null for an unknown pool. */
  poolMetadata(poolId: string): (PoolMetadata & { pool_id: string; hex: string }) | null;
  poolRelays(poolId: string): PoolRelay[] | null;
  poolDelegators(poolId: string, page?: Pagination): Array<{ address: string; live_stake: string }> | null;
  poolBlocks(poolId: string, page?: Pagination): string[] | null;
  poolUpdates(poolId: string, page?: Pagination): PoolUpdate[] | null;
  epochNext(epoch: number, page?: Pagination): Epoch[] | null;
  epochPrevious(epoch: number, page?: Pagination): Epoch[] | null;
  /** The epoch's active stake distribution (the snapshot of the end of epoch − 2). */
  epochStakes(epoch: number, page?: Pagination): Array<{ stake_address: string; pool_id: string; amount: string }> | null;
  epochPoolStakes(epoch: number, poolId: string, page?: Pagination): Array<{ stake_address: string; amount: string }> | null;
  epochBlocks(epoch: number, page?: Pagination): string[] | null;
  epochPoolBlocks(epoch: number, poolId: string, page?: Pagination): string[] | null;
  txStakes(hash: string): TxStakeCert[] | null;
  txWithdrawals(hash: string): Array<{ address: string; amount: string }> | null;
  txMirs(hash: string): Array<{ pot: 'reserve' | 'treasury'; cert_index: number; address: string; amount: string }> | null;
  txPoolUpdates(hash: string): TxPoolUpdate[] | null;
  txPoolRetires(hash: string): Array<{ cert_index: number; pool_id: string; retiring_epoch: number }> | null;

  // ---- txs ----
  /** The block of an absolute slot; null when no block has that slot (or it is above the tip). */
  blockAtSlot(slot: number): Block | null;
  /** The block of a slot within an epoch. */
  blockAtEpochSlot(epoch: number, epochSlot: number): Block | null;
  /** Addresses in a block's transactions' inputs and outputs, by bech32, each with its transactions. */
  blockAddresses(hashOrHeight: string | number, page?: Pagination): BlockAddress[] | null;
  /** A block's transactions that have CBOR (the live ledger's; background transactions have none). */
  blockTxsCbor(hashOrHeight: string | number, page?: Pagination): Array<{ tx_hash: string; cbor: string }> | null;
  txRedeemers(hash: string): TxRedeemer[] | null;
  txRequiredSigners(hash: string): Array<{ witness_hash: string }> | null;
  /** The bytes a live transaction was submitted as; null for unknown and background transactions. */
  txCbor(hash: string): { cbor: string } | null;
  addressTotal(address: string): AddressTotal | null;
  assetHistory(unit: string, page?: Pagination): AssetAction[] | null;
  assetTransactions(unit: string, query?: AddressTxQuery): AddressTransaction[] | null;
  /** Unspent outputs holding an asset; from/to bound the block height (inclusive). */
  assetUtxos(unit: string, query?: Pagination & { from?: number; to?: number }): AssetUtxo[] | null;
  /** Script hashes the chain knows: the world's script addresses', then those of live transactions. */
  scripts(page?: Pagination): Array<{ script_hash: string }>;
  scriptJson(hash: string): { json: unknown } | null;
  scriptRedeemers(hash: string, page?: Pagination): ScriptRedeemer[] | null;
  /** Unspent outputs holding the script as a reference script. */
  scriptUtxos(hash: string, page?: Pagination): ScriptUtxo[] | null;
  metadataLabelCbor(label: string, page?: Pagination): Array<{ tx_hash: string; cbor_metadata: string | null; metadata: string | null }>;
  /** Accepted transactions waiting for the next block, in the order they were accepted. */
  mempool(page?: Pagination): Array<{ tx_hash: string }>;
  mempoolTx(hash: string): MempoolTx | null;
  mempoolOfAddress(address: string, page?: Pagination): Array<{ tx_hash: string }>;

  // ---- gov ----
  /** Conway governance: DReps, the committee, proposals and votes (gov.ts). */
  governance(): Governance;
  /** /network/eras: the eras with their bounds and parameters. */
  eras(): Era[];
  nutlinkAddress(address: string): ReturnType<Nutlink['address']>;
  nutlinkTickers(address: string, page: PageRequest): ReturnType<Nutlink['tickers']>;
  nutlinkAddressTicker(address: string, ticker: string, page: PageRequest): ReturnType<Nutlink['addressTicker']>;
  nutlinkTicker(ticker: string, page: PageRequest): ReturnType<Nutlink['ticker']>;
}
