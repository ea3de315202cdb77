// The sandbox chain: a deterministic simulated Cardano chain, served in Blockfrost shapes.
//
// Time-derived: block h is made at genesisTime + h × blockIntervalMs, so the tip is a function of
// the clock and nothing runs in the background. Deterministic: every value is derived from
// (seed, network, coordinates), so two processes with the same options serve byte-identical data.
// Cost per request is bounded: a block is simulated with its segment (segmentLength blocks) and
// segments are cached; lookups by hash decode the position from the hash itself.
import type { PageRequest } from '../../blockfrost/http';
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { parseShelleyAddress, parseStakeAddress, stakeAddressOf, type CardanoNetwork } from '../../../shared/cardano/address';
import { assetFingerprint } from '../../../shared/cardano/fingerprint';
import { cardanoOfSandbox, sandboxNetworks } from '../../../shared/networks';
import { LiveLedger, type LedgerStore, type LiveOutput, type LiveScript, type LiveTx } from './ledger';
import { PROTOCOL, protocolParameters, type ProtocolParameters } from './protocol';
import type { Evaluation, ResolvedOutput } from './plutus';
import { addressFromXpub, buildFaucetTx, devWallets, faucetOf, FAUCET_MAX_LOVELACE, genesisTx, type FaucetAsset } from './wallets';
import { HashCodec } from './hashes';
import { createGovernance, type Governance } from './gov';
import { networkEras, type Era } from './eras';
import { createNutlink, type Nutlink } from './nutlink';
import { FAUCET_WALLET } from './world';
import { derive, deriveBytes, deriveFloat } from './rng';
import { LeaderSchedule } from './schedule';
import { poolBook, type PoolMetadata, type PoolRelay, type PoolRetirement } from './pools';
import {
  LiveStake,
  REWARD_PPM_PER_EPOCH,
  type AccountAddressesTotal,
  type AccountDelegation,
  type AccountHistoryItem,
  type AccountRegistration,
  type AccountReward,
  type AccountTransaction,
  type AccountWithdrawal,
  type LiveStakeAccount,
  type PoolHistoryItem,
  type PoolUpdate,
  type TxPoolUpdate,
  type TxStakeCert,
} from './stake';
import { UnspentIndex, type UnspentView, type Utxo } from './unspent';
import { AssetWindow, type AssetWindowView } from './asset-window';
import { remintCount, segmentAddressTxs, simulateSegment, STAKE_KEY_DEPOSIT, type Segment, type SimBlock, type SimOutput, type SimTx } from './simulate';
import { buildWorld, type Wallet, type World, type WorldAsset, type WorldPool } from './world';
import {
  backgroundUnits,
  datumJson,
  liveRedeemer,
  purposeName,
  redeemerScripts,
  referenceScriptOf,
  remintSegment,
  requiredSigners,
  worldMintCount,
  type AddressTotal,
  type AssetAction,
  type AssetUtxo,
  type BlockAddress,
  type MempoolTx,
  type ScriptRedeemer,
  type ScriptUtxo,
  type TxRedeemer,
} from './txs';
import type {
  AddressInfo,
  AddressTransaction,
  Amount,
  Asset,
  Block,
  Epoch,
  EpochStart,
  Genesis,
  Network,
  Pagination,
  Pool,
  PoolExtended,
  Account,
  AddressExtended,
  AddressUtxo,
  AssetHolder,
  AssetListItem,
  MetadataLabel,
  Tx,
  TxDelegation,
  TxDelegationWithPool,
  TxDetails,
  TxInput,
  TxOutput,
  TxUtxos,
} from '../../../shared/chain';

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

