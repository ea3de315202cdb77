// Blocks by slot, block addresses and CBOR, transaction redeemers, required signers and CBOR,
// address totals, asset histories and holders, scripts, label CBOR and the mempool: each answer
// agrees with the rest of the ledger, for live transactions and background traffic alike.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { blake2b } from '@noble/hashes/blake2.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxChain, memoryLedgerStore, type AddressUtxo, type Amount, type LedgerStore, type SandboxChain } from '../../../../../server/sandbox/chain/index';
import { ALWAYS_V3, big, builder, FAILS_V3, input, lock, lovelaceOf, scriptAddress, sign, spend } from './plutus-builder';
import { assertSchema, serve, testChain, TEST_NOW, type TestServer } from './support';
import { keysOf, payment, type WalletKeys } from './tx-builder';

let chain: SandboxChain;
let clock: { now: number };
let http: TestServer;
let store: LedgerStore;
let alice: { address: string; mnemonic: string };
let bob: string;
let keys: WalletKeys;
let policy: CSL.NativeScript;
let nativeUnit: string;
let memoBytes: Uint8Array;
const made = {} as { faucet: string; ref: string; lock: string; spend: string; mint: string; burn: string; memo: string };

const next = () => {
  clock.now += chain.params.blockIntervalMs;
};
const hex = (text: string) => Buffer.from(text).toString('hex');

function valueOf(u: AddressUtxo): CSL.Value {
  const v = CSL.Value.new(big(lovelaceOf(u)));
  const tokens = u.amount.filter((a) => a.unit !== 'lovelace');
  if (tokens.length) {
    const ma = CSL.MultiAsset.new();
    for (const t of tokens) ma.set_asset(CSL.ScriptHash.from_hex(t.unit.slice(0, 56)), CSL.AssetName.new(Buffer.from(t.unit.slice(56), 'hex')), big(t.quantity));
    v.set_multiasset(ma);
  }
  return v;
}

/** Mints (or burns, when negative) NATIVE under a one-signature native script of alice's key; change keeps the tokens. */
function nativeMint(quantity: number): Uint8Array {
  const b = builder(chain);
  const utxos = chain.addressUtxos(alice.address)!;
  const spent = [...utxos.filter((u) => u.amount.some((a) => a.unit === nativeUnit)), utxos.find((u) => u.amount.length === 1 && !u.reference_script_hash && lovelaceOf(u) > 5_000_000n)!];
  for (const u of spent) b.add_regular_input(CSL.Address.from_bech32(alice.address), input(u), valueOf(u));
  const mb = CSL.MintBuilder.new();
  mb.add_asset(CSL.MintWitness.new_native_script(CSL.NativeScriptSource.new(policy)), CSL.AssetName.new(Buffer.from('NATIVE')), CSL.Int.new_i32(quantity));
  b.set_mint_builder(mb);
  b.add_change_if_needed(CSL.Address.from_bech32(alice.address));
  return sign(b.build_tx(), keys.payment);
}

const plainUtxo = () => chain.addressUtxos(alice.address)!.find((u) => u.amount.length === 1 && !u.reference_script_hash && lovelaceOf(u) > 5_000_000n)!;

beforeAll(async () => {
  store = memoryLedgerStore();
  ({ chain, clock } = testChain({ store }));
  http = await serve(chain);
  alice = chain.devWallets()[0]!;
  bob = chain.devWallets()[1]!.address;
  keys = keysOf(alice.mnemonic);
  policy = CSL.NativeScript.new_script_pubkey(CSL.ScriptPubkey.new(keys.payment.to_public().hash()));
  nativeUnit = policy.hash().to_hex() + hex('NATIVE');

  made.faucet = (await chain.faucet({ address: alice.address, lovelace: 3_000_000, assets: [{ assetName: hex('TOTAL'), quantity: 9 }] })).txHash;
  made.ref = await chain.submit(lock(chain, alice.address, keys.payment, CSL.Address.from_bech32(alice.address), 20_000_000n, { referenceScript: ALWAYS_V3 }));
  next();
  made.lock = await chain.submit(lock(chain, alice.address, keys.payment, scriptAddress(ALWAYS_V3), 10_000_000n));
  next();
  const locked = chain.addressUtxos(scriptAddress(ALWAYS_V3).to_bech32(undefined))!.find((u) => u.tx_hash === made.lock)!;
  made.spend = await chain.submit(spend(chain, alice.address, keys.payment, { script: ALWAYS_V3, locked: { ...locked, lovelace: 10_000_000n }, exUnits: { mem: 500n, steps: 64_100n } }));
  next();
  made.mint = await chain.submit(nativeMint(100));
  next();
  made.burn = await chain.submit(nativeMint(-40));
  next();
  memoBytes = payment({ inputs: [plainUtxo()], to: bob, lovelace: 2_000_000n, change: alice.address, signers: [keys.payment], metadata: { label: 674, json: { msg: ['hello'] } } });
  made.memo = await chain.submit(memoBytes);
  next();
}, 60_000);

