// Simulation of one segment of the sandbox chain.
//
// The chain is cut into segments of `segmentLength` blocks. A segment is simulated sequentially
// from a state that depends on nothing but the chain key: its first block opens with the faucet's
// distribution transaction, which spends the previous distribution's reserve output (a fixed amount,
// so it is known without simulating the previous segment), withdraws the faucet's reward account to
// fund a few dozen wallets, and mints the native assets due in that segment. Every other transaction
// spends all the outputs its sender holds, created earlier in the same segment, and pays a fee
// decided from a bound of its size before its bytes exist, so a block's totals follow from the
// decisions alone (segmentSums makes them without making a transaction; with `sizes` it measures
// each transaction from them as TxCbor would write it). So:
//   - every input references a real output of an earlier transaction, with the same address and
//     amount, and no output is spent twice;
//   - every transaction balances: inputs + withdrawals = outputs + fee + deposit, and for tokens
//     inputs + mint = outputs;
//   - simulating any block costs at most one segment of work, whatever the height.
// Outputs still unspent at the end of their segment stay unspent for good.
import { blake2b256 } from '../../../shared/cardano/blake2b';
import { Rng, deriveBytes } from './rng';
import { decodeBech32, fromHex, toHex } from '../../../shared/cardano/bech32';
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
  /**
   * The bytes of a script spend's redeemers in its witness set (their units are drawn from the
   * transaction's place and script fee): what measuring a transaction from its decisions needs.
   */
  redeemersSize(tx: Pick<SimTx, 'height' | 'index' | 'redeemers' | 'scriptFee'>): number;
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

/** Whether the background transaction at (height, index) is a distribution: the first of its segment's first block. */
export const isDistributionAt = (height: number, index: number, segmentLength: number): boolean => index === 0 && height % segmentLength === 0;

/**
 * Which earlier distribution's reserve a segment's distribution spends: segment s spends the
 * reserve output (s − 1) mod 2 of segment ⌊(s − 1) / 2⌋'s, so every distribution makes two reserves
 * and the chain of hashes behind any distribution is log₂(s) long, not s.
 */
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

/**
 * A wallet as the simulation sees it: what it holds in all, which is all a transaction decides
 * from (a sender spends every output it holds, as a light wallet does), and the outputs themselves
 * when the segment is simulated whole.
 */
interface WalletState {
  /** The outputs held (a whole simulation's only), in the order they came. */
  utxos: Utxo[];
  /** How many outputs it holds. */
  count: number;
  /** How many of them are at an output index of 24 or more (an input naming one is a byte longer). */
  wide: number;
  /** How many of them carry a datum by its hash alone (a script spend's witness set holds the datum). */
  datums: number;
  lovelace: number;
  /** Tokens held: unit → quantity (none at zero). */
  tokens: Map<string, number>;
}

interface Payment {
  address: number;
  lovelace: number;
  assets: Array<[string, number]>;
  dataHash?: string | null;
  inlineDatum?: string | null;
  datum?: string;
}

/**
 * A transaction decided, before it is built. One shape for every kind (none is optional): `build`
 * reads each of them for every transaction, and a property read of many shapes costs V8 a lookup.
 */
interface TxPlan {
  sender: number;
  /** Its payments: the first `count` of this list (the simulation's, reused from plan to plan). */
  payments: Payment[];
  count: number;
  /** The reward withdrawn, or 0. */
  withdrawal: number;
  /** The pool delegated to, or −1 for no delegation; `register`: the stake key is registered first. */
  pool: number;
  register: boolean;
  scriptSpend: boolean;
  /** The change's address when the plan names it, else −1 (drawn among the sender's when built). */
  changeAddress: number;
}

// Both read their pairs by index: destructured in a loop, each pair's iteration made garbage
// (a segment's sums run them some hundred times).
function addAssets(into: Map<string, number>, assets: ReadonlyArray<[string, number]>, sign = 1): void {
  for (let i = 0; i < assets.length; i++) {
    const unit = assets[i]![0];
    const next = (into.get(unit) ?? 0) + sign * assets[i]![1];
    if (next === 0) into.delete(unit);
    else into.set(unit, next);
  }
}

