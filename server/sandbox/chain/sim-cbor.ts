// The bytes of background (simulated) transactions: a Conway transaction body that says exactly
// what the chain answers for the transaction (inputs, outputs, fee, validity interval,
// certificates, withdrawals, mint, metadata hash, script data hash), whose blake2b-256 is the
// transaction's hash, and, built only on request, the whole transaction around it.
//
// The body is written here with a small CBOR writer rather than with cardano-serialization-lib,
// because every background transaction of a simulated segment needs its hash (its outputs are
// spent by later ones) and CSL costs about a hundred times more per body. The writer produces
// what CSL's own serialisation of the same body produces (tests/unit/server/sandbox/chain/
// sim-cbor.test.ts rebuilds bodies with CSL and compares the bytes), so a client that decodes the
// transaction with CSL and serialises the body again hashes the same bytes.
//
// Nobody holds the world's keys and its scripts have no bytes: the witness set carries one vkey
// witness per key the transaction needs (a 32-byte key and a 64-byte signature, derived from the
// chain key: the shape and size of real ones, not signatures that verify) and the redeemers of a
// script spend, without the scripts themselves.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { blake2b } from '@noble/hashes/blake2.js';
import { decodeBech32, toHex } from '../../../shared/cardano/bech32';
import { backgroundUnits, costModels } from './plutus';
import { PROTOCOL } from './protocol';
import type { PoolBook } from './pools';
import { derive, deriveBytes, deriveFloat } from './rng';
import type { SimOutput, SimTx } from './sim-types';
import type { World, WorldAsset, WorldPool } from './world';

/** What the bytes of a background transaction are made from, besides the transaction itself. */
export interface SimBytesContext {
  key: Uint8Array;
  world: World;
  book: PoolBook;
  segmentLength: number;
  /** The world oracle's metadata on the distribution of a segment (nutlink.ts). */
  metadata: (segment: number) => Array<{ label: string; json: Record<string, unknown> }>;
}

// ---- a minimal CBOR writer (definite lengths, shortest heads: the canonical form CSL writes) ----

class Writer {
  private buf = new Uint8Array(512);
  private n = 0;

