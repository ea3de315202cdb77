// The sandbox chain: a deterministic simulated Cardano chain, served in Blockfrost shapes.
//
// Time-derived: block h is made at genesisTime + h × blockIntervalMs, so the tip is a function of
// the clock and nothing runs in the background. Deterministic: every value is derived from
// (seed, network, coordinates), so two processes with the same options serve byte-identical data.
// Cost per request is bounded: a block is simulated with its segment (segmentLength blocks) and
// segments are cached; a block hash decodes to its height, a transaction hash (the blake2b-256 of
// its body) is found in the index of the transactions simulated.
//
// This file builds what every resource's queries share (context.ts) and assembles the chain from
// them, one module per resource: resources/blocks/queries.ts answers /blocks, resources/accounts/
// queries.ts /accounts, … (the table in ../README.md).
import { stakeAddressOf } from '../../../shared/cardano/address';
import { LiveLedger, type LiveTx } from './ledger';
import { devWallets, faucetOf, genesisTx, type DevWallet, type Faucet } from './wallets';
import { HashCodec, TxIndex } from './hashes';
import { backgroundContext, jsonMetadataCbor } from './tx-cbor';
import { createGovernance, type Governance } from './gov';
import { createNutlink, type Nutlink } from './nutlink';
import { FAUCET_WALLET, buildWorld, type World, type WorldPool } from './world';
import { derive } from './rng';
import { NETWORK_TIME, shelleyStart, slotAt, type NetworkTime } from './clock';
import { PROTOCOL, protocolWith } from './protocol';
import { LeaderSchedule } from './schedule';
import { Awaiting, inSlice, overdue, sliced, spent } from './budget';
import { poolBook } from './pools';
import { withGenesisPools } from './genesis-pools';
import { LiveStake, stakeView, worldStake, type StakeView, type WorldStake } from './stake';
import { UnspentIndex, type UnspentView, type Utxo } from './unspent';
import { newestFirst, sumColumns, TotalsIndex } from './totals';
import { ASSIST_MIN, ASSIST_SLOTS, sumEach, type PageAssist } from './sums-assist';
import { historyIdentity, watchDevnetHistory, type HistoryWatch } from './devnet-sums';
import { keepSharedSums, sumsIdentity } from './kept-sums';
import { READY_WAIT_MS, SweepClient } from './sweep';
import { TX_INDEX_BITS } from './sweep-store';
import { BLOCK_BYTES, isDistributionAt, segmentAddressTxs, segmentRun, segmentSums, type SegmentSums, type BlockTotals, type Segment, type SegmentRun, type SimBlock, type SimContext, type SimTx, type TxEncoder } from './simulate';
import type { AddressUtxo } from '../../../shared/chain';
import { poolModel, poolPaths } from './resources/pools/queries';
import { txModel, txPaths } from './resources/txs/queries';
import { blockPaths } from './resources/blocks/queries';
import { epochPaths } from './resources/epochs/queries';
import { networkPaths } from './resources/network/queries';
import { addressPaths } from './resources/addresses/queries';
import { accountPaths } from './resources/accounts/queries';
import { assetPaths } from './resources/assets/queries';
import { scriptPaths } from './resources/scripts/queries';
import { metadataPaths } from './resources/metadata/queries';
import { mempoolPaths } from './resources/mempool/queries';
import { utilPaths } from './resources/utils/queries';
import { submitPaths } from './resources/submit/queries';
import { nutlinkPaths } from './resources/nutlink/queries';
import { governancePaths } from './resources/governance/queries';
import type { ChainContext } from './context';
import { amounts } from './paging';
import { NETWORK_MAGIC, DEFAULT_GENESIS_TIME, DEFAULT_BLOCK_INTERVAL_MS, DEFAULT_BLOCKS_PER_EPOCH, DEFAULT_ADDRESS_WINDOW_BLOCKS, DEFAULT_SEGMENT_LENGTH, DEFAULT_SEED, type DevnetChainOptions, type SandboxChainOptions, type SandboxChainParams } from './params';
import type { PrepareOptions, SandboxChain, SandboxCatalog } from './api';