const byUnit = (a: [string, number], b: [string, number]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

function sortedAssets(map: Map<string, number>): Array<[string, number]> {
  const held: Array<[string, number]> = [];
  map.forEach((q, unit) => {
    if (q > 0) held.push([unit, q]);
  });
  return held.sort(byUnit);
}

// Bounds of what tx-cbor.ts writes, part by part, in bytes (its heads at their widest for the
// counts a background transaction has): a transaction's fee is the size fee of its bound, decided
// before its bytes exist, so a list's totals need no encoding (the bound is some 9 % above the size:
// a wallet's estimate, never short of the minimum).
/** An input: [transaction hash, output index]. */
const INPUT_BOUND = 1 + 34 + 3;
/** An output without tokens or datum: {0: address (a base address's 57 bytes), 1: lovelace}. */
const OUTPUT_BOUND = 1 + 1 + 59 + 1 + 9;
/** A payment's output, whose address and amount are known: {0: address, 1: lovelace}. */
const paymentBound = (addressBytes: number, lovelace: number): number => 1 + 1 + 2 + addressBytes + 1 + (lovelace < 0x100000000 ? 5 : 9);
/** A token in an output: its policy's entry at worst (policy id, its map's head, name, quantity). */
const TOKEN_BOUND = 30 + 3 + 34 + 9;
/** An inline datum (`d8799f581c…ff`, 34 bytes) and a datum hash, with their keys. */
const INLINE_DATUM_BOUND = 1 + 1 + 1 + 2 + 2 + 34;
const DATA_HASH_BOUND = 1 + 1 + 1 + 34;
/** A key witness: [vkey, signature]. */
const WITNESS_BOUND = 1 + 34 + 66;
/** A redeemer [tag, index, data, [mem, steps]], and a spent output's hash-only datum in the witness set. */
const REDEEMER_BOUND = 1 + 1 + 3 + 3 + 1 + 9 + 9;
const WITNESS_DATUM_BOUND = 34;
/** A stake registration, a delegation, a withdrawal (reward account and amount). */
const REGISTRATION_BOUND = 1 + 1 + 32;
const DELEGATION_BOUND = 1 + 1 + 32 + 30;
const WITHDRAWAL_BOUND = 31 + 9;

interface SizeParts {
  inputs: number;
  /** The outputs' tokens, the change's included. */
  tokens: number;
  registrations: number;
  delegations: number;
  withdrawals: number;
  redeemers: number;
  witnesses: number;
  validFrom: boolean;
  validTo: boolean;
}

/**
 * An upper bound of a background transaction's size (not a distribution's) with these payments and
 * a change output: the transaction's and its body's heads, inputs, outputs, fee, validity bounds,
 * certificates, withdrawals, script data hash, and the witness set (keys, the spent outputs'
 * datums, redeemers), its validity flag and no auxiliary data.
 */
export function txSizeBound(payments: ReadonlyArray<Payment>, count: number, addressBytes: (address: number) => number, p: SizeParts): number {
  let size = 1 + 1 + (1 + 3) + p.inputs * INPUT_BOUND + (1 + 3) + OUTPUT_BOUND + 1 + 9;
  for (let i = 0; i < count; i++) {
    const o = payments[i]!;
    size += paymentBound(addressBytes(o.address), o.lovelace) + (o.inlineDatum ? INLINE_DATUM_BOUND : o.dataHash ? DATA_HASH_BOUND : 0);
  }
  // A value with tokens: [lovelace, {…}] (an array's head and the multi-asset map's).
  size += p.tokens > 0 ? p.tokens * TOKEN_BOUND + (count + 1) * (1 + 3) : 0;
  if (p.validTo) size += 1 + 9;
  if (p.validFrom) size += 1 + 9;
  const certs = p.registrations + p.delegations;
  if (certs > 0) size += 1 + 3 + p.registrations * REGISTRATION_BOUND + p.delegations * DELEGATION_BOUND;
  if (p.withdrawals > 0) size += 1 + 3 + p.withdrawals * WITHDRAWAL_BOUND;
  // The witness set: {0: keys, 4: datums, 5: redeemers}, the validity flag, the null auxiliary data.
  size += 1 + (1 + 3) + p.witnesses * WITNESS_BOUND + 1 + 1;
  if (p.redeemers > 0) size += 1 + 34 + (1 + 3) + p.inputs * WITNESS_DATUM_BOUND + (1 + 3) + p.redeemers * REDEEMER_BOUND;
  return size;
}

const minFee = (size: number): number => MIN_FEE_B + MIN_FEE_A * size;

// A background transaction's exact size from its decisions, as tx-cbor.ts's TxCbor writes it (a
// list's sizes of blocks simulated for their sums alone, no transaction made): CBOR heads by the
// values they hold, hashes and keys by their fixed lengths.
/** The bytes of a CBOR head holding n. */
export const headBytes = (n: number): number => (n < 24 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : n < 0x100000000 ? 5 : 9);
/** A byte string of n bytes with its head. */
const bytesField = (n: number): number => headBytes(n) + n;
/** An input: [transaction hash, output index] (the index's head counted apart). */
const INPUT_BYTES = 1 + bytesField(32);
/** A key witness: [vkey, signature]. */
const WITNESS_BYTES = 1 + bytesField(32) + bytesField(64);
/** A datum the simulation makes (`d8799f581c…ff`: a constructor holding 28 bytes). */
const DATUM_BYTES = 34;
/** An output's inline datum ({2: [1, #6.24(bytes)]}) and datum hash ({2: [0, hash]}), keys included. */
const INLINE_DATUM_BYTES = 1 + 1 + 1 + headBytes(24) + bytesField(DATUM_BYTES);
const DATA_HASH_BYTES = 1 + 1 + 1 + bytesField(32);
/** A stake credential [kind, 28 bytes], a registration [0, credential], a delegation [2, credential, pool]. */
const CREDENTIAL_BYTES = 1 + 1 + bytesField(28);
const REGISTRATION_BYTES = 1 + 1 + CREDENTIAL_BYTES;
const DELEGATION_BYTES = 1 + 1 + CREDENTIAL_BYTES + bytesField(28);
/** A withdrawal's reward account (its amount counted apart). */
const REWARD_ACCOUNT_BYTES = bytesField(29);
/** A policy id in a multi-asset map. */
const POLICY_BYTES = bytesField(28);

/** A world asset's name with its head, and its policy. */
interface TokenParts {
  name: number;
  policy: string;
}

/** A world's assets' parts by unit. */
const tokenParts = (world: World): Map<string, TokenParts> => new Map(world.assets.map((a) => [a.unit, { name: bytesField(a.assetNameHex.length >> 1), policy: a.policyId }]));

/** A value of lovelace and one token (a payment's): [lovelace, {policy: {name: quantity}}]. */
const oneTokenValue = (lovelace: number, token: TokenParts, quantity: number): number => 1 + headBytes(lovelace) + 1 + POLICY_BYTES + 1 + token.name + headBytes(quantity);

/** The names of each policy of a change's tokens (used again for each change measured). */
const namesByPolicy = new Map<string, number>();

/** A value of lovelace and the tokens held (a change's): [lovelace, {policy: {name: quantity}}], grouped by policy as multiAsset writes it. */
function heldValue(lovelace: number, held: ReadonlyMap<string, number>, parts: ReadonlyMap<string, TokenParts>): number {
  let size = 1 + headBytes(lovelace);
  namesByPolicy.clear();
  for (const [unit, quantity] of held) {
    const { name, policy } = parts.get(unit)!;
    size += name + headBytes(quantity);
    namesByPolicy.set(policy, (namesByPolicy.get(policy) ?? 0) + 1);
  }
  size += headBytes(namesByPolicy.size);
  for (const names of namesByPolicy.values()) size += POLICY_BYTES + headBytes(names);
  return size;
}

/** A fee of a 5-byte encoding, as every fee is: a distribution's fee begins there, so it settles in one step. */
const FEE_OF_FINAL_WIDTH = 0x10000;

/**
 * Measures the transaction and sets its size, its fee (the size fee of its real size plus its
 * script fee) balanced by its first withdrawal (a distribution's: the faucet's rewards), and then its
 * hash, the body encoded once. The fee's own encoding does not change the size (fees are 5-byte
 * integers), so this settles in a step or two; a step whose fee and withdrawal keep the widths of
 * their encodings keeps the size measured, so it is not measured again.
 */
export function finishTx(encoder: TxEncoder, tx: SimTx, freeOfFee = false): void {
  let size = encoder.size(tx);
  for (let guard = 0; ; guard++) {
    const fee = freeOfFee ? 0 : minFee(size) + tx.scriptFee;
    if (fee === tx.fee || guard > 8) {
      tx.size = size;
      tx.hash = encoder.hash(tx);
      return;
    }
    const withdrawal = tx.withdrawals[0]!;
    const widths = headBytes(fee) === headBytes(tx.fee) && headBytes(withdrawal.amount + fee - tx.fee) === headBytes(withdrawal.amount);
    withdrawal.amount += fee - tx.fee;
    tx.fee = fee;
    if (!widths) size = encoder.size(tx);
  }
}

/** A transaction whose fee was decided from its size's bound: its size measured, then its hash. */
function sealTx(encoder: TxEncoder, tx: SimTx): void {
  tx.size = encoder.size(tx);
  if (minFee(tx.size) + tx.scriptFee > tx.fee) throw new Error(`background transaction (${tx.height}, ${tx.index}) measures ${tx.size} bytes, above its fee's bound`);
  tx.hash = encoder.hash(tx);
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
    height, index: 0, hash: '', inputs, outputs, fee: s === 0 ? 0 : FEE_OF_FINAL_WIDTH, scriptFee: 0, deposit: 0, size: 0, witnesses: s === 0 ? 1 : 2 + (mints > 0 ? 1 : 0), withdrawals,
    delegations: [], stakeRegistrations: 0, poolUpdates: s === 0 ? world.pools.length : 0, mints, redeemers: 0, invalidBefore: null,
    invalidHereafter: s === 0 ? null : ctx.slotOf(height) + 7200,
  };
  finishTx(ctx.encoder, tx, s === 0);
  return tx;
}

