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
import { protocolParameters, type ProtocolParameters } from './protocol';
import type { Evaluation, ResolvedOutput } from './plutus';
import { addressFromXpub, buildFaucetTx, devWallets, faucetOf, FAUCET_MAX_LOVELACE, genesisTx, type FaucetAsset } from './wallets';
import { HashCodec } from './hashes';
import { createGovernance, type Governance } from './gov';
import { networkEras, type Era } from './eras';
import { createNutlink, type Nutlink } from './nutlink';
import { FAUCET_WALLET } from './world';
import { derive, deriveBytes, deriveFloat } from './rng';
import { LeaderSchedule } from './schedule';
import { remintCount, segmentAddressTxs, simulateSegment, type Segment, type SimBlock, type SimOutput, type SimTx } from './simulate';
import { buildWorld, type World, type WorldAsset, type WorldPool } from './world';
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
/** 180 blocks: one epoch per hour at 20 s blocks. */
export const DEFAULT_BLOCKS_PER_EPOCH = 180;
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
  /** Blocks per epoch; default 180. */
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
  const poolById = (id: string): WorldPool | undefined => world.poolByKey.get(id) ?? world.poolByKey.get(id.toLowerCase());

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
  });
  const liveIndex = (t: LiveTx): number => simBlock(t.height).txs.length + t.order;

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
  const poolStake = (pool: WorldPool, epoch: number): number =>
    Math.round((pool.baseStake * (0.94 + 0.12 * deriveFloat(key, 'pool-stake', pool.index, Math.max(0, epoch)))) / 1_000_000) * 1_000_000;
  const totalStake = (epoch: number): number => world.pools.reduce((n, p) => n + poolStake(p, epoch), 0);
  const opCert = (pool: WorldPool, epoch: number): { counter: number; hash: string } => {
    const counter = pool.opCertCounterBase + Math.floor(epoch / 90);
    return { counter, hash: derive(pool.opCertKey, 'opcert', counter).toString('hex') };
  };

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
      blocks_minted: epoch * schedule.weights[pool.index]! + schedule.countInEpoch(pool.index, epoch, position),
      blocks_epoch: schedule.countInEpoch(pool.index, epoch, position),
      live_stake: String(live),
      live_size: round(live / liveTotal),
      live_saturation: round(live / SATURATION_POINT),
      live_delegators:
        Math.round(pool.baseDelegators * (0.95 + 0.1 * deriveFloat(key, 'pool-delegators', pool.index, epoch))) +
        [...ledger.accounts().values()].filter((a) => a.pool === pool.id).length,
      active_stake: String(active),
      active_size: round(active / activeTotal),
      declared_pledge: String(pool.pledge),
      live_pledge: String(pool.pledge + Math.round(deriveFloat(key, 'pool-pledge', pool.index, epoch) * 50) * 1_000_000),
      margin_cost: pool.margin,
      fixed_cost: String(pool.fixedCost),
      reward_account: pool.rewardAccount,
      owners: [pool.rewardAccount],
      registration: [hashes.tx(0, 0)],
      retirement: [],
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
      pool_update_count: tx.poolUpdates,
      pool_retire_count: 0,
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
  interface Utxo {
    txHash: string;
    outputIndex: number;
    height: number;
    txIndex: number;
    address: string;
    lovelace: bigint;
    assets: Map<string, bigint>;
    dataHash: string | null;
    inlineDatum: string | null;
    referenceScriptHash: string | null;
  }
  let unspentCache: { tip: number; liveSeq: number; all: Utxo[]; byAddress: Map<string, Utxo[]> } | undefined;
  const unspentAt = (tip: number): { all: Utxo[]; byAddress: Map<string, Utxo[]> } => {
    const liveSeq = ledger.all().length;
    if (unspentCache && unspentCache.tip === tip && unspentCache.liveSeq === liveSeq) return unspentCache;
    const all: Utxo[] = [];
    const low = Math.max(0, tip - addressWindowBlocks + 1);
    for (let h = low; h <= tip; h++) {
      for (const tx of simBlock(h).txs) {
        tx.outputs.forEach((o, outputIndex) => {
          if (o.consumedBy && o.consumedBy.height <= tip) return;
          all.push({
            txHash: tx.hash, outputIndex, height: h, txIndex: tx.index, address: addressText(o.address), lovelace: BigInt(o.lovelace),
            assets: new Map(o.assets.map(([u, q]) => [u, BigInt(q)])), dataHash: o.dataHash, inlineDatum: o.inlineDatum, referenceScriptHash: null,
          });
        });
      }
    }
    for (const u of ledger.unspent()) {
      const t = ledger.tx(u.txHash)!;
      all.push({
        txHash: u.txHash, outputIndex: u.outputIndex, height: u.height, txIndex: liveIndex(t), address: u.output.address, lovelace: u.output.lovelace,
        assets: u.output.assets, dataHash: u.output.dataHash, inlineDatum: u.output.inlineDatum, referenceScriptHash: u.output.referenceScriptHash,
      });
    }
    all.sort((a, b) => a.height - b.height || a.txIndex - b.txIndex || a.outputIndex - b.outputIndex);
    const byAddress = new Map<string, Utxo[]>();
    for (const u of all) {
      const list = byAddress.get(u.address) ?? [];
      list.push(u);
      byAddress.set(u.address, list);
    }
    unspentCache = { tip, liveSeq, all, byAddress };
    return unspentCache;
  };
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
  const addressesOfStakeAt = (stake: string, tip: number): string[] => {
    const wallet = world.walletByStakeAddress.get(stake);
    const out = new Set<string>(wallet ? wallet.addresses.map(addressText) : []);
    for (const t of ledger.all()) for (const o of t.outputs) if (stakeAddressOf(o.address) === stake) out.add(o.address);
    for (const u of unspentAt(tip).all) if (!out.has(u.address) && stakeAddressOf(u.address) === stake) out.add(u.address);
    return [...out];
  };
  const knownStake = (stake: string): boolean =>
    world.walletByStakeAddress.has(stake) || ledger.accounts().has(stake) || ledger.all().some((t) => t.outputs.some((o) => stakeAddressOf(o.address) === stake));
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

  const findScript = (hash: string): LiveScript | null => {
    if (typeof hash !== 'string') return null;
    const h = hash.toLowerCase();
    for (const t of ledger.all()) for (const s of t.scripts) if (s.hash === h) return s;
    return null;
  };
  const findDatum = (hash: string): { hash: string; cbor: string } | null => {
    if (typeof hash !== 'string') return null;
    const h = hash.toLowerCase();
    for (const t of ledger.all()) for (const d of t.datums) if (d.hash === h) return d;
    return null;
  };

  // ---- governance ----
  /** Lovelace controlled by every stake address as of the tip: the accounts' controlled_amount, in one pass. */
  const stakesAt = (tip: number): Map<string, bigint> => {
    const out = new Map<string, bigint>();
    for (const u of unspentAt(tip).all) {
      const entry = world.addressByBech32.get(u.address);
      const stake = entry ? entry.stakeAddress : stakeAddressOf(u.address);
      if (stake) out.set(stake, (out.get(stake) ?? 0n) + u.lovelace);
    }
    return out;
  };
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
        type: 'shelley',
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
      const controlled = addresses.reduce((n, a) => n + sumOf(byAddress.get(a) ?? []).lovelace, 0n);
      const live = ledger.accounts().get(stake);
      const background = worldDelegation(stake, tip);
      const liveLater = live && (!background || live.activeHeight >= background.height);
      const pool = liveLater ? live.pool : (background?.pool ?? null);
      const registered = liveLater ? live.registered : world.walletByStakeAddress.has(stake);
      const activeHeight = liveLater ? live.activeHeight : (background?.height ?? null);
      return {
        stake_address: stake,
        active: pool !== null,
        registered,
        active_epoch: activeHeight === null ? null : epochOf(activeHeight) + 2,
        controlled_amount: String(controlled),
        rewards_sum: String(live?.withdrawals ?? 0n),
        withdrawals_sum: String(live?.withdrawals ?? 0n),
        reserves_sum: '0',
        treasury_sum: '0',
        withdrawable_amount: '0',
        pool_id: pool,
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
      return paginate(unspentAt(tip).all.filter((u) => set.has(u.address)), page).map(utxoObject);
    },

    assets(page) {
      return paginate(assetList(tipHeight()), page);
    },
    assetAddresses(unit, page) {
      if (typeof unit !== 'string') return null;
      const u = unit.toLowerCase();
      if (!world.assetByUnit.has(u) && !liveAssets().has(u)) return null;
      const holders = new Map<string, bigint>();
      for (const row of unspentAt(tipHeight()).all) {
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
      return s ? { script_hash: s.hash, type: s.type, serialised_size: s.type === 'timelock' ? null : CSL.PlutusScript.from_hex(s.cbor).bytes().length } : null;
    },
    scriptCbor(hash) {
      const s = findScript(hash);
      return s ? { cbor: s.type === 'timelock' ? null : s.cbor } : null;
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
      const pool = world.poolByKey.get(id) ?? world.poolByKey.get(id.toLowerCase());
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