function positiveInt(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** The options checked, with their defaults. */
function resolveParams(options: SandboxChainOptions): { params: SandboxChainParams; cacheSegments: number; clock: () => number } {
  const network = options.network;
  if (!(network in NETWORK_MAGIC)) throw new Error(`unknown sandbox network ${String(network)}`);
  const devnet = options.devnet;
  if (devnet && network === 'mainnet') throw new Error('a devnet has testnet addresses: its network must be a testnet');
  const blockIntervalMs = positiveInt(options.blockIntervalMs ?? DEFAULT_BLOCK_INTERVAL_MS, 'blockIntervalMs');
  const addressWindowBlocks = positiveInt(options.addressWindowBlocks ?? DEFAULT_ADDRESS_WINDOW_BLOCKS, 'addressWindowBlocks');
  const segmentLength = positiveInt(options.segmentLength ?? DEFAULT_SEGMENT_LENGTH, 'segmentLength');
  // The cache always holds the whole address window plus a few segments around it.
  const cacheSegments = Math.max(positiveInt(options.cacheSegments ?? 48, 'cacheSegments'), Math.ceil(addressWindowBlocks / segmentLength) + 4);
  const genesisTime = options.genesisTime ?? DEFAULT_GENESIS_TIME;
  if (!Number.isSafeInteger(genesisTime)) throw new Error('genesisTime must be an integer of milliseconds');
  const seed = options.seed ?? DEFAULT_SEED;
  const clock = options.now ?? Date.now;
  let time: NetworkTime;
  let slotsPerBlock: number;
  let blocksPerEpoch: number;
  if (devnet) {
    // A devnet's own genesis: slot 0 at genesisTime, its slot length, a block every slotsPerBlock slots.
    const slotLengthMs = positiveInt(devnet.slotLengthMs, 'slotLengthMs');
    if (blockIntervalMs % slotLengthMs !== 0) throw new Error('blockIntervalMs must be a multiple of slotLengthMs');
    slotsPerBlock = blockIntervalMs / slotLengthMs;
    const epochLength = positiveInt(devnet.epochLength, 'epochLength');
    if (epochLength % slotsPerBlock !== 0) throw new Error('epochLength must be a multiple of the slots between blocks');
    blocksPerEpoch = epochLength / slotsPerBlock;
    time = { systemStart: genesisTime, byronSlots: 0, byronEpochLength: epochLength, epochLength, securityParam: positiveInt(devnet.securityParam, 'securityParam'), slotLengthMs };
  } else {
    blocksPerEpoch = positiveInt(options.blocksPerEpoch ?? DEFAULT_BLOCKS_PER_EPOCH, 'blocksPerEpoch');
    slotsPerBlock = Math.max(1, Math.round(blockIntervalMs / 1000));
    time = NETWORK_TIME[network];
  }
  // Block 0's slot is the real network's slot at genesisTime (clock.ts): with whole-second block
  // intervals every block's slot is the real slot of its time. A devnet's block 0 is at its slot 0.
  const firstSlot = slotAt(time, genesisTime);

  const params: SandboxChainParams = Object.freeze({
    network,
    networkMagic: devnet ? devnet.networkMagic : NETWORK_MAGIC[network],
    seed,
    genesisTime,
    blockIntervalMs,
    blocksPerEpoch,
    slotsPerBlock,
    firstSlot,
    addressWindowBlocks,
    segmentLength,
    time,
    securityParam: devnet ? time.securityParam : 2160,
    protocol: devnet ? protocolWith(devnet.protocol) : PROTOCOL,
    devnet: devnet ? devnet.id : null,
    ledgerKey: devnet ? `devnet:${devnet.id}` : network,
  });
  return { params, cacheSegments, clock };
}

/** The live ledger's stake accounts as of a height, and the stake distribution after each block, memoised. */
function stakeViews(ledger: LiveLedger, tipHeight: () => number, blocksPerEpoch: number, poolById: (id: string) => WorldPool | undefined, world: World, shares: WorldStake) {
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
  /** The stake distribution after the block at `height` (the tip at most; below 0: the world's of epoch 0). */
  const viewCache = new Map<string, StakeView>();
  const stakeAt = (height: number): StakeView => {
    const tip = tipHeight();
    const h = Math.min(height, tip);
    const id = `${ledger.size}:${tip}:${h}`;
    let hit = viewCache.get(id);
    if (!hit) {
      hit = stakeView(world, shares, liveStakeAt(tip), h, Math.floor(h / blocksPerEpoch));
      viewCache.set(id, hit);
      if (viewCache.size > 256) viewCache.delete(viewCache.keys().next().value!);
    }
    return hit;
  };
  return { liveStakeAt, stakeAt };
}

/** How far a segment the tip is in may be simulated for a block's answer (chain.ts's createSandboxChain). */
interface PartialSegments {
  /**
   * The last height of segment `index` a block's answer needs simulated: the tip, when the tip is
   * inside the segment and the segment is on one branch; null when it is simulated whole.
   */
  through(index: number): number | null;
  /** Told of each block simulated ahead of its segment's end (its transactions are indexed by hash). */
  simulated(block: SimBlock): void;
}

/**
 * Simulated segments, the most recently used kept; those from `firstKept()` on (the address
 * window's, which every address and account answer reads) stay however many others a long list reads.
 * A block of the segment the tip is in is answered from that segment simulated through the tip
 * only (`partial`): the blocks after the tip do not exist yet, and a new devnet's first answer or a
 * time jump's tip would otherwise simulate and keep a whole segment for one or two blocks. A block's
 * content depends on the blocks before it alone, and the spends of its outputs that an answer may
 * show are the tip's and those before it, so the answers are those of the whole segment.
 */
function segmentCache(start: (index: number) => SegmentRun, finish: (made: Segment) => Segment, totalsOnly: TotalsOnly & { tip: () => number }, cacheSegments: number, segmentLength: number, firstKept: () => number, totals: TotalsIndex, assist: PageAssist | null, partial?: PartialSegments) {
  const segments = new Map<number, Segment>();
  // Segments half simulated by a sliced answer whose slice ended (budget.ts), or through the tip
  // only: the next slice, or the next block's answer, goes on from there.
  const runs = new Map<number, SegmentRun>();
  const evict = (): void => {
    const kept = firstKept();
    for (const index of segments.keys()) {
      if (segments.size <= cacheSegments) return;
      if (index < kept) segments.delete(index);
    }
  };
  /** The run of segment `index` in `kept` (begun by `begin` if none), the eight most recent kept. */
  const runIn = (kept: Map<number, SegmentRun>, begin: (index: number) => SegmentRun, index: number): SegmentRun => {
    let run = kept.get(index);
    if (!run) {
      kept.set(index, (run = begin(index)));
      if (kept.size > 8) kept.delete(kept.keys().next().value!);
    }
    return run;
  };
  const runOf = (index: number): SegmentRun => runIn(runs, start, index);
  const segment = (index: number): Segment => {
    const hit = segments.get(index);
    if (hit) {
      segments.delete(index);
      segments.set(index, hit);
      return hit;
    }
    const run = runOf(index);
    // A transaction simulated is a unit of a sliced answer's work: the run keeps it for the next slice.
    while (!run.step()) if (overdue()) spent();
    runs.delete(index);
    const made = finish(run.result());
    segments.set(index, made);
    totals.add(index, made.blocks, false);
    evict();
    spent();
    return made;
  };
  /** Block `offset` of segment `index` from its run simulated through `last` (an offset too), or null once the run is whole. */
  const partly = (index: number, offset: number, last: number): SimBlock | null => {
    const run = runOf(index);
    let blocks = run.result().blocks;
    while (blocks.length <= Math.max(offset, last)) {
      const had = blocks.length;
      if (run.step()) return null;
      blocks = run.result().blocks;
      // A step is a transaction: a block is told of once, when its last one closed it.
      if (blocks.length > had) partial!.simulated(blocks[blocks.length - 1]!);
      if (overdue()) spent();
    }
    return blocks[offset]!;
  };
  const simBlock = (height: number): SimBlock => {
    const s = Math.floor(height / segmentLength);
    const offset = height - s * segmentLength;
    const through = partial && !segments.has(s) ? partial.through(s) : null;
    return (through !== null ? partly(s, offset, through - s * segmentLength) : null) ?? segment(s).blocks[offset]!;
  };
  const { sums, tip } = totalsOnly;
  // The lists of blocks and epochs read only the blocks' totals (totals.ts), kept far longer than
  // the segments: a segment simulated for them alone is summed and let go at once (young garbage,
  // which costs the collector nothing) rather than cached, where its hundreds of thousands of
  // objects would be copied by every scavenge until promoted and push the address window's out.
  const blockTotals = (height: number): BlockTotals => {
    const s = Math.floor(height / segmentLength);
    const hit = totals.block(height);
    if (hit) {
      totals.touch(s);
      return hit;
    }
    if (partial && !segments.has(s) && partial.through(s) !== null) {
      // The tip's segment, simulated through the tip only: its blocks as they stand, nothing kept.
      const b = simBlock(height);
      return { txCount: b.txs.length, size: b.size, outputLovelace: b.outputLovelace, fees: b.fees };
    }
    // Its sums and sizes made from its decisions here (segmentSums measured: under a millisecond a
    // segment), no transaction made: a page of a hundred blocks does it for two or three segments.
    // The address window's segments are cached as ever: every address answer reads them.
    const cached = segments.get(s) ?? (s >= firstKept() ? segment(s) : null);
    if (cached) totals.add(s, cached.blocks, true);
    else {
      // A segment of history read for a list: from now on prepare() sums the others ahead.
      historyRead = true;
      totals.addMeasured(s, sums(s, true), true);
    }
    return totals.block(height)!;
  };
  /** Sums segment s into its epochs: from the segment cached, or else its decisions (segmentSums); whether it was cached. */
  const sumSegment = (s: number): boolean => {
    const cached = segments.get(s);
    if (cached) totals.add(s, cached.blocks, false);
    else totals.addSums(s, sums(s));
    return cached !== undefined;
  };
  /**
   * The epochs' sums of the closed segments between two heights (the tip's segment, still open, is
   * read block by block), made from the segments' decisions alone (segmentSums: about 0.55 ms a
   * segment), each a unit of sliced work: what a page of epochs reads.
   */
  const epochSums = (from: number, to: number): void => {
    const first = Math.max(0, Math.floor(from / segmentLength));
    const last = Math.min(Math.floor(to / segmentLength), Math.floor((tip() + 1) / segmentLength) - 1);
    const summed = (s: number): boolean => totals.summed(s);
    // A segment of history summed for a list: from now on prepare() sums the others ahead.
    const here = (s: number): void => {
      if (!sumSegment(s)) historyRead = true;
    };
    let left = 0;
    for (let s = first; s <= last; s++) if (!summed(s)) left++;
    // Many to sum, and a sweep worker at hand: it sums them from the newest down as this thread does from the oldest up.
    if (assist && left >= ASSIST_MIN) {
      for (let low = first; low <= last; low += ASSIST_SLOTS) {
        const high = Math.min(last, low + ASSIST_SLOTS - 1);
        // A part summed already is not asked again (a new request would replace the one under way).
        for (let s = low; s <= high; s++) {
          if (summed(s)) continue;
          assist.sum(low, high, summed, here);
          break;
        }
      }
      return;
    }
    sumEach(first, last, summed, here);
  };
  let historyRead = false;
  const sumAhead = aheadSums(totals, segmentLength, sumSegment);
  /** The tip's segment simulated whole and indexed by address, as the address window's histories read it. */
  const tipSegmentWhole = (tip: number): void => void segmentAddressTxs(segment(Math.floor(tip / segmentLength)));
  return { segment, simBlock, blockTotals, epochSums, sumAhead, tipSegmentWhole, historyRead: () => historyRead, simulated: (index: number): boolean => segments.has(index) || runs.has(index) };
}

/**
 * prepare()'s summing ahead: the closed segments not summed yet summed into their epochs (the
 * newest first, then the older ones down to 0), a segment a unit of sliced work, until every one up
 * to the tip is.
 */
function aheadSums(totals: TotalsIndex, segmentLength: number, sumSegment: (s: number) => boolean): (tip: number, budget?: { left: number }) => void {
  const next = newestFirst(segmentLength, (s) => totals.summed(s));
  return (tip, budget = { left: Infinity }) => {
    for (let s = next(tip); s !== null && budget.left > 0; s = next(tip)) {
      sumSegment(s);
      // Counted before the slice may end: a sliced call begun again goes on from here.
      budget.left--;
      spent();
    }
  };
}

/** Segments whose blocks' totals are kept (totals.ts): 1.26 KB each at 60 blocks, some 245,000 blocks in all. */
const TOTALS_KEPT = 4096;

/** The segment the tip is in, simulated through the tip when it is on one branch; its blocks' transactions indexed as they are made. */
function tipSegments(segmentLength: number, tipHeight: () => number, branches: Branching, txIndex: TxIndex): PartialSegments {
  return {
    through(index) {
      const first = index * segmentLength;
      const last = first + segmentLength - 1;
      const tip = tipHeight();
      return tip < last && branches.of(first) === branches.of(last) ? Math.max(first, tip) : null;
    },
    simulated: (block) => {
      for (const tx of block.txs) txIndex.record(tx.hash, tx.height, tx.index);
    },
  };
}

/** The live ledger's genesis transaction: the faucet's, the wallets' and a devnet's initial funds, DReps and delegations (none at all without them). */
function genesisEntries(devnet: DevnetChainOptions | undefined, faucet: Faucet | null, wallets: DevWallet[], drepDeposit: bigint, world: World): Array<{ hash: string; cbor: string }> {
  const initialFunds = devnet?.initialFunds ?? [];
  const dreps = { list: devnet?.initialDReps ?? [], deposit: drepDeposit };
  const first = world.pools.length - (devnet?.initialPools ?? []).length;
  const delegations = (devnet?.initialDelegations ?? []).map((d) => ({ stakeAddress: d.stakeAddress, poolHex: d.pool === null ? null : world.pools[first + d.pool]!.hex, drep: d.drep }));
  if (!faucet && wallets.length === 0 && initialFunds.length === 0 && dreps.list.length === 0 && delegations.length === 0) return [];
  return [{ hash: '', cbor: genesisTx(faucet, wallets, initialFunds, dreps, delegations) }];
}

/** What derives from the seed alone: the chain key, the world, the development wallets (made on first use) and the faucet. */
interface ChainBasis {
  key: Uint8Array;
  world: World;
  wallets: () => DevWallet[];
  faucetKeys: Faucet;
}

/**
 * A devnet is rebuilt at each rollback, restore and reset: its basis, a few hundred milliseconds of
 * key derivation (the wallets' PBKDF2 above all), is kept for the last devnets built. The shared
 * chains are built once and keep nothing here.
 */
const devnetBases = new Map<string, ChainBasis>();
const DEVNET_BASES_KEPT = 32;

function chainBasis(seed: string, network: SandboxChainParams['network'], devnet: boolean): ChainBasis {
  const id = `${seed}\u0000${network}`;
  const hit = devnet ? devnetBases.get(id) : undefined;
  if (hit) return hit;
  const key = new Uint8Array(derive(new TextEncoder().encode('cairn-sandbox-chain/v1'), seed, devnet ? 'devnet' : network));
  let wallets: DevWallet[] | undefined;
  const basis: ChainBasis = { key, world: buildWorld(key, network), wallets: () => (wallets ??= devWallets(key, network)), faucetKeys: faucetOf(key, network) };
  if (devnet) {
    devnetBases.set(id, basis);
    if (devnetBases.size > DEVNET_BASES_KEPT) devnetBases.delete(devnetBases.keys().next().value!);
  }
  return basis;
}

export function createSandboxChain(options: SandboxChainOptions): SandboxChain {
  const { params, cacheSegments, clock } = resolveParams(options);
  const { network, seed, genesisTime, blockIntervalMs, blocksPerEpoch, slotsPerBlock, firstSlot, addressWindowBlocks, segmentLength } = params;

  const { key, world: worldOfSeed, wallets: seedWallets, faucetKeys } = chainBasis(seed, network, params.devnet !== null);
  const branches = branching(key, options.devnet?.forks ?? []);
  const hashes = new HashCodec(key, branches);
  const schedule = new LeaderSchedule(key, worldOfSeed.pools, blocksPerEpoch);
  const slotOf = (height: number): number => firstSlot + height * slotsPerBlock;
  const timeOf = (height: number): number => Math.floor((genesisTime + height * blockIntervalMs) / 1000);
  const epochOf = (height: number): number => Math.floor(height / blocksPerEpoch);
  const devAids = options.devAids ?? true;
  const wallets = devAids ? seedWallets() : [];
  const seedBook = poolBook(key, network, worldOfSeed.pools, blocksPerEpoch, segmentLength);
  // A devnet's genesis pools join the world's (the background transactions and the schedule keep the world's own).
  const { world, book } = withGenesisPools(key, network, worldOfSeed, seedBook, options.devnet?.initialPools ?? []);
  const { txIndex, simContext, startSegment, finishSegment, totalsOnly } = backgroundSimulation(
    { key, world: worldOfSeed, book: seedBook, protocol: params.protocol, network, segmentLength, slotOf, epochOf },
    branches,
    lastOne((s) => worldAuxData(nutlink, s * segmentLength)), // nutlink is made below, from what this makes
  );
  const poolById = (id: string): WorldPool | undefined => book.byKey.get(id) ?? book.byKey.get(id.toLowerCase());

  const ledger = new LiveLedger({
    network,
    storeKey: params.ledgerKey,
    protocol: params.protocol,
    ...(options.store ? { store: options.store } : {}),
    tip: () => Math.max(0, Math.floor((clock() - genesisTime) / blockIntervalMs)),
    slotOf,
    isPool: (id) => world.poolByKey.has(id),
    slots: { zeroTime: shelleyStart(params.time), zeroSlot: params.time.byronSlots, slotLength: params.time.slotLengthMs },
    genesis: () => genesisEntries(options.devnet, devAids ? faucetKeys : null, wallets, params.protocol.drepDeposit, world),
    governance: (tx, accepted, height) => governance.check(tx, accepted, height),
    rewardBalance: (stake, height) => {
      const model = liveStakeAt(height);
      const a = model.accounts.get(stake);
      return a ? model.rewardBalanceAt(a, height) : 0n;
    },
  });
  const tipHeight = (): number => ledger.tip();
  const shares = worldStake(key, worldOfSeed);
  const { liveStakeAt, stakeAt } = stakeViews(ledger, tipHeight, blocksPerEpoch, poolById, world, shares);
  /** The block whose end is the stake snapshot of an epoch: its last block. */
  const snapshotHeight = (epoch: number): number => (epoch + 1) * blocksPerEpoch - 1;
  // A live transaction's index in its block follows the block's background transactions: computed once,
  // from the block's kept totals (totals.ts), its segment when it is made, or else the segment's
  // decisions alone (segmentSums: a millisecond, where making the segment costs tens the first time).
  const liveIndexes = new WeakMap<LiveTx, number>();
  const backgroundCount = (height: number): number => {
    const s = Math.floor(height / segmentLength);
    return totals.block(height)?.txCount ?? (simulated(s) ? simBlock(height).txs.length : totalsOnly.sums(s).counts[height - s * segmentLength]!);
  };
  const liveIndex = (t: LiveTx): number => {
    let i = liveIndexes.get(t);
    if (i === undefined) liveIndexes.set(t, (i = backgroundCount(t.height) + t.order));
    return i;
  };

  const totals = new TotalsIndex(segmentLength, blocksPerEpoch, TOTALS_KEPT);
  // A shared chain's sweep worker: every closed segment's totals and transactions' places, from the start.
  const sweep = sweepClientOf(options, params, totals, simContext);
  sweep?.tip(tipHeight());
  const history = devnetHistoryOf(options, params, totals, tipHeight, totalsOnly.sums) ?? sharedHistoryOf(options, params, totals, tipHeight, totalsOnly.sums, sweep);
  const { segment, simBlock, blockTotals, epochSums, sumAhead, historyRead, simulated, tipSegmentWhole } = segmentCache(startSegment, finishSegment, { ...totalsOnly, tip: tipHeight }, cacheSegments, segmentLength, () => Math.floor(Math.max(0, tipHeight() - addressWindowBlocks + 1) / segmentLength), totals, sweep?.assist ?? null, tipSegments(segmentLength, tipHeight, branches, txIndex));

  // ---- references ----
  const resolveHeight = (ref: string | number, tip: number): number | null => {
    let height: number | null = null;
    if (typeof ref === 'number') height = Number.isSafeInteger(ref) ? ref : null;
    else if (/^\d{1,15}$/.test(ref)) height = Number(ref);
    else if (/^[0-9a-fA-F]{64}$/.test(ref)) height = hashes.blockHeight(ref);
    return height !== null && height >= 0 && height <= tip ? height : null;
  };
  const { txHash, resolveTx } = backgroundTxLookup({ txIndex, simBlock, segment, distributionHash: (s) => simContext.distributionHash(s), segmentLength, addressWindowBlocks, sweep });
  const addressText = (index: number): string => world.addresses[index]!.bech32;
  const liveSums = liveSumsOf(ledger);
  const addressHistory = addressHistoryOf(segment, addressWindowBlocks, segmentLength);

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
  const knownAddress = (text: string): boolean => typeof text === 'string' && (world.addressByBech32.has(text) || ledger.knows(text));

  // ---- governance ----
  const governance: Governance = createGovernance({
    key,
    protocol: params.protocol,
    blocksPerEpoch,
    tip: tipHeight,
    live: () => ledger.all(),
    liveIndex,
    pools: world.pools,
    stakeAddresses: world.stakeWalletIds.map((id) => world.wallets[id]!.stakeAddress!),
    stakes: () => stakeAt(tipHeight()).controlledAll(),
    timeOf,
    committee: options.devnet?.committee ?? null,
  });

  const nutlink: Nutlink = createNutlink({
    key,
    segmentLength,
    tip: tipHeight,
    txHash,
    oracleAddress: addressText(world.wallets[FAUCET_WALLET]!.addresses[0]!),
    live: () => ledger.all(),
    liveIndex,
  });

  // What every resource's queries share; each is built once, below, and keeps its own caches.
  const ctx: ChainContext = {
    network, params, key, world, hashes, schedule, book, ledger, governance, nutlink, devAids, wallets, faucetKeys,
    clock, tipHeight, slotOf, timeOf, epochOf, snapshotHeight, poolById,
    segment, simBlock, blockTotals, epochSums, epochTotals: (epoch) => totals.epoch(epoch), resolveHeight, resolveTx, txHash, txCbor: (tx) => simContext.cbor.transaction(tx), addressText, addressHistory,
    liveIndex, liveStakeAt, worldStake: shares, stakeAt, liveSums,
    unspentAt, utxoObject, sumOf, knownAddress,
  };
  const chain = assembleChain(ctx);
  const made: SandboxChain = {
    ...chain,
    // A chain answers once the sums its store kept are installed.
    ...(history ? { ready: () => Promise.all([chain.ready(), history.loaded]).then(() => undefined) } : {}),
    prepare: preparer({ tipHeight, segmentLength, simulated, simBlock, unspentBuilt: () => unspent.built, unspentAt, tipSegmentWhole: () => tipSegmentWhole(tipHeight()), lists: listsAhead(chain, tipHeight, sumAhead, historyRead, sweep, Math.ceil((PAGE_MAX * blocksPerEpoch) / segmentLength)) }),
    close: async () => {
      await history?.end();
      await sweep?.close();
    },
  };
  sweepSources.set(made, sweepSource(startSegment, totalsOnly, (made) => forkedSegment(made, branches, segmentLength), (s) => simContext.distributionHash(s)));
  return made;
}

/** A shared chain's sweep worker (options.sweep: sweep.ts), installing what it sends into the chain's totals; none for a chain without. */
function sweepClientOf(
  options: SandboxChainOptions,
  { network, seed, genesisTime, blockIntervalMs, blocksPerEpoch, segmentLength }: SandboxChainParams,
  totals: TotalsIndex,
  simContext: { knowDistribution(index: number, hash: string): void },
): SweepClient | null {
  if (!options.sweep) return null;
  if (options.devnet) throw new Error('a devnet has no sweep worker');
  const sumsOnly = options.sweep.sumsOnly === true;
  return new SweepClient(
    { network, seed, genesisTime, blockIntervalMs, blocksPerEpoch, segmentLength, dir: sumsOnly ? null : options.sweep.dir },
    {
      // A segment swept leaves its distribution's hash too, as one summed here does.
      segment: (t) => {
        totals.addTotals(t.index, t, false);
        simContext.knowDistribution(t.index, t.distribution);
      },
      // A segment's epochs' sums, and its distribution's hash, sent before its sweep.
      sums: (t) => totals.addEpochSums(t.index, t),
      distribution: (segment, hash) => simContext.knowDistribution(segment, hash),
      ...(options.sweep.removed ? { removed: options.sweep.removed } : {}),
    },
    sumsOnly,
  );
}


/** A devnet's history summed by the process's devnet sums worker once it is long (devnet-sums.ts); none for a shared chain, or a chain of the worker's own. */
function devnetHistoryOf(options: SandboxChainOptions, { network, seed, genesisTime, blockIntervalMs, segmentLength }: SandboxChainParams, totals: TotalsIndex, tipHeight: () => number, sums: TotalsOnly['sums']): HistoryWatch | null {
  if (!options.devnet || options.historySums === false) return null;
  const history = { network, seed, genesisTime, blockIntervalMs, devnet: options.devnet };
  const store = options.historyStore;
  // Its identity's probe: segment 1's sums (a millisecond or two), made only for a devnet that keeps them.
  const kept = store ? { store, identity: () => historyIdentity(history, segmentLength, { index: HISTORY_PROBE, ...sumColumns(sums(HISTORY_PROBE)) }) } : null;
  return watchDevnetHistory(
    history,
    segmentLength,
    {
      tipHeight,
      summed: (s) => totals.summed(s),
      install: (t) => totals.addEpochSums(t.index, t),
      wholeCount: () => totals.wholeCount,
      wholeEpochs: () => totals.wholeEpochs(),
      // Epochs the tip has not closed are left out (a store's sums for a history that went further, then back).
      installWholeEpochs: (bytes) => totals.installWholeEpochs(bytes, Math.floor((tipHeight() + 1) / totals.blocksPerEpoch) - 1),
    },
    kept,
  );
}

/** A shared chain's whole epochs' sums kept in its store between starts (kept-sums.ts); none for a devnet or a chain without a store. */
function sharedHistoryOf(options: SandboxChainOptions, { network, seed, genesisTime, blockIntervalMs, blocksPerEpoch, segmentLength }: SandboxChainParams, totals: TotalsIndex, tipHeight: () => number, sums: TotalsOnly['sums'], sweep: SweepClient | null): HistoryWatch | null {
  if (options.devnet || !options.historyStore) return null;
  const decides = { format: 1, shared: { network, seed, genesisTime, blockIntervalMs, blocksPerEpoch, segmentLength }, probes: SHARED_PROBES };
  // Probes early and far on in the history (a millisecond or two each), so a simulation changed anywhere reads none.
  const identity = () => sumsIdentity(decides, SHARED_PROBES.map((index) => sumColumns(sums(index))));
  const kept = keepSharedSums({ store: options.historyStore, identity }, {
    wholeCount: () => totals.wholeCount,
    wholeEpochs: () => totals.wholeEpochs(),
    // Epochs the tip has not closed are left out (a file of a history that went further: another clock).
    installWholeEpochs: (bytes) => totals.installWholeEpochs(bytes, Math.floor((tipHeight() + 1) / totals.blocksPerEpoch) - 1),
  });
  // Once installed, the chain's worker makes only those segments' distributions' hashes, not their sums again.
  if (sweep) void kept.loaded.then(() => sweep.held(totals.summedBits()), () => undefined);
  return { loaded: kept.loaded, end: () => kept.close() };
}

/** The segments whose sums a shared chain's history's identity holds. */
const SHARED_PROBES = [1, 40, 1_000];

/** The segment whose sums a devnet's history's identity holds. */
const HISTORY_PROBE = 1;

/** A block without live transactions: one object for all (a page of a devnet's epochs asks for 60,000 blocks' sums). */
const NO_LIVE_SUMS = Object.freeze({ count: 0, size: 0, output: 0n, fees: 0n });

/** Totals of a block's live transactions (read, never changed: a block without any shares one object). */
function liveSumsOf(ledger: LiveLedger) {
  return (height: number): Readonly<{ count: number; size: number; output: bigint; fees: bigint }> => {
    const txs = ledger.txsAt(height);
    if (txs.length === 0) return NO_LIVE_SUMS;
    const out = { count: 0, size: 0, output: 0n, fees: 0n };
    for (const t of txs) {
      out.count++;
      out.size += t.size;
      out.fees += t.fee;
      for (const o of t.outputs) out.output += o.lovelace;
    }
    return out;
  };
}

/** Transactions touching an address within the address window, ascending. */
function addressHistoryOf(segment: (index: number) => Segment, addressWindowBlocks: number, segmentLength: number) {
  return (addressIndex: number, tip: number): SimTx[] => {
    const low = Math.max(0, tip - addressWindowBlocks + 1);
    const out: SimTx[] = [];
    for (let s = Math.floor(low / segmentLength); s <= Math.floor(tip / segmentLength); s++) {
      for (const tx of segmentAddressTxs(segment(s)).get(addressIndex) ?? []) {
        if (tx.height >= low && tx.height <= tip) out.push(tx);
      }
    }
    return out;
  };
}

/** A chain's segments simulated and not cached: what the sweep worker reads of the chain it rebuilt (sweep-worker.ts). */
interface SweepSource {
  whole: (index: number) => Segment;
  sums: (index: number, sizes?: boolean) => SegmentSums;
  distribution: (index: number) => string;
}
const sweepSources = new WeakMap<SandboxChain, SweepSource>();

function sweepSource(start: (index: number) => SegmentRun, totalsOnly: TotalsOnly, forked: (made: Segment) => Segment, distribution: (index: number) => string): SweepSource {
  return {
    distribution,
    whole: (index) => {
      const run = start(index);
      while (!run.step());
      return forked(run.result());
    },
    sums: totalsOnly.sums,
  };
}

/** Segment `index` of the chain simulated whole, its transactions hashed, nothing of it kept (the sweep worker's). */
export function sweptSegmentOf(chain: SandboxChain, index: number): Segment {
  return sweepSources.get(chain)!.whole(index);
}

/** The hash of segment `index`'s distribution (its first transaction), made from its parent's and kept as the chain keeps them. */
export function distributionHashOf(chain: SandboxChain, index: number): string {
  return sweepSources.get(chain)!.distribution(index);
}

/** Each block's totals of segment `index` from its decisions alone (segmentSums, with `sizes` measured): what an epoch's sums and a page of blocks read. */
export function segmentSumsOf(chain: SandboxChain, index: number, sizes = false): SegmentSums {
  return sweepSources.get(chain)!.sums(index, sizes);
}

/** The most items a page of a list holds (Blockfrost's `count` at most). */
const PAGE_MAX = 100;

/**
 * Segments a thread sums before V8 runs the summing at its best (the server's first prepare(),
 * sumLatest; a sweep worker before it says it is ready), its rare turns included (a refused
 * transaction whose sender holds tokens: one or two in a hundred segments), so that no page later
 * throws the compiled summing out and waits on V8 compiling it again (50–70 ms).
 */
export const COMPILED_SUMS = 600;
/** Segments this process's shared chains' first prepare() calls have summed (at most; fewer when a history is shorter). */
let sumsCompiled = 0;

/** Epochs of history from which prepare() counts the vote lists ahead: below, counting one in a page costs about a millisecond. */
const COUNTED_AHEAD_EPOCHS = 4096;

/** What prepare() sums ahead for the lists: the epochs' sums, the committee's and the pools' votes per epoch. */
function listsAhead(chain: Omit<SandboxChain, 'prepare' | 'close'>, tipHeight: () => number, sumAhead: (tip: number, budget?: { left: number }) => void, historyRead: () => boolean, sweep: SweepClient | null, pageSegments: number) {
  const longHistory = (): boolean => chain.epochOfHeight(tipHeight()) >= COUNTED_AHEAD_EPOCHS;
  /** What sumLatest still sums (its slices begin it again). */
  let latest: { left: number } | null = null;
  return {
    /** Whether a list has read the chain's history (a segment outside the address window, or a deep page of votes). */
    read: () => historyRead() || chain.governance().deepPagesRead(),
    /**
     * The committee's votes and the proposals per epoch, counted from the start (tens of milliseconds
     * of a default chain's history, then an epoch at a time), so that no page of them counts; a
     * shorter history than COUNTED_AHEAD_EPOCHS (a devnet's, mostly) a page counts in a millisecond,
     * and an idle devnet keeps no counts.
     */
    countAhead: () => {
      if (!longHistory()) return;
      chain.governance().countCommitteeVotesAhead();
      chain.governance().countProposalsAhead();
    },
    /**
     * A gateway's chain's newest page of epochs summed before it serves (some 30–40 ms of CPU for
     * fifty segments): the page of epochs most read. The process's first also sums further back
     * until it has summed COMPILED_SUMS segments (some 0.3–0.5 s of CPU, once): V8 compiles the
     * summing at its best only after some two hundred (the first ten cost some 9 ms each, the next
     * hundred and fifty 1.2–1.5 ms, then 0.5–0.8) and with its rare turns only once they have run,
     * which a cold page of older epochs would otherwise pay.
     */
    sumLatest: () => {
      if (!latest) {
        latest = { left: Math.max(pageSegments, COMPILED_SUMS - sumsCompiled) };
        sumsCompiled += latest.left;
      }
      sumAhead(tipHeight(), latest);
    },
    /** The pools' votes per epoch, all pools counted together: some 70 ms of a default chain's history for its 24, a few slices a call. */
    countPoolsAhead: () => {
      if (longHistory()) chain.governance().countPoolVotesAhead();
    },
    /** Once a list has read the history: the segments' sums, which a sweep worker makes instead. */
    sumAhead: () => {
      if (!sweep?.alive) sumAhead(tipHeight());
    },
    /**
     * Resolves once the sweep worker is ready to help a page (its chain built, its chunks read, its
     * summing compiled: under a second of its own start), or after READY_WAIT_MS: a gateway's first
     * cold page of epochs then shares its segments with a worker at full speed, not one still starting.
     */
    started: (): Promise<void> => {
      if (!sweep?.alive) return Promise.resolve();
      let timer: NodeJS.Timeout | undefined;
      // Referenced: the worker is not, and a process that waits for it (a gateway before it listens) stays up meanwhile.
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, READY_WAIT_MS)));
      return Promise.race([sweep.ready(), late]).finally(() => clearTimeout(timer));
    },
    /** Tells the sweep worker the tip; `wait`: resolves once it has swept every segment the tip closed. */
    sweep: (wait: boolean): Promise<void> => {
      if (!sweep) return Promise.resolve();
      if (!wait) {
        sweep.tip(tipHeight());
        return Promise.resolve();
      }
      return sweep.swept(tipHeight());
    },
  };
}