afterAll(async () => {
  await http?.close();
});

/** A background transaction of a recent block that satisfies `pick`. */
function backgroundTx(pick: (hash: string) => boolean): string {
  for (let h = chain.tipHeight() - 1; h > chain.tipHeight() - 400; h--) {
    const live = new Set(Object.values(made));
    const found = chain.blockTxs(h)!.find((hash) => !live.has(hash) && pick(hash));
    if (found) return found;
  }
  throw new Error('no such background transaction');
}

const sumBy = (rows: Amount[][]): Map<string, bigint> => {
  const out = new Map<string, bigint>();
  for (const amount of rows) for (const a of amount) out.set(a.unit, (out.get(a.unit) ?? 0n) + BigInt(a.quantity));
  return out;
};

describe('blocks by slot', () => {
  it('finds the block of a slot and of an epoch slot, 404 between blocks and above the tip, 400 for malformed slots', async () => {
    const block = chain.blockAt(chain.tipHeight() - 3)!;
    const bySlot = await http.get(`/blocks/slot/${block.slot}`);
    expect(bySlot.status).toBe(200);
    expect(bySlot.body).toEqual(block);
    expect((await http.get(`/blocks/epoch/${block.epoch}/slot/${block.epoch_slot}`)).body).toEqual(block);
    expect(chain.params.slotsPerBlock).toBeGreaterThan(1);
    expect((await http.get(`/blocks/slot/${block.slot! + 1}`)).status).toBe(404);
    expect((await http.get(`/blocks/slot/${chain.params.firstSlot + (chain.tipHeight() + 1) * chain.params.slotsPerBlock}`)).status).toBe(404);
    expect((await http.get(`/blocks/epoch/${block.epoch}/slot/${chain.params.blocksPerEpoch * chain.params.slotsPerBlock}`)).status).toBe(404);
    expect((await http.get(`/blocks/epoch/${block.epoch! + 1}/slot/0`)).status).toBe(404);
    expect((await http.get(`/blocks/slot/${chain.params.firstSlot}`)).body).toEqual(chain.blockAt(0));
    // Slots before the sandbox's first block are the real network's history: no block of this chain.
    expect((await http.get(`/blocks/slot/${chain.params.firstSlot - chain.params.slotsPerBlock}`)).status).toBe(404);
    expect((await http.get('/blocks/slot/0')).status).toBe(404);
    for (const [path, message] of [
      ['/blocks/slot/x', 'params/slot_number must be integer'],
      ['/blocks/slot/1.5', 'params/slot_number must be integer'],
      ['/blocks/slot/-1', 'Missing, out of range or malformed slot_number.'],
      ['/blocks/slot/2147483648', 'Missing, out of range or malformed slot_number.'],
      ['/blocks/epoch/x/slot/0', 'params/epoch_number must be integer'],
      ['/blocks/epoch/1/slot/-3', 'Missing, out of range or malformed slot_number.'],
    ] as const) {
      expect((await http.get(path)).body, path).toEqual({ status_code: 400, error: 'Bad Request', message });
    }
  });
});