export interface SandboxChain {
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

const MAX_SUPPLY = 45_000_000_000_000_000n;
const SATURATION_POINT = 75_000_000_000_000;

function positiveInt(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

export function fillPage(page: Pagination | undefined, total: number): PageRequest {
  return { count: page?.count ?? Math.max(total, 1), page: page?.page ?? 1, order: page?.order ?? 'asc' };
}

function amounts(lovelace: number | bigint, assets: Iterable<[string, number | bigint]>): Amount[] {
  const out: Amount[] = [{ unit: 'lovelace', quantity: String(lovelace) }];
  for (const [unit, quantity] of assets) out.push({ unit, quantity: String(quantity) });
  return out;
}

function parseBound(text: string | undefined): [number, number] | null {
  if (text === undefined) return null;
  const m = /^(\d+)(?::(\d+))?$/.exec(text);
  if (!m) throw new RangeError('malformed bound');
  return [Number(m[1]), m[2] === undefined ? -1 : Number(m[2])];
}

export function createSandboxChain(options: SandboxChainOptions): SandboxChain {
  const network = options.network;
  if (!(network in NETWORK_MAGIC)) throw new Error(`unknown sandbox network ${String(network)}`);
  const blockIntervalMs = positiveInt(options.blockIntervalMs ?? DEFAULT_BLOCK_INTERVAL_MS, 'blockIntervalMs');
  const blocksPerEpoch = positiveInt(options.blocksPerEpoch ?? DEFAULT_BLOCKS_PER_EPOCH, 'blocksPerEpoch');
  const addressWindowBlocks = positiveInt(options.addressWindowBlocks ?? DEFAULT_ADDRESS_WINDOW_BLOCKS, 'addressWindowBlocks');
  const segmentLength = positiveInt(options.segmentLength ?? DEFAULT_SEGMENT_LENGTH, 'segmentLength');
  // The cache always holds the whole address window plus a few segments around it.
  const cacheSegments = Math.max(positiveInt(options.cacheSegments ?? 48, 'cacheSegments'), Math.ceil(addressWindowBlocks / segmentLength) + 4);
  const genesisTime = options.genesisTime ?? DEFAULT_GENESIS_TIME;
  if (!Number.isSafeInteger(genesisTime)) throw new Error('genesisTime must be an integer of milliseconds');
  const seed = options.seed ?? DEFAULT_SEED;
  const clock = options.now ?? Date.now;
  const slotsPerBlock = Math.max(1, Math.round(blockIntervalMs / 1000));

  const params: SandboxChainParams = Object.freeze({
    network,
    networkMagic: NETWORK_MAGIC[network],
    seed,
    genesisTime,
    blockIntervalMs,
    blocksPerEpoch,
    slotsPerBlock,
    addressWindowBlocks,
    segmentLength,
  });

  const key = new Uint8Array(derive(new TextEncoder().encode('cairn-sandbox-chain/v1'), seed, network));
  const world: World = buildWorld(key, network);
  const hashes = new HashCodec(key);
  const schedule = new LeaderSchedule(key, world.pools, blocksPerEpoch);
  const slotOf = (height: number): number => height * slotsPerBlock;
  const timeOf = (height: number): number => Math.floor((genesisTime + height * blockIntervalMs) / 1000);
  const epochOf = (height: number): number => Math.floor(height / blocksPerEpoch);
  const simContext = { key, world, hashes, segmentLength, slotOf };
  const devAids = options.devAids ?? true;
  const wallets = devAids ? devWallets(key, network) : [];
  const faucetKeys = faucetOf(key, network);
  const book = poolBook(key, network, world.pools, blocksPerEpoch, segmentLength);
  const poolById = (id: string): WorldPool | undefined => book.byKey.get(id) ?? book.byKey.get(id.toLowerCase());

  const tipHeight = (): number => Math.max(0, Math.floor((clock() - genesisTime) / blockIntervalMs));
  const ledger = new LiveLedger({
    network,
    ...(options.store ? { store: options.store } : {}),
    tip: tipHeight,
    slotOf,
    isPool: (id) => world.poolByKey.has(id),
    slots: { zeroTime: genesisTime, zeroSlot: 0, slotLength: blockIntervalMs / slotsPerBlock },
    genesis: () => (devAids ? [{ hash: '', cbor: genesisTx(faucetKeys, wallets) }] : []),
    governance: (tx, accepted, height) => governance.check(tx, accepted, height),
    rewardBalance: (stake, height) => {
      const model = liveStakeAt(height);
      const a = model.accounts.get(stake);
      return a ? model.rewardBalanceAt(a, height) : 0n;
    },
  });
  // The live ledger's stake accounts as of a height (the tip, or the next block while validating).
  const liveStakeCache = new Map<string, LiveStake>();
  const liveStakeAt = (height: number): LiveStake => {
    const id = `${ledger.size}:${height}`;
    let hit = liveStakeCache.get(id);
    if (!hit) {
      hit = new LiveStake(ledger.through(height), height, {
        blocksPerEpoch,
        margin: (pool) => poolById(pool)?.margin ?? 0,
        outputOf: (txHash, outputIndex) => ledger.outputOf(txHash, outputIndex),
      });
      liveStakeCache.set(id, hit);
      if (liveStakeCache.size > 8) liveStakeCache.delete(liveStakeCache.keys().next().value!);
    }
    return hit;
  };
  /** Live stake delegated to each pool after the block at `height` (the tip at most). */
  const distributionCache = new Map<string, Map<string, Array<{ stakeAddress: string; amount: bigint }>>>();
  const liveDistribution = (height: number): Map<string, Array<{ stakeAddress: string; amount: bigint }>> => {
    const tip = tipHeight();
    const h = Math.min(height, tip);
    const id = `${ledger.size}:${tip}:${h}`;
    const hit = distributionCache.get(id);
    if (hit) return hit;
    const out = new Map<string, Array<{ stakeAddress: string; amount: bigint }>>();
    for (const d of liveStakeAt(tip).distribution(h)) {
      const list = out.get(d.pool) ?? [];
      list.push({ stakeAddress: d.stakeAddress, amount: d.amount });
      out.set(d.pool, list);
    }
    distributionCache.set(id, out);
    if (distributionCache.size > 256) distributionCache.delete(distributionCache.keys().next().value!);
    return out;
  };
  /** The block whose end is the stake snapshot of an epoch: its last block. */
  const snapshotHeight = (epoch: number): number => (epoch + 1) * blocksPerEpoch - 1;
  // A live transaction's index in its block follows the block's background transactions: computed
  // once, since it needs the block's segment, which the cache may have let go by the next call.
  const liveIndexes = new WeakMap<LiveTx, number>();
  const liveIndex = (t: LiveTx): number => {
    let i = liveIndexes.get(t);
    if (i === undefined) liveIndexes.set(t, (i = simBlock(t.height).txs.length + t.order));
    return i;
  };

  // ---- segment cache ----
  const segments = new Map<number, Segment>();
  const segment = (index: number): Segment => {
    const hit = segments.get(index);
    if (hit) {
      segments.delete(index);
      segments.set(index, hit);
      return hit;
    }
    const made = simulateSegment(simContext, index);
    segments.set(index, made);
    while (segments.size > cacheSegments) segments.delete(segments.keys().next().value!);
    return made;
  };
  const simBlock = (height: number): SimBlock => {
    const s = Math.floor(height / segmentLength);
    return segment(s).blocks[height - s * segmentLength]!;
  };

  // ---- references ----
  const resolveHeight = (ref: string | number, tip: number): number | null => {
    let height: number | null = null;
    if (typeof ref === 'number') height = Number.isSafeInteger(ref) ? ref : null;
    else if (/^\d{1,15}$/.test(ref)) height = Number(ref);
    else if (/^[0-9a-fA-F]{64}$/.test(ref)) height = hashes.blockHeight(ref);
    return height !== null && height >= 0 && height <= tip ? height : null;
  };
  const resolveTx = (hash: string, tip: number): SimTx | null => {
    if (typeof hash !== 'string') return null;
    const pos = hashes.txPosition(hash);
    if (!pos || pos.height > tip) return null;
    return simBlock(pos.height).txs[pos.index] ?? null;
  };

  // ---- pools ----
  /** The world's stake delegated to a pool at the end of an epoch (its delegators are the pool's world members). */
  const worldStakes = new Map<number, number>();
  const worldStake = (pool: WorldPool, epoch: number): number => {
    const e = Math.max(0, epoch);
    const id = e * 64 + pool.index;
    let stake = worldStakes.get(id);
    if (stake === undefined) {
      stake = Math.round((pool.baseStake * (0.94 + 0.12 * deriveFloat(key, 'pool-stake', pool.index, e))) / 1_000_000) * 1_000_000;
      worldStakes.set(id, stake);
      if (worldStakes.size > 100_000) worldStakes.delete(worldStakes.keys().next().value!);
    }
    return stake;
  };
  /** A pool's stake at the end of an epoch (the current one: as of the tip): the world's and the live ledger's. */
  const poolStake = (pool: WorldPool, epoch: number): number => {
    const live = epoch < 0 ? [] : (liveDistribution(snapshotHeight(epoch)).get(pool.id) ?? []);
    return worldStake(pool, epoch) + live.reduce((n, d) => n + Number(d.amount), 0);
  };
  const totalCache = new Map<string, number>();
  const totalStake = (epoch: number): number => {
    const id = `${ledger.size}:${tipHeight()}:${epoch}`;
    let total = totalCache.get(id);
    if (total === undefined) {
      total = world.pools.reduce((n, p) => n + poolStake(p, epoch), 0);
      totalCache.set(id, total);
      if (totalCache.size > 512) totalCache.delete(totalCache.keys().next().value!);
    }
    return total;
  };
  const opCert = (pool: WorldPool, epoch: number): { counter: number; hash: string } => {
    const counter = pool.opCertCounterBase + Math.floor(epoch / 90);
    return { counter, hash: derive(pool.opCertKey, 'opcert', counter).toString('hex') };
  };

  // Each world stake key belongs to a home pool, whose world stake it holds a fixed share of.
  const homePool = (wallet: Wallet): WorldPool => world.pools[wallet.id % world.pools.length]!;
  const members = new Map<WorldPool, Wallet[]>(world.pools.map((p) => [p, []]));
  for (const w of world.wallets) if (w.stakeAddress) members.get(homePool(w))!.push(w);
  const memberWeights = new Map<Wallet, bigint>(world.wallets.map((w) => [w, BigInt(1 + Math.floor(deriveFloat(key, 'member-weight', w.id) * 999))]));
  const memberWeight = (w: Wallet): bigint => memberWeights.get(w)!;
  /** Each world member's part of a pool's world stake; the parts sum to it exactly. */
  const memberShares = (pool: WorldPool, total: number): Array<{ wallet: Wallet; amount: bigint }> => {
    const list = members.get(pool) ?? [];
    const weights = list.reduce((n, w) => n + memberWeight(w), 0n);
    const shares = list.map((wallet) => ({ wallet, amount: weights === 0n ? 0n : (BigInt(total) * memberWeight(wallet)) / weights }));
    if (shares.length) shares[0]!.amount += BigInt(total) - shares.reduce((n, x) => n + x.amount, 0n);
    return shares;
  };
  const weightOf = (pool: WorldPool): number => schedule.weights[pool.index] ?? 0;
  const segmentTx = (segment: number): string => hashes.tx(segment * segmentLength, 0);
  const retirementTxs = (pool: WorldPool, tip: number): string[] => {
    const r = book.retirementOf(pool);
    if (r) return r.segment * segmentLength <= tip ? [segmentTx(r.segment)] : [];
    const n = book.announcements(pool, tip);
    return n > 0 ? [segmentTx(book.announcement(pool, n - 1).segment)] : [];
  };

  /** Retirement certificates of a background transaction: the first one of each segment carries them. */
  const retirementsOfTx = (tx: SimTx): PoolRetirement[] =>
    tx.index === 0 && tx.height % segmentLength === 0 ? book.retirementsIn(tx.height / segmentLength) : [];

  const poolObject = (pool: WorldPool, tip: number): Pool => {
    const epoch = epochOf(tip);
    const position = tip - epoch * blocksPerEpoch;
    const live = poolStake(pool, epoch);
    const active = poolStake(pool, epoch - 2);
    const liveTotal = totalStake(epoch);
    const activeTotal = totalStake(epoch - 2);
    const round = (x: number): number => Math.round(x * 1e6) / 1e6;
    return {
      pool_id: pool.id,
      hex: pool.hex,
      vrf_key: pool.vrfKeyHash,
      blocks_minted: epoch * weightOf(pool) + schedule.countInEpoch(pool.index, epoch, position),
      blocks_epoch: schedule.countInEpoch(pool.index, epoch, position),
      live_stake: String(live),
      live_size: round(live / liveTotal),
      live_saturation: round(live / SATURATION_POINT),
      live_delegators: (members.get(pool)?.length ?? 0) + (liveDistribution(tip).get(pool.id)?.length ?? 0),
      active_stake: String(active),
      active_size: round(active / activeTotal),
      declared_pledge: String(pool.pledge),
      live_pledge: String(pool.pledge + Math.round(deriveFloat(key, 'pool-pledge', pool.index, epoch) * 50) * 1_000_000),
      margin_cost: pool.margin,
      fixed_cost: String(pool.fixedCost),
      reward_account: pool.rewardAccount,
      owners: [pool.rewardAccount],
      registration: [hashes.tx(0, 0)],
      retirement: retirementTxs(pool, tip),
      calidus_key: null,
    };
  };

  // ---- blocks ----
  /** Totals of a block's live transactions. */
  const liveSums = (height: number): { count: number; size: number; output: bigint; fees: bigint } => {
    const out = { count: 0, size: 0, output: 0n, fees: 0n };
    for (const t of ledger.txsAt(height)) {
      out.count++;
      out.size += t.size;
      out.fees += t.fee;
      for (const o of t.outputs) out.output += o.lovelace;
    }
    return out;
  };
  const blockObject = (height: number, tip: number): Block => {
    const sim = simBlock(height);
    const live = liveSums(height);
    const epoch = epochOf(height);
    const pool = world.pools[schedule.leader(epoch, height - epoch * blocksPerEpoch)]!;
    const cert = opCert(pool, epoch);
    const empty = sim.txs.length + live.count === 0;
    return {
      time: timeOf(height),
      height,
      hash: hashes.block(height),
      slot: slotOf(height),
      epoch,
      epoch_slot: (height - epoch * blocksPerEpoch) * slotsPerBlock,
      slot_leader: pool.id,
      size: sim.size + live.size,
      tx_count: sim.txs.length + live.count,
      output: empty ? null : String(BigInt(sim.outputLovelace) + live.output),
      fees: empty ? null : String(BigInt(sim.fees) + live.fees),
      block_vrf: pool.vrfVkey,
      op_cert: cert.hash,
      op_cert_counter: String(cert.counter),
      previous_block: height > 0 ? hashes.block(height - 1) : null,
      next_block: height < tip ? hashes.block(height + 1) : null,
      confirmations: tip - height,
    };
  };

  // ---- transactions ----
  const outputAmounts = (o: SimOutput): Amount[] => amounts(o.lovelace, o.assets);
  const addressText = (index: number): string => world.addresses[index]!.bech32;

  const txObject = (tx: SimTx): Tx => {
    let lovelace = 0;
    const assets = new Map<string, bigint>();
    for (const o of tx.outputs) {
      lovelace += o.lovelace;
      for (const [unit, q] of o.assets) assets.set(unit, (assets.get(unit) ?? 0n) + BigInt(q));
    }
    return {
      hash: tx.hash,
      block: hashes.block(tx.height),
      block_height: tx.height,
      block_time: timeOf(tx.height),
      slot: slotOf(tx.height),
      index: tx.index,
      output_amount: amounts(lovelace, [...assets.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))),
      fees: String(tx.fee),
      deposit: String(tx.deposit),
      size: tx.size,
      invalid_before: tx.invalidBefore === null ? null : String(tx.invalidBefore),
      invalid_hereafter: tx.invalidHereafter === null ? null : String(tx.invalidHereafter),
      utxo_count: tx.inputs.length + tx.outputs.length,
      withdrawal_count: tx.withdrawals.length,
      mir_cert_count: 0,
      delegation_count: tx.delegations.length,
      stake_cert_count: tx.stakeRegistrations,
      pool_update_count: tx.height === 0 && tx.index === 0 ? book.all.length : tx.poolUpdates,
      pool_retire_count: retirementsOfTx(tx).length,
      asset_mint_or_burn_count: tx.mints,
      redeemer_count: tx.redeemers,
      valid_contract: true,
      treasury_donation: '0',
    };
  };

  const utxosObject = (tx: SimTx, tip: number): TxUtxos => ({
    hash: tx.hash,
    inputs: tx.inputs.map((i): TxInput => ({
      address: addressText(i.output.address),
      amount: outputAmounts(i.output),
      tx_hash: hashes.tx(i.height, i.index),
      output_index: i.outputIndex,
      data_hash: i.output.dataHash,
      inline_datum: i.output.inlineDatum,
      reference_script_hash: null,
      collateral: false,
      reference: false,
    })),
    outputs: tx.outputs.map((o, outputIndex): TxOutput => ({
      address: addressText(o.address),
      amount: outputAmounts(o),
      output_index: outputIndex,
      data_hash: o.dataHash,
      inline_datum: o.inlineDatum,
      collateral: false,
      reference_script_hash: null,
      consumed_by_tx: o.consumedBy && o.consumedBy.height <= tip ? hashes.tx(o.consumedBy.height, o.consumedBy.index) : null,
    })),
  });

  const delegationObjects = (tx: SimTx): TxDelegation[] =>
    tx.delegations.map((d, i) => {
      const certIndex = tx.stakeRegistrations > 0 ? i + tx.stakeRegistrations : i;
      return {
        index: certIndex,
        cert_index: certIndex,
        address: world.wallets[d.wallet]!.stakeAddress!,
        pool_id: world.pools[d.pool]!.id,
        active_epoch: epochOf(tx.height) + 2,
      };
    });

  const detailsObject = (tx: SimTx, tip: number): TxDetails => {
    const utxos = utxosObject(tx, tip);
    return {
      tx: txObject(tx),
      inputs: utxos.inputs,
      outputs: utxos.outputs,
      delegations: delegationObjects(tx).map((d): TxDelegationWithPool => ({ ...d, pool: poolObject(world.poolByKey.get(d.pool_id)!, tip) })),
    };
  };

  // ---- epochs ----
  const epochSums = new Map<number, { upTo: number; txCount: number; output: bigint; fees: bigint }>();
  const sumsOf = (epoch: number, last: number): { txCount: number; output: bigint; fees: bigint } => {
    const first = epoch * blocksPerEpoch;
    let entry = epochSums.get(epoch);
    if (!entry || entry.upTo > last) entry = { upTo: first - 1, txCount: 0, output: 0n, fees: 0n };
    for (let h = entry.upTo + 1; h <= last; h++) {
      const b = simBlock(h);
      const live = liveSums(h);
      entry.txCount += b.txs.length + live.count;
      entry.output += BigInt(b.outputLovelace) + live.output;
      entry.fees += BigInt(b.fees) + live.fees;
      entry.upTo = h;
    }
    epochSums.set(epoch, entry);
    if (epochSums.size > 256) epochSums.delete(epochSums.keys().next().value!);
    return entry;
  };
  const epochBounds = (n: number): EpochStart => ({
    epoch: n,
    start_time: Math.floor((genesisTime + n * blocksPerEpoch * blockIntervalMs) / 1000),
    end_time: Math.floor((genesisTime + (n + 1) * blocksPerEpoch * blockIntervalMs) / 1000),
  });
  const epochObject = (n: number, tip: number): Epoch | null => {
    if (!Number.isSafeInteger(n) || n < 0 || n > epochOf(tip)) return null;
    const first = n * blocksPerEpoch;
    const last = Math.min(tip, (n + 1) * blocksPerEpoch - 1);
    const sums = sumsOf(n, last);
    return {
      ...epochBounds(n),
      first_block_time: timeOf(first),
      last_block_time: timeOf(last),
      block_count: last - first + 1,
      tx_count: sums.txCount,
      output: String(sums.output),
      fees: String(sums.fees),
      active_stake: String(totalStake(n - 2)),
    };
  };

  // ---- addresses ----
  /** Transactions touching an address within the address window, ascending. */
  const addressHistory = (addressIndex: number, tip: number): SimTx[] => {
    const low = Math.max(0, tip - addressWindowBlocks + 1);
    const out: SimTx[] = [];
    for (let s = Math.floor(low / segmentLength); s <= Math.floor(tip / segmentLength); s++) {
      for (const tx of segmentAddressTxs(segment(s)).get(addressIndex) ?? []) {
        if (tx.height >= low && tx.height <= tip) out.push(tx);
      }
    }
    return out;
  };
  const worldAddress = (text: string): World['addresses'][number] | null => {
    if (typeof text !== 'string') return null;
    return world.addressByBech32.get(text) ?? null;
  };

  const paginate = <T>(items: T[], page: Pagination | undefined): T[] => {
    const p = fillPage(page, items.length);
    const ordered = p.order === 'desc' ? items.slice().reverse() : items;
    return ordered.slice((p.page - 1) * p.count, p.page * p.count);
  };

  const assetObject = (asset: WorldAsset, tip: number): Asset => {
    const remints = remintCount(asset, Math.floor(tip / segmentLength));
    const image = `ipfs://bafkrei${Buffer.from(deriveBytes(key, 32, 'asset-image', asset.unit)).toString('base64url').toLowerCase().replace(/[^a-z2-7]/g, 'a').slice(0, 52)}`;
    let onchain: Asset['onchain_metadata'] = null;
    if (asset.nft) onchain = { name: asset.name, image, mediaType: 'image/png', description: 'A stone of the Cairn sandbox chain' };
    else if (asset.standard === 'CIP68v1') onchain = { name: asset.name, ticker: asset.ticker, decimals: asset.decimals, description: 'A sandbox token' };
    return {
      asset: asset.unit,
      policy_id: asset.policyId,
      asset_name: asset.assetNameHex === '' ? null : asset.assetNameHex,
      fingerprint: asset.fingerprint,
      quantity: String(BigInt(asset.genesisSupply) + BigInt(remints) * BigInt(asset.mintAmount)),
      initial_mint_tx_hash: hashes.tx(0, 0),
      mint_or_burn_count: 1 + remints,
      onchain_metadata: onchain,
      onchain_metadata_standard: asset.standard,
      onchain_metadata_extra: null,
      metadata:
        asset.nft || asset.standard
          ? null
          : { name: asset.name, description: `${asset.name}, a token of the Cairn sandbox chain`, ticker: asset.ticker, url: null, logo: null, decimals: asset.decimals },
    };
  };

  // ---- live transactions (ledger.ts) in Blockfrost shapes ----
  const liveAmounts = (o: LiveOutput): Amount[] => amounts(o.lovelace, o.assets);
  const liveTxObject = (t: LiveTx): Tx => {
    let lovelace = 0n;
    const assets = new Map<string, bigint>();
    for (const o of t.outputs) {
      lovelace += o.lovelace;
      for (const [unit, q] of o.assets) assets.set(unit, (assets.get(unit) ?? 0n) + q);
    }
    return {
      hash: t.hash,
      block: hashes.block(t.height),
      block_height: t.height,
      block_time: timeOf(t.height),
      slot: slotOf(t.height),
      index: liveIndex(t),
      output_amount: amounts(lovelace, [...assets.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))),
      fees: String(t.fee),
      deposit: String(t.deposit),
      size: t.size,
      invalid_before: t.invalidBefore === null ? null : String(t.invalidBefore),
      invalid_hereafter: t.invalidHereafter === null ? null : String(t.invalidHereafter),
      utxo_count: t.inputs.length + t.outputs.length,
      withdrawal_count: t.withdrawals.length,
      mir_cert_count: 0,
      delegation_count: t.certs.filter((c) => c.kind === 'delegation').length,
      stake_cert_count: t.certs.filter((c) => c.kind !== 'delegation').length,
      pool_update_count: 0,
      pool_retire_count: 0,
      asset_mint_or_burn_count: t.mint.size,
      redeemer_count: t.redeemers.length,
      valid_contract: t.validContract,
      treasury_donation: '0',
    };
  };
  const liveUtxosObject = (t: LiveTx): TxUtxos => ({
    hash: t.hash,
    inputs: t.inputs.map((i): TxInput => {
      const o = ledger.outputOf(i.txHash, i.outputIndex)!;
      return {
        address: o.address, amount: liveAmounts(o), tx_hash: i.txHash, output_index: i.outputIndex, data_hash: o.dataHash,
        inline_datum: o.inlineDatum, reference_script_hash: o.referenceScriptHash, collateral: !t.validContract, reference: false,
      };
    }),
    outputs: t.outputs.map((o, i): TxOutput => ({
      address: o.address, amount: liveAmounts(o), output_index: t.outputOffset + i, data_hash: o.dataHash, inline_datum: o.inlineDatum,
      collateral: !t.validContract, reference_script_hash: o.referenceScriptHash, consumed_by_tx: ledger.spentBy(t.hash, t.outputOffset + i),
    })),
  });
  const liveDelegations = (t: LiveTx): TxDelegation[] =>
    t.certs.filter((c) => c.kind === 'delegation').map((c) => ({
      index: c.certIndex, cert_index: c.certIndex, address: c.stakeAddress, pool_id: c.pool!, active_epoch: epochOf(t.height) + 2,
    }));
  const liveDetails = (t: LiveTx, tip: number): TxDetails => {
    const utxos = liveUtxosObject(t);
    return {
      tx: liveTxObject(t),
      inputs: utxos.inputs,
      outputs: utxos.outputs,
      delegations: liveDelegations(t).map((d): TxDelegationWithPool => ({ ...d, pool: poolObject(poolById(d.pool_id)!, tip) })),
    };
  };