/**
 * The chain's prepare(): keeps warm what answers have warmed, in time slices, so a chain nobody reads
 * costs next to nothing (its committee's votes and proposals counted per epoch, all of them the first
 * time, then as epochs close); `build` warms it whole (the network a gateway's clients will use, at start).
 * The lists' totals (each block's and epoch's) are summed a few slices a call once a list has read
 * the chain's history, and a long history's pools' votes counted a few slices a call, so the sweep
 * never holds the store's next read for long; `lists` does all of it before it answers. `build`
 * leaves them be: a gateway's clients need the tip warm, and only a list's page needs the history
 * summed. `start`, a gateway's first call before it serves, makes the next blocks, counts the pools'
 * votes (a default chain's whole, up to START_SLICES) and sums the newest page of epochs (sumLatest).
 */
function preparer(c: { tipHeight: () => number; segmentLength: number; simulated: (segment: number) => boolean; simBlock: (height: number) => SimBlock; unspentBuilt: () => boolean; unspentAt: (tip: number) => UnspentView; tipSegmentWhole: () => void; lists: { read: () => boolean; countAhead: () => void; sumLatest: () => void; countPoolsAhead: () => void; sumAhead: () => void; started: () => Promise<void>; sweep: (wait: boolean) => Promise<void> } }) {
  return async (opts: PrepareOptions = {}): Promise<void> => {
    const tip = c.tipHeight();
    await c.lists.sweep(opts.lists === true);
    // The worker starts beside this thread's own preparing.
    const started = opts.start ? c.lists.started() : null;
    // Blocks near the tip made ahead: once answers have read them, or before a gateway serves (so its
    // first request at the tip does not make the tip's segment: some 20–40 ms).
    if (opts.build || opts.start || c.simulated(Math.floor(tip / c.segmentLength))) {
      await sliced(() => {
        c.simBlock(tip + 1);
        c.simBlock(tip + PREPARE_AHEAD);
      });
    }
    if (opts.build || c.unspentBuilt()) {
      await sliced(() => void c.unspentAt(c.tipHeight()));
      // Address and account histories read the tip's segment whole, with its index by address.
      await sliced(c.tipSegmentWhole);
    }
    // The committee's votes and the proposals counted through the last closed epoch: tens of
    // milliseconds the first time (in slices), then an epoch now and then; the pools' and, once a
    // list has read the history, the segments' sums a few slices a call.
    await sliced(c.lists.countAhead);
    if (opts.start) {
      // Before a gateway serves: the pools' votes counted through the history too (some 70 ms of a
      // default chain's), so no first deep page of a pool's votes walks its uncounted epochs; a far
      // longer history (sub-second blocks: millions of epochs, seconds of CPU) gets START_SLICES
      // and the rest a few slices a call after, so the gateway's start is not held for it.
      await sliced(withinSlices(START_SLICES)(c.lists.countPoolsAhead));
      await sliced(c.lists.sumLatest);
      await started;
    }
    if (opts.lists) {
      await sliced(c.lists.countPoolsAhead);
      await sliced(c.lists.sumAhead);
      return;
    }
    const few = withinSlices(LIST_SLICES_PER_PREPARE);
    await sliced(few(c.lists.countPoolsAhead));
    if (c.lists.read()) await sliced(few(c.lists.sumAhead));
  };
}