describe('block addresses and CBOR', () => {
  it("lists a block's addresses by bech32 with the transactions whose inputs or outputs hold them", async () => {
    const height = chain.tx(backgroundTx(() => true))!.block_height;
    const res = await http.get(`/blocks/${height}/addresses`);
    expect(res.status).toBe(200);
    assertSchema('/blocks/{hash_or_number}/addresses', res.body);
    const expected = new Map<string, string[]>();
    for (const hash of chain.blockTxs(height)!) {
      const u = chain.txUtxos(hash)!;
      for (const address of new Set([...u.inputs.map((i) => i.address), ...u.outputs.map((o) => o.address)])) expected.set(address, [...(expected.get(address) ?? []), hash]);
    }
    const rows = res.body as Array<{ address: string; transactions: Array<{ tx_hash: string }> }>;
    expect(rows.map((r) => r.address)).toEqual([...expected.keys()].sort());
    for (const r of rows) expect(r.transactions.map((t) => t.tx_hash)).toEqual(expected.get(r.address));
    if (rows.length > 1) expect((await http.get(`/blocks/${height}/addresses?count=1&page=2`)).body).toEqual([rows[1]]);
  });

  it('answers the bytes a transaction was submitted as, whose body hashes to its hash; a background transaction its own CBOR', async () => {
    const res = await http.get(`/txs/${made.spend}/cbor`);
    expect(res.status).toBe(200);
    assertSchema('/txs/{hash}/cbor', res.body);
    const fixed = CSL.FixedTransaction.from_hex(res.body.cbor);
    expect(Buffer.from(blake2b(fixed.raw_body(), { dkLen: 32 })).toString('hex')).toBe(made.spend);
    expect(chain.tx(made.spend)!.size).toBe(res.body.cbor.length / 2);
    expect((await http.get(`/txs/${made.memo}/cbor`)).body).toEqual({ cbor: Buffer.from(memoBytes).toString('hex') });

    const background = backgroundTx(() => true);
    expect((await http.get(`/txs/${background}`)).status).toBe(200);
    const own = await http.get(`/txs/${background}/cbor`);
    expect(own.status).toBe(200);
    expect(CSL.FixedTransaction.from_hex(own.body.cbor).transaction_hash().to_hex()).toBe(background);
    expect((await http.get(`/txs/${'ab'.repeat(32)}/cbor`)).status).toBe(404);
    expect((await http.get('/txs/xyz/cbor')).status).toBe(400);

    const block = chain.tx(made.spend)!.block_height;
    const listed = await http.get(`/blocks/${block}/txs/cbor`);
    assertSchema('/blocks/{hash_or_number}/txs/cbor', listed.body);
    // Every transaction of the block in block order, background ones first, each with its CBOR.
    const everyCbor = (height: number) => chain.blockTxs(height, { count: 100, page: 1, order: 'asc' })!.map((h) => ({ tx_hash: h, cbor: chain.txCbor(h)!.cbor }));
    expect(listed.body).toEqual(everyCbor(block));
    expect(listed.body.at(-1)).toEqual({ tx_hash: made.spend, cbor: res.body.cbor });
    for (const row of listed.body as Array<{ tx_hash: string; cbor: string }>) expect(CSL.FixedTransaction.from_hex(row.cbor).transaction_hash().to_hex()).toBe(row.tx_hash);
    const faucetBlock = chain.tx(made.faucet)!.block_height;
    expect((await http.get(`/blocks/${faucetBlock}/txs/cbor`)).body.map((r: { tx_hash: string }) => r.tx_hash).slice(-2)).toEqual([made.faucet, made.ref]);
    expect((await http.get(`/blocks/${faucetBlock}/txs/cbor?order=desc&count=1`)).body.map((r: { tx_hash: string }) => r.tx_hash)).toEqual([made.ref]);
    expect((await http.get(`/blocks/${faucetBlock}/txs/cbor?order=desc&count=2&page=2`)).body).toEqual(everyCbor(faucetBlock).reverse().slice(2, 4));
    // The last block made holds the last transaction submitted, after the block's background ones.
    expect((await http.get('/blocks/latest/txs/cbor?order=desc&count=1')).body).toEqual([{ tx_hash: made.memo, cbor: chain.txCbor(made.memo)!.cbor }]);
    expect((await http.get(`/blocks/${chain.tipHeight() + 5}/txs/cbor`)).status).toBe(404);
  });
});