/** The seed of a segment's blocks' generators (Rng.member, by the block's place in the segment). */
export const segmentSeed = (key: Uint8Array, segment: number): number[] => Rng.familySeed(key, 'segment-blocks', segment);

/** The generator of a segment's first block, which draws its distribution first. */
export const distributionRng = (key: Uint8Array, segment: number): Rng => Rng.member(segmentSeed(key, segment), 0);

/** A block whose transactions are being drawn: the rest of them come from its own rng, in order. */
interface OpenBlock {
  height: number;
  rng: Rng;
  /** Its transactions (a whole simulation's). */
  txs: SimTx[];
  /** Its totals so far. */
  count: number;
  output: number;
  fees: number;
  wanted: number;
  /** Its slot. */
  slot: number;
  /** Its size so far, measured from the decisions (a simulation for the sums alone). */
  size: number;
  /** Steps done: the opening, then each transaction drawn (wanted + 1 in all). */
  made: number;
}

/** A block's bytes besides its transactions'. */
export const BLOCK_BYTES = 4;

/** The tokens of a wallet that has held none yet: one map for all, never written (changeTokens makes a wallet its own). */
const NO_TOKENS = new Map<string, number>();
/** The outputs a wallet holds when a segment is simulated for its sums alone: none kept, one array for all. */
const NO_UTXOS: Utxo[] = Object.freeze([]) as unknown as Utxo[];

/** The tokens of an output that holds none: one array for all (no output's tokens are ever changed). */
const NO_ASSETS = Object.freeze([]) as unknown as Array<[string, number]>;

/** The recipients (in their order) by the kind of wallet a plan sends from, and the script wallets. */
interface SenderGroups {
  /** Key-locked: stake and enterprise wallets. */
  key: number[];
  /** By address: its wallet's id. */
  walletOf: Int32Array;
  /** By address: its bytes, a base address's 57 (with a stake part), an enterprise address's 29. */
  addressBytes: Uint8Array;
  /** By address: the bytes of it in an output (its CBOR head included), from its bech32. */
  addressField: Uint8Array;
  /** The world's assets' parts, by unit (an output's tokens measured). */
  tokens: Map<string, TokenParts>;
  /** By wallet id: whether it is in `key`. */
  isKey: boolean[];
  /** The addresses of each wallet a payment may go to (every one but the faucet's). */
  recipients: number[][];
  /** Script-locked. */
  script: number[];
  stake: number[];
  /** Stake wallets of two addresses or more. */
  stakeSeveral: number[];
  scriptWallets: Array<World['wallets'][number]>;
}