/**
 * A budget of `n` slices for sliced work (sliced() begins it again after each): the works it wraps
 * share it, and once it is spent they do nothing more in this call.
 */
function withinSlices(n: number): (work: () => void) => () => void {
  let slices = 0;
  return (work) => (): void => {
    if (slices++ < n) work();
  };
}

/** Slices of about 10 ms a gateway's first prepare() gives the pools' vote counts: a default chain's need some seven. */
const START_SLICES = 30;

/** Slices of about 10 ms a prepare() call gives the pools' vote counts and the lists' totals until they are all made (one call per store read, every 250 ms). */
const LIST_SLICES_PER_PREPARE = 4;

/**
 * How far ahead of the tip prepare() simulates: far enough that the segment after the tip's is made
 * some blocks before its first block is due, not in the stretch where that block is announced.
 */
const PREPARE_AHEAD = 10;

/** The chain from the queries of every resource (resources/<resource>/queries.ts). */
function assembleChain(ctx: ChainContext): Omit<SandboxChain, 'prepare' | 'close'> {
  const { network, params, clock, tipHeight, epochOf, world } = ctx;
  let catalogCache: SandboxCatalog | undefined;
  const pools = poolModel(ctx);
  const txs = txModel(ctx, pools);
  const addresses = addressPaths(ctx);
  return {
    network,
    params,
    now: () => clock(),
    tipHeight,
    // Blocks are made by the clock: the next one is due when its interval from genesis has passed.
    nextBlockAt: () => params.genesisTime + (tipHeight() + 1) * params.blockIntervalMs,
    epochOfHeight: epochOf,
    ...blockPaths(ctx, pools, txs),
    ...txPaths(ctx, pools, txs),
    ...epochPaths(ctx, pools),
    ...networkPaths(ctx, pools),
    ...addresses,
    ...accountPaths(ctx, pools, addresses),
    ...assetPaths(ctx),
    ...poolPaths(ctx, pools),
    ...scriptPaths(ctx, txs),
    ...metadataPaths(ctx),
    ...mempoolPaths(ctx, txs),
    ...utilPaths(ctx),
    ...submitPaths(ctx),
    ...nutlinkPaths(ctx),
    ...governancePaths(ctx),
    catalog() {
      catalogCache ??= catalogOf(world);
      return structuredClone(catalogCache);
    },
  };
}