describe('redeemers and required signers', () => {
  const fee = (mem: number, steps: number) => String(Math.ceil(0.0577 * mem + 0.0000721 * steps));

  it("shows a Plutus spend's redeemer with the units the ledger checked, at the transaction and at the script", async () => {
    const res = await http.get(`/txs/${made.spend}/redeemers`);
    assertSchema('/txs/{hash}/redeemers', res.body);
    const dataHash = CSL.hash_plutus_data(CSL.PlutusData.new_integer(CSL.BigInt.from_str('1'))).to_hex();
    expect(res.body).toEqual([
      { tx_index: 0, purpose: 'spend', script_hash: ALWAYS_V3.hash().to_hex(), redeemer_data_hash: dataHash, datum_hash: dataHash, unit_mem: '500', unit_steps: '64100', fee: fee(500, 64_100) },
    ]);
    expect(chain.tx(made.spend)!.redeemer_count).toBe(1);
    const byScript = await http.get(`/scripts/${ALWAYS_V3.hash().to_hex()}/redeemers`);
    assertSchema('/scripts/{script_hash}/redeemers', byScript.body);
    expect(byScript.body).toEqual([{ tx_hash: made.spend, tx_index: 0, purpose: 'spend', redeemer_data_hash: dataHash, datum_hash: dataHash, unit_mem: '500', unit_steps: '64100', fee: fee(500, 64_100) }]);
    expect((await http.get(`/txs/${made.memo}/redeemers`)).body).toEqual([]);
  });

  it('pairs redeemers with their scripts after a restart too (a replayed transaction is decoded, not validated)', async () => {
    const again = createSandboxChain({ network: 'preprod', store, now: () => clock.now });
    await again.ready();
    expect(again.txRedeemers(made.spend)).toEqual(chain.txRedeemers(made.spend));
    expect(again.scriptRedeemers(ALWAYS_V3.hash().to_hex())).toEqual(chain.scriptRedeemers(ALWAYS_V3.hash().to_hex()));
  });

  it('lists the redeemer of a transaction marked invalid, whose script failed and whose collateral was taken', async () => {
    const own = memoryLedgerStore();
    const t = testChain({ store: own });
    const [carol] = t.chain.devWallets();
    const carolKeys = keysOf(carol!.mnemonic);
    const lockHash = await t.chain.submit(lock(t.chain, carol!.address, carolKeys.payment, scriptAddress(FAILS_V3), 10_000_000n));
    t.clock.now += t.chain.params.blockIntervalMs;
    const out = t.chain.addressUtxos(scriptAddress(FAILS_V3).to_bech32(undefined))!.find((u) => u.tx_hash === lockHash)!;
    const hash = await t.chain.submit(spend(t.chain, carol!.address, carolKeys.payment, { script: FAILS_V3, locked: { ...out, lovelace: 10_000_000n }, invalid: true }));
    const pending = t.chain.mempoolTx(hash)!;
    expect(pending.tx.valid_contract).toBe(false);
    expect(pending.inputs.every((i) => i.collateral)).toBe(true);
    t.clock.now += t.chain.params.blockIntervalMs;
    expect(t.chain.tx(hash)!.valid_contract).toBe(false);
    const expected = [expect.objectContaining({ tx_index: 0, purpose: 'spend', script_hash: FAILS_V3.hash().to_hex(), unit_mem: '1000000', unit_steps: '500000000' })];
    expect(t.chain.txRedeemers(hash)).toEqual(expected);
    const again = createSandboxChain({ network: 'preprod', store: own, now: () => t.clock.now });
    await again.ready();
    expect(again.txRedeemers(hash)).toEqual(t.chain.txRedeemers(hash));
    expect(again.scriptRedeemers(FAILS_V3.hash().to_hex())).toEqual([expect.objectContaining({ tx_hash: hash, purpose: 'spend' })]);
  });

  it("gives a background script spend one redeemer per input, on the script of the input's address, within the fee it paid", async () => {
    const hash = backgroundTx((h) => chain.tx(h)!.redeemer_count > 0);
    const tx = chain.tx(hash)!;
    const res = await http.get(`/txs/${hash}/redeemers`);
    assertSchema('/txs/{hash}/redeemers', res.body);
    const rows = res.body as Array<{ script_hash: string; fee: string; unit_mem: string; unit_steps: string; tx_index: number }>;
    expect(rows).toHaveLength(tx.redeemer_count);
    expect(rows.map((r) => r.tx_index)).toEqual(rows.map((_, i) => i));
    const inputScripts = new Set(chain.txUtxos(hash)!.inputs.map((i) => CSL.Address.from_bech32(i.address).payment_cred()!.to_scripthash()!.to_hex()));
    for (const r of rows) {
      expect(inputScripts.has(r.script_hash)).toBe(true);
      expect(r.fee).toBe(fee(Number(r.unit_mem), Number(r.unit_steps)));
    }
    const sizeFee = 44n * BigInt(tx.size) + 155_381n;
    expect(rows.reduce((n, r) => n + BigInt(r.fee), 0n)).toBeLessThanOrEqual(BigInt(tx.fees) - sizeFee);
    // The script is listed, resolves, and names this transaction among its redeemers.
    const script = rows[0]!.script_hash;
    expect((await http.get('/scripts')).body).toContainEqual({ script_hash: script });
    expect((await http.get(`/scripts/${script}`)).body).toEqual({ script_hash: script, type: 'plutusV2', serialised_size: null });
    expect((await http.get(`/scripts/${script}/json`)).body).toEqual({ json: null });
    expect((await http.get(`/scripts/${script}/cbor`)).body).toEqual({ cbor: null });
    const byScript = (await http.get(`/scripts/${script}/redeemers`)).body as Array<{ tx_hash: string }>;
    expect(byScript.filter((r) => r.tx_hash === hash)).toHaveLength(rows.filter((r) => r.script_hash === script).length);
  });

  it('answers the required signers of the body; none for a payment or a background transaction', async () => {
    const res = await http.get(`/txs/${made.spend}/required_signers`);
    assertSchema('/txs/{hash}/required_signers', res.body);
    expect(res.body).toEqual([{ witness_hash: keys.payment.to_public().hash().to_hex() }]);
    expect((await http.get(`/txs/${made.memo}/required_signers`)).body).toEqual([]);
    expect((await http.get(`/txs/${backgroundTx(() => true)}/required_signers`)).body).toEqual([]);
    expect((await http.get(`/txs/${'cd'.repeat(32)}/required_signers`)).status).toBe(404);
  });
});