  // ---- the UTXO set as of the tip: background outputs created within the address window and
  // still unspent, plus the live ledger's unspent outputs. Every address, account and asset
  // answer derives from it, so an address's utxos always sum to its amount. ----
  const unspent = new UnspentIndex({
    window: addressWindowBlocks,
    block: simBlock,
    addressText,
    stakeOf: (address) => {
      const entry = world.addressByBech32.get(address);
      return entry ? entry.stakeAddress : stakeAddressOf(address);
    },
    liveVersion: () => ledger.all().length,
    liveUnspent: () => ledger.unspent().map((u) => ({
      txHash: u.txHash, outputIndex: u.outputIndex, height: u.height, txIndex: liveIndex(ledger.tx(u.txHash)!), address: u.output.address, lovelace: u.output.lovelace,
      assets: u.output.assets, dataHash: u.output.dataHash, inlineDatum: u.output.inlineDatum, referenceScriptHash: u.output.referenceScriptHash,
    })),
  });
  const unspentAt = (tip: number): UnspentView => unspent.at(tip);
  const utxoObject = (u: Utxo): AddressUtxo => ({
    address: u.address, tx_hash: u.txHash, tx_index: u.outputIndex, output_index: u.outputIndex, amount: amounts(u.lovelace, u.assets),
    block: hashes.block(u.height), data_hash: u.dataHash, inline_datum: u.inlineDatum, reference_script_hash: u.referenceScriptHash,
  });
  const sumOf = (utxos: Utxo[]): { lovelace: bigint; assets: Map<string, bigint> } => {
    let lovelace = 0n;
    const assets = new Map<string, bigint>();
    for (const u of utxos) {
      lovelace += u.lovelace;
      for (const [unit, q] of u.assets) assets.set(unit, (assets.get(unit) ?? 0n) + q);
    }
    return { lovelace, assets: new Map([...assets.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) };
  };
  const knownAddress = (text: string): boolean => typeof text === 'string' && (world.addressByBech32.has(text) || ledger.knows(text));

  // ---- stake accounts: world wallets (background) and any stake key the live ledger has seen ----
  // Addresses paid by visible live transactions, by stake address (background outputs only pay world
  // addresses, whose stake addresses the world knows); rebuilt once per block or accepted transaction.
  const stakeOfAddress = new Map<string, string | null>();
  let liveStakeIndex: { size: number; tip: number; map: Map<string, string[]> } | undefined;
  const liveAddressesByStake = (): Map<string, string[]> => {
    const tip = tipHeight();
    if (liveStakeIndex?.size === ledger.size && liveStakeIndex.tip === tip) return liveStakeIndex.map;
    const map = new Map<string, string[]>();
    for (const t of ledger.all()) {
      for (const o of t.outputs) {
        let s = stakeOfAddress.get(o.address);
        if (s === undefined) {
          s = stakeAddressOf(o.address);
          stakeOfAddress.set(o.address, s);
        }
        if (!s) continue;
        const list = map.get(s) ?? [];
        if (!list.includes(o.address)) list.push(o.address);
        map.set(s, list);
      }
    }
    liveStakeIndex = { size: ledger.size, tip, map };
    return map;
  };
  const addressesOfStakeAt = (stake: string, _tip: number): string[] => {
    const wallet = world.walletByStakeAddress.get(stake);
    const out = new Set<string>(wallet ? wallet.addresses.map(addressText) : []);
    for (const a of liveAddressesByStake().get(stake) ?? []) out.add(a);
    return [...out];
  };
  const knownStake = (stake: string): boolean => world.walletByStakeAddress.has(stake) || ledger.accounts().has(stake) || liveAddressesByStake().has(stake);
  /** The background wallet's latest delegation within the address window. */
  const worldDelegation = (stake: string, tip: number): { pool: string; height: number } | null => {
    const wallet = world.walletByStakeAddress.get(stake);
    if (!wallet) return null;
    let found: { pool: string; height: number } | null = null;
    for (const a of wallet.addresses) {
      for (const tx of addressHistory(a, tip)) {
        for (const d of tx.delegations) if (d.wallet === wallet.id && (!found || tx.height >= found.height)) found = { pool: world.pools[d.pool]!.id, height: tx.height };
      }
    }
    return found;
  };

  /** The background wallet's reward withdrawals within the address window, ascending. */
  const worldWithdrawals = (wallet: Wallet, tip: number): Array<{ tx: SimTx; amount: number }> => {
    const seen = new Set<string>();
    const out: Array<{ tx: SimTx; amount: number }> = [];
    for (const a of wallet.addresses) {
      for (const tx of addressHistory(a, tip)) {
        if (seen.has(tx.hash)) continue;
        seen.add(tx.hash);
        for (const w of tx.withdrawals) if (w.wallet === wallet.id) out.push({ tx, amount: w.amount });
      }
    }
    return out.sort((x, y) => x.tx.height - y.tx.height || x.tx.index - y.tx.index);
  };

  // ---- assets: the world's (background) and those minted by live transactions ----
  interface LiveAsset { unit: string; quantity: bigint; mints: number; firstTx: string }
  const liveAssets = (): Map<string, LiveAsset> => {
    const out = new Map<string, LiveAsset>();
    for (const t of ledger.all()) {
      for (const [unit, q] of t.mint) {
        const a = out.get(unit) ?? { unit, quantity: 0n, mints: 0, firstTx: t.hash };
        a.quantity += q;
        a.mints++;
        out.set(unit, a);
      }
    }
    return out;
  };
  const assetList = (tip: number): AssetListItem[] => {
    const out: AssetListItem[] = world.assets.map((a) => ({ asset: a.unit, quantity: assetObject(a, tip).quantity }));
    for (const a of liveAssets().values()) out.push({ asset: a.unit, quantity: String(a.quantity) });
    return out;
  };
  const liveAssetObject = (a: LiveAsset): Asset => ({
    asset: a.unit,
    policy_id: a.unit.slice(0, 56),
    asset_name: a.unit.length > 56 ? a.unit.slice(56) : null,
    fingerprint: assetFingerprint(a.unit.slice(0, 56), a.unit.slice(56)),
    quantity: String(a.quantity),
    initial_mint_tx_hash: a.firstTx,
    mint_or_burn_count: a.mints,
    onchain_metadata: null,
    onchain_metadata_standard: null,
    onchain_metadata_extra: null,
    metadata: null,
  });
  const decimalsOf = (unit: string): number | null => (unit === 'lovelace' ? 6 : (world.assetByUnit.get(unit)?.decimals ?? null));
  const nftMetadata = (unit: string): boolean => {
    const a = world.assetByUnit.get(unit);
    return !!a && a.nft;
  };

  const poolExtendedObject = (pool: WorldPool, tip: number): PoolExtended => {
    const p = poolObject(pool, tip);
    return {
      pool_id: p.pool_id, hex: p.hex, active_stake: p.active_stake, live_stake: p.live_stake, live_saturation: p.live_saturation,
      blocks_minted: p.blocks_minted, declared_pledge: p.declared_pledge, margin_cost: p.margin_cost, fixed_cost: p.fixed_cost, metadata: null,
    };
  };

  const CIP10: Record<string, string> = {
    '0': 'No Purpose', '1': 'Reserved', '674': 'Message (CIP-20)', '721': 'NFT Metadata (CIP-25)', '1967': 'nut.link metadata oracles registry', '1968': 'nut.link metadata oracles data points',
  };

  const findScript = (hash: string): LiveScript | null => (typeof hash === 'string' ? (liveScripts().get(hash.toLowerCase()) ?? null) : null);
  const findDatum = (hash: string): { hash: string; cbor: string } | null => {
    if (typeof hash !== 'string') return null;
    const h = hash.toLowerCase();
    for (const t of ledger.all()) for (const d of t.datums) if (d.hash === h) return d;
    return null;
  };

  // ---- stake: accounts' certificates, rewards and history; pools' blocks, history and certificates ----
  /** A page of a list known by its length and its i-th item, without building the list. */
  const virtualPage = <T>(total: number, page: Pagination | undefined, at: (i: number) => T): T[] => {
    const p = fillPage(page, 100);
    const out: T[] = [];
    for (let k = (p.page - 1) * p.count; k < p.page * p.count && k < total; k++) out.push(at(p.order === 'desc' ? total - 1 - k : k));
    return out;
  };
  const knownAccount = (stake: string): boolean => typeof stake === 'string' && knownStake(stake);
  /** The live ledger's account of a stake key it registered, else null (a world key, or one only paid to). */
  const liveAccountOf = (stake: string, tip: number): { model: LiveStake; account: LiveStakeAccount } | null => {
    const model = liveStakeAt(tip);
    const account = model.accounts.get(stake);
    if (account && (account.registrations.length > 0 || !world.walletByStakeAddress.has(stake))) return { model, account };
    return null;
  };
  /** Background transactions touching a world wallet within the address window, ascending. */
  const worldWalletTxs = (wallet: Wallet, tip: number): SimTx[] => {
    const byHash = new Map<string, SimTx>();
    for (const a of wallet.addresses) for (const tx of addressHistory(a, tip)) byHash.set(tx.hash, tx);
    return [...byHash.values()].sort((x, y) => x.height - y.height || x.index - y.index);
  };
  const txPlace = (height: number): { tx_slot: number; block_time: number; block_height: number } => ({ tx_slot: slotOf(height), block_time: timeOf(height), block_height: height });
  const poolPositions = (pool: WorldPool, epoch: number, lastPosition: number): number[] => {
    const out: number[] = [];
    const order = schedule.epoch(epoch);
    for (let i = 0; i <= lastPosition && i < order.length; i++) if (order[i] === pool.index) out.push(i);
    return out;
  };
  /** Whether a pool is retired at an epoch (its retirement epoch has begun). */
  const retiredAt = (pool: WorldPool, epoch: number): boolean => {
    const r = book.retirementOf(pool);
    return r !== null && epoch >= r.retiringEpoch;
  };
  const poolRewards = (active: bigint, pool: WorldPool): { rewards: bigint; fees: bigint } => {
    const rewards = (active * REWARD_PPM_PER_EPOCH) / 1_000_000n;
    const fixed = BigInt(pool.fixedCost);
    if (rewards <= fixed) return { rewards, fees: rewards };
    const marginPpm = BigInt(Math.round(pool.margin * 1_000_000));
    return { rewards, fees: fixed + ((rewards - fixed) * marginPpm) / 1_000_000n };
  };
  /** The active stake distribution of an epoch, pool by pool: world members, then live accounts. */
  const epochDistribution = (epoch: number, only?: WorldPool): Array<{ stake_address: string; pool_id: string; amount: string }> => {
    const out: Array<{ stake_address: string; pool_id: string; amount: string }> = [];
    const snapshot = epoch - 2;
    const live = snapshot < 0 ? new Map<string, Array<{ stakeAddress: string; amount: bigint }>>() : liveDistribution(snapshotHeight(snapshot));
    for (const pool of only ? [only] : world.pools) {
      if (!members.has(pool)) continue;
      for (const m of memberShares(pool, worldStake(pool, snapshot))) out.push({ stake_address: m.wallet.stakeAddress!, pool_id: pool.id, amount: String(m.amount) });
      for (const d of live.get(pool.id) ?? []) out.push({ stake_address: d.stakeAddress, pool_id: pool.id, amount: String(d.amount) });
    }
    return out;
  };
  const amountList = (lovelace: bigint, assets: Map<string, bigint>): Array<{ unit: string; quantity: string }> =>
    amounts(lovelace, [...assets.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)));

  // ---- governance ----
  /** Lovelace controlled by every stake address as of the tip: the accounts' controlled_amount, in one pass. */
  const stakesAt = (tip: number): Map<string, bigint> => unspentAt(tip).lovelaceByStake();
  const governance: Governance = createGovernance({
    key,
    blocksPerEpoch,
    tip: tipHeight,
    live: () => ledger.all(),
    liveIndex,
    pools: world.pools,
    stakeAddresses: world.stakeWalletIds.map((id) => world.wallets[id]!.stakeAddress!),
    stakes: () => stakesAt(tipHeight()),
    timeOf,
  });

  const nutlink: Nutlink = createNutlink({
    key,
    segmentLength,
    tip: tipHeight,
    txHash: (height, index) => hashes.tx(height, index),
    oracleAddress: addressText(world.wallets[FAUCET_WALLET]!.addresses[0]!),
    live: () => ledger.all(),
    liveIndex,
  });

  let catalogCache: SandboxCatalog | undefined;
  // The tip's block changes once per block interval and is asked for far more often than that.
  let latest: Readonly<Block> | undefined;

  // ---- txs: redeemers, CBOR, block addresses, address totals, asset histories, scripts, mempool ----
  const byChainOrder = (a: { height: number; index: number }, b: { height: number; index: number }): number => a.height - b.height || a.index - b.index;
  const withinBounds = <T extends { height: number; index: number }>(rows: T[], query: AddressTxQuery | undefined): T[] => {
    const from = parseBound(query?.from);
    const to = parseBound(query?.to);
    if (!from && !to) return rows;
    return rows.filter((tx) => {
      if (from && (tx.height < from[0] || (tx.height === from[0] && from[1] >= 0 && tx.index < from[1]))) return false;
      if (to && (tx.height > to[0] || (tx.height === to[0] && to[1] >= 0 && tx.index > to[1]))) return false;
      return true;
    });
  };