  private room(k: number): void {
    if (this.n + k <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
    next.set(this.buf.subarray(0, this.n));
    this.buf = next;
  }

  head(major: number, value: number): this {
    const m = major << 5;
    this.room(9);
    if (value < 24) this.buf[this.n++] = m | value;
    else if (value < 0x100) {
      this.buf[this.n++] = m | 24;
      this.buf[this.n++] = value;
    } else if (value < 0x10000) {
      this.buf[this.n++] = m | 25;
      this.buf[this.n++] = value >>> 8;
      this.buf[this.n++] = value & 0xff;
    } else if (value < 0x100000000) {
      this.buf[this.n++] = m | 26;
      for (let s = 24; s >= 0; s -= 8) this.buf[this.n++] = (value >>> s) & 0xff;
    } else {
      this.buf[this.n++] = m | 27;
      const hi = Math.floor(value / 0x100000000);
      const lo = value % 0x100000000;
      for (let s = 24; s >= 0; s -= 8) this.buf[this.n++] = (hi >>> s) & 0xff;
      for (let s = 24; s >= 0; s -= 8) this.buf[this.n++] = (lo >>> s) & 0xff;
    }
    return this;
  }

  uint(value: number): this {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a CBOR unsigned integer: ${value}`);
    return this.head(0, value);
  }

  int(value: number): this {
    return value >= 0 ? this.uint(value) : this.head(1, -1 - value);
  }

  bytes(data: Uint8Array): this {
    this.head(2, data.length);
    return this.raw(data);
  }

  text(value: string): this {
    const data = Buffer.from(value, 'utf8');
    this.head(3, data.length);
    return this.raw(data);
  }

  raw(data: Uint8Array): this {
    this.room(data.length);
    this.buf.set(data, this.n);
    this.n += data.length;
    return this;
  }

  array(length: number): this {
    return this.head(4, length);
  }

  map(length: number): this {
    return this.head(5, length);
  }

  /** Conway's tagged set (tag 258) of `length` items. */
  set(length: number): this {
    return this.head(6, 258).array(length);
  }

  done(): Uint8Array {
    return this.buf.slice(0, this.n);
  }
}

// ---- world facts as bytes, computed once per world ----

interface WorldBytes {
  addresses: Uint8Array[];
  /** Reward addresses (header and stake key hash) by wallet id. */
  rewardAddresses: Map<number, Uint8Array>;
}
const worldBytesCache = new WeakMap<World, WorldBytes>();
function worldBytes(world: World): WorldBytes {
  let hit = worldBytesCache.get(world);
  if (!hit) {
    const rewardAddresses = new Map<number, Uint8Array>();
    for (const w of world.wallets) if (w.stakeAddress) rewardAddresses.set(w.id, decodeBech32(w.stakeAddress)!.bytes);
    hit = { addresses: world.addresses.map((a) => decodeBech32(a.bech32)!.bytes), rewardAddresses };
    worldBytesCache.set(world, hit);
  }
  return hit;
}

const hexBytes = (hex: string): Uint8Array => Buffer.from(hex, 'hex');

/** Assets as Cardano maps them: by policy (bytewise), then by name (shorter first, then bytewise), as CSL orders them. */
function groupAssets<T>(assets: ReadonlyArray<[string, T]>): Array<[Uint8Array, Array<[Uint8Array, T]>]> {
  const byPolicy = new Map<string, Array<[Uint8Array, T]>>();
  for (const [unit, q] of assets) {
    const policy = unit.slice(0, 56);
    let list = byPolicy.get(policy);
    if (!list) byPolicy.set(policy, (list = []));
    list.push([hexBytes(unit.slice(56)), q]);
  }
  const byBytes = (a: Uint8Array, b: Uint8Array): number => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  };
  return [...byPolicy.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([policy, names]) => [hexBytes(policy), names.sort((a, b) => a[0].length - b[0].length || byBytes(a[0], b[0]))]);
}

function writeValue(w: Writer, lovelace: number, assets: ReadonlyArray<[string, number]>): void {
  if (assets.length === 0) {
    w.uint(lovelace);
    return;
  }
  const grouped = groupAssets(assets);
  w.array(2).uint(lovelace).map(grouped.length);
  for (const [policy, names] of grouped) {
    w.bytes(policy).map(names.length);
    for (const [name, q] of names) w.bytes(name).uint(q);
  }
}

function writeOutput(w: Writer, o: SimOutput, address: Uint8Array): void {
  if (o.inlineDatum !== null) {
    // An inline datum needs the map form of an output: {0: address, 1: value, 2: [1, #6.24(datum)]}.
    w.map(3).uint(0).bytes(address).uint(1);
    writeValue(w, o.lovelace, o.assets);
    w.uint(2).array(2).uint(1).head(6, 24).bytes(hexBytes(o.inlineDatum));
    return;
  }
  w.array(o.dataHash === null ? 2 : 3).bytes(address);
  writeValue(w, o.lovelace, o.assets);
  if (o.dataHash !== null) w.bytes(hexBytes(o.dataHash));
}

// ---- the parts of a background transaction that are not plain fields of SimTx ----

/** Whether a transaction is the faucet distribution opening a segment. */
export const isDistribution = (tx: { height: number; index: number }, segmentLength: number): boolean => tx.index === 0 && tx.height % segmentLength === 0;

function poolRegistration(pool: WorldPool, book: PoolBook): Uint8Array {
  const margin = Math.round(pool.margin * 1_000_000);
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const g = gcd(margin, 1_000_000) || 1;
  const reward = CSL.RewardAddress.from_address(CSL.Address.from_bech32(pool.rewardAccount))!;
  const owners = CSL.Ed25519KeyHashes.new();
  owners.add(reward.payment_cred().to_keyhash()!);
  const relays = CSL.Relays.new();
  for (const r of book.relays(pool)) {
    if (r.dns) relays.add(CSL.Relay.new_single_host_name(CSL.SingleHostName.new(r.port, CSL.DNSRecordAorAAAA.new(r.dns))));
    else {
      const v4 = r.ipv4 ? CSL.Ipv4.new(new Uint8Array(r.ipv4.split('.').map(Number))) : undefined;
      const v6 = r.ipv6 ? CSL.Ipv6.new(ipv6Bytes(r.ipv6)) : undefined;
      relays.add(CSL.Relay.new_single_host_addr(CSL.SingleHostAddr.new(r.port, v4, v6)));
    }
  }
  const m = book.metadata(pool);
  const params = CSL.PoolParams.new(
    CSL.Ed25519KeyHash.from_hex(pool.hex),
    CSL.VRFKeyHash.from_hex(pool.vrfKeyHash),
    CSL.BigNum.from_str(String(pool.pledge)),
    CSL.BigNum.from_str(String(pool.fixedCost)),
    CSL.UnitInterval.new(CSL.BigNum.from_str(String(margin / g)), CSL.BigNum.from_str(String(1_000_000 / g))),
    reward,
    owners,
    relays,
    CSL.PoolMetadata.new(CSL.URL.new(m.url), CSL.PoolMetadataHash.from_hex(m.hash)),
  );
  return CSL.Certificate.new_pool_registration(CSL.PoolRegistration.new(params)).to_bytes();
}

/** The 16 bytes of an IPv6 address in the :: notation the pools' relays use. */
function ipv6Bytes(text: string): Uint8Array {
  const [head, tail] = text.split('::') as [string, string | undefined];
  const words = (s: string | undefined): number[] => (s ? s.split(':').map((x) => parseInt(x, 16)) : []);
  const a = words(head);
  const b = words(tail);
  const all = [...a, ...new Array<number>(8 - a.length - b.length).fill(0), ...b];
  const out = new Uint8Array(16);
  all.forEach((word, i) => {
    out[2 * i] = word >>> 8;
    out[2 * i + 1] = word & 0xff;
  });
  return out;
}

const certCache = new WeakMap<PoolBook, Map<string, Uint8Array>>();
/** The distribution's certificates: the pools' registrations at genesis, else the segment's retirements. */
function distributionCerts(ctx: SimBytesContext, segment: number): Uint8Array[] {
  let cache = certCache.get(ctx.book);
  if (!cache) certCache.set(ctx.book, (cache = new Map()));
  const one = (id: string, make: () => Uint8Array): Uint8Array => {
    let hit = cache.get(id);
    if (!hit) cache.set(id, (hit = make()));
    return hit;
  };
  if (segment === 0) return ctx.book.all.map((p) => one(`reg:${p.hex}`, () => poolRegistration(p, ctx.book)));
  return ctx.book.retirementsIn(segment).map((r) =>
    one(`ret:${r.pool.hex}:${r.retiringEpoch}`, () => CSL.Certificate.new_pool_retirement(CSL.PoolRetirement.new(CSL.Ed25519KeyHash.from_hex(r.pool.hex), r.retiringEpoch)).to_bytes()),
  );
}

function stakeCerts(ctx: SimBytesContext, tx: SimTx): Uint8Array[] {
  const out: Uint8Array[] = [];
  const credential = (w: Writer, wallet: number): Writer => w.array(2).uint(0).bytes(worldBytes(ctx.world).rewardAddresses.get(wallet)!.subarray(1));
  if (tx.stakeRegistrations > 0) for (const d of tx.delegations) out.push(credential(new Writer().array(2).uint(0), d.wallet).done());
  for (const d of tx.delegations) out.push(credential(new Writer().array(3).uint(2), d.wallet).bytes(hexBytes(ctx.world.pools[d.pool]!.hex)).done());
  return out;
}

/** Whether an asset is minted again by the distribution of segment `s` (s ≥ 1). */
export function mintedInSegment(asset: WorldAsset, s: number): boolean {
  return s >= 1 && asset.mintEvery !== null && s % asset.mintEvery === asset.mintPhase;
}

/** The assets a distribution mints, as [unit, quantity]: every genesis supply, then the re-mints due. */
export function distributionMints(world: World, segment: number): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (const a of world.assets) {
    const qty = segment === 0 ? a.genesisSupply : mintedInSegment(a, segment) ? a.mintAmount : 0;
    if (qty > 0) out.push([a.unit, qty]);
  }
  return out;
}

const auxCache = new Map<string, Uint8Array>();
/** The auxiliary data (metadata) of a background transaction, or null. */
export function simAuxData(ctx: SimBytesContext, tx: { height: number; index: number }): Uint8Array | null {
  if (!isDistribution(tx, ctx.segmentLength)) return null;
  const segment = tx.height / ctx.segmentLength;
  const entries = ctx.metadata(segment);
  if (entries.length === 0) return null;
  const id = `${toHex(ctx.key)}:${segment}`;
  let hit = auxCache.get(id);
  if (!hit) {
    // Shelley's form, a map of label → metadatum, as CSL writes metadata alone (JSON read without conversions).
    const w = new Writer().map(entries.length);
    for (const m of entries) writeMetadatum(w.uint(Number(m.label)), m.json);
    hit = w.done();
    auxCache.set(id, hit);
    if (auxCache.size > 256) auxCache.delete(auxCache.keys().next().value!);
  }
  return hit;
}

/** A JSON value as a metadatum: text, integers, lists and maps with text keys (sorted, as CSL keeps a metadata map; strings up to 64 bytes). */
function writeMetadatum(w: Writer, value: unknown): void {
  if (typeof value === 'string') w.text(value);
  else if (typeof value === 'number' && Number.isSafeInteger(value)) w.int(value);
  else if (Array.isArray(value)) {
    w.array(value.length);
    for (const v of value) writeMetadatum(w, v);
  } else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
    w.map(entries.length);
    for (const [k, v] of entries) writeMetadatum(w.text(k), v);
  } else throw new Error(`not a metadatum: ${String(value)}`);
}

// ---- redeemers of background script spends ----

/** A background script spend's redeemer: its data and execution units, derived from the transaction's position. */
export interface SimRedeemer {
  index: number;
  data: Uint8Array;
  dataHash: string;
  memFraction: number;
}

/** One spend redeemer per input (all at the script's address), in sorted-input order. */
export function simRedeemerData(key: Uint8Array, tx: { height: number; index: number; redeemers: number }): SimRedeemer[] {
  const out: SimRedeemer[] = [];
  for (let i = 0; i < tx.redeemers; i++) {
    // Constr 0 [bytes]: Plutus data whose hash the chain answers as redeemer_data_hash.
    const data = new Writer().head(6, 121).array(1).bytes(deriveBytes(key, 28, 'redeemer-data', tx.height, tx.index, i)).done();
    out.push({ index: i, data, dataHash: toHex(blake2b(data, { dkLen: 32 })), memFraction: 0.3 + 0.4 * deriveFloat(key, 'redeemer-mem', tx.height, tx.index, i) });
  }
  return out;
}

export type RedeemerUnits = Array<{ mem: bigint; steps: bigint; fee: bigint }>;

/** The execution units of each redeemer: each is priced within its share of the fee above the size fee. */
export function simRedeemerUnits(list: SimRedeemer[], tx: { fee: number; size: number; redeemers: number }): RedeemerUnits {
  const share = Math.floor((tx.fee - PROTOCOL.minFeeB - PROTOCOL.minFeeA * tx.size) / tx.redeemers);
  return list.map((r) => backgroundUnits(share, r.memFraction, tx.redeemers));
}

function cslRedeemers(list: SimRedeemer[], units: RedeemerUnits): CSL.Redeemers {
  const out = CSL.Redeemers.new();
  list.forEach((r, i) => {
    const u = units[i]!;
    out.add(CSL.Redeemer.new(CSL.RedeemerTag.new_spend(), CSL.BigNum.from_str(String(r.index)), CSL.PlutusData.from_bytes(r.data), CSL.ExUnits.new(CSL.BigNum.from_str(String(u.mem)), CSL.BigNum.from_str(String(u.steps)))));
  });
  return out;
}

/** script_data_hash of a script spend: its redeemers, no datums, the Plutus V2 cost model. */
let plutusV2Models: CSL.Costmdls | undefined;
export function simScriptDataHash(list: SimRedeemer[], units: RedeemerUnits): Uint8Array {
  plutusV2Models ??= costModels(['plutusV2']);
  return CSL.hash_script_data(cslRedeemers(list, units), plutusV2Models).to_bytes();
}

// ---- the body, the witness set, the transaction ----

/** The extra facts of a transaction's body that the simulation computes once: metadata hash and script data hash. */
export interface SimBodyExtras {
  auxHash: Uint8Array | null;
  scriptDataHash: Uint8Array | null;
}

/** The transaction body's CBOR. */
export function simTxBody(ctx: SimBytesContext, tx: SimTx, extras: SimBodyExtras): Uint8Array {
  const wb = worldBytes(ctx.world);
  const distribution = isDistribution(tx, ctx.segmentLength);
  const segment = Math.floor(tx.height / ctx.segmentLength);
  const certs = distribution ? distributionCerts(ctx, segment) : stakeCerts(ctx, tx);
  const mint = distribution ? distributionMints(ctx.world, segment) : [];
  const fields = 3 + (tx.invalidHereafter !== null ? 1 : 0) + (certs.length ? 1 : 0) + (tx.withdrawals.length ? 1 : 0) + (extras.auxHash ? 1 : 0)
    + (tx.invalidBefore !== null ? 1 : 0) + (mint.length ? 1 : 0) + (extras.scriptDataHash ? 1 : 0);
  const w = new Writer().map(fields);
  w.uint(0).set(tx.inputs.length);
  for (const i of tx.inputs) w.array(2).bytes(hexBytes(i.txHash)).uint(i.outputIndex);
  w.uint(1).array(tx.outputs.length);
  for (const o of tx.outputs) writeOutput(w, o, wb.addresses[o.address]!);
  w.uint(2).uint(tx.fee);
  if (tx.invalidHereafter !== null) w.uint(3).uint(tx.invalidHereafter);
  if (certs.length) {
    w.uint(4).set(certs.length);
    for (const c of certs) w.raw(c);
  }
  if (tx.withdrawals.length) {
    const rows = tx.withdrawals.map((x) => [wb.rewardAddresses.get(x.wallet)!, x.amount] as const).sort((a, b) => (toHex(a[0]) < toHex(b[0]) ? -1 : 1));
    w.uint(5).map(rows.length);
    for (const [address, amount] of rows) w.bytes(address).uint(amount);
  }
  if (extras.auxHash) w.uint(7).bytes(extras.auxHash);
  if (tx.invalidBefore !== null) w.uint(8).uint(tx.invalidBefore);
  if (mint.length) {
    const grouped = groupAssets(mint);
    w.uint(9).map(grouped.length);
    for (const [policy, names] of grouped) {
      w.bytes(policy).map(names.length);
      for (const [name, q] of names) w.bytes(name).int(q);
    }
  }
  if (extras.scriptDataHash) w.uint(11).bytes(extras.scriptDataHash);
  return w.done();
}

export const bodyHash = (body: Uint8Array): string => toHex(blake2b(body, { dkLen: 32 }));

/** How many key witnesses a background transaction needs: its key-locked inputs' payment keys, its stake key, its minting policies. */
export function witnessCount(ctx: SimBytesContext, tx: SimTx): number {
  const keys = new Set<number>();
  for (const i of tx.inputs) if (!ctx.world.addresses[i.output.address]!.script) keys.add(i.output.address);
  let n = keys.size;
  if (tx.withdrawals.length > 0 || tx.delegations.length > 0) n++;
  if (isDistribution(tx, ctx.segmentLength)) {
    n += new Set(distributionMints(ctx.world, Math.floor(tx.height / ctx.segmentLength)).map(([unit]) => unit.slice(0, 56))).size;
    if (tx.height === 0) n++; // the pools' registrations are signed by their operators: one key stands for them
  }
  return n;
}

/** The witness set: derived vkey witnesses of real size, and a script spend's redeemers. */
export function simWitnessSet(ctx: SimBytesContext, tx: SimTx, units: RedeemerUnits): Uint8Array {
  const set = CSL.TransactionWitnessSet.new();
  const n = witnessCount(ctx, tx);
  if (n > 0) {
    const vkeys = CSL.Vkeywitnesses.new();
    for (let k = 0; k < n; k++) {
      const vkey = CSL.Vkey.new(CSL.PrivateKey.from_normal_bytes(derive(ctx.key, 'witness-key', tx.height, tx.index, k)).to_public());
      vkeys.add(CSL.Vkeywitness.new(vkey, CSL.Ed25519Signature.from_bytes(deriveBytes(ctx.key, 64, 'witness-signature', tx.height, tx.index, k))));
    }
    set.set_vkeys(vkeys);
  }
  if (tx.redeemers > 0) set.set_redeemers(cslRedeemers(simRedeemerData(ctx.key, tx), units));
  return set.to_bytes();
}

const PENDING_HASH = new Uint8Array(32);

/**
 * The body's metadata hash and script data hash, and the redeemers' units, as the transaction's
 * fee and size now give them. `final: false` leaves the script data hash as 32 zero bytes: the
 * body's length is the same, and the simulation computes it only once the fee is settled.
 */
export function simExtras(ctx: SimBytesContext, tx: SimTx, final = true): { extras: SimBodyExtras; units: RedeemerUnits; aux: Uint8Array | null } {
  const aux = simAuxData(ctx, tx);
  const redeemers = tx.redeemers > 0 ? simRedeemerData(ctx.key, tx) : [];
  const units = simRedeemerUnits(redeemers, tx);
  const scriptDataHash = redeemers.length ? (final ? simScriptDataHash(redeemers, units) : PENDING_HASH) : null;
  return { extras: { auxHash: aux ? auxHashOf(aux) : null, scriptDataHash }, units, aux };
}
const auxHashes = new WeakMap<Uint8Array, Uint8Array>();
const auxHashOf = (aux: Uint8Array): Uint8Array => {
  let hit = auxHashes.get(aux);
  if (!hit) auxHashes.set(aux, (hit = blake2b(aux, { dkLen: 32 })));
  return hit;
};

/** The whole transaction's CBOR (hex), its body bytes exactly those its hash is of. */
export function simTxCbor(ctx: SimBytesContext, tx: SimTx): string {
  const { extras, units, aux } = simExtras(ctx, tx);
  const body = simTxBody(ctx, tx, extras);
  const witnesses = simWitnessSet(ctx, tx, units);
  const fixed = aux ? CSL.FixedTransaction.new_with_auxiliary(body, witnesses, aux, true) : CSL.FixedTransaction.new(body, witnesses, true);
  return fixed.to_hex();
}