describe('address totals and hashes', () => {
  it("sums what an address received and sent: received − sent is its amount, tx_count its transactions", async () => {
    const world = chain.catalog().addresses.find((a) => !a.script && (chain.addressTransactions(a.address)?.length ?? 0) > 3)!.address;
    for (const address of [alice.address, world]) {
      const res = await http.get(`/addresses/${address}/total`);
      expect(res.status).toBe(200);
      assertSchema('/addresses/{address}/total', res.body);
      const received = sumBy([res.body.received_sum]);
      const sent = sumBy([res.body.sent_sum]);
      const left = new Map([...received].map(([unit, q]): [string, bigint] => [unit, q - (sent.get(unit) ?? 0n)]).filter(([unit, q]) => q !== 0n || unit === 'lovelace'));
      expect(left).toEqual(sumBy([chain.address(address)!.amount]));
      expect(left).toEqual(sumBy(chain.addressUtxos(address)!.map((u) => u.amount)));
      expect(res.body.tx_count).toBe(chain.addressTransactions(address)!.length);
    }
  });

  it('lists the hashes of /transactions, in the same order, pages and bounds', async () => {
    const rows = chain.addressTransactions(alice.address)!;
    expect((await http.get(`/addresses/${alice.address}/txs`)).body).toEqual(rows.map((r) => r.tx_hash));
    expect((await http.get(`/addresses/${alice.address}/txs?order=desc&count=2&page=2`)).body).toEqual(rows.slice().reverse().slice(2, 4).map((r) => r.tx_hash));
    const from = rows[2]!;
    expect((await http.get(`/addresses/${alice.address}/txs?from=${from.block_height}:${from.tx_index}`)).body).toEqual(rows.slice(2).map((r) => r.tx_hash));
    expect((await http.get(`/addresses/${alice.address}/txs?from=x`)).status).toBe(400);
    expect((await http.get(`/addresses/${alice.address}/txs?count=101`)).status).toBe(400);
    expect((await http.get('/addresses/addr_test1xyz/total')).status).toBe(400);
  });
});