  const liveRedeemerCache = new Map<string, TxRedeemer[]>();
  const liveRedeemers = (t: LiveTx): TxRedeemer[] => {
    let hit = liveRedeemerCache.get(t.hash);
    if (!hit) {
      const scripts = redeemerScripts(t, (h, i) => ledger.outputOf(h, i));
      hit = t.redeemers.map((r, i) => liveRedeemer(r, scripts[i]!));
      liveRedeemerCache.set(t.hash, hit);
    }
    return hit;
  };
  /** A background script spend's redeemers: one per input (all at the script's address), in sorted-input order. */
  const simRedeemers = (tx: SimTx): TxRedeemer[] => {
    if (tx.redeemers === 0) return [];
    const inputs = tx.inputs
      .map((i) => ({ hash: hashes.tx(i.height, i.index), outputIndex: i.outputIndex, address: i.output.address }))
      .sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : a.outputIndex - b.outputIndex));
    const share = Math.floor((tx.fee - PROTOCOL.minFeeB - PROTOCOL.minFeeA * tx.size) / tx.redeemers);
    return inputs.slice(0, tx.redeemers).map((input, i): TxRedeemer => {
      const units = backgroundUnits(share, 0.3 + 0.4 * deriveFloat(key, 'redeemer-mem', tx.hash, i), tx.redeemers);
      const dataHash = derive(key, 'redeemer-data', tx.hash, i).toString('hex');
      return {
        tx_index: i,
        purpose: 'spend',
        script_hash: parseShelleyAddress(addressText(input.address))!.paymentHash,
        redeemer_data_hash: dataHash,
        datum_hash: dataHash,
        unit_mem: String(units.mem),
        unit_steps: String(units.steps),
        fee: String(units.fee),
      };
    });
  };

  /** The world's script addresses are guarded by Plutus scripts whose bytes the sandbox does not have. */
  const worldScripts = new Map<string, number>(world.addresses.filter((a) => a.script).map((a) => [parseShelleyAddress(a.bech32)!.paymentHash, a.index]));
  /** Scripts of visible live transactions (witness sets and reference scripts of outputs), in order of first appearance. */
  let scriptIndex: { seen: number; byHash: Map<string, LiveScript> } | undefined;
  const liveScripts = (): Map<string, LiveScript> => {
    const visible = ledger.all();
    if (scriptIndex?.seen === visible.length) return scriptIndex.byHash;
    const byHash = new Map<string, LiveScript>();
    for (const t of visible) {
      for (const s of t.scripts) if (!byHash.has(s.hash)) byHash.set(s.hash, s);
      for (const o of t.outputs) {
        if (!o.referenceScriptHash || byHash.has(o.referenceScriptHash)) continue;
        const s = referenceScriptOf(o);
        if (s) byHash.set(s.hash, s);
      }
    }
    scriptIndex = { seen: visible.length, byHash };
    return byHash;
  };
  const knownScript = (hash: string): boolean => findScript(hash) !== null || worldScripts.has(hash.toLowerCase());

  /** Transactions moving each asset within the address window (background and live), kept as the tip moves. */
  const assetWindow = new AssetWindow({ window: addressWindowBlocks, block: simBlock, live: () => ledger.all(), liveIndex, outputOf: (h, i) => ledger.outputOf(h, i) });
  const assetWindowTxs = (tip: number): AssetWindowView => assetWindow.at(tip);

  const scriptRedeemer = (txHash: string, r: TxRedeemer): ScriptRedeemer => ({
    tx_hash: txHash, tx_index: r.tx_index, purpose: r.purpose, redeemer_data_hash: r.redeemer_data_hash, datum_hash: r.datum_hash,
    unit_mem: r.unit_mem, unit_steps: r.unit_steps, fee: r.fee,
  });
  /** The unspent outputs holding an asset. */
  const unspentOfAsset = (tip: number, unit: string): Utxo[] => unspentAt(tip).ofAsset(unit);
  const knownAsset = (unit: string): boolean => world.assetByUnit.has(unit) || liveAssets().has(unit);
  const pendingTouches = (t: LiveTx, address: string): boolean =>
    t.outputs.some((o) => o.address === address) || t.inputs.some((i) => ledger.outputOf(i.txHash, i.outputIndex)?.address === address);

  const chain: SandboxChain = {
    network,
    params,
    now: () => clock(),
    tipHeight,
    epochOfHeight: epochOf,

    latestBlock() {
      const tip = tipHeight();
      if (latest?.height !== tip) latest = Object.freeze(blockObject(tip, tip));
      return latest;
    },
    blockAt(ref) {
      const tip = tipHeight();
      const h = resolveHeight(ref, tip);
      return h === null ? null : blockObject(h, tip);
    },
    blockNext(ref, page) {
      const tip = tipHeight();
      const h = resolveHeight(ref, tip);
      if (h === null) return null;
      const p = fillPage(page, 100);
      const out: Block[] = [];
      for (let x = h + 1 + (p.page - 1) * p.count; x <= tip && out.length < p.count; x++) out.push(blockObject(x, tip));
      return out;
    },
    blockPrevious(ref, page) {
      const tip = tipHeight();
      const h = resolveHeight(ref, tip);
      if (h === null) return null;
      const p = fillPage(page, 100);
      const end = h - 1 - (p.page - 1) * p.count;
      const out: Block[] = [];
      for (let x = Math.max(0, end - p.count + 1); x <= end; x++) out.push(blockObject(x, tip));
      return out;
    },
    blockTxs(ref, page) {
      const tip = tipHeight();
      const h = resolveHeight(ref, tip);
      if (h === null) return null;
      return paginate([...simBlock(h).txs.map((t) => t.hash), ...ledger.txsAt(h).map((t) => t.hash)], page);
    },
    blockTxDetails(ref) {
      const tip = tipHeight();
      const h = resolveHeight(ref, tip);
      if (h === null) return null;
      return [...simBlock(h).txs.map((t) => detailsObject(t, tip)), ...ledger.txsAt(h).map((t) => liveDetails(t, tip))];
    },

    tx(hash) {
      const live = ledger.tx(hash);
      if (live) return liveTxObject(live);
      const t = resolveTx(hash, tipHeight());
      return t ? txObject(t) : null;
    },
    txUtxos(hash) {
      const live = ledger.tx(hash);
      if (live) return liveUtxosObject(live);
      const tip = tipHeight();
      const t = resolveTx(hash, tip);
      return t ? utxosObject(t, tip) : null;
    },
    txDelegations(hash) {
      const live = ledger.tx(hash);
      if (live) return liveDelegations(live);
      const t = resolveTx(hash, tipHeight());
      return t ? delegationObjects(t) : null;
    },
    txDetails(hash) {
      const tip = tipHeight();
      const live = ledger.tx(hash);
      if (live) return liveDetails(live, tip);
      const t = resolveTx(hash, tip);
      return t ? detailsObject(t, tip) : null;
    },

    latestEpoch() {
      const tip = tipHeight();
      return epochObject(epochOf(tip), tip)!;
    },
    epoch(n) {
      return epochObject(n, tipHeight());
    },
    epochBounds,
    parameters(n) {
      if (!Number.isSafeInteger(n) || n < 0 || n > epochOf(tipHeight())) return null;
      return protocolParameters(n, derive(key, 'epoch-nonce', n).toString('hex'));
    },

    networkInfo() {
      const tip = tipHeight();
      const epoch = BigInt(epochOf(tip));
      let reserves = 7_000_000_000_000_000n - epoch * 2_000_000_000n;
      if (reserves < 1_000_000_000_000_000n) reserves = 1_000_000_000_000_000n;
      const treasury = 1_500_000_000_000_000n + epoch * 400_000_000n;
      const total = MAX_SUPPLY - reserves;
      return {
        supply: {
          max: String(MAX_SUPPLY),
          total: String(total),
          circulating: String(total - treasury - 250_000_000_000_000n),
          locked: String(300_000_000_000_000n + (epoch % 1000n) * 1_000_000_000n),
          treasury: String(treasury),
          reserves: String(reserves),
        },
        stake: { live: String(totalStake(Number(epoch))), active: String(totalStake(Number(epoch) - 2)) },
      };
    },
    genesis() {
      return {
        active_slots_coefficient: 1 / slotsPerBlock,
        update_quorum: 5,
        max_lovelace_supply: String(MAX_SUPPLY),
        network_magic: NETWORK_MAGIC[network],
        epoch_length: blocksPerEpoch * slotsPerBlock,
        system_start: Math.floor(genesisTime / 1000),
        slots_per_kes_period: 129_600,
        slot_length: 1,
        max_kes_evolutions: 62,
        security_param: 2160,
      };
    },

    address(text) {
      if (!knownAddress(text)) return null;
      const sum = sumOf(unspentAt(tipHeight()).byAddress.get(text) ?? []);
      const entry = worldAddress(text);
      const parsed = parseShelleyAddress(text);
      return {
        address: text,
        amount: amounts(sum.lovelace, sum.assets),
        stake_address: entry ? entry.stakeAddress : stakeAddressOf(text),
        type: text.startsWith('addr') ? 'shelley' : 'byron',
        script: entry ? entry.script : parsed?.paymentIsScript === true,
      };
    },
    addressExtended(text) {
      const info = chain.address(text);
      if (!info) return null;
      return { ...info, amount: info.amount.map((a) => ({ ...a, decimals: decimalsOf(a.unit), has_nft_onchain_metadata: nftMetadata(a.unit) })) };
    },
    addressUtxos(text, page, asset) {
      if (!knownAddress(text)) return null;
      let rows = unspentAt(tipHeight()).byAddress.get(text) ?? [];
      if (asset !== undefined) rows = rows.filter((u) => (asset === 'lovelace' ? true : u.assets.has(asset.toLowerCase())));
      return paginate(rows, page).map(utxoObject);
    },
    addressTransactions(text, query) {
      if (!knownAddress(text)) return null;
      const entry = worldAddress(text);
      const tip = tipHeight();
      const from = parseBound(query?.from);
      const to = parseBound(query?.to);
      const all: Array<{ hash: string; height: number; index: number }> = [
        ...(entry ? addressHistory(entry.index, tip).map((tx) => ({ hash: tx.hash, height: tx.height, index: tx.index })) : []),
        ...ledger.txsOf(text).map((t) => ({ hash: t.hash, height: t.height, index: liveIndex(t) })),
      ].sort((a, b) => a.height - b.height || a.index - b.index);
      const rows = all.filter((tx) => {
        if (from && (tx.height < from[0] || (tx.height === from[0] && from[1] >= 0 && tx.index < from[1]))) return false;
        if (to && (tx.height > to[0] || (tx.height === to[0] && to[1] >= 0 && tx.index > to[1]))) return false;
        return true;
      });
      return paginate(rows, query).map((tx) => ({ tx_hash: tx.hash, tx_index: tx.index, block_height: tx.height, block_time: timeOf(tx.height) }));
    },
    txMetadata(hash) {
      const live = ledger.tx(hash);
      if (live) return live.metadata.map((m) => ({ label: m.label, json_metadata: m.json }));
      const t = resolveTx(hash, tipHeight());
      return t ? nutlink.worldMetadata(t.height, t.index).map((m) => ({ label: m.label, json_metadata: m.json })) : null;
    },
    txMetadataCbor(hash) {
      const live = ledger.tx(hash);
      if (live) return live.metadata.map((m) => ({ label: m.label, cbor_metadata: `\\x${m.cbor}`, metadata: m.cbor }));
      const t = resolveTx(hash, tipHeight());
      if (!t) return null;
      return nutlink.worldMetadata(t.height, t.index).map((m) => {
        const cbor = nutlink.cborOf(m.json);
        return { label: m.label, cbor_metadata: `\\x${cbor}`, metadata: cbor };
      });
    },

    account(stake) {
      if (typeof stake !== 'string' || !knownStake(stake)) return null;
      const tip = tipHeight();
      const addresses = addressesOfStakeAt(stake, tip);
      const byAddress = unspentAt(tip).byAddress;
      const utxos = addresses.reduce((n, a) => n + sumOf(byAddress.get(a) ?? []).lovelace, 0n);
      const model = liveStakeAt(tip);
      const live = model.accounts.get(stake);
      const wallet = world.walletByStakeAddress.get(stake);
      if (wallet && !live?.registrations.length) {
        // A world stake key: registered from the start, delegated to its latest pool within the
        // address window or else its home pool; its withdrawals within the window are its rewards.
        const background = worldDelegation(stake, tip);
        const withdrawn = worldWithdrawals(wallet, tip).reduce((n, w) => n + BigInt(w.amount), 0n);
        return {
          stake_address: stake, active: true, registered: true, active_epoch: background ? epochOf(background.height) + 2 : null,
          controlled_amount: String(utxos), rewards_sum: String(withdrawn), withdrawals_sum: String(withdrawn), reserves_sum: '0', treasury_sum: '0',
          withdrawable_amount: '0', pool_id: background?.pool ?? homePool(wallet).id, drep_id: governance.drepOfStake(stake),
        };
      }
      const delegation = live ? model.delegationAt(live, tip) : null;
      const rewards = live ? model.rewardsAt(live, tip) : 0n;
      const withdrawals = live ? model.withdrawnAt(live, tip) : 0n;
      return {
        stake_address: stake,
        active: delegation !== null,
        registered: live ? model.registeredAt(live, tip) : false,
        active_epoch: delegation ? epochOf(delegation.height) + 2 : null,
        controlled_amount: String(utxos + rewards - withdrawals),
        rewards_sum: String(rewards),
        withdrawals_sum: String(withdrawals),
        reserves_sum: '0',
        treasury_sum: '0',
        withdrawable_amount: String(rewards - withdrawals),
        pool_id: delegation?.pool ?? null,
        drep_id: governance.drepOfStake(stake),
      };
    },
    accountAddresses(stake, page) {
      if (typeof stake !== 'string' || !knownStake(stake)) return null;
      return paginate(addressesOfStakeAt(stake, tipHeight()), page).map((address) => ({ address }));
    },
    accountUtxos(stake, page) {
      if (typeof stake !== 'string' || !knownStake(stake)) return null;
      const tip = tipHeight();
      const set = new Set(addressesOfStakeAt(stake, tip));
      return paginate(unspentAt(tip).ofAddresses(set), page).map(utxoObject);
    },

    assets(page) {
      return paginate(assetList(tipHeight()), page);
    },
    assetAddresses(unit, page) {
      if (typeof unit !== 'string') return null;
      const u = unit.toLowerCase();
      if (!world.assetByUnit.has(u) && !liveAssets().has(u)) return null;
      const holders = new Map<string, bigint>();
      for (const row of unspentOfAsset(tipHeight(), u)) {
        const q = row.assets.get(u);
        if (q) holders.set(row.address, (holders.get(row.address) ?? 0n) + q);
      }
      return paginate([...holders.entries()].map(([address, q]) => ({ address, quantity: String(q) })), page);
    },
    assetsOfPolicy(policyId, page) {
      if (typeof policyId !== 'string') return null;
      const p = policyId.toLowerCase();
      const rows = assetList(tipHeight()).filter((a) => a.asset.startsWith(p));
      return rows.length === 0 ? null : paginate(rows, page);
    },
    pools(page) {
      return paginate(world.pools.map((p) => p.id), page);
    },
    poolsExtended(page) {
      const tip = tipHeight();
      return paginate(world.pools, page).map((p) => poolExtendedObject(p, tip));
    },
    script(hash) {
      const s = findScript(hash);
      // Blockfrost gives a Plutus script's size (its flat bytes), and no size or CBOR for a native script.
      // A world script address's script: Plutus, with no bytes behind it (background spends only).
      if (!s) return typeof hash === 'string' && worldScripts.has(hash.toLowerCase()) ? { script_hash: hash.toLowerCase(), type: 'plutusV2', serialised_size: null } : null;
      return { script_hash: s.hash, type: s.type, serialised_size: s.type === 'timelock' ? null : CSL.PlutusScript.from_hex(s.cbor).bytes().length };
    },
    scriptCbor(hash) {
      const s = findScript(hash);
      if (!s) return typeof hash === 'string' && worldScripts.has(hash.toLowerCase()) ? { cbor: null } : null;
      return { cbor: s.type === 'timelock' ? null : s.cbor };
    },
    datum(hash) {
      const d = findDatum(hash);
      if (!d) return null;
      return { json_value: JSON.parse(CSL.PlutusData.from_hex(d.cbor).to_json(CSL.PlutusDatumSchema.DetailedSchema)) as unknown };
    },
    datumCbor(hash) {
      const d = findDatum(hash);
      return d ? { cbor: d.cbor } : null;
    },
    metadataLabels(page) {
      const counts = new Map<string, number>();
      for (const label of ['1967', '1968']) {
        const w = nutlink.worldLabel(label)!;
        if (w.count > 0) counts.set(label, w.count);
      }
      for (const t of ledger.all()) for (const m of t.metadata) counts.set(m.label, (counts.get(m.label) ?? 0) + 1);
      const rows = [...counts.entries()].sort((a, b) => Number(BigInt(a[0]) - BigInt(b[0]))).map(([label, n]) => ({ label, cip10: CIP10[label] ?? null, count: String(n) }));
      return paginate(rows, page);
    },
    metadataLabel(label, page) {
      // The world oracle's records (one a segment) are merged in without listing them all.
      const p = fillPage(page, 100);
      const need = p.count * p.page;
      const world = nutlink.worldLabel(label);
      const rows: Array<{ tx_hash: string; json_metadata: unknown; height: number; index: number }> = [];
      for (let i = 0; world && i < world.count && rows.length < need; i++) {
        const r = world.at(p.order === 'desc' ? world.count - 1 - i : i);
        rows.push({ tx_hash: r.txHash, json_metadata: r.json, height: r.height, index: r.txIndex });
      }
      for (const t of ledger.all()) for (const m of t.metadata) if (m.label === label) rows.push({ tx_hash: t.hash, json_metadata: m.json, height: t.height, index: liveIndex(t) });
      rows.sort((a, b) => a.height - b.height || a.index - b.index);
      if (p.order === 'desc') rows.reverse();
      return rows.slice((p.page - 1) * p.count, need).map(({ tx_hash, json_metadata }) => ({ tx_hash, json_metadata }));
    },
    xpubAddress(xpub, role, index) {
      return addressFromXpub(xpub, role, index, network);
    },

    ready: () => ledger.ready(),
    sync: () => ledger.sync(),
    async evaluate(cbor, additional) {
      await ledger.ready();
      await ledger.sync();
      return ledger.evaluateTx(cbor, additional);
    },
    async submit(cbor) {
      return (await ledger.submit(cbor)).hash;
    },
    async faucet(request) {
      if (!devAids) throw new Error('the sandbox faucet does not exist in production');
      const lovelace = BigInt(request.lovelace);
      if (lovelace < 1_000_000n || lovelace > FAUCET_MAX_LOVELACE) throw new RangeError(`lovelace must be between 1000000 and ${FAUCET_MAX_LOVELACE}`);
      if (!isAddressOfNetwork(request.address, network)) throw new RangeError(`address must be a Shelley address of ${network}`);
      const assets: FaucetAsset[] = (request.assets ?? []).map((a) => ({ assetName: a.assetName.toLowerCase(), quantity: BigInt(a.quantity) }));
      for (const a of assets) {
        if (!/^(?:[0-9a-f]{2}){0,32}$/.test(a.assetName)) throw new RangeError('assetName must be 0 to 32 bytes in hex');
        if (a.quantity < 1n || a.quantity > 1_000_000_000_000_000n) throw new RangeError('asset quantity must be between 1 and 10^15');
      }
      if (new Set(assets.map((a) => a.assetName)).size !== assets.length) throw new RangeError('each asset name may appear once');
      const tx = await ledger.submit(() => buildFaucetTx(faucetKeys, ledger.pendingUtxosOf(faucetKeys.address), request.address, lovelace, assets), 'faucet');
      const paid = tx.outputs[0]!;
      return {
        txHash: tx.hash,
        height: tx.height,
        lovelace: String(paid.lovelace),
        assets: [...paid.assets.entries()].map(([unit, quantity]) => ({ unit, quantity: String(quantity) })),
      };
    },
    devWallets: () => wallets.map((w) => ({ mnemonic: w.mnemonic, address: w.address, stakeAddress: w.stakeAddress })),
    faucetInfo: () => ({ address: faucetKeys.address, policyId: faucetKeys.policyId }),

    pool(id) {
      if (typeof id !== 'string') return null;
      const pool = poolById(id);
      return pool ? poolObject(pool, tipHeight()) : null;
    },
    asset(unit) {
      if (typeof unit !== 'string') return null;
      const asset = world.assetByUnit.get(unit.toLowerCase());
      if (asset) return assetObject(asset, tipHeight());
      const live = liveAssets().get(unit.toLowerCase());
      return live ? liveAssetObject(live) : null;
    },

    addressesOfStake(stake) {
      const wallet = world.walletByStakeAddress.get(stake);
      return wallet ? wallet.addresses.map(addressText) : [];
    },
    catalog() {
      catalogCache ??= {
        addresses: world.addresses.map((a) => ({ address: a.bech32, stakeAddress: a.stakeAddress, script: a.script })),
        stakeAddresses: world.wallets.filter((w) => w.stakeAddress).map((w) => w.stakeAddress!),
        pools: world.pools.map((p) => p.id),
        assets: world.assets.map((a) => ({ unit: a.unit, policyId: a.policyId, assetName: a.assetNameHex, fingerprint: a.fingerprint, nft: a.nft })),
      };
      return structuredClone(catalogCache);
    },

    // ---- stake ----
    accountRewards(stake, page) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const live = liveAccountOf(stake, tip);
      if (live) return paginate(live.account.rewards, page).map((r) => ({ epoch: r.epoch, amount: String(r.amount), pool_id: r.pool, type: 'member' as const }));
      // A world stake key withdraws what it earned: each withdrawal is the reward of the epoch before it.
      const wallet = world.walletByStakeAddress.get(stake)!;
      const byEpoch = new Map<number, bigint>();
      for (const w of worldWithdrawals(wallet, tip)) {
        const e = Math.max(0, epochOf(w.tx.height) - 1);
        byEpoch.set(e, (byEpoch.get(e) ?? 0n) + BigInt(w.amount));
      }
      return paginate([...byEpoch.entries()], page).map(([epoch, amount]) => ({ epoch, amount: String(amount), pool_id: homePool(wallet).id, type: 'member' as const }));
    },
    accountHistory(stake, page) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const live = liveAccountOf(stake, tip);
      if (live) return paginate(live.account.history, page).map((h) => ({ active_epoch: h.epoch, amount: String(h.amount), pool_id: h.pool }));
      const wallet = world.walletByStakeAddress.get(stake);
      if (!wallet) return [];
      const pool = homePool(wallet);
      return virtualPage(epochOf(tip) + 1, page, (e) => ({
        active_epoch: e,
        amount: String(memberShares(pool, worldStake(pool, e - 2)).find((m) => m.wallet === wallet)!.amount),
        pool_id: pool.id,
      }));
    },
    accountDelegations(stake, page) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const live = liveAccountOf(stake, tip);
      if (live) {
        const { model, account } = live;
        return paginate(account.delegations, page).map((d) => ({
          active_epoch: epochOf(d.height) + 2, tx_hash: d.txHash, amount: String(model.stakeAt(account, d.height)), pool_id: d.pool, ...txPlace(d.height),
        }));
      }
      const wallet = world.walletByStakeAddress.get(stake);
      if (!wallet) return [];
      const rows: AccountDelegation[] = [];
      for (const tx of worldWalletTxs(wallet, tip)) {
        for (const d of tx.delegations) {
          if (d.wallet !== wallet.id) continue;
          const kept = tx.outputs.reduce((n, o) => n + (wallet.addresses.includes(o.address) ? o.lovelace : 0), 0);
          rows.push({ active_epoch: epochOf(tx.height) + 2, tx_hash: tx.hash, amount: String(kept), pool_id: world.pools[d.pool]!.id, ...txPlace(tx.height) });
        }
      }
      return paginate(rows, page);
    },
    accountRegistrations(stake, page) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const live = liveAccountOf(stake, tip);
      if (live) {
        return paginate(live.account.registrations, page).map((r) => ({ tx_hash: r.txHash, action: r.action, deposit: String(PROTOCOL.keyDeposit), ...txPlace(r.height) }));
      }
      const wallet = world.walletByStakeAddress.get(stake);
      if (!wallet) return [];
      const rows: AccountRegistration[] = [];
      for (const tx of worldWalletTxs(wallet, tip)) {
        if (tx.stakeRegistrations > 0 && tx.delegations.some((d) => d.wallet === wallet.id)) rows.push({ tx_hash: tx.hash, action: 'registered', deposit: String(STAKE_KEY_DEPOSIT), ...txPlace(tx.height) });
      }
      return paginate(rows, page);
    },
    accountWithdrawals(stake, page) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const live = liveAccountOf(stake, tip);
      if (live) return paginate(live.account.withdrawals, page).map((w) => ({ tx_hash: w.txHash, amount: String(w.amount), ...txPlace(w.height) }));
      const wallet = world.walletByStakeAddress.get(stake);
      if (!wallet) return [];
      return paginate(worldWithdrawals(wallet, tip), page).map((w) => ({ tx_hash: w.tx.hash, amount: String(w.amount), ...txPlace(w.tx.height) }));
    },
    accountMirs(stake) {
      return knownAccount(stake) ? [] : null;
    },
    accountAddressesAssets(stake, page) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const set = new Set(addressesOfStakeAt(stake, tip));
      const sum = sumOf(unspentAt(tip).ofAddresses(set));
      return paginate([...sum.assets.entries()].map(([unit, q]) => ({ unit, quantity: String(q) })), page);
    },
    accountAddressesTotal(stake) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const mine = new Set(addressesOfStakeAt(stake, tip));
      const received = { lovelace: 0n, assets: new Map<string, bigint>() };
      const sent = { lovelace: 0n, assets: new Map<string, bigint>() };
      const add = (into: typeof received, lovelace: bigint, assets: Iterable<[string, bigint]>): void => {
        into.lovelace += lovelace;
        for (const [unit, q] of assets) into.assets.set(unit, (into.assets.get(unit) ?? 0n) + q);
      };
      const seen = new Set<string>();
      const wallet = world.walletByStakeAddress.get(stake);
      for (const tx of wallet ? worldWalletTxs(wallet, tip) : []) {
        seen.add(tx.hash);
        for (const o of tx.outputs) if (mine.has(addressText(o.address))) add(received, BigInt(o.lovelace), o.assets.map(([u, q]) => [u, BigInt(q)]));
        for (const i of tx.inputs) if (mine.has(addressText(i.output.address))) add(sent, BigInt(i.output.lovelace), i.output.assets.map(([u, q]) => [u, BigInt(q)]));
      }
      for (const address of mine) {
        for (const t of ledger.txsOf(address)) {
          if (seen.has(t.hash)) continue;
          seen.add(t.hash);
          for (const o of t.outputs) if (mine.has(o.address)) add(received, o.lovelace, o.assets);
          for (const i of t.inputs) {
            const o = ledger.outputOf(i.txHash, i.outputIndex);
            if (o && mine.has(o.address)) add(sent, o.lovelace, o.assets);
          }
        }
      }
      return { stake_address: stake, received_sum: amountList(received.lovelace, received.assets), sent_sum: amountList(sent.lovelace, sent.assets), tx_count: seen.size };
    },
    accountTransactions(stake, query) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const rows = new Map<string, AccountTransaction>();
      for (const address of addressesOfStakeAt(stake, tip)) {
        for (const tx of chain.addressTransactions(address) ?? []) if (!rows.has(tx.tx_hash)) rows.set(tx.tx_hash, { address, ...tx });
      }
      const from = parseBound(query?.from);
      const to = parseBound(query?.to);
      const all = [...rows.values()]
        .sort((a, b) => a.block_height - b.block_height || a.tx_index - b.tx_index)
        .filter((tx) => {
          if (from && (tx.block_height < from[0] || (tx.block_height === from[0] && from[1] >= 0 && tx.tx_index < from[1]))) return false;
          if (to && (tx.block_height > to[0] || (tx.block_height === to[0] && to[1] >= 0 && tx.tx_index > to[1]))) return false;
          return true;
        });
      return paginate(all, query);
    },

    poolsRetired(page) {
      const epoch = epochOf(tipHeight());
      const rows = book.retired.filter((p) => retiredAt(p, epoch)).map((p) => ({ pool_id: p.id, epoch: book.retirementOf(p)!.retiringEpoch }));
      return paginate(rows, page);
    },
    poolsRetiring(page) {
      const tip = tipHeight();
      const epoch = epochOf(tip);
      const rows: Array<{ pool_id: string; epoch: number }> = [];
      for (const p of book.retired) {
        const r = book.retirementOf(p)!;
        if (r.segment * segmentLength <= tip && r.retiringEpoch > epoch) rows.push({ pool_id: p.id, epoch: r.retiringEpoch });
      }
      for (const p of book.retiring) {
        const n = book.announcements(p, tip);
        if (n > 0) rows.push({ pool_id: p.id, epoch: book.announcement(p, n - 1).retiringEpoch });
      }
      return paginate(rows, page);
    },
    poolHistory(id, page) {
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      if (!pool) return null;
      const tip = tipHeight();
      const current = epochOf(tip);
      const retirement = book.retirementOf(pool);
      const last = retirement ? Math.min(current, retirement.retiringEpoch - 1) : current;
      return virtualPage(last + 1, page, (e): PoolHistoryItem => {
        const active = retirement ? 0 : poolStake(pool, e - 2);
        const total = totalStake(e - 2);
        const snapshot = e - 2 < 0 ? 0 : (liveDistribution(snapshotHeight(e - 2)).get(pool.id)?.length ?? 0);
        const { rewards, fees } = poolRewards(BigInt(active), pool);
        return {
          epoch: e,
          blocks: e < current ? weightOf(pool) : schedule.countInEpoch(pool.index, e, tip - e * blocksPerEpoch),
          active_stake: String(active),
          active_size: total > 0 ? Math.round((active / total) * 1e6) / 1e6 : 0,
          delegators_count: retirement ? 0 : (members.get(pool)?.length ?? 0) + snapshot,
          rewards: String(rewards),
          fees: String(fees),
        };
      });
    },
    poolMetadata(id) {
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      return pool ? { pool_id: pool.id, hex: pool.hex, ...book.metadata(pool) } : null;
    },
    poolRelays(id) {
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      return pool ? book.relays(pool) : null;
    },
    poolDelegators(id, page) {
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      if (!pool) return null;
      const tip = tipHeight();
      const rows = memberShares(pool, worldStake(pool, epochOf(tip))).map((m) => ({ address: m.wallet.stakeAddress!, live_stake: String(m.amount) }));
      for (const d of liveDistribution(tip).get(pool.id) ?? []) rows.push({ address: d.stakeAddress, live_stake: String(d.amount) });
      return paginate(rows, page);
    },
    poolBlocks(id, page) {
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      if (!pool) return null;
      const w = weightOf(pool);
      if (w === 0) return [];
      const tip = tipHeight();
      const current = epochOf(tip);
      const total = current * w + schedule.countInEpoch(pool.index, current, tip - current * blocksPerEpoch);
      return virtualPage(total, page, (i) => {
        const e = Math.floor(i / w);
        return hashes.block(e * blocksPerEpoch + poolPositions(pool, e, blocksPerEpoch - 1)[i - e * w]!);
      });
    },
    poolUpdates(id, page) {
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      if (!pool) return null;
      const tip = tipHeight();
      const registration: PoolUpdate = { tx_hash: hashes.tx(0, 0), cert_index: book.all.indexOf(pool), action: 'registered' };
      const retirement = book.retirementOf(pool);
      if (retirement) {
        const rows = [registration];
        if (retirement.segment * segmentLength <= tip) rows.push({ tx_hash: segmentTx(retirement.segment), cert_index: retirement.certIndex, action: 'deregistered' });
        return paginate(rows, page);
      }
      return virtualPage(1 + book.announcements(pool, tip), page, (i) => {
        if (i === 0) return registration;
        const a = book.announcement(pool, i - 1);
        return { tx_hash: segmentTx(a.segment), cert_index: a.certIndex, action: 'deregistered' };
      });
    },

    epochNext(n, page) {
      const tip = tipHeight();
      const current = epochOf(tip);
      if (!Number.isSafeInteger(n) || n < 0 || n > current) return null;
      return virtualPage(current - n, { ...fillPage(page, 100), order: 'asc' }, (i) => epochObject(n + 1 + i, tip)!);
    },
    epochPrevious(n, page) {
      const tip = tipHeight();
      if (!Number.isSafeInteger(n) || n < 0 || n > epochOf(tip)) return null;
      const p = fillPage(page, 100);
      const end = n - 1 - (p.page - 1) * p.count;
      const out: Epoch[] = [];
      for (let e = Math.max(0, end - p.count + 1); e <= end; e++) out.push(epochObject(e, tip)!);
      return out;
    },
    epochStakes(n, page) {
      if (!Number.isSafeInteger(n) || n < 0 || n > epochOf(tipHeight())) return null;
      return paginate(epochDistribution(n), { ...fillPage(page, 100), order: 'asc' });
    },
    epochPoolStakes(n, id, page) {
      if (!Number.isSafeInteger(n) || n < 0 || n > epochOf(tipHeight())) return null;
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      if (!pool) return null;
      return paginate(epochDistribution(n, pool), { ...fillPage(page, 100), order: 'asc' }).map((d) => ({ stake_address: d.stake_address, amount: d.amount }));
    },
    epochBlocks(n, page) {
      const tip = tipHeight();
      if (!Number.isSafeInteger(n) || n < 0 || n > epochOf(tip)) return null;
      const first = n * blocksPerEpoch;
      return virtualPage(Math.min(tip, first + blocksPerEpoch - 1) - first + 1, page, (i) => hashes.block(first + i));
    },
    epochPoolBlocks(n, id, page) {
      const tip = tipHeight();
      if (!Number.isSafeInteger(n) || n < 0 || n > epochOf(tip)) return null;
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      if (!pool) return null;
      const first = n * blocksPerEpoch;
      const positions = book.isRetired(pool) ? [] : poolPositions(pool, n, Math.min(tip, first + blocksPerEpoch - 1) - first);
      return paginate(positions.map((pos) => hashes.block(first + pos)), page);
    },

    txStakes(hash) {
      const live = ledger.tx(hash);
      if (live) return live.certs.filter((c) => c.kind !== 'delegation').map((c) => ({ cert_index: c.certIndex, address: c.stakeAddress, registration: c.kind === 'registration' }));
      const t = resolveTx(hash, tipHeight());
      if (!t) return null;
      return t.stakeRegistrations > 0 ? t.delegations.map((d) => ({ cert_index: 0, address: world.wallets[d.wallet]!.stakeAddress!, registration: true })) : [];
    },
    txWithdrawals(hash) {
      const live = ledger.tx(hash);
      if (live) return live.withdrawals.map((w) => ({ address: w.stakeAddress, amount: String(w.amount) }));
      const t = resolveTx(hash, tipHeight());
      return t ? t.withdrawals.map((w) => ({ address: world.wallets[w.wallet]!.stakeAddress!, amount: String(w.amount) })) : null;
    },
    txMirs(hash) {
      return ledger.tx(hash) || resolveTx(hash, tipHeight()) ? [] : null;
    },
    txPoolUpdates(hash) {
      if (ledger.tx(hash)) return [];
      const t = resolveTx(hash, tipHeight());
      if (!t) return null;
      if (t.height !== 0 || t.index !== 0) return [];
      return book.all.map((pool, i): TxPoolUpdate => {
        const m = book.metadata(pool);
        return {
          cert_index: i, pool_id: pool.id, vrf_key: pool.vrfKeyHash, pledge: String(pool.pledge), margin_cost: pool.margin, fixed_cost: String(pool.fixedCost),
          reward_account: pool.rewardAccount, owners: [pool.rewardAccount],
          metadata: { url: m.url, hash: m.hash, ticker: m.ticker, name: m.name, description: m.description, homepage: m.homepage },
          relays: book.relays(pool), active_epoch: 2,
        };
      });
    },
    txPoolRetires(hash) {
      if (ledger.tx(hash)) return [];
      const t = resolveTx(hash, tipHeight());
      return t ? retirementsOfTx(t).map((r) => ({ cert_index: r.certIndex, pool_id: r.pool.id, retiring_epoch: r.retiringEpoch })) : null;
    },
    // ---- txs ----
    blockAtSlot(slot) {
      if (!Number.isSafeInteger(slot) || slot < 0 || slot % slotsPerBlock !== 0) return null;
      return chain.blockAt(slot / slotsPerBlock);
    },
    blockAtEpochSlot(epoch, epochSlot) {
      if (!Number.isSafeInteger(epoch) || !Number.isSafeInteger(epochSlot) || epoch < 0 || epochSlot < 0) return null;
      if (epochSlot % slotsPerBlock !== 0 || epochSlot >= blocksPerEpoch * slotsPerBlock) return null;
      return chain.blockAt(epoch * blocksPerEpoch + epochSlot / slotsPerBlock);
    },
    blockAddresses(ref, page) {
      const h = resolveHeight(ref, tipHeight());
      if (h === null) return null;
      const byAddress = new Map<string, string[]>();
      const touch = (address: string, hash: string): void => {
        const list = byAddress.get(address) ?? [];
        if (list[list.length - 1] !== hash) list.push(hash);
        byAddress.set(address, list);
      };
      for (const tx of simBlock(h).txs) {
        for (const i of tx.inputs) touch(addressText(i.output.address), tx.hash);
        for (const o of tx.outputs) touch(addressText(o.address), tx.hash);
      }
      for (const t of ledger.txsAt(h)) {
        const u = liveUtxosObject(t);
        for (const i of u.inputs) touch(i.address, t.hash);
        for (const o of u.outputs) touch(o.address, t.hash);
      }
      const rows = [...byAddress.entries()]
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
        .map(([address, txs]): BlockAddress => ({ address, transactions: txs.map((tx_hash) => ({ tx_hash })) }));
      return paginate(rows, page && { ...page, order: 'asc' });
    },
    blockTxsCbor(ref, page) {
      const h = resolveHeight(ref, tipHeight());
      if (h === null) return null;
      return paginate(ledger.txsAt(h).map((t) => ({ tx_hash: t.hash, cbor: t.cbor })), page);
    },
    txRedeemers(hash) {
      const live = ledger.tx(hash);
      if (live) return liveRedeemers(live);
      const t = resolveTx(hash, tipHeight());
      return t ? simRedeemers(t) : null;
    },
    txRequiredSigners(hash) {
      const live = ledger.tx(hash);
      if (live) return requiredSigners(live);
      // Background transactions are simulated without required signers.
      return resolveTx(hash, tipHeight()) ? [] : null;
    },
    txCbor(hash) {
      const live = ledger.tx(hash);
      return live ? { cbor: live.cbor } : null;
    },
    addressTotal(text) {
      if (!knownAddress(text)) return null;
      const tip = tipHeight();
      const received = { lovelace: 0n, assets: new Map<string, bigint>() };
      const sent = { lovelace: 0n, assets: new Map<string, bigint>() };
      const add = (into: typeof received, lovelace: bigint, assets: Iterable<[string, bigint]>): void => {
        into.lovelace += lovelace;
        for (const [u, q] of assets) into.assets.set(u, (into.assets.get(u) ?? 0n) + q);
      };
      let count = 0;
      // Received: the outputs the address's transactions paid it; sent: those of them spent since.
      const entry = worldAddress(text);
      if (entry) {
        for (const tx of addressHistory(entry.index, tip)) {
          count++;
          for (const o of tx.outputs) {
            if (o.address !== entry.index) continue;
            const assets = o.assets.map(([u, q]): [string, bigint] => [u, BigInt(q)]);
            add(received, BigInt(o.lovelace), assets);
            if (o.consumedBy && o.consumedBy.height <= tip) add(sent, BigInt(o.lovelace), assets);
          }
        }
      }
      for (const t of ledger.txsOf(text)) {
        count++;
        t.outputs.forEach((o, i) => {
          if (o.address !== text) return;
          add(received, o.lovelace, o.assets);
          if (ledger.spentBy(t.hash, t.outputOffset + i)) add(sent, o.lovelace, o.assets);
        });
      }
      const sorted = (m: Map<string, bigint>): Array<[string, bigint]> => [...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
      return { address: text, received_sum: amounts(received.lovelace, sorted(received.assets)), sent_sum: amounts(sent.lovelace, sorted(sent.assets)), tx_count: count };
    },
    assetHistory(unit, page) {
      if (typeof unit !== 'string') return null;
      const u = unit.toLowerCase();
      const asset = world.assetByUnit.get(u);
      if (asset) {
        // The genesis supply, then one re-mint per due segment's distribution: computed, never scanned.
        const total = worldMintCount(asset, Math.floor(tipHeight() / segmentLength));
        const p = fillPage(page, total);
        const out: AssetAction[] = [];
        for (let n = (p.page - 1) * p.count; n < Math.min(total, p.page * p.count); n++) {
          const k = p.order === 'desc' ? total - 1 - n : n;
          out.push(k === 0
            ? { tx_hash: hashes.tx(0, 0), action: 'minted', amount: String(asset.genesisSupply) }
            : { tx_hash: hashes.tx(remintSegment(asset, k) * segmentLength, 0), action: 'minted', amount: String(asset.mintAmount) });
        }
        return out;
      }
      if (!liveAssets().has(u)) return null;
      const rows: AssetAction[] = [];
      for (const t of ledger.all()) {
        const q = t.mint.get(u);
        if (q) rows.push({ tx_hash: t.hash, action: q > 0n ? 'minted' : 'burned', amount: String(q > 0n ? q : -q) });
      }
      return paginate(rows, page);
    },
    assetTransactions(unit, query) {
      if (typeof unit !== 'string') return null;
      const u = unit.toLowerCase();
      if (!knownAsset(u)) return null;
      const tip = tipHeight();
      const low = Math.max(0, tip - addressWindowBlocks + 1);
      // Its mints before the address window, then every transaction moving it within the window.
      // A distribution's hash is made only for the rows of the page (a long-lived token has thousands of mints).
      const rows: Array<{ hash: string | null; height: number; index: number }> = [];
      const asset = world.assetByUnit.get(u);
      if (asset) {
        if (low > 0) rows.push({ hash: null, height: 0, index: 0 });
        const remints = worldMintCount(asset, Math.floor(tip / segmentLength)) - 1;
        for (let k = 1; k <= remints; k++) {
          const height = remintSegment(asset, k) * segmentLength;
          if (height >= low) break;
          rows.push({ hash: null, height, index: 0 });
        }
      }
      rows.push(...(assetWindowTxs(tip).get(u) ?? []));
      rows.sort(byChainOrder);
      return paginate(withinBounds(rows, query), query).map((tx) => ({
        tx_hash: tx.hash ?? hashes.tx(tx.height, tx.index), tx_index: tx.index, block_height: tx.height, block_time: timeOf(tx.height),
      }));
    },
    assetUtxos(unit, query) {
      if (typeof unit !== 'string') return null;
      const u = unit.toLowerCase();
      if (!knownAsset(u)) return null;
      const rows = unspentOfAsset(tipHeight(), u).filter((x) => (query?.from === undefined || x.height >= query.from) && (query?.to === undefined || x.height <= query.to));
      return paginate(rows, query).map((x): AssetUtxo => ({
        address: x.address, tx_hash: x.txHash, output_index: x.outputIndex, amount: amounts(x.lovelace, x.assets), block: hashes.block(x.height),
        block_height: x.height, block_time: timeOf(x.height), data_hash: x.dataHash, inline_datum: x.inlineDatum, inline_datum_json: datumJson(x.inlineDatum),
        reference_script_hash: x.referenceScriptHash,
      }));
    },
    scripts(page) {
      const rows = [...worldScripts.keys()];
      for (const h of liveScripts().keys()) if (!worldScripts.has(h)) rows.push(h);
      return paginate(rows, page).map((script_hash) => ({ script_hash }));
    },
    scriptJson(hash) {
      const s = findScript(hash);
      if (s) return { json: s.type === 'timelock' ? s.json : null };
      return knownScript(hash) ? { json: null } : null;
    },
    scriptRedeemers(hash, page) {
      if (typeof hash !== 'string' || !knownScript(hash)) return null;
      const h = hash.toLowerCase();
      const tip = tipHeight();
      const rows: Array<ScriptRedeemer & { height: number; index: number }> = [];
      const address = worldScripts.get(h);
      if (address !== undefined) {
        for (const tx of addressHistory(address, tip)) {
          for (const r of simRedeemers(tx)) if (r.script_hash === h) rows.push({ ...scriptRedeemer(tx.hash, r), height: tx.height, index: tx.index });
        }
      }
      for (const t of ledger.all()) {
        for (const r of liveRedeemers(t)) if (r.script_hash === h) rows.push({ ...scriptRedeemer(t.hash, r), height: t.height, index: liveIndex(t) });
      }
      rows.sort(byChainOrder);
      return paginate(rows, page).map(({ height: _h, index: _i, ...r }) => r);
    },
    scriptUtxos(hash, page) {
      if (typeof hash !== 'string' || !knownScript(hash)) return null;
      const h = hash.toLowerCase();
      const rows = unspentAt(tipHeight()).withReferenceScript(h);
      return paginate(rows, page).map((u): ScriptUtxo => ({
        address: u.address, tx_hash: u.txHash, output_index: u.outputIndex, amount: amounts(u.lovelace, u.assets), block: hashes.block(u.height),
        data_hash: u.dataHash, inline_datum: u.inlineDatum, reference_script_hash: h,
      }));
    },
    metadataLabelCbor(label, page) {
      const rows: Array<{ tx_hash: string; cbor_metadata: string | null; metadata: string | null }> = [];
      for (const t of ledger.all()) for (const m of t.metadata) if (m.label === label) rows.push({ tx_hash: t.hash, cbor_metadata: `\\x${m.cbor}`, metadata: m.cbor });
      return paginate(rows, page);
    },
    mempool(page) {
      return paginate(ledger.pending(), page).map((t) => ({ tx_hash: t.hash }));
    },
    mempoolTx(hash) {
      if (typeof hash !== 'string') return null;
      const t = ledger.pending().find((p) => p.hash === hash.toLowerCase());
      if (!t) return null;
      const full = liveTxObject(t);
      const utxos = liveUtxosObject(t);
      return {
        tx: {
          hash: full.hash, output_amount: full.output_amount, fees: full.fees, deposit: full.deposit, size: full.size, invalid_before: full.invalid_before,
          invalid_hereafter: full.invalid_hereafter, utxo_count: full.utxo_count, withdrawal_count: full.withdrawal_count, mir_cert_count: full.mir_cert_count,
          delegation_count: full.delegation_count, stake_cert_count: full.stake_cert_count, pool_update_count: full.pool_update_count,
          pool_retire_count: full.pool_retire_count, asset_mint_or_burn_count: full.asset_mint_or_burn_count, redeemer_count: full.redeemer_count,
          valid_contract: full.valid_contract,
        },
        inputs: utxos.inputs.map((i) => ({ address: i.address, tx_hash: i.tx_hash, output_index: i.output_index, collateral: i.collateral, reference: i.reference })),
        outputs: utxos.outputs.map(({ consumed_by_tx: _spent, ...o }) => o),
        redeemers: t.redeemers.map((r) => ({ tx_index: r.index, purpose: purposeName(r.purpose), unit_mem: String(r.memory), unit_steps: String(r.steps) })),
      };
    },
    mempoolOfAddress(address, page) {
      return paginate(ledger.pending().filter((t) => pendingTouches(t, address)), page).map((t) => ({ tx_hash: t.hash }));
    },

    governance: () => governance,
    eras() {
      return networkEras({ tip: tipHeight(), slotsPerBlock, blocksPerEpoch, securityParam: chain.genesis().security_param });
    },
    nutlinkAddress: (address) => nutlink.address(address),
    nutlinkTickers: (address, page) => nutlink.tickers(address, page),
    nutlinkAddressTicker: (address, ticker, page) => nutlink.addressTicker(address, ticker, page),
    nutlinkTicker: (ticker, page) => nutlink.ticker(ticker, page),
  };
  return chain;
}

/** Whether a string is a Shelley address of this network (not whether the chain knows it). */
export function isAddressOfNetwork(address: string, network: SandboxNetwork): boolean {
  const parsed = parseShelleyAddress(address);
  if (!parsed) return false;
  return network === 'mainnet' ? parsed.network === 'mainnet' : parsed.network !== 'mainnet';
}

/** Whether a string is a stake address of this network. */
export function isStakeAddressOfNetwork(address: string, network: SandboxNetwork): boolean {
  const parsed = parseStakeAddress(address);
  return parsed !== null && parsed.mainnet === (network === 'mainnet');
}