const groupsByWorld = new WeakMap<World, SenderGroups>();

/**
 * The wallets' states of a segment simulated for its sums, one list a world, emptied for each: a
 * segment's sums run start to end in one call (segmentSums), so no two use it at once, and a list a
 * segment was a tenth of the garbage its sums left.
 */
const sumsStatesByWorld = new WeakMap<World, WalletState[]>();
function sumsStates(world: World): WalletState[] {
  let states = sumsStatesByWorld.get(world);
  if (!states) sumsStatesByWorld.set(world, (states = world.wallets.map(() => ({ utxos: NO_UTXOS, count: 0, wide: 0, datums: 0, lovelace: 0, tokens: NO_TOKENS }))));
  for (const state of states) {
    state.count = 0;
    state.wide = 0;
    state.datums = 0;
    state.lovelace = 0;
    state.tokens = NO_TOKENS;
  }
  return states;
}

/** A set of wallet ids that lists its members (`ids`, in the order they came): adding and removing one is a step. */
class Members {
  readonly ids: number[] = [];
  private readonly at = new Map<number, number>();
  set(id: number, member: boolean): void {
    const i = this.at.get(id);
    if (member && i === undefined) {
      this.at.set(id, this.ids.length);
      this.ids.push(id);
    } else if (!member && i !== undefined) {
      // The last one takes its place.
      const last = this.ids.pop()!;
      this.at.delete(id);
      if (last !== id) {
        this.ids[i] = last;
        this.at.set(last, i);
      }
    }
  }
}

function senderGroups(world: World): SenderGroups {
  let g = groupsByWorld.get(world);
  if (g) return g;
  const kindOf = (id: number) => world.wallets[id]!.kind;
  const key = world.recipientWalletIds.filter((id) => kindOf(id) === 'stake' || kindOf(id) === 'enterprise');
  const isKey = world.wallets.map(() => false);
  for (const id of key) isKey[id] = true;
  g = {
    key,
    walletOf: Int32Array.from(world.addresses, (a) => a.wallet),
    addressBytes: Uint8Array.from(world.addresses, (a) => (a.stakeAddress === null ? 29 : 57)),
    addressField: Uint8Array.from(world.addresses, (a) => bytesField(decodeBech32(a.bech32)!.bytes.length)),
    tokens: tokenParts(world),
    isKey,
    recipients: world.recipientWalletIds.map((id) => world.wallets[id]!.addresses),
    script: world.recipientWalletIds.filter((id) => !key.includes(id)),
    stake: world.recipientWalletIds.filter((id) => kindOf(id) === 'stake'),
    stakeSeveral: world.recipientWalletIds.filter((id) => kindOf(id) === 'stake' && world.wallets[id]!.addresses.length >= 2),
    scriptWallets: world.wallets.filter((w) => w.kind === 'script' || w.kind === 'scriptStake'),
  };
  groupsByWorld.set(world, g);
  return g;
}

/** Each block's background totals of a segment simulated for its sums alone (no transaction made). */
export interface SegmentSums {
  index: number;
  counts: number[];
  outputs: number[];
  fees: number[];
  /** Each block's size, when measured (segmentSums' `sizes`). */
  sizes?: number[];
}

/** The span of amountFrom's shares (Rng.logUniformSpan): from half a percent of a balance up to `maxShare` of it. */
const shareSpan = (maxShare: number): number => Math.log(maxShare / 0.005);
const SHARE_SPANS = { half: shareSpan(0.5), twoFifths: shareSpan(0.4), threeTenths: shareSpan(0.3), quarter: shareSpan(0.25) };
/** A payment's share when half a balance is split among n of them (n = 1…3). */
const SPLIT_SPANS = [0, 1, 2, 3].map((n) => shareSpan(0.5 / n));

/** How many draws a sender is looked for among a group before the group is read whole. */
const SENDER_DRAWS = 64;

class SegmentSimulator {
  private readonly wallets: WalletState[];
  private readonly world: World;
  private readonly blocks: SimBlock[] = [];
  private readonly sums: SegmentSums;
  /** The block being simulated, when a step ended inside it. */
  private open: OpenBlock | null = null;
  private closed = 0;

  private readonly groups: SenderGroups;
  /**
   * The key wallets holding tokens (an asset transfer's senders, a few of the group): kept as their
   * tokens come and go, where drawing them from the whole group missed most draws.
   */
  private readonly holders = new Members();
  private readonly blockSeed: number[];
  private readonly addressBytes: (address: number) => number;
  /**
   * The payments of the plan being made, the first `planned` of one list kept from plan to plan,
   * their objects reused too (a build copies what it keeps into the outputs it makes): a list or a
   * batch's tens of payments a plan were most of what a segment's summing left for the collector,
   * and emptying a list is a call into V8's runtime.
   */
  private readonly payments: Payment[] = [];
  private planned = 0;
  private readonly txPlan: TxPlan = { sender: 0, payments: this.payments, count: 0, withdrawal: 0, pool: -1, register: false, scriptSpend: false, changeAddress: -1 };
  /** The bound's parts of the transaction being built (txSizeBound keeps none). */
  private readonly parts: SizeParts = { inputs: 0, tokens: 0, registrations: 0, delegations: 0, withdrawals: 0, redeemers: 0, witnesses: 0, validFrom: false, validTo: false };