describe('asset histories, transactions and utxos', () => {
  it("gives a world asset's mints since genesis, summing to its quantity", async () => {
    const unit = chain.catalog().assets.find((a) => !a.nft)!.unit;
    const asset = chain.asset(unit)!;
    const all = chain.assetHistory(unit)!;
    expect(all).toHaveLength(asset.mint_or_burn_count);
    expect(all[0]!.tx_hash).toBe(asset.initial_mint_tx_hash);
    expect(all.every((r) => r.action === 'minted')).toBe(true);
    expect(all.reduce((n, r) => n + BigInt(r.amount), 0n)).toBe(BigInt(asset.quantity));
    // Each re-mint is the distribution opening a segment, whose outputs carry the minted amount.
    const last = all[all.length - 1]!;
    expect(chain.tx(last.tx_hash)!.index).toBe(0);
    expect(chain.txUtxos(last.tx_hash)!.outputs.some((o) => o.amount.some((a) => a.unit === unit && a.quantity === last.amount))).toBe(true);
    const desc = await http.get(`/assets/${unit}/history?order=desc&count=3&page=2`);
    assertSchema('/assets/{asset}/history', desc.body);
    expect(desc.body).toEqual(all.slice().reverse().slice(3, 6));
    expect((await http.get(`/assets/${unit}/history?page=100000`)).body).toEqual([]);
    // The history since genesis opens every segment of the chain: 20–40 s of a busy 2-core machine.
  }, 90_000);

  it("gives a live asset's mints and burns: its quantity is minted less burned", async () => {
    const res = await http.get(`/assets/${nativeUnit}/history`);
    expect(res.body).toEqual([
      { tx_hash: made.mint, action: 'minted', amount: '100' },
      { tx_hash: made.burn, action: 'burned', amount: '40' },
    ]);
    expect(chain.asset(nativeUnit)).toMatchObject({ quantity: '60', mint_or_burn_count: 2, initial_mint_tx_hash: made.mint });
    expect((await http.get(`/assets/${nativeUnit}/transactions`)).body.map((r: { tx_hash: string }) => r.tx_hash)).toEqual([made.mint, made.burn]);
    expect((await http.get(`/assets/${nativeUnit}/txs?order=desc`)).body).toEqual([made.burn, made.mint]);
    const utxos = await http.get(`/assets/${nativeUnit}/utxos`);
    assertSchema('/assets/{asset}/utxos', utxos.body);
    expect(utxos.body.map((u: { tx_hash: string }) => u.tx_hash)).toEqual([made.burn]);
    expect(utxos.body[0].amount).toContainEqual({ unit: nativeUnit, quantity: '60' });
    expect((await http.get(`/assets/${'ab'.repeat(30)}/history`)).status).toBe(404);
    expect((await http.get('/assets/xyz/history')).status).toBe(400);
  });

  it("lists a world asset's transactions: its mints before the address window, then every transaction moving it", async () => {
    const unit = chain.catalog().assets.find((a) => !a.nft)!.unit;
    const res = await http.get(`/assets/${unit}/transactions?count=100`);
    assertSchema('/assets/{asset}/transactions', res.body);
    const rows = res.body as Array<{ tx_hash: string; tx_index: number; block_height: number; block_time: number }>;
    expect(rows[0]!.tx_hash).toBe(chain.asset(unit)!.initial_mint_tx_hash);
    const ascending = (a: (typeof rows)[number], b: (typeof rows)[number]) => a.block_height < b.block_height || (a.block_height === b.block_height && a.tx_index < b.tx_index);
    for (let i = 1; i < rows.length; i++) expect(ascending(rows[i - 1]!, rows[i]!)).toBe(true);
    for (const r of rows.slice(0, 3)) expect(chain.tx(r.tx_hash)).toMatchObject({ block_height: r.block_height, index: r.tx_index, block_time: r.block_time });
    // Within the window, exactly the transactions whose inputs or outputs hold it.
    const low = chain.tipHeight() - chain.params.addressWindowBlocks + 1;
    const moving = (hash: string) => {
      const u = chain.txUtxos(hash)!;
      return [...u.inputs, ...u.outputs].some((x) => x.amount.some((a) => a.unit === unit));
    };
    const everything: typeof rows = [];
    for (let page = 1; ; page++) {
      const batch = (await http.get(`/assets/${unit}/transactions?page=${page}`)).body as typeof rows;
      everything.push(...batch);
      if (batch.length < 100) break;
    }
    expect(everything.length).toBeGreaterThan(100);
    const expected: string[] = [];
    for (let h = low; h <= chain.tipHeight(); h++) expected.push(...chain.blockTxs(h)!.filter(moving));
    expect(everything.filter((r) => r.block_height >= low).map((r) => r.tx_hash)).toEqual(expected);
    // Before the window, its mints: the history's transactions.
    const mints = chain.assetHistory(unit)!.map((r) => r.tx_hash);
    const before = everything.filter((r) => r.block_height < low).map((r) => r.tx_hash);
    expect(before).toEqual(mints.slice(0, before.length));
    const tail = everything[everything.length - 1]!;
    expect((await http.get(`/assets/${unit}/txs?from=${tail.block_height}:${tail.tx_index}`)).body).toEqual([tail.tx_hash]);
    expect((await http.get(`/assets/${unit}/txs?order=desc&count=1`)).body).toEqual([tail.tx_hash]);
  });

  it("lists the utxos holding an asset: the holders of /addresses, bounded by block height", async () => {
    const unit = chain.catalog().assets.find((a) => !a.nft)!.unit;
    const utxos = (await http.get(`/assets/${unit}/utxos`)).body as Array<{ address: string; amount: Amount[]; block_height: number; block: string; block_time: number }>;
    expect(utxos.length).toBeGreaterThan(0);
    const holders = new Map<string, bigint>();
    for (const u of utxos) holders.set(u.address, (holders.get(u.address) ?? 0n) + BigInt(u.amount.find((a) => a.unit === unit)!.quantity));
    const addresses = chain.assetAddresses(unit)!;
    expect(new Map(addresses.map((a) => [a.address, BigInt(a.quantity)]))).toEqual(holders);
    for (const u of utxos) expect(chain.blockAt(u.block_height)).toMatchObject({ hash: u.block, time: u.block_time });
    const h = utxos[0]!.block_height;
    const bounded = (await http.get(`/assets/${unit}/utxos?from=${h}&to=${h}`)).body as typeof utxos;
    expect(bounded).toEqual(utxos.filter((u) => u.block_height === h));
    expect((await http.get(`/assets/${unit}/utxos?from=1:2`)).status).toBe(400);
  });
});