/** The lovelace and assets of some outputs, assets by unit. */
function sumOf(utxos: Utxo[]): { lovelace: bigint; assets: Map<string, bigint> } {
  let lovelace = 0n;
  const assets = new Map<string, bigint>();
  for (const u of utxos) {
    lovelace += u.lovelace;
    for (const [unit, q] of u.assets) assets.set(unit, (assets.get(unit) ?? 0n) + q);
  }
  return { lovelace, assets: new Map([...assets.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) };
}

/** The finite sets of addresses, stake addresses, pools and assets the chain uses. */
function catalogOf(world: World): SandboxCatalog {
  return {
    addresses: world.addresses.map((a) => ({ address: a.bech32, stakeAddress: a.stakeAddress, script: a.script })),
    stakeAddresses: world.wallets.filter((w) => w.stakeAddress).map((w) => w.stakeAddress!),
    pools: world.pools.map((p) => p.id),
    assets: world.assets.map((a) => ({ unit: a.unit, policyId: a.policyId, assetName: a.assetNameHex, fingerprint: a.fingerprint, nft: a.nft })),
  };
}


/** Which branch each height is on, and each branch's key: branch 0's is the chain key, so a chain without forks is unchanged. */
export interface Branching {
  /** The branch of a block. */
  of(height: number): number;
  keyOf(n: number): Uint8Array;
  /** The branches some block is on, oldest first. */
  live(): number[];
}

function branching(key: Uint8Array, forks: ReadonlyArray<{ height: number; n: number }>): Branching {
  for (let i = 0; i < forks.length; i++) {
    const f = forks[i]!;
    if (!Number.isSafeInteger(f.height) || f.height < -1 || !Number.isSafeInteger(f.n) || f.n < 1) throw new Error('a fork is a height (-1 or more) and a branch number (1 or more)');
    if (i > 0 && (f.height <= forks[i - 1]!.height || f.n <= forks[i - 1]!.n)) throw new Error('forks must ascend in height and branch number');
  }
  const keys = new Map<number, Uint8Array>([[0, key]]);
  const live = forks.length > 0 && forks[0]!.height === -1 ? forks.map((f) => f.n) : [0, ...forks.map((f) => f.n)];
  return {
    of(height) {
      for (let i = forks.length - 1; i >= 0; i--) if (forks[i]!.height < height) return forks[i]!.n;
      return 0;
    },
    keyOf(n) {
      let k = keys.get(n);
      if (!k) keys.set(n, (k = new Uint8Array(derive(key, 'branch', n))));
      return k;
    },
    live: () => live,
  };
}


type BackgroundOptions = Parameters<typeof backgroundContext>[0];

/** A function of a segment that keeps its last answer: a distribution is measured and then hashed, each reading its metadata. */
function lastOne<T>(of: (s: number) => T): (s: number) => T {
  let last: { s: number; value: T } | null = null;
  return (s) => {
    if (last?.s !== s) last = { s, value: of(s) };
    return last.value;
  };
}

/** The auxiliary data of the distribution at a segment's first block: the world's metadata there (the oracle's), as CBOR. */
function worldAuxData(nutlink: Nutlink, height: number): ReturnType<BackgroundOptions['auxData']> {
  const entries = nutlink.worldMetadata(height, 0);
  return entries.length > 0 ? jsonMetadataCbor(entries) : null;
}

/** The background transactions' simulation: each segment run with its branch's key, its transactions indexed by hash as they are made. */
function backgroundSimulation(base: Omit<BackgroundOptions, 'auxData' | 'keyOf' | 'onDistribution'>, branches: Branching, auxData: BackgroundOptions['auxData']) {
  const txIndex = new TxIndex();
  const simContext = backgroundContext({
    ...base,
    auxData,
    keyOf: (s) => branches.keyOf(branches.of(s * base.segmentLength)),
    onDistribution: (tx) => txIndex.record(tx.hash, tx.height, tx.index),
  });
  const startSegment = (index: number): SegmentRun => segmentRun(segmentContext(simContext, index, branches), index);
  const finishSegment = (made: Segment): Segment => {
    forkedSegment(made, branches, base.segmentLength);
    for (const block of made.blocks) for (const tx of block.txs) txIndex.record(tx.hash, tx.height, tx.index);
    return made;
  };
  // A segment read only for its epochs' sums or its blocks' totals (a page of epochs or of blocks):
  // no transaction made, encoded or hashed, its distribution measured alone, and with `sizes` each
  // transaction measured from its decisions (no total depends on a hash: a body holds its inputs'
  // hashes at a fixed size).
  const unmade: TxEncoder = { size: (tx) => simContext.encoder.size(tx), hash: () => UNHASHED, redeemersSize: (tx) => simContext.encoder.redeemersSize(tx) };
  const totalsOnly: TotalsOnly = {
    // (A distribution's input names its parent's hash, 32 bytes whichever: none is computed.)
    sums: (index, sizes) => forkedSums(segmentSums({ ...segmentContext(simContext, index, branches), encoder: unmade, distributionHash: () => UNHASHED }, index, sizes), branches, base.segmentLength),
  };
  return { txIndex, simContext, startSegment, finishSegment, totalsOnly };
}

/** The hash a segment simulated only for its totals gives its transactions. */
const UNHASHED = '0'.repeat(64);

/** Background transactions by position and by hash. */
function backgroundTxLookup(o: { txIndex: TxIndex; simBlock: (height: number) => SimBlock; segment: (index: number) => Segment; distributionHash: (segment: number) => string; segmentLength: number; addressWindowBlocks: number; sweep: SweepClient | null }) {
  const { txIndex, simBlock, segment, segmentLength, addressWindowBlocks } = o;
  /** A background transaction's hash by its position: a distribution's is computed alone, the others' with their segment. */
  const txHash = (height: number, index: number): string => (isDistributionAt(height, index, segmentLength) ? o.distributionHash(height / segmentLength) : simBlock(height).txs[index]!.hash);
  const findTx = (hash: string, tip: number): SimTx | null => {
    const pos = txIndex.find(hash);
    if (!pos || pos.height > tip) return null;
    const tx = simBlock(pos.height).txs[pos.index];
    return tx && tx.hash === hash ? tx : null;
  };
  // A transaction is found by hash once this process has simulated its segment (any answer that
  // showed the hash did); the address window's segments, which every address answer reads, are
  // indexed again on a miss, in case the index let them go.
  const resolveTx = (hash: string, tip: number): SimTx | null => {
    if (typeof hash !== 'string' || !/^[0-9a-fA-F]{64}$/.test(hash)) return null;
    const lower = hash.toLowerCase();
    const hit = findTx(lower, tip);
    if (hit) return hit;
    const fromSweep = swept(lower, tip);
    if (fromSweep !== undefined) return fromSweep;
    const low = Math.max(0, tip - addressWindowBlocks + 1);
    for (let s = Math.floor(low / segmentLength); s <= Math.floor(tip / segmentLength); s++) {
      for (const block of segment(s).blocks) for (const tx of block.txs) txIndex.record(tx.hash, tx.height, tx.index);
    }
    return findTx(lower, tip);
  };
  // An older one, with a sweep worker: its index (every closed segment's transactions by the first
  // 32 bits of their hash) names the places to simulate, and the whole hash is compared there.
  // Once every closed segment is swept, a hash it does not hold can only be of the tip's segment,
  // which is simulated for it; before (or outside a sliced answer, which cannot wait for another
  // thread, or with a worker that only sums), undefined: the address window's segments are looked
  // through, as without a worker.
  const swept = (hash: string, tip: number): SimTx | null | undefined => {
    if (!o.sweep?.alive || o.sweep.sumsOnly || !inSlice()) return undefined;
    const { answer, until } = o.sweep.lookup(hash, tip);
    if (!answer) throw new Awaiting(until!);
    for (const place of answer.places) {
      const height = Math.floor(place / 2 ** TX_INDEX_BITS);
      const index = place - height * 2 ** TX_INDEX_BITS;
      if (height > tip) continue;
      const tx = simBlock(height).txs[index];
      if (tx?.hash === hash) {
        txIndex.record(tx.hash, tx.height, tx.index);
        return tx;
      }
    }
    if (!answer.complete) return undefined;
    const open = Math.floor(tip / segmentLength);
    if ((open + 1) * segmentLength - 1 === tip) return null;
    for (const block of segment(open).blocks) for (const tx of block.txs) txIndex.record(tx.hash, tx.height, tx.index);
    return findTx(hash, tip);
  };
  return { txHash, resolveTx };
}

/**
 * A segment on its branch: simulated with the key of the branch of its first block. Blocks of the
 * segment above a fork (on a later branch) carry no background transaction, and the outputs their
 * abandoned transactions spent stay unspent; the segments after the fork are simulated whole with
 * their branch's key, so their blocks and transactions differ from the abandoned branch's.
 */
function segmentContext(ctx: SimContext, index: number, branches: Branching): SimContext {
  const b = branches.of(index * ctx.segmentLength);
  return b === 0 ? ctx : { ...ctx, key: branches.keyOf(b) };
}

/** What a list's totals are read from: a segment's blocks' sums, from its decisions alone (with `sizes`: measured too). */
interface TotalsOnly {
  sums: (index: number, sizes?: boolean) => SegmentSums;
}

/** A segment's sums with its blocks above a fork emptied, as forkedSegment does a segment. */
function forkedSums(sums: SegmentSums, branches: Branching, segmentLength: number): SegmentSums {
  const first = sums.index * segmentLength;
  const b = branches.of(first);
  if (branches.of(first + segmentLength - 1) === b) return sums;
  for (let i = 0; i < segmentLength; i++) {
    if (branches.of(first + i) === b) continue;
    sums.counts[i] = 0;
    sums.outputs[i] = 0;
    sums.fees[i] = 0;
    if (sums.sizes) sums.sizes[i] = BLOCK_BYTES;
  }
  return sums;
}

/** The segment's blocks above a fork emptied (see segmentContext for the key it was simulated with). */
function forkedSegment(made: Segment, branches: Branching, segmentLength: number): Segment {
  const first = made.firstHeight;
  const last = first + segmentLength - 1;
  const b = branches.of(first);
  if (branches.of(last) === b) return made;
  for (const block of made.blocks) {
    if (branches.of(block.height) === b) {
      for (const tx of block.txs) {
        for (const o of tx.outputs) if (o.consumedBy && o.consumedBy.height <= last && branches.of(o.consumedBy.height) !== b) o.consumedBy = null;
      }
    } else {
      block.txs = [];
      block.size = BLOCK_BYTES;
      block.outputLovelace = 0;
      block.fees = 0;
    }
  }
  return made;
}