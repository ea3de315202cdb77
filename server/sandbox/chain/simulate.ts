// Simulation of one segment of the sandbox chain.
//
// The chain is cut into segments of `segmentLength` blocks. A segment is simulated sequentially
// from a state that depends on nothing but the chain key: its first block opens with the faucet's
// distribution transaction, which spends the previous distribution's reserve output (a fixed amount,
// so it is known without simulating the previous segment), withdraws the faucet's reward account to
// fund a few dozen wallets, and mints the native assets due in that segment. Every other transaction
// spends outputs created earlier in the same segment. So:
//   - every input references a real output of an earlier transaction, with the same address and
//     amount, and no output is spent twice;
//   - every transaction balances: inputs + withdrawals = outputs + fee + deposit, and for tokens
//     inputs + mint = outputs;
//   - simulating any block costs at most one segment of work, whatever the height.
// Outputs still unspent at the end of their segment stay unspent for good.
import { blake2b256 } from '../../../shared/cardano/blake2b';
import { Rng, deriveBytes } from './rng';
import { fromHex, toHex } from '../../../shared/cardano/bech32';
import { FAUCET_WALLET, type World, type WorldAsset } from './world';
import { homePoolIndex } from './stake';

export interface SimOutput {
  address: number;
  lovelace: number;
  /** [unit, quantity] sorted by unit. */
  assets: Array<[string, number]>;
  dataHash: string | null;
  inlineDatum: string | null;
  /** The datum's CBOR when the output holds only its hash (a spend's witness set carries it). */
  datum?: string;
  /** The transaction that spends this output, if any (possibly above the current tip). */
  consumedBy: { height: number; index: number } | null;
}

export interface SimInput {
  /** The hash of the transaction whose output this is. */
  txHash: string;
  height: number;
  index: number;
  outputIndex: number;
  output: SimOutput;
}

export interface SimTx {
  height: number;
  index: number;
  /** blake2b-256 of the body (tx-cbor.ts), which the simulated values determine. */
  hash: string;
  inputs: SimInput[];
  outputs: SimOutput[];
  fee: number;
  /** The part of the fee above the size fee: what a script spend's redeemers pay for. */
  scriptFee: number;
  deposit: number;
  /** The CBOR's length in bytes. */
  size: number;
  /** Key witnesses in the witness set. */
  witnesses: number;
  withdrawals: Array<{ wallet: number; amount: number }>;
  delegations: Array<{ wallet: number; pool: number }>;
  stakeRegistrations: number;
  /** Pool registrations (the genesis transaction registers every pool). */
  poolUpdates: number;
  mints: number;
  redeemers: number;
  invalidBefore: number | null;
  invalidHereafter: number | null;
}

export interface SimBlock {
  height: number;
  txs: SimTx[];
  size: number;
  outputLovelace: number;
  fees: number;
}

/** What a list of blocks or epochs reads of a simulated block (its background transactions only). */
export interface BlockTotals {
  txCount: number;
  size: number;
  outputLovelace: number;
  fees: number;
}

export interface Segment {
  index: number;
  firstHeight: number;
  blocks: SimBlock[];
  /** Built on first use: address index → the segment's transactions touching it, in chain order. */
  addressTxs?: Map<number, SimTx[]>;
}

/** What turns a simulated transaction into CBOR (tx-cbor.ts): its size, then its hash. */
export interface TxEncoder {
  /** The whole transaction's length in bytes, counted without encoding it. */
  size(tx: SimTx): number;
  /** The hash of its body, encoded once its fee is settled. */
  hash(tx: SimTx): string;
}

export interface SimContext {
  key: Uint8Array;
  world: World;
  segmentLength: number;
  slotOf: (height: number) => number;
  encoder: TxEncoder;
  /** The hash of a segment's distribution (its first transaction), on the branch of its first block. */
  distributionHash: (segment: number) => string;
}

/**
 * Which earlier distribution's reserve a segment's distribution spends: segment s spends the
 * reserve output (s − 1) mod 2 of segment ⌊(s − 1) / 2⌋'s, so every distribution makes two reserves
 * and the chain of hashes behind any distribution is log₂(s) long, not s.
 */
/** Whether the background transaction at (height, index) is a distribution: the first of its segment's first block. */
export const isDistributionAt = (height: number, index: number, segmentLength: number): boolean => index === 0 && height % segmentLength === 0;

export const reserveParent = (segment: number): { segment: number; outputIndex: number } => ({ segment: Math.floor((segment - 1) / 2), outputIndex: (segment - 1) % 2 });

/** The faucet's reserve output, carried from one distribution to the next. */
export const FAUCET_RESERVE = 20_000_000_000_000;
export const STAKE_KEY_DEPOSIT = 2_000_000;
const ADA = 1_000_000;
const MIN_FEE_A = 44;
const MIN_FEE_B = 155_381;

/** Whether an asset is minted again by the distribution of segment `s` (s ≥ 1). */
export function mintedInSegment(asset: WorldAsset, s: number): boolean {
  return s >= 1 && asset.mintEvery !== null && s % asset.mintEvery === asset.mintPhase;
}

/** How many of the segments 1..lastSegment mint the asset again. */
export function remintCount(asset: WorldAsset, lastSegment: number): number {
  if (asset.mintEvery === null || lastSegment < 1) return 0;
  const m = asset.mintEvery;
  const r = asset.mintPhase;
  if (r === 0) return Math.floor(lastSegment / m);
  return lastSegment >= r ? Math.floor((lastSegment - r) / m) + 1 : 0;
}

interface Utxo {
  txHash: string;
  height: number;
  index: number;
  outputIndex: number;
  output: SimOutput;
}

interface WalletState {
  utxos: Utxo[];
  lovelace: number;
  tokens: number;
}

interface Payment {
  address: number;
  lovelace: number;
  assets: Array<[string, number]>;
  dataHash?: string | null;
  inlineDatum?: string | null;
  datum?: string;
}

interface TxPlan {
  sender: number;
  payments: Payment[];
  withdrawal?: number;
  delegation?: { pool: number; register: boolean };
  scriptSpend?: boolean;
  forceInputs?: Utxo[];
  changeAddress?: number;
}

function addAssets(into: Map<string, number>, assets: ReadonlyArray<[string, number]>, sign = 1): void {
  for (const [unit, qty] of assets) {
    const next = (into.get(unit) ?? 0) + sign * qty;
    if (next === 0) into.delete(unit);
    else into.set(unit, next);
  }
}