describe('scripts', () => {
  it('lists the world scripts, then live ones in order of appearance; each resolves', async () => {
    const res = await http.get('/scripts');
    assertSchema('/scripts', res.body);
    const hashes = (res.body as Array<{ script_hash: string }>).map((r) => r.script_hash);
    const worldScripts = new Set(chain.catalog().addresses.filter((a) => a.script).map((a) => CSL.Address.from_bech32(a.address).payment_cred()!.to_scripthash()!.to_hex()));
    expect(hashes.slice(0, worldScripts.size).sort()).toEqual([...worldScripts].sort());
    expect(hashes.slice(worldScripts.size)).toEqual([chain.faucetInfo().policyId, ALWAYS_V3.hash().to_hex(), policy.hash().to_hex()]);
    for (const hash of hashes) expect((await http.get(`/scripts/${hash}`)).status).toBe(200);
    expect((await http.get('/scripts?order=desc&count=1')).body).toEqual([{ script_hash: policy.hash().to_hex() }]);
  });

  it("answers a native script's JSON and null for Plutus; 404 for an unknown script, 400 for a malformed hash", async () => {
    const json = await http.get(`/scripts/${policy.hash().to_hex()}/json`);
    assertSchema('/scripts/{script_hash}/json', json.body);
    expect(json.body).toEqual({ json: JSON.parse(policy.to_json()) });
    expect((await http.get(`/scripts/${ALWAYS_V3.hash().to_hex()}/json`)).body).toEqual({ json: null });
    expect((await http.get(`/scripts/${'ab'.repeat(28)}/json`)).status).toBe(404);
    expect((await http.get(`/scripts/${'ab'.repeat(28)}/redeemers`)).status).toBe(404);
    expect((await http.get(`/scripts/${'ab'.repeat(28)}/utxos`)).status).toBe(404);
    expect((await http.get('/scripts/xyz/json')).status).toBe(400);
  });

  it('lists the unspent outputs holding a script as a reference script', async () => {
    const res = await http.get(`/scripts/${ALWAYS_V3.hash().to_hex()}/utxos`);
    assertSchema('/scripts/{script_hash}/utxos', res.body);
    expect(res.body).toEqual([
      expect.objectContaining({ address: alice.address, tx_hash: made.ref, output_index: 0, reference_script_hash: ALWAYS_V3.hash().to_hex(), block: chain.tx(made.ref)!.block }),
    ]);
    expect((await http.get(`/scripts/${policy.hash().to_hex()}/utxos`)).body).toEqual([]);
  });
});