  /**
   * `whole`: transactions made (else only each block's totals are, from the same decisions, and
   * their sizes measured from them when `measured`).
   */
  constructor(private readonly ctx: SimContext, private readonly segment: number, private readonly whole = true, private readonly measured = false) {
    this.world = ctx.world;
    this.groups = senderGroups(this.world);
    const bytes = this.groups.addressBytes;
    this.addressBytes = (address) => bytes[address]!;
    // What a wallet holds is made as it comes: most of the world's wallets get or hold no token in a segment.
    this.wallets = whole ? this.world.wallets.map(() => ({ utxos: [], count: 0, wide: 0, datums: 0, lovelace: 0, tokens: NO_TOKENS })) : sumsStates(this.world);
    this.sums = { index: segment, counts: [], outputs: [], fees: [], ...(measured ? { sizes: [] } : {}) };
    this.blockSeed = segmentSeed(ctx.key, segment);
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
    if (this.closed < this.ctx.segmentLength) {
      const open = this.open ?? (this.open = this.openBlock(first + this.closed));
      if (open.made) {
        this.randomTx(open);
        open.made++;
      } else open.made = 1;
      if (open.made > open.wanted) {
        this.closeBlock(open);
        this.open = null;
      }
    }
    return this.closed === this.ctx.segmentLength;
  }

  result(): Segment {
    return { index: this.segment, firstHeight: this.segment * this.ctx.segmentLength, blocks: this.blocks };
  }

  /** The totals of each block (a run begun without `whole`). */
  totals(): SegmentSums {
    while (!this.step());
    return this.sums;
  }

  /** A block begun: its distribution (the segment's first block) and how many transactions it draws. */
  private openBlock(height: number): OpenBlock {
    const rng = Rng.member(this.blockSeed, height - this.segment * this.ctx.segmentLength);
    const open: OpenBlock = { height, rng, txs: [], count: 0, output: 0, fees: 0, wanted: 0, slot: this.ctx.slotOf(height), size: BLOCK_BYTES, made: 0 };
    if (height === this.segment * this.ctx.segmentLength) this.distribution(open);
    const r = rng.float();
    open.wanted = r < 0.12 ? 0 : r < 0.82 ? rng.int(1, 12) : r < 0.97 ? rng.int(13, 40) : rng.int(41, 90);
    // made counts the opening as one step, then each drawn transaction.
    return open;
  }

  private closeBlock({ height, txs, count, output, fees, size: measured }: OpenBlock): void {
    this.closed++;
    if (!this.whole) {
      this.sums.counts.push(count);
      this.sums.outputs.push(output);
      this.sums.fees.push(fees);
      if (this.measured) this.sums.sizes!.push(measured);
      return;
    }
    let size = BLOCK_BYTES;
    for (const tx of txs) size += tx.size;
    this.blocks.push({ height, txs: txs.slice(), size, outputLovelace: output, fees });
  }

  /** A transaction made in the open block: its totals counted (its size when not kept), and itself kept when simulating whole. */
  private made(open: OpenBlock, output: number, fee: number, tx: SimTx | null, size = 0): void {
    open.count++;
    open.output += output;
    open.fees += fee;
    if (tx) open.txs.push(tx);
    else open.size += size;
  }

  // ---- the faucet distribution opening every segment ----

  private distribution(open: OpenBlock): void {
    const tx = distributionTx(this.ctx, this.segment, open.rng);
    if (tx.height !== open.height) throw new Error('a distribution opens its segment');
    let output = 0;
    tx.outputs.forEach((o, outputIndex) => {
      output += o.lovelace;
      const owner = this.groups.walletOf[o.address]!;
      if (owner !== FAUCET_WALLET) this.receive(owner, o.lovelace, o.assets, outputIndex, false, this.whole ? { txHash: tx.hash, height: tx.height, index: tx.index, outputIndex, output: o } : null);
    });
    this.made(open, output, tx.fee, this.whole ? tx : null, tx.size);
  }

  /** Output `outputIndex` of a transaction come to a wallet (the output itself when simulating whole). */
  private receive(owner: number, lovelace: number, assets: ReadonlyArray<[string, number]>, outputIndex: number, datumByHash: boolean, utxo: Utxo | null): void {
    const state = this.wallets[owner]!;
    state.count++;
    if (outputIndex >= 24) state.wide++;
    if (datumByHash) state.datums++;
    state.lovelace += lovelace;
    if (assets.length > 0) this.changeTokens(owner, assets, 1);
    if (utxo) state.utxos.push(utxo);
  }

  /** Adds (sign 1) or takes (−1) a wallet's tokens, keeping the key wallets that hold some. */
  private changeTokens(owner: number, assets: ReadonlyArray<[string, number]>, sign: 1 | -1): void {
    const state = this.wallets[owner]!;
    if (state.tokens === NO_TOKENS) state.tokens = new Map();
    const held = state.tokens;
    addAssets(held, assets, sign);
    if (this.groups.isKey[owner]) this.holders.set(owner, held.size > 0);
  }

  // ---- ordinary transactions ----

  /**
   * A wallet of a group that holds at least `minLovelace`, and tokens or three outputs if asked: a
   * few drawn at random first, then one drawn from all that do; null if none does.
   */
  private sender(rng: Rng, group: readonly number[], minLovelace: number, also: 'tokens' | 'inputs' | null = null): number | null {
    if (also === 'tokens') group = this.holders.ids;
    if (group.length === 0) return null;
    for (let i = 0; i < SENDER_DRAWS; i++) {
      const id = rng.pick(group);
      if (this.fits(id, minLovelace, also)) return id;
    }
    const all: number[] = [];
    for (const id of group) if (this.fits(id, minLovelace, also)) all.push(id);
    return all.length > 0 ? rng.pick(all) : null;
  }

