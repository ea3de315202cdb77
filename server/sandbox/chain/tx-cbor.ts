// The CBOR of background (simulated) transactions: a Conway-era transaction made of what the
// simulation decided, so its hash is the blake2b-256 of its body and `/txs/{hash}/cbor` parses.
//
// The body holds the real inputs (the earlier outputs it spends, by their transactions' hashes),
// the outputs /txs/{hash}/utxos shows, the fee, the validity interval, the certificates (stake
// registrations and delegations; pool registrations and retirements in the faucet distributions),
// the withdrawals, the mint, the metadata's hash and, for script spends, the script data hash. The
// body is a function of the simulated transaction alone, so it is hashed once when the segment is
// simulated and encoded again, identically, when /cbor asks for it. The witness set's key
// witnesses are well-formed but fake: the world's keys do not exist, so each verification key and
// signature is derived from the chain key (a signature check fails, as nobody can sign for them).
import * as CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { blake2b256 } from '../../../shared/cardano/blake2b';
import { decodeBech32, decodeBech32Fast, fromHex, toHex } from '../../../shared/cardano/bech32';
import { deriveBytes, deriveFloat } from './rng';
import { costModels } from './plutus';
import { backgroundUnitCounts, backgroundUnits } from './txs';
import type { Protocol } from './protocol';
import type { PoolBook } from './pools';
import { distributionRng, distributionTx, headBytes, isDistributionAt, type SimContext, type SimOutput, type SimTx, type TxEncoder } from './simulate';
import type { World } from './world';
import { SegmentBits } from './totals';

/** A growable CBOR writer (definite lengths, smallest heads: what the ledger's own encoders emit). */
class Writer {
  private buf: Uint8Array;
  private len = 0;

  constructor(capacity = 64) {
    this.buf = new Uint8Array(capacity);
  }

  /** Starts again, keeping the buffer. */
  reset(): this {
    this.len = 0;
    return this;
  }

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  head(major: number, n: number): this {
    this.room(9);
    const m = major << 5;
    if (n < 24) this.buf[this.len++] = m | n;
    else if (n < 0x100) {
      this.buf[this.len++] = m | 24;
      this.buf[this.len++] = n;
    } else if (n < 0x10000) {
      this.buf[this.len++] = m | 25;
      this.buf[this.len++] = n >>> 8;
      this.buf[this.len++] = n & 0xff;
    } else if (n < 0x100000000) {
      this.buf[this.len++] = m | 26;
      this.buf[this.len++] = n >>> 24;
      this.buf[this.len++] = (n >>> 16) & 0xff;
      this.buf[this.len++] = (n >>> 8) & 0xff;
      this.buf[this.len++] = n & 0xff;
    } else {
      const hi = Math.floor(n / 0x100000000);
      const lo = n >>> 0;
      this.buf[this.len++] = m | 27;
      for (const v of [hi >>> 24, (hi >>> 16) & 0xff, (hi >>> 8) & 0xff, hi & 0xff, lo >>> 24, (lo >>> 16) & 0xff, (lo >>> 8) & 0xff, lo & 0xff]) this.buf[this.len++] = v;
    }
    return this;
  }