describe('metadata CBOR', () => {
  it("answers a label's transactions with their metadata's CBOR", async () => {
    const res = await http.get('/metadata/txs/labels/674/cbor');
    assertSchema('/metadata/txs/labels/{label}/cbor', res.body);
    const [cbor] = chain.txMetadataCbor(made.memo)!;
    expect(res.body).toEqual([{ tx_hash: made.memo, cbor_metadata: cbor!.cbor_metadata, metadata: cbor!.metadata }]);
    expect((await http.get('/metadata/txs/labels/675/cbor')).body).toEqual([]);
    expect((await http.get('/metadata/txs/labels/x/cbor')).status).toBe(400);
  });
});

describe('the mempool', () => {
  it('holds accepted transactions until their block exists, in the order accepted', async () => {
    const t = testChain({ store: memoryLedgerStore(), now: () => TEST_NOW });
    const pool = await serve(t.chain);
    try {
      const [carol, dave] = t.chain.devWallets();
      const carolKeys = keysOf(carol!.mnemonic);
      const [first, second] = t.chain.addressUtxos(carol!.address)!;
      const a = await t.chain.submit(payment({ inputs: [first!], to: dave!.address, lovelace: 2_000_000n, change: carol!.address, signers: [carolKeys.payment] }));
      const b = await t.chain.submit(payment({ inputs: [second!], to: carol!.address, lovelace: 3_000_000n, change: carol!.address, signers: [carolKeys.payment] }));

      const list = await pool.get('/mempool');
      assertSchema('/mempool', list.body);
      expect(list.body).toEqual([{ tx_hash: a }, { tx_hash: b }]);
      expect((await pool.get('/mempool?order=desc&count=1')).body).toEqual([{ tx_hash: b }]);
      const one = await pool.get(`/mempool/${a}`);
      expect(one.status).toBe(200);
      assertSchema('/mempool/{hash}', one.body);
      expect(one.body.inputs).toEqual([{ address: carol!.address, tx_hash: first!.tx_hash, output_index: first!.output_index, collateral: false, reference: false }]);
      expect(one.body.outputs.map((o: { address: string }) => o.address)).toEqual([dave!.address, carol!.address]);
      expect(one.body.redeemers).toEqual([]);
      expect((await pool.get(`/txs/${a}`)).status).toBe(404);
      expect((await pool.get(`/mempool/addresses/${dave!.address}`)).body).toEqual([{ tx_hash: a }]);
      expect((await pool.get(`/mempool/addresses/${carol!.address}`)).body).toEqual([{ tx_hash: a }, { tx_hash: b }]);
      expect((await pool.get(`/mempool/addresses/${t.chain.devWallets()[2]!.address}`)).body).toEqual([]);
      expect((await pool.get('/mempool/xyz')).status).toBe(400);
      expect((await pool.get('/mempool/addresses/addr_test1xyz')).status).toBe(400);

      t.clock.now += t.chain.params.blockIntervalMs;
      expect((await pool.get('/mempool')).body).toEqual([]);
      expect((await pool.get(`/mempool/${a}`)).status).toBe(404);
      expect((await pool.get(`/txs/${a}`)).body).toMatchObject({ hash: a, block_height: t.chain.tipHeight() });
      expect((await pool.get(`/mempool/addresses/${carol!.address}`)).body).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  it("shows a pending Plutus spend's redeemers with their declared units", async () => {
    const locked = chain.addressUtxos(scriptAddress(ALWAYS_V3).to_bech32(undefined))!;
    expect(locked).toEqual([]);
    const lockHash = await chain.submit(lock(chain, alice.address, keys.payment, scriptAddress(ALWAYS_V3), 3_000_000n, { from: plainUtxo() }));
    next();
    const out = chain.addressUtxos(scriptAddress(ALWAYS_V3).to_bech32(undefined))!.find((u) => u.tx_hash === lockHash)!;
    const hash = await chain.submit(spend(chain, alice.address, keys.payment, { script: ALWAYS_V3, locked: { ...out, lovelace: 3_000_000n }, exUnits: { mem: 600n, steps: 70_000n } }));
    const res = await http.get(`/mempool/${hash}`);
    assertSchema('/mempool/{hash}', res.body);
    expect(res.body.redeemers).toEqual([{ tx_index: 0, purpose: 'spend', unit_mem: '600', unit_steps: '70000' }]);
    expect(res.body.tx).toMatchObject({ hash, redeemer_count: 1, valid_contract: true });
    next();
    expect((await http.get(`/txs/${hash}/redeemers`)).body).toMatchObject([{ unit_mem: '600', unit_steps: '70000' }]);
  });
});