  private fits(id: number, minLovelace: number, also: 'tokens' | 'inputs' | null): boolean {
    const s = this.wallets[id]!;
    return s.lovelace >= minLovelace && (also !== 'tokens' || s.tokens.size > 0) && (also !== 'inputs' || s.count >= 3);
  }

  /** A random address of a random wallet other than the faucet. */
  private recipientAddress(rng: Rng): number {
    return rng.pick(rng.pick(this.groups.recipients));
  }

  /** Some share of a balance, log-uniform from half a percent up to a share whose span is `span` (shareSpan). */
  private amountFrom(rng: Rng, balance: number, span: number): number {
    let amount = Math.floor(balance * rng.logUniformSpan(0.005, span));
    if (rng.chance(0.4)) amount = Math.floor(amount / ADA) * ADA;
    return Math.max(amount, ADA);
  }

  private randomTx(open: OpenBlock): void {
    const rng = open.rng;
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
    if (plan) this.build(open, plan);
  }

  /** A payment of the plan being made (its arguments drawn in their order), in an object reused. */
  private payment(address: number, lovelace: number, assets: Array<[string, number]>): Payment {
    let p = this.payments[this.planned];
    if (!p) this.payments.push((p = { address, lovelace, assets, dataHash: null, inlineDatum: null, datum: undefined }));
    p.address = address;
    p.lovelace = lovelace;
    p.assets = assets;
    p.dataHash = null;
    p.inlineDatum = null;
    p.datum = undefined;
    this.planned++;
    return p;
  }

  /**
   * The plan decided, its fields as TxPlan has them: the one object every plan of this simulation
   * is (build reads it before the next is made).
   */
  private decided(sender: number, withdrawal = 0, pool = -1, register = false, scriptSpend = false, changeAddress = -1): TxPlan {
    const plan = this.txPlan;
    plan.sender = sender;
    plan.count = this.planned;
    plan.withdrawal = withdrawal;
    plan.pool = pool;
    plan.register = register;
    plan.scriptSpend = scriptSpend;
    plan.changeAddress = changeAddress;
    return plan;
  }

  private plan(kind: string, rng: Rng): TxPlan | null {
    const world = this.world;
    const groups = this.groups;
    const payments = this.payments;
    this.planned = 0;
    switch (kind) {
      case 'payment': {
        const sender = this.sender(rng, groups.key, 5 * ADA);
        if (sender === null) return null;
        const state = this.wallets[sender]!;
        const n = rng.chance(0.6) ? 1 : rng.int(2, 3);
        for (let i = 0; i < n; i++) this.payment(this.recipientAddress(rng), this.amountFrom(rng, state.lovelace, SPLIT_SPANS[n]!), NO_ASSETS);
        if (state.tokens.size > 0 && rng.chance(0.25)) {
          const [unit, held] = rng.pick(sortedAssets(state.tokens));
          payments[0]!.assets = [[unit, Math.max(1, Math.floor(held * rng.float()))]];
          payments[0]!.lovelace = Math.max(payments[0]!.lovelace, 1_500_000);
        }
        return this.decided(sender);
      }
      case 'asset': {
        // Among the key wallets that hold tokens.
        const sender = this.sender(rng, groups.key, 4 * ADA, 'tokens');
        if (sender === null) return null;
        const held = sortedAssets(this.wallets[sender]!.tokens);
        const n = Math.min(held.length, rng.int(1, 2));
        for (const [unit, qty] of rng.shuffled(held).slice(0, n)) {
          this.payment(this.recipientAddress(rng), rng.int(1_150_000, 2_000_000), [[unit, qty === 1 ? 1 : Math.max(1, Math.floor(qty * rng.logUniform(0.001, 0.9)))]]);
        }
        return this.decided(sender);
      }
      case 'delegation': {
        const sender = this.sender(rng, groups.stake, 5 * ADA);
        if (sender === null) return null;
        // A world stake key stays with its home pool, whose stake it is part of (stake.ts): it re-delegates to it.
        return this.decided(sender, 0, homePoolIndex(sender, world.pools.length), rng.chance(0.25));
      }
      case 'batch': {
        const sender = this.sender(rng, groups.key, 2_000 * ADA);
        if (sender === null) return null;
        const balance = this.wallets[sender]!.lovelace;
        const n = rng.int(8, 40);
        const span = Math.log(balance / (2 * n) / (2 * ADA));
        for (let i = 0; i < n; i++) this.payment(this.recipientAddress(rng), Math.max(ADA, Math.floor(rng.logUniformSpan(2 * ADA, span))), NO_ASSETS);
        return this.decided(sender);
      }
      case 'consolidation': {
        // Three outputs or more gathered into one at an address of the wallet's.
        const sender = this.sender(rng, groups.key, 3 * ADA, 'inputs');
        if (sender === null) return null;
        return this.decided(sender, 0, -1, false, false, rng.pick(world.wallets[sender]!.addresses));
      }
      case 'script': {
        if (rng.chance(0.5)) {
          const sender = this.sender(rng, groups.script, 3 * ADA);
          if (sender !== null) {
            this.payment(this.recipientAddress(rng), this.amountFrom(rng, this.wallets[sender]!.lovelace, SHARE_SPANS.half), NO_ASSETS);
            return this.decided(sender, 0, -1, false, true);
          }
        }
        const sender = this.sender(rng, groups.key, 5 * ADA);
        if (sender === null) return null;
        const inline = rng.chance(0.5);
        // The datum's bytes only when the transaction is made: its length is all a total needs.
        const nonce = rng.u32();
        const datum = this.whole ? `d8799f581c${toHex(deriveBytes(this.ctx.key, 28, 'datum', this.segment, nonce))}ff` : INLINE_DATUM_PLACE;
        const locked = this.payment(rng.pick(rng.pick(groups.scriptWallets).addresses), Math.max(2 * ADA, this.amountFrom(rng, this.wallets[sender]!.lovelace, SHARE_SPANS.twoFifths)), NO_ASSETS);
        if (inline) locked.inlineDatum = datum;
        else {
          locked.dataHash = this.whole ? toHex(blake2b256(fromHex(datum)!)) : INLINE_DATUM_PLACE;
          locked.datum = datum;
        }
        return this.decided(sender);
      }
      case 'withdrawal': {
        const sender = this.sender(rng, groups.stake, 2 * ADA);
        if (sender === null) return null;
        this.payment(this.recipientAddress(rng), this.amountFrom(rng, this.wallets[sender]!.lovelace, SHARE_SPANS.threeTenths), NO_ASSETS);
        return this.decided(sender, Math.round(rng.logUniform(1, 400) * ADA));
      }
      case 'self': {
        const sender = this.sender(rng, groups.stakeSeveral, 10 * ADA);
        if (sender === null) return null;
        const own = world.wallets[sender]!.addresses;
        const targets = rng.shuffled(own).slice(0, Math.min(own.length, rng.int(2, 3)));
        const balance = this.wallets[sender]!.lovelace;
        for (const address of targets) this.payment(address, this.amountFrom(rng, balance, SHARE_SPANS.quarter), NO_ASSETS);
        return this.decided(sender);
      }
      default:
        return null;
    }
  }