function sortedAssets(map: Map<string, number>): Array<[string, number]> {
  return [...map.entries()].filter(([, q]) => q > 0).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** An output's estimated bytes without tokens or datum, and each token's. */
const CHANGE_OUTPUT_SIZE = 65;
const ASSET_SIZE = 44;

function txSize(inputs: number, outputs: SimOutput[] | Payment[], extra: { certs: number; withdrawals: number; redeemers: number; mints: number; witnesses: number }): number {
  let size = 190 + 41 * inputs + extra.certs * 58 + extra.withdrawals * 38 + extra.redeemers * 380 + extra.mints * 44 + extra.witnesses * 102;
  for (const out of outputs) {
    size += CHANGE_OUTPUT_SIZE + out.assets.length * ASSET_SIZE;
    if (out.inlineDatum) size += out.inlineDatum.length / 2 + 4;
    if (out.dataHash) size += 34;
  }
  return size;
}

const minFee = (size: number): number => MIN_FEE_B + MIN_FEE_A * size;

/**
 * Measures the transaction and sets its size, its fee (the size fee of its real size plus its
 * script fee), what balances the fee (`settle`: the change, or the withdrawal of a distribution)
 * and then its hash, the body encoded once. The fee's own encoding does not change the size (fees
 * are 5-byte integers), so this settles in a step or two.
 */
export function finishTx(encoder: TxEncoder, tx: SimTx, settle: (delta: number) => void, freeOfFee = false): void {
  for (let guard = 0; ; guard++) {
    const size = encoder.size(tx);
    const fee = freeOfFee ? 0 : minFee(size) + tx.scriptFee;
    if (fee === tx.fee || guard > 8) {
      tx.size = size;
      tx.hash = encoder.hash(tx);
      return;
    }
    settle(fee - tx.fee);
    tx.fee = fee;
  }
}

/**
 * The faucet distribution opening segment `s` (built from the block's generator before anything
 * else, so it needs no simulated state): the two reserves its children spend, the funded wallets,
 * the mints due, and for s ≥ 1 its parent's reserve as input and the faucet's rewards withdrawn.
 */
export function distributionTx(ctx: SimContext, s: number, rng: Rng): SimTx {
  const world = ctx.world;
  const height = s * ctx.segmentLength;
  const faucetAddress = world.wallets[FAUCET_WALLET]!.addresses[0]!;
  const outputs: SimOutput[] = [];
  const out = (address: number, lovelace: number, assets: Array<[string, number]> = []): SimOutput => {
    const o: SimOutput = { address, lovelace, assets, dataHash: null, inlineDatum: null, consumedBy: null };
    outputs.push(o);
    return o;
  };
  for (const child of [2 * s + 1, 2 * s + 2]) out(faucetAddress, FAUCET_RESERVE).consumedBy = { height: child * ctx.segmentLength, index: 0 };

  const funded = rng.shuffled(world.stakeWalletIds).slice(0, rng.int(36, 48));
  for (const w of funded) {
    const ada = rng.chance(0.08) ? rng.logUniform(100_000, 1_000_000) : rng.logUniform(100, 50_000);
    out(rng.pick(world.wallets[w]!.addresses), Math.round(ada) * ADA);
  }
  let mints = 0;
  for (const asset of world.assets) {
    const qty = s === 0 ? asset.genesisSupply : mintedInSegment(asset, s) ? asset.mintAmount : 0;
    if (qty === 0) continue;
    mints++;
    out(rng.pick(world.wallets[asset.minter]!.addresses), 2 * ADA, [[asset.unit, qty]]);
  }

  const inputs: SimInput[] = [];
  const withdrawals: SimTx['withdrawals'] = [];
  if (s > 0) {
    const parent = reserveParent(s);
    inputs.push({
      txHash: ctx.distributionHash(parent.segment),
      height: parent.segment * ctx.segmentLength,
      index: 0,
      outputIndex: parent.outputIndex,
      output: { address: faucetAddress, lovelace: FAUCET_RESERVE, assets: [], dataHash: null, inlineDatum: null, consumedBy: { height, index: 0 } },
    });
    const paidOut = outputs.reduce((n, o) => n + o.lovelace, 0) - FAUCET_RESERVE;
    withdrawals.push({ wallet: FAUCET_WALLET, amount: paidOut });
  }
  const tx: SimTx = {
    height, index: 0, hash: '', inputs, outputs, fee: 0, scriptFee: 0, deposit: 0, size: 0, witnesses: s === 0 ? 1 : 2 + (mints > 0 ? 1 : 0), withdrawals,
    delegations: [], stakeRegistrations: 0, poolUpdates: s === 0 ? world.pools.length : 0, mints, redeemers: 0, invalidBefore: null,
    invalidHereafter: s === 0 ? null : ctx.slotOf(height) + 7200,
  };
  finishTx(ctx.encoder, tx, (delta) => (withdrawals[0]!.amount += delta), s === 0);
  return tx;
}

/** A block whose transactions are being drawn: the rest of them come from its own rng, in order. */
interface OpenBlock {
  height: number;
  rng: Rng;
  txs: SimTx[];
  wanted: number;
  /** Steps done: the opening, then each transaction drawn (wanted + 1 in all). */
  made: number;
}

/** The recipients (in their order) by the kind of wallet a plan sends from, and the script wallets. */
interface SenderGroups {
  /** Key-locked: stake and enterprise wallets. */
  key: number[];
  /** Script-locked. */
  script: number[];
  stake: number[];
  /** Stake wallets of two addresses or more. */
  stakeSeveral: number[];
  scriptWallets: Array<World['wallets'][number]>;
}

const groupsByWorld = new WeakMap<World, SenderGroups>();

function senderGroups(world: World): SenderGroups {
  let g = groupsByWorld.get(world);
  if (g) return g;
  const kindOf = (id: number) => world.wallets[id]!.kind;
  const key = world.recipientWalletIds.filter((id) => kindOf(id) === 'stake' || kindOf(id) === 'enterprise');
  g = {
    key,
    script: world.recipientWalletIds.filter((id) => !key.includes(id)),
    stake: world.recipientWalletIds.filter((id) => kindOf(id) === 'stake'),
    stakeSeveral: world.recipientWalletIds.filter((id) => kindOf(id) === 'stake' && world.wallets[id]!.addresses.length >= 2),
    scriptWallets: world.wallets.filter((w) => w.kind === 'script' || w.kind === 'scriptStake'),
  };
  groupsByWorld.set(world, g);
  return g;
}

class SegmentSimulator {
  private readonly wallets: WalletState[];
  private readonly world: World;
  private readonly blocks: SimBlock[] = [];
  /** The block being simulated, when a step ended inside it. */
  private open: OpenBlock | null = null;

  private readonly groups: SenderGroups;

  constructor(private readonly ctx: SimContext, private readonly segment: number) {
    this.world = ctx.world;
    this.groups = senderGroups(this.world);
    this.wallets = this.world.wallets.map(() => ({ utxos: [], lovelace: 0, tokens: 0 }));
  }

  run(): Segment {
    while (!this.step());
    return this.result();
  }

  /**
   * Simulates the next transaction (opening a block with its distribution, or closing it); true once
   * the segment's last block is done. One transaction is the unit of a sliced answer's work (budget.ts).
   */
  step(): boolean {
    const first = this.segment * this.ctx.segmentLength;
    if (this.blocks.length < this.ctx.segmentLength) {
      const open = this.open ?? (this.open = this.openBlock(first + this.blocks.length));
      if (open.made) {
        const tx = this.randomTx(open.height, open.txs.length, open.rng);
        if (tx) open.txs.push(tx);
        open.made++;
      } else open.made = 1;
      if (open.made > open.wanted) {
        this.closeBlock(open);
        this.open = null;
      }
    }
    return this.blocks.length === this.ctx.segmentLength;
  }

  result(): Segment {
    return { index: this.segment, firstHeight: this.segment * this.ctx.segmentLength, blocks: this.blocks };
  }

  /** A block begun: its distribution (the segment's first block) and how many transactions it draws. */
  private openBlock(height: number): OpenBlock {
    const rng = Rng.of(this.ctx.key, 'block', height);
    const txs: SimTx[] = [];
    if (height === this.segment * this.ctx.segmentLength) txs.push(this.distribution(height, rng));
    const r = rng.float();
    const wanted = r < 0.12 ? 0 : r < 0.82 ? rng.int(1, 12) : r < 0.97 ? rng.int(13, 40) : rng.int(41, 90);
    // made counts the opening as one step, then each drawn transaction.
    return { height, rng, txs, wanted, made: 0 };
  }

  private closeBlock({ height, txs }: OpenBlock): void {
    let outputLovelace = 0;
    let fees = 0;
    let size = 4;
    for (const tx of txs) {
      for (const o of tx.outputs) outputLovelace += o.lovelace;
      fees += tx.fee;
      size += tx.size;
    }
    this.blocks.push({ height, txs: txs.slice(), size, outputLovelace, fees });
  }

  // ---- the faucet distribution opening every segment ----

  private distribution(height: number, rng: Rng): SimTx {
    const tx = distributionTx(this.ctx, this.segment, rng);
    if (tx.height !== height) throw new Error('a distribution opens its segment');
    this.credit(tx);
    return tx;
  }

  // ---- ordinary transactions ----

  /**
   * The wallets of a group (in the recipients' order) that hold at least `minLovelace`, and tokens
   * or three outputs if asked: a plan's possible senders, drawn from at every transaction.
   */
  private eligible(group: readonly number[], minLovelace: number, also: 'tokens' | 'inputs' | null = null): number[] {
    const out: number[] = [];
    for (const id of group) {
      const s = this.wallets[id]!;
      if (s.lovelace < minLovelace || (also === 'tokens' && s.tokens <= 0) || (also === 'inputs' && s.utxos.length < 3)) continue;
      out.push(id);
    }
    return out;
  }

  /** A random address of a random wallet other than the faucet. */
  private recipientAddress(rng: Rng): number {
    return rng.pick(this.world.wallets[rng.pick(this.world.recipientWalletIds)]!.addresses);
  }

  private amountFrom(rng: Rng, balance: number, maxShare: number): number {
    let amount = Math.floor(balance * rng.logUniform(0.005, maxShare));
    if (rng.chance(0.4)) amount = Math.floor(amount / ADA) * ADA;
    return Math.max(amount, ADA);
  }

  private randomTx(height: number, index: number, rng: Rng): SimTx | null {
    const roll = rng.float();
    const kind =
      roll < 0.46 ? 'payment'
      : roll < 0.56 ? 'asset'
      : roll < 0.66 ? 'delegation'
      : roll < 0.72 ? 'batch'
      : roll < 0.78 ? 'consolidation'
      : roll < 0.86 ? 'script'
      : roll < 0.93 ? 'withdrawal'
      : 'self';
    const plan = this.plan(kind, rng) ?? this.plan('payment', rng);
    return plan ? this.build(height, index, plan, rng) : null;
  }

  private plan(kind: string, rng: Rng): TxPlan | null {
    const world = this.world;
    const groups = this.groups;
    switch (kind) {
      case 'payment': {
        const senders = this.eligible(groups.key, 5 * ADA);
        if (senders.length === 0) return null;
        const sender = rng.pick(senders);
        const state = this.wallets[sender]!;
        const payments: Payment[] = [];
        const n = rng.chance(0.6) ? 1 : rng.int(2, 3);
        for (let i = 0; i < n; i++) payments.push({ address: this.recipientAddress(rng), lovelace: this.amountFrom(rng, state.lovelace, 0.5 / n), assets: [] });
        if (state.tokens > 0 && rng.chance(0.25)) {
          const [unit, held] = rng.pick(this.heldAssets(sender));
          payments[0]!.assets = [[unit, Math.max(1, Math.floor(held * rng.float()))]];
          payments[0]!.lovelace = Math.max(payments[0]!.lovelace, 1_500_000);
        }
        return { sender, payments };
      }
      case 'asset': {
        const senders = this.eligible(groups.key, 4 * ADA, 'tokens');
        if (senders.length === 0) return null;
        const sender = rng.pick(senders);
        const held = this.heldAssets(sender);
        const payments: Payment[] = [];
        const n = Math.min(held.length, rng.int(1, 2));
        for (const [unit, qty] of rng.shuffled(held).slice(0, n)) {
          payments.push({
            address: this.recipientAddress(rng),
            lovelace: rng.int(1_150_000, 2_000_000),
            assets: [[unit, qty === 1 ? 1 : Math.max(1, Math.floor(qty * rng.logUniform(0.001, 0.9)))]],
          });
        }
        return { sender, payments };
      }
      case 'delegation': {
        const senders = this.eligible(groups.stake, 5 * ADA);
        if (senders.length === 0) return null;
        // A world stake key stays with its home pool, whose stake it is part of (stake.ts): it re-delegates to it.
        const sender = rng.pick(senders);
        return { sender, payments: [], delegation: { pool: homePoolIndex(sender, world.pools.length), register: rng.chance(0.25) } };
      }
      case 'batch': {
        const senders = this.eligible(groups.key, 2_000 * ADA);
        if (senders.length === 0) return null;
        const sender = rng.pick(senders);
        const balance = this.wallets[sender]!.lovelace;
        const payments: Payment[] = [];
        const n = rng.int(8, 40);
        for (let i = 0; i < n; i++) {
          payments.push({ address: this.recipientAddress(rng), lovelace: Math.max(ADA, Math.floor(rng.logUniform(2 * ADA, balance / (2 * n)))), assets: [] });
        }
        return { sender, payments };
      }
      case 'consolidation': {
        const senders = this.eligible(groups.key, 3 * ADA, 'inputs');
        if (senders.length === 0) return null;
        const sender = rng.pick(senders);
        const utxos = rng.shuffled(this.wallets[sender]!.utxos).slice(0, rng.int(3, 12));
        return { sender, payments: [], forceInputs: utxos, changeAddress: rng.pick(world.wallets[sender]!.addresses) };
      }
      case 'script': {
        if (rng.chance(0.5)) {
          const senders = this.eligible(groups.script, 3 * ADA);
          if (senders.length > 0) {
            const sender = rng.pick(senders);
            const payments: Payment[] = [{ address: this.recipientAddress(rng), lovelace: this.amountFrom(rng, this.wallets[sender]!.lovelace, 0.5), assets: [] }];
            return { sender, payments, scriptSpend: true };
          }
        }
        const senders = this.eligible(groups.key, 5 * ADA);
        if (senders.length === 0) return null;
        const sender = rng.pick(senders);
        const scripts = groups.scriptWallets;
        const inline = rng.chance(0.5);
        const datum = `d8799f581c${toHex(deriveBytes(this.ctx.key, 28, 'datum', this.segment, rng.u32()))}ff`;
        return {
          sender,
          payments: [{
            address: rng.pick(rng.pick(scripts).addresses),
            lovelace: Math.max(2 * ADA, this.amountFrom(rng, this.wallets[sender]!.lovelace, 0.4)),
            assets: [],
            inlineDatum: inline ? datum : null,
            dataHash: inline ? null : toHex(blake2b256(fromHex(datum)!)),
            ...(inline ? {} : { datum }),
          }],
        };
      }
      case 'withdrawal': {
        const senders = this.eligible(groups.stake, 2 * ADA);
        if (senders.length === 0) return null;
        const sender = rng.pick(senders);
        return {
          sender,
          payments: [{ address: this.recipientAddress(rng), lovelace: this.amountFrom(rng, this.wallets[sender]!.lovelace, 0.3), assets: [] }],
          withdrawal: Math.round(rng.logUniform(1, 400) * ADA),
        };
      }
      case 'self': {
        const senders = this.eligible(groups.stakeSeveral, 10 * ADA);
        if (senders.length === 0) return null;
        const sender = rng.pick(senders);
        const own = world.wallets[sender]!.addresses;
        const targets = rng.shuffled(own).slice(0, Math.min(own.length, rng.int(2, 3)));
        const balance = this.wallets[sender]!.lovelace;
        return { sender, payments: targets.map((address) => ({ address, lovelace: this.amountFrom(rng, balance, 0.25), assets: [] })) };
      }
      default:
        return null;
    }
  }

  private heldAssets(wallet: number): Array<[string, number]> {
    const total = new Map<string, number>();
    for (const u of this.wallets[wallet]!.utxos) addAssets(total, u.output.assets);
    return sortedAssets(total);
  }

  private build(height: number, index: number, plan: TxPlan, rng: Rng): SimTx | null {
    const world = this.world;
    const state = this.wallets[plan.sender]!;
    const selected: Utxo[] = [...(plan.forceInputs ?? [])];
    const chosen = new Set(selected);
    const candidates = rng.shuffled(chosen.size > 0 ? state.utxos.filter((u) => !chosen.has(u)) : state.utxos);
    let inLovelace = 0;
    for (const u of selected) inLovelace += u.output.lovelace;
    /** Bumped whenever an input with tokens is taken: the change's tokens follow. */
    let tokensTaken = 0;
    const take = (u: Utxo): void => {
      selected.push(u);
      chosen.add(u);
      inLovelace += u.output.lovelace;
      if (u.output.assets.length > 0) tokensTaken++;
    };

    const needAssets = new Map<string, number>();
    for (const p of plan.payments) addAssets(needAssets, p.assets);
    const have = new Map<string, number>();
    for (const u of selected) addAssets(have, u.output.assets);
    for (const [unit, need] of needAssets) {
      for (const u of candidates) {
        if ((have.get(unit) ?? 0) >= need) break;
        if (chosen.has(u) || !u.output.assets.some(([x]) => x === unit)) continue;
        take(u);
        addAssets(have, u.output.assets);
      }
      if ((have.get(unit) ?? 0) < need) return null;
    }

    const withdrawal = plan.withdrawal ?? 0;
    const deposit = plan.delegation?.register ? STAKE_KEY_DEPOSIT : 0;
    const certs = plan.delegation ? (plan.delegation.register ? 2 : 1) : 0;
    const paid = plan.payments.reduce((n, p) => n + p.lovelace, 0);
    const scriptExtra = plan.scriptSpend ? rng.int(150_000, 600_000) : 0;
    const witnesses = 1 + (withdrawal > 0 || certs > 0 ? 1 : 0);

    let fee = 0;
    let size = 0;
    let changeLovelace = 0;
    let changeAssets: Array<[string, number]> = [];
    let changeOf = -1;
    const needs = [...needAssets.entries()];
    // The estimate's parts that no input changes: the payments and the certificates; each input adds
    // its own bytes (and a script spend's redeemer), the change output its tokens'.
    const fixedSize = txSize(0, plan.payments, { certs, withdrawals: withdrawal > 0 ? 1 : 0, redeemers: 0, mints: 0, witnesses });
    let next = 0;
    for (let guard = 0; ; guard++) {
      if (changeOf !== tokensTaken) {
        const leftover = new Map(have);
        addAssets(leftover, needs, -1);
        changeAssets = sortedAssets(leftover);
        changeOf = tokensTaken;
      }
      const redeemers = plan.scriptSpend ? selected.length : 0;
      size = fixedSize + 41 * selected.length + 380 * redeemers + CHANGE_OUTPUT_SIZE + changeAssets.length * ASSET_SIZE;
      fee = minFee(size) + (redeemers > 0 ? scriptExtra * redeemers : 0);
      changeLovelace = inLovelace + withdrawal - paid - fee - deposit;
      const minChange = ADA + changeAssets.length * 150_000;
      if (selected.length > 0 && changeLovelace >= minChange) break;
      while (next < candidates.length && chosen.has(candidates[next]!)) next++;
      if (next === candidates.length || guard > 60) return null;
      const u = candidates[next]!;
      take(u);
      addAssets(have, u.output.assets);
    }

    // Arrays a segment keeps are made at their length (concat, slice): one grown by a push keeps
    // room for sixteen more elements, a good part of a segment's memory.
    const paidOutputs: SimOutput[] = plan.payments.map((p) => ({
      address: p.address,
      lovelace: p.lovelace,
      assets: p.assets,
      dataHash: p.dataHash ?? null,
      inlineDatum: p.inlineDatum ?? null,
      ...(p.datum ? { datum: p.datum } : {}),
      consumedBy: null,
    }));
    const senderWallet = world.wallets[plan.sender]!;
    const outputs = paidOutputs.concat([{
      address: plan.changeAddress ?? rng.pick(senderWallet.addresses),
      lovelace: changeLovelace,
      assets: changeAssets,
      dataHash: null,
      inlineDatum: null,
      consumedBy: null,
    }]);

    const slot = this.ctx.slotOf(height);
    const redeemerCount = plan.scriptSpend ? selected.length : 0;
    const tx: SimTx = {
      height,
      index,
      hash: '',
      inputs: selected.map((u) => ({ txHash: u.txHash, height: u.height, index: u.index, outputIndex: u.outputIndex, output: u.output })),
      outputs,
      fee,
      scriptFee: scriptExtra * redeemerCount,
      deposit,
      size,
      witnesses,
      withdrawals: withdrawal > 0 ? [{ wallet: plan.sender, amount: withdrawal }] : [],
      delegations: plan.delegation ? [{ wallet: plan.sender, pool: plan.delegation.pool }] : [],
      stakeRegistrations: plan.delegation?.register ? 1 : 0,
      poolUpdates: 0,
      mints: 0,
      redeemers: redeemerCount,
      invalidBefore: rng.chance(0.1) ? Math.max(0, slot - rng.int(60, 600)) : null,
      invalidHereafter: rng.chance(0.92) ? slot + rng.int(1800, 10_800) : null,
    };
    const change = outputs[outputs.length - 1]!;
    finishTx(this.ctx.encoder, tx, (delta) => (change.lovelace -= delta));
    for (const u of selected) u.output.consumedBy = { height, index };
    state.utxos = state.utxos.filter((u) => !chosen.has(u));
    state.lovelace = 0;
    state.tokens = 0;
    for (const u of state.utxos) {
      state.lovelace += u.output.lovelace;
      state.tokens += u.output.assets.length;
    }
    this.credit(tx);
    return tx;
  }

  /** Adds a transaction's outputs to their owners' spendable outputs (the faucet reserve excluded). */
  private credit(tx: SimTx): void {
    tx.outputs.forEach((output, outputIndex) => {
      const owner = this.world.addresses[output.address]!.wallet;
      if (owner === FAUCET_WALLET) return;
      const state = this.wallets[owner]!;
      state.utxos.push({ txHash: tx.hash, height: tx.height, index: tx.index, outputIndex, output });
      state.lovelace += output.lovelace;
      state.tokens += output.assets.length;
    });
  }
}

export function simulateSegment(ctx: SimContext, segment: number): Segment {
  return new SegmentSimulator(ctx, segment).run();
}

/** A segment simulated a transaction at a time, for work done in time slices (budget.ts). */
export interface SegmentRun {
  /** Simulates the next transaction of the segment; true once the segment is done. */
  step(): boolean;
  result(): Segment;
}

export function segmentRun(ctx: SimContext, segment: number): SegmentRun {
  return new SegmentSimulator(ctx, segment);
}

/** The segment's address index, built once. */
export function segmentAddressTxs(segment: Segment): Map<number, SimTx[]> {
  if (segment.addressTxs) return segment.addressTxs;
  const index = new Map<number, SimTx[]>();
  for (const block of segment.blocks) {
    for (const tx of block.txs) {
      const seen = new Set<number>();
      for (const i of tx.inputs) seen.add(i.output.address);
      for (const o of tx.outputs) seen.add(o.address);
      for (const a of seen) {
        let list = index.get(a);
        if (!list) index.set(a, (list = []));
        list.push(tx);
      }
    }
  }
  segment.addressTxs = index;
  return index;
}