  uint(n: number): this {
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a CBOR unsigned integer: ${n}`);
    return this.head(0, n);
  }
  bytes(b: Uint8Array): this {
    this.head(2, b.length);
    return this.raw(b);
  }
  /** A byte string given in hex (well-formed: the simulation's own). */
  hexBytes(hex: string): this {
    const n = hex.length >> 1;
    this.head(2, n);
    this.room(n);
    for (let i = 0; i < n; i++) this.buf[this.len++] = (HEX[hex.charCodeAt(2 * i)]! << 4) | HEX[hex.charCodeAt(2 * i + 1)]!;
    return this;
  }
  text(s: string): this {
    const b = new TextEncoder().encode(s);
    this.head(3, b.length);
    return this.raw(b);
  }
  array(n: number): this {
    return this.head(4, n);
  }
  map(n: number): this {
    return this.head(5, n);
  }
  tag(n: number): this {
    return this.head(6, n);
  }
  null(): this {
    return this.raw(NULL);
  }
  raw(b: Uint8Array): this {
    this.room(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
    return this;
  }
  done(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
  /** What was written, without a copy: valid until the writer is written again. */
  view(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}

/**
 * Counts what a Writer would write and writes nothing: a body's length without its bytes (a list's
 * totals need the sizes of transactions whose bytes nobody reads).
 */
class Meter extends Writer {
  private counted = 0;

  constructor() {
    super(0);
  }
  override reset(): this {
    this.counted = 0;
    return this;
  }
  override head(_major: number, n: number): this {
    this.counted += headBytes(n);
    return this;
  }
  override hexBytes(hex: string): this {
    const n = hex.length >> 1;
    this.counted += headBytes(n) + n;
    return this;
  }
  override raw(b: Uint8Array): this {
    this.counted += b.length;
    return this;
  }
  /** The bytes counted since the last reset. */
  get length(): number {
    return this.counted;
  }
}
const HEX = new Uint8Array(128);
for (let i = 0; i < 16; i++) {
  HEX['0123456789abcdef'.charCodeAt(i)] = i;
  HEX['0123456789ABCDEF'.charCodeAt(i)] = i;
}
const NULL = new Uint8Array([0xf6]);
const ZERO_VKEY = new Uint8Array(32);
const ZERO_SIGNATURE = new Uint8Array(64);
const TRUE = new Uint8Array([0xf5]);
/** A hash's place in a body being measured. */
const ZERO_HASH = new Uint8Array(32);

const hexBytes = (hex: string): Uint8Array => fromHex(hex)!;

/** The redeemer every background script spend gives: `Constr 0 []`. */
export const BACKGROUND_REDEEMER_DATA = 'd87980';
const REDEEMER_DATA = hexBytes(BACKGROUND_REDEEMER_DATA);
/** Its hash, as /txs/{hash}/redeemers shows it. */
export const BACKGROUND_REDEEMER_DATA_HASH = toHex(blake2b256(hexBytes(BACKGROUND_REDEEMER_DATA)));

/** A datum's hash: blake2b-256 of its CBOR. */
export const datumHash = (cborHex: string): string => toHex(blake2b256(hexBytes(cborHex)));

/** What a background script spend's redeemers' units are drawn from: its place and its script fee. */
type RedeemerPlace = Pick<SimTx, 'height' | 'index' | 'redeemers' | 'scriptFee'>;

/** Execution units of a background script spend's i-th redeemer: the fee above the size fee, shared. */
export function backgroundRedeemerUnits(key: Uint8Array, tx: RedeemerPlace, i: number, protocol: Protocol) {
  const share = Math.floor(tx.scriptFee / tx.redeemers);
  return backgroundUnits(share, 0.3 + 0.4 * deriveFloat(key, 'redeemer-mem', tx.height, tx.index, i), tx.redeemers, protocol);
}

/** Inputs in the ledger's order (by transaction hash, then output index): the order redeemers point into. */
export function sortedInputs<T extends { txHash: string; outputIndex: number }>(inputs: readonly T[]): T[] {
  return [...inputs].sort((a, b) => (a.txHash < b.txHash ? -1 : a.txHash > b.txHash ? 1 : a.outputIndex - b.outputIndex));
}

/** A unit interval as a fraction with the smallest power-of-ten denominator that holds it exactly. */
function fraction(x: number): [number, number] {
  let den = 1;
  while (den < 1e9 && Math.round(x * den) / den !== x) den *= 10;
  return [Math.round(x * den), den];
}

function ipv4Bytes(text: string): Uint8Array {
  return new Uint8Array(text.split('.').map(Number));
}

function ipv6Bytes(text: string): Uint8Array {
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const v = parseInt(g, 16);
    out[2 * i] = v >>> 8;
    out[2 * i + 1] = v & 0xff;
  });
  return out;
}

export interface TxCborOptions {
  key: Uint8Array;
  world: World;
  book: PoolBook;
  protocol: Protocol;
  network: 'mainnet' | 'preprod' | 'preview';
  segmentLength: number;
  /** The metadata a distribution carries, as a metadata map's CBOR (null without metadata). */
  auxData: (segment: number) => Uint8Array | null;
  /** The epoch of a height (pool retirements name epochs). */
  epochOf: (height: number) => number;
}

/** Encodes background transactions: bodies for their hashes, whole transactions for /cbor. */
export class TxCbor implements TxEncoder {
  private readonly addressBytes = new Map<number, Uint8Array>();
  private readonly stakeBytes = new Map<string, Uint8Array>();
  private readonly distributionCerts = new Map<number, Uint8Array[]>();
  private scriptModels: CSL.Costmdls | undefined;
  /** The body's writer, used again for each body (the body is copied out). */
  private readonly scratch = new Writer(4096);
  /** What measures a body, and a part of the witness set. */
  private readonly meter = new Meter();
  private readonly partMeter = new Meter();
  private readonly unitsOf = new WeakMap<RedeemerPlace, Array<ReturnType<typeof backgroundRedeemerUnits>>>();

  constructor(private readonly o: TxCborOptions) {}

  private address(index: number): Uint8Array {
    let b = this.addressBytes.get(index);
    if (!b) {
      const text = this.o.world.addresses[index]!.bech32;
      b = decodeBech32Fast(text, text.startsWith('addr_test') ? 'addr_test' : 'addr') ?? decodeBech32(text)!.bytes;
      this.addressBytes.set(index, b);
    }
    return b;
  }

  private rewardAccount(stakeAddress: string): Uint8Array {
    let b = this.stakeBytes.get(stakeAddress);
    if (!b) this.stakeBytes.set(stakeAddress, (b = decodeBech32(stakeAddress)!.bytes));
    return b;
  }

  private credential(w: Writer, stakeAddress: string): void {
    const b = this.rewardAccount(stakeAddress);
    w.array(2).uint((b[0]! & 0x10) !== 0 ? 1 : 0).bytes(b.subarray(1));
  }

  private isDistribution(tx: SimTx): boolean {
    return isDistributionAt(tx.height, tx.index, this.o.segmentLength);
  }

  /** A distribution's certificates: every pool's registration at genesis, then the segment's retirements. */
  private poolCerts(segment: number): Uint8Array[] {
    let hit = this.distributionCerts.get(segment);
    if (hit) return hit;
    const { book } = this.o;
    const certs: Uint8Array[] = [];
    if (segment === 0) {
      for (const pool of book.all) {
        const w = new Writer().array(10).uint(3).bytes(hexBytes(pool.hex)).bytes(hexBytes(pool.vrfKeyHash)).uint(pool.pledge).uint(pool.fixedCost);
        const [num, den] = fraction(pool.margin);
        w.tag(30).array(2).uint(num).uint(den);
        const reward = this.rewardAccount(pool.rewardAccount);
        w.bytes(reward).array(1).bytes(reward.subarray(1));
        const relays = book.relays(pool);
        w.array(relays.length);
        for (const r of relays) {
          if (r.dns_srv) w.array(2).uint(2).text(r.dns_srv);
          else if (r.dns) w.array(3).uint(1).uint(r.port).text(r.dns);
          else {
            w.array(4).uint(0).uint(r.port);
            if (r.ipv4) w.bytes(ipv4Bytes(r.ipv4));
            else w.null();
            if (r.ipv6) w.bytes(ipv6Bytes(r.ipv6));
            else w.null();
          }
        }
        const m = book.metadata(pool);
        w.array(2).text(m.url).bytes(hexBytes(m.hash));
        certs.push(w.done());
      }
    }
    for (const r of book.retirementsIn(segment)) certs.push(new Writer().array(3).uint(4).bytes(hexBytes(r.pool.hex)).uint(r.retiringEpoch).done());
    this.distributionCerts.set(segment, (hit = certs));
    if (this.distributionCerts.size > 256) this.distributionCerts.delete(this.distributionCerts.keys().next().value!);
    return hit;
  }

  /** How many certificates the body holds: a distribution's pools', or a registration and a delegation per delegated key. */
  private certificateCount(tx: SimTx): number {
    if (this.isDistribution(tx)) return this.poolCerts(tx.height / this.o.segmentLength).length;
    return tx.delegations.length * (tx.stakeRegistrations > 0 ? 2 : 1);
  }

  /** The certificates, written in place (a distribution's are encoded once per segment and kept). */
  private certificates(w: Writer, tx: SimTx): void {
    if (this.isDistribution(tx)) {
      for (const c of this.poolCerts(tx.height / this.o.segmentLength)) w.raw(c);
      return;
    }
    for (const d of tx.delegations) {
      const stake = this.o.world.wallets[d.wallet]!.stakeAddress!;
      if (tx.stakeRegistrations > 0) {
        w.array(2).uint(0);
        this.credential(w, stake);
      }
      w.array(3).uint(2);
      this.credential(w, stake);
      w.hexBytes(this.o.world.pools[d.pool]!.hex);
    }
  }

  private output(w: Writer, o: SimOutput): void {
    const fields = o.dataHash || o.inlineDatum ? 3 : 2;
    w.map(fields).uint(0).bytes(this.address(o.address)).uint(1);
    this.value(w, o.lovelace, o.assets);
    if (o.inlineDatum) w.uint(2).array(2).uint(1).tag(24).hexBytes(o.inlineDatum);
    else if (o.dataHash) w.uint(2).array(2).uint(0).hexBytes(o.dataHash);
  }

  /** Lovelace alone, or [lovelace, {policy: {name: quantity}}] (assets sorted by unit, so grouped by policy). */
  private value(w: Writer, lovelace: number, assets: ReadonlyArray<[string, number]>): void {
    if (assets.length === 0) {
      w.uint(lovelace);
      return;
    }
    w.array(2).uint(lovelace);
    this.multiAsset(w, assets);
  }

  private multiAsset(w: Writer, assets: ReadonlyArray<[string, number]>): void {
    const policies = new Map<string, Array<[string, number]>>();
    for (const [unit, q] of assets) {
      const p = unit.slice(0, 56);
      let list = policies.get(p);
      if (!list) policies.set(p, (list = []));
      list.push([unit.slice(56), q]);
    }
    w.map(policies.size);
    for (const [policy, names] of policies) {
      w.hexBytes(policy).map(names.length);
      for (const [name, q] of names) w.hexBytes(name).uint(q);
    }
  }

  /** The assets a distribution mints: each world asset's genesis supply, then its re-mints. */
  private distributionMint(tx: SimTx): Array<[string, number]> {
    const out: Array<[string, number]> = [];
    // The distribution's minted outputs each hold one asset, all of whose quantity the mint made.
    if (tx.mints === 0) return out;
    for (const o of tx.outputs) for (const [unit, q] of o.assets) if (this.o.world.assetByUnit.has(unit)) out.push([unit, q]);
    return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  private redeemers(tx: SimTx): Uint8Array {
    return this.writeRedeemers(new Writer(), tx).done();
  }

  /** The redeemers' bytes in the witness set, measured (TxEncoder): a transaction measured from its decisions needs them. */
  redeemersSize(tx: RedeemerPlace): number {
    // A redeemer's units lie between those of the least and the most memory its draw gives (a
    // fraction in [0.3, 0.7) of its share): when both are written with heads of the same sizes, so
    // is every one, and no unit need be drawn.
    const share = Math.floor(tx.scriptFee / tx.redeemers);
    const least = backgroundUnitCounts(share, 0.3, tx.redeemers, this.o.protocol);
    const most = backgroundUnitCounts(share, 0.7, tx.redeemers, this.o.protocol);
    const mem = headBytes(least.mem);
    const steps = headBytes(least.steps);
    if (mem !== headBytes(most.mem) || steps !== headBytes(most.steps)) return this.writeRedeemers(this.partMeter.reset(), tx).length;
    // [0, i, data, [mem, steps]] each.
    let size = headBytes(tx.redeemers) + tx.redeemers * (1 + 1 + REDEEMER_DATA.length + 1 + mem + steps);
    for (let i = 0; i < tx.redeemers; i++) size += headBytes(i);
    return size;
  }

  private writeRedeemers<W extends Writer>(w: W, tx: RedeemerPlace): W {
    w.array(tx.redeemers);
    const units = this.redeemerUnits(tx);
    for (let i = 0; i < tx.redeemers; i++) {
      const u = units[i]!;
      w.array(4).uint(0).uint(i).raw(REDEEMER_DATA).array(2).uint(Number(u.mem)).uint(Number(u.steps));
    }
    return w;
  }

  /** A script spend's redeemers' units, derived once a transaction (it is measured and encoded several times). */
  private redeemerUnits(tx: RedeemerPlace): Array<ReturnType<typeof backgroundRedeemerUnits>> {
    let units = this.unitsOf.get(tx);
    if (!units) this.unitsOf.set(tx, (units = Array.from({ length: tx.redeemers }, (_, i) => backgroundRedeemerUnits(this.o.key, tx, i, this.o.protocol))));
    return units;
  }

  /** The datums of the spent outputs that carry only a hash (the witness set must hold them). */
  private datums(tx: SimTx): Uint8Array | null {
    const list = sortedInputs(tx.inputs).map((i) => i.output.datum).filter((d): d is string => typeof d === 'string');
    if (list.length === 0) return null;
    const w = new Writer().array(list.length);
    for (const d of list) w.raw(hexBytes(d));
    return w.done();
  }

  private scriptDataHash(tx: SimTx): Uint8Array {
    this.scriptModels ??= costModels(['plutusV2'], this.o.protocol.costModels);
    const datums = this.datums(tx);
    // Freed at once: CSL's memory never shrinks, and a segment hashes many script spends.
    const redeemers = CSL.Redeemers.from_bytes(this.redeemers(tx));
    // (hash_script_data takes the datums' list over.)
    const hash = CSL.hash_script_data(redeemers, this.scriptModels, datums ? CSL.PlutusList.from_bytes(datums) : undefined);
    const bytes = hash.to_bytes();
    hash.free();
    redeemers.free();
    return bytes;
  }

  /**
   * The body's CBOR and the whole transaction's size. The body is a view of the encoder's buffer,
   * valid until the next call: the simulation hashes the view and copies nothing.
   */
  body(tx: SimTx): { body: Uint8Array; size: number } {
    const w = this.scratch.reset();
    const rest = this.writeBody(w, tx, false);
    const body = w.view();
    return { body, size: 1 + body.length + rest };
  }

  /**
   * The whole transaction's length, counted without its bytes: the simulation measures every
   * background transaction before its fee is settled (twice when the fee moves its size), and a
   * segment simulated only for its blocks' totals hashes none. What a hash is over (the body's
   * metadata hash, its script data hash) holds 32 bytes whatever it is, and the inputs' order does
   * not change their length, so none of it is computed.
   */
  size(tx: SimTx): number {
    const m = this.meter.reset();
    const rest = this.writeBody(m, tx, true);
    return 1 + m.length + rest;
  }

  hash(tx: SimTx): string {
    return toHex(blake2b256(this.body(tx).body));
  }

  /**
   * Writes the body (`measuring`: into a Meter, the hashes in it as zeros and the inputs unsorted);
   * answers the length of the rest of the transaction: its witness set, its validity flag and its
   * auxiliary data.
   */
  private writeBody(w: Writer, tx: SimTx, measuring: boolean): number {
    const certs = this.certificateCount(tx);
    const distribution = this.isDistribution(tx);
    const mint = distribution ? this.distributionMint(tx) : [];
    const aux = distribution ? this.o.auxData(tx.height / this.o.segmentLength) : null;
    const fields =
      3 + (tx.invalidHereafter !== null ? 1 : 0) + (certs > 0 ? 1 : 0) + (tx.withdrawals.length > 0 ? 1 : 0) + (aux ? 1 : 0) +
      (tx.invalidBefore !== null ? 1 : 0) + (mint.length > 0 ? 1 : 0) + (tx.redeemers > 0 ? 1 : 0);
    const scriptDataHash = tx.redeemers > 0 ? (measuring ? ZERO_HASH : this.scriptDataHash(tx)) : null;
    w.map(fields);
    const inputs = measuring ? tx.inputs : sortedInputs(tx.inputs);
    w.uint(0).array(inputs.length);
    for (const i of inputs) w.array(2).hexBytes(i.txHash).uint(i.outputIndex);
    w.uint(1).array(tx.outputs.length);
    for (const o of tx.outputs) this.output(w, o);
    w.uint(2).uint(tx.fee);
    if (tx.invalidHereafter !== null) w.uint(3).uint(tx.invalidHereafter);
    if (certs > 0) {
      w.uint(4).array(certs);
      this.certificates(w, tx);
    }
    if (tx.withdrawals.length > 0) {
      w.uint(5).map(tx.withdrawals.length);
      for (const x of tx.withdrawals) w.bytes(this.rewardAccount(this.o.world.wallets[x.wallet]!.stakeAddress!)).uint(x.amount);
    }
    if (aux) w.uint(7).bytes(measuring ? ZERO_HASH : blake2b256(aux));
    if (tx.invalidBefore !== null) w.uint(8).uint(tx.invalidBefore);
    if (mint.length > 0) {
      w.uint(9);
      this.multiAsset(w, mint);
    }
    if (scriptDataHash) w.uint(11).bytes(scriptDataHash);
    return this.witnessSetSize(tx) + 1 + (aux ? aux.length : 1);
  }

  /** The witness set's size, as witnessSet encodes it (its key witnesses' sizes do not depend on their bytes). */
  private witnessSetSize(tx: SimTx): number {
    let size = 1;
    // [vkey, signature]: an array head, 32 bytes and 64 bytes with their two-byte heads.
    if (tx.witnesses > 0) size += 1 + headBytes(tx.witnesses) + tx.witnesses * (1 + 2 + 32 + 2 + 64);
    if (tx.redeemers > 0) {
      let datums = 0;
      let count = 0;
      for (const i of tx.inputs) {
        if (typeof i.output.datum !== 'string') continue;
        datums += i.output.datum.length >> 1;
        count++;
      }
      if (count > 0) size += 1 + headBytes(count) + datums;
      size += 1 + this.writeRedeemers(this.partMeter.reset(), tx).length;
    }
    return size;
  }

  /**
   * The witness set: one key witness per key the simulation counted (derived, not real keys: the
   * world's keys do not exist), the redeemers and the hash-only datums of a script spend. Without a
   * hash the keys and signatures are zeros of the same size (to measure the transaction before it is hashed).
   */
  private witnessSet(tx: SimTx, hash: string | null): Uint8Array {
    const redeemers = tx.redeemers > 0 ? this.redeemers(tx) : null;
    const datums = tx.redeemers > 0 ? this.datums(tx) : null;
    const w = new Writer().map((tx.witnesses > 0 ? 1 : 0) + (datums ? 1 : 0) + (redeemers ? 1 : 0));
    if (tx.witnesses > 0) {
      w.uint(0).array(tx.witnesses);
      for (let k = 0; k < tx.witnesses; k++) {
        w.array(2).bytes(hash === null ? ZERO_VKEY : deriveBytes(this.o.key, 32, 'witness-vkey', tx.height, tx.index, k));
        w.bytes(hash === null ? ZERO_SIGNATURE : deriveBytes(this.o.key, 64, 'witness-signature', hash, k));
      }
    }
    if (datums) w.uint(4).raw(datums);
    if (redeemers) w.uint(5).raw(redeemers);
    return w.done();
  }

  /** The whole transaction, in hex: [body, witness set, true, auxiliary data or null]. */
  transaction(tx: SimTx): string {
    const body = this.body(tx).body.slice();
    if (toHex(blake2b256(body)) !== tx.hash) throw new Error(`background transaction ${tx.hash} does not encode to its hash`);
    const aux = this.isDistribution(tx) ? this.o.auxData(tx.height / this.o.segmentLength) : null;
    const w = new Writer(body.length + 1024).array(4).raw(body).raw(this.witnessSet(tx, tx.hash)).raw(TRUE);
    if (aux) w.raw(aux);
    else w.null();
    return toHex(w.done());
  }
}

/**
 * A metadata map's CBOR from JSON, each metadatum as jsonMetadatumCbor writes it: the world's
 * oracle metadata, which every distribution carries and a segment's sums measure.
 */
export function jsonMetadataCbor(entries: ReadonlyArray<{ label: string; json: unknown }>): Uint8Array {
  const w = new Writer(256).map(entries.length);
  for (const e of entries) writeJsonMetadatum(w.uint(Number(e.label)), e.json);
  return w.done();
}

/**
 * A metadatum's CBOR from JSON, as CSL's encode_json_str_to_metadatum with the NoConversions schema
 * encodes it (objects as maps, keys sorted, arrays as lists, strings as text, whole numbers as
 * integers), without a round trip through CSL.
 */
export function jsonMetadatumCbor(json: unknown): Uint8Array {
  const w = new Writer(128);
  writeJsonMetadatum(w, json);
  return w.done();
}

function writeJsonMetadatum(w: Writer, json: unknown): void {
  if (typeof json === 'string') {
    if (Buffer.byteLength(json) > 64) throw new Error('a metadata text holds at most 64 bytes');
    w.text(json);
  } else if (typeof json === 'number' && Number.isSafeInteger(json)) {
    if (json >= 0) w.uint(json);
    else w.head(1, -1 - json);
  } else if (Array.isArray(json)) {
    w.array(json.length);
    for (const item of json) writeJsonMetadatum(w, item);
  } else if (json !== null && typeof json === 'object') {
    // CSL reads a JSON object into a sorted map: its keys in order.
    const entries = Object.entries(json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    w.map(entries.length);
    for (const [k, v] of entries) writeJsonMetadatum(w.text(k), v);
  } else throw new Error(`no metadatum for ${JSON.stringify(json)}`);
}

/** A metadata map's CBOR from metadatums already encoded: {label: metadatum}. */
export function metadataCbor(entries: ReadonlyArray<{ label: string; cbor: string }>): Uint8Array {
  const w = new Writer().map(entries.length);
  for (const e of entries) w.uint(Number(e.label)).raw(hexBytes(e.cbor));
  return w.done();
}


export interface BackgroundOptions extends TxCborOptions {
  slotOf: (height: number) => number;
  /** The key a segment is simulated with (its first block's branch's). */
  keyOf?: (segment: number) => Uint8Array;
  /** Told of each distribution hashed on its own. */
  onDistribution?: (tx: SimTx) => void;
}

/** Distribution hashes kept: a few hundred kilobytes, and any one costs log₂(segment) distributions to remake. */
const DISTRIBUTIONS_KEPT = 1 << 15;

/** Segments a page of SentHashes holds: 128 KB of hashes. */
const HASHES_A_PAGE = 4096;

/**
 * The distribution hashes a shared chain's sweep worker sent (with its sums and its swept segments),
 * 32 bytes a segment, kept for good: some 1.7 MB for two years of 20-second blocks, where a bounded
 * map would drop the newest (sent first) as the older ones came. In pages, made as their segments come.
 */
export class SentHashes {
  private readonly pages = new Map<number, Uint8Array>();
  private readonly known = new SegmentBits();
  set(segment: number, hash: string): void {
    const p = Math.floor(segment / HASHES_A_PAGE);
    let page = this.pages.get(p);
    if (!page) this.pages.set(p, (page = new Uint8Array(HASHES_A_PAGE * 32)));
    Buffer.from(page.buffer, (segment - p * HASHES_A_PAGE) * 32, 32).write(hash, 'hex');
    this.known.add(segment);
  }
  get(segment: number): string | undefined {
    if (!this.known.has(segment)) return undefined;
    const p = Math.floor(segment / HASHES_A_PAGE);
    return Buffer.from(this.pages.get(p)!.buffer, (segment - p * HASHES_A_PAGE) * 32, 32).toString('hex');
  }
}

/**
 * What simulating segments needs: the encoder and the distributions' hashes, each computed from its
 * parent's (reserveParent) and kept, or known from a sweep worker (knowDistribution) and kept for good.
 */
export function backgroundContext(o: BackgroundOptions): SimContext & { cbor: TxCbor; knowDistribution: (segment: number, hash: string) => void } {
  const cbor = new TxCbor(o);
  const keyOf = o.keyOf ?? ((): Uint8Array => o.key);
  const hashes = new Map<number, string>();
  const sent = new SentHashes();
  const context: SimContext & { cbor: TxCbor; knowDistribution: (segment: number, hash: string) => void } = {
    key: o.key,
    world: o.world,
    segmentLength: o.segmentLength,
    slotOf: o.slotOf,
    encoder: cbor,
    cbor,
    knowDistribution(segment, hash) {
      sent.set(segment, hash);
    },
    distributionHash(segment) {
      let hash = hashes.get(segment) ?? sent.get(segment);
      if (hash === undefined) {
        const key = keyOf(segment);
        const tx = distributionTx({ ...context, key }, segment, distributionRng(key, segment));
        hash = tx.hash;
        hashes.set(segment, hash);
        if (hashes.size > DISTRIBUTIONS_KEPT) hashes.delete(hashes.keys().next().value!);
        o.onDistribution?.(tx);
      }
      return hash;
    },
  };
  return context;
}