  /**
   * The plan made a transaction, if the sender's outputs pay for it: it spends every output the
   * sender holds (tokens included), pays the plan's payments and returns the rest to the sender in
   * one change output; its fee is the size fee of the bound of its size (plus a script spend's fee
   * for its redeemers), decided before its bytes. None is made when the change would fall short of
   * its minimum.
   */
  private build(open: OpenBlock, plan: TxPlan): void {
    const { height, rng, slot } = open;
    const world = this.world;
    const state = this.wallets[plan.sender]!;
    const { payments, count } = plan;
    // The change's tokens: what the sender holds less what it pays (taken from its own in place,
    // and given back if the transaction is refused).
    const held = state.tokens;
    // How many kinds of token the change holds; which ones (sorted as outputs list them) only when
    // the transaction is made.
    let changeKinds = 0;
    let tokens = 0;
    let paid = 0;
    for (let i = 0; i < count; i++) {
      paid += payments[i]!.lovelace;
      tokens += payments[i]!.assets.length;
    }
    if (held.size > 0) {
      for (let i = 0; i < count; i++) this.changeTokens(plan.sender, payments[i]!.assets, -1);
      changeKinds = held.size;
      tokens += changeKinds;
    }

    const withdrawal = plan.withdrawal;
    const delegates = plan.pool >= 0;
    const deposit = plan.register ? STAKE_KEY_DEPOSIT : 0;
    const scriptExtra = plan.scriptSpend ? rng.int(150_000, 600_000) : 0;
    const witnesses = 1 + (withdrawal > 0 || delegates ? 1 : 0);
    const redeemers = plan.scriptSpend ? state.count : 0;
    const invalidBefore = rng.chance(0.1) ? Math.max(0, slot - rng.int(60, 600)) : null;
    const invalidHereafter = rng.chance(0.92) ? slot + rng.int(1800, 10_800) : null;
    const changeAddress = plan.changeAddress >= 0 ? plan.changeAddress : rng.pick(world.wallets[plan.sender]!.addresses);

    const parts = this.parts;
    parts.inputs = state.count;
    parts.tokens = tokens;
    parts.registrations = plan.register ? 1 : 0;
    parts.delegations = delegates ? 1 : 0;
    parts.withdrawals = withdrawal > 0 ? 1 : 0;
    parts.redeemers = redeemers;
    parts.witnesses = witnesses;
    parts.validFrom = invalidBefore !== null;
    parts.validTo = invalidHereafter !== null;
    const bound = txSizeBound(payments, count, this.addressBytes, parts);
    const fee = minFee(bound) + scriptExtra * redeemers;
    const changeLovelace = state.lovelace + withdrawal - paid - fee - deposit;
    if (changeLovelace < ADA + changeKinds * 150_000) {
      if (tokens > 0) for (let i = 0; i < count; i++) this.changeTokens(plan.sender, payments[i]!.assets, 1);
      return;
    }

    const spent = state.utxos;
    if (this.whole) state.utxos = [];
    if (!this.whole) {
      const size = this.measured ? this.measure(open, plan, state, changeAddress, changeLovelace, changeKinds, fee, scriptExtra * redeemers, witnesses, invalidBefore, invalidHereafter) : 0;
      this.spendAll(state, count, changeLovelace);
      const walletOf = this.groups.walletOf;
      for (let i = 0; i < count; i++) {
        const p = payments[i]!;
        this.receive(walletOf[p.address]!, p.lovelace, p.assets, i, p.datum !== undefined, null);
      }
      this.made(open, paid + changeLovelace, fee, null, size);
      return;
    }
    this.spendAll(state, count, changeLovelace);
    const outputs: Payment[] = payments.slice(0, count).concat([{ address: changeAddress, lovelace: changeLovelace, assets: changeKinds > 0 ? sortedAssets(held) : NO_ASSETS }]);

    // Arrays a segment keeps are made at their length (concat, slice): one grown by a push keeps
    // room for sixteen more elements, a good part of a segment's memory.
    const made: SimOutput[] = outputs.map((p) => ({
      address: p.address,
      lovelace: p.lovelace,
      assets: p.assets,
      dataHash: p.dataHash ?? null,
      inlineDatum: p.inlineDatum ?? null,
      ...(p.datum ? { datum: p.datum } : {}),
      consumedBy: null,
    }));
    const index = open.txs.length;
    const tx: SimTx = {
      height,
      index,
      hash: '',
      inputs: spent.map((u) => ({ txHash: u.txHash, height: u.height, index: u.index, outputIndex: u.outputIndex, output: u.output })),
      outputs: made,
      fee,
      scriptFee: scriptExtra * redeemers,
      deposit,
      size: 0,
      witnesses,
      withdrawals: withdrawal > 0 ? [{ wallet: plan.sender, amount: withdrawal }] : [],
      delegations: delegates ? [{ wallet: plan.sender, pool: plan.pool }] : [],
      stakeRegistrations: plan.register ? 1 : 0,
      poolUpdates: 0,
      mints: 0,
      redeemers,
      invalidBefore,
      invalidHereafter,
    };
    sealTx(this.ctx.encoder, tx);
    for (const u of spent) u.output.consumedBy = { height, index };
    const change = made.length - 1;
    for (let i = 0; i < change; i++) this.receive(this.groups.walletOf[made[i]!.address]!, made[i]!.lovelace, made[i]!.assets, i, made[i]!.datum !== undefined, { txHash: tx.hash, height, index, outputIndex: i, output: made[i]! });
    state.utxos.push({ txHash: tx.hash, height, index, outputIndex: change, output: made[change]! });
    this.made(open, paid + changeLovelace, fee, tx);
  }

  /** The sender spent every output it held: the change at output `changeIndex` is its one output now, its tokens what it holds already (paid ones taken). */
  private spendAll(state: WalletState, changeIndex: number, changeLovelace: number): void {
    state.count = 1;
    state.wide = changeIndex >= 24 ? 1 : 0;
    state.datums = 0;
    state.lovelace = changeLovelace;
  }

  /**
   * The size of the transaction `build` would make, from its decisions alone (the sender's state
   * before it spends): what TxCbor.size measures of the transaction made, its body's fields in
   * order (inputs, outputs, fee, validity, certificates, withdrawals, script data hash), its
   * witness set (keys, the spent outputs' datums, redeemers), the validity flag and no auxiliary data.
   */
  private measure(open: OpenBlock, plan: TxPlan, state: WalletState, changeAddress: number, changeLovelace: number, changeKinds: number, fee: number, scriptFee: number, witnesses: number, invalidBefore: number | null, invalidHereafter: number | null): number {
    const field = this.groups.addressField;
    const { payments, count } = plan;
    const inputs = state.count;
    const certs = plan.pool >= 0 ? (plan.register ? 2 : 1) : 0;
    const withdrawal = plan.withdrawal;
    const redeemers = plan.scriptSpend ? inputs : 0;
    const fields = 3 + (invalidHereafter !== null ? 1 : 0) + (certs > 0 ? 1 : 0) + (withdrawal > 0 ? 1 : 0) + (invalidBefore !== null ? 1 : 0) + (redeemers > 0 ? 1 : 0);
    let body = headBytes(fields);
    body += 1 + headBytes(inputs) + inputs * (INPUT_BYTES + 1) + state.wide;
    body += 1 + headBytes(count + 1);
    for (let i = 0; i < count; i++) {
      const p = payments[i]!;
      body += 3 + field[p.address]! + (p.assets.length === 0 ? headBytes(p.lovelace) : oneTokenValue(p.lovelace, this.groups.tokens.get(p.assets[0]![0])!, p.assets[0]![1]));
      if (p.inlineDatum) body += INLINE_DATUM_BYTES;
      else if (p.dataHash) body += DATA_HASH_BYTES;
    }
    body += 3 + field[changeAddress]! + (changeKinds === 0 ? headBytes(changeLovelace) : heldValue(changeLovelace, state.tokens, this.groups.tokens));
    body += 1 + headBytes(fee);
    if (invalidHereafter !== null) body += 1 + headBytes(invalidHereafter);
    if (certs > 0) body += 1 + headBytes(certs) + (certs === 2 ? REGISTRATION_BYTES : 0) + DELEGATION_BYTES;
    if (withdrawal > 0) body += 1 + 1 + REWARD_ACCOUNT_BYTES + headBytes(withdrawal);
    if (invalidBefore !== null) body += 1 + headBytes(invalidBefore);
    if (redeemers > 0) body += 1 + bytesField(32);
    let witnessSet = 1 + 1 + headBytes(witnesses) + witnesses * WITNESS_BYTES;
    if (redeemers > 0) {
      if (state.datums > 0) witnessSet += 1 + headBytes(state.datums) + state.datums * DATUM_BYTES;
      witnessSet += 1 + this.ctx.encoder.redeemersSize({ height: open.height, index: open.count, redeemers, scriptFee });
    }
    return 1 + body + witnessSet + 1 + 1;
  }
}

/** What stands for a datum and its hash in a plan whose transaction is not made (their lengths count, not their bytes). */
const INLINE_DATUM_PLACE = 'x';

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

/**
 * Each block's background totals of segment `segment` (transaction count, output, fees), from the
 * same decisions as the segment simulated whole but with no transaction made, encoded or hashed
 * (its distribution but measured): what an epoch's sums need, in a small part of the time. With
 * `sizes`, each block's size too, each transaction measured from its decisions as TxCbor would
 * write it (about a third more): what a page of blocks needs.
 */
export function segmentSums(ctx: SimContext, segment: number, sizes = false): SegmentSums {
  return new SegmentSimulator(ctx, segment, false, sizes).totals();
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
