// Background transactions are real Conway transactions: /txs/{hash}/cbor decodes with
// cardano-serialization-lib, its body hashes to the listed hash and says what /txs/{hash},
// /utxos, /withdrawals, /delegations, /stakes, /pool_updates, /pool_retires and /metadata say.
// And each pool's stake is what its delegators' accounts control.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { blake2b } from '@noble/hashes/blake2.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSandboxChain, type SandboxChain } from '../../../../../server/sandbox/chain/index';

const ALL = { count: 100, page: 1, order: 'asc' as const };
const hashOf = (bytes: Uint8Array): string => Buffer.from(blake2b(bytes, { dkLen: 32 })).toString('hex');

let chain: SandboxChain;
beforeAll(() => {
  // Three hours of chain: segments 0 to 8, script spends, delegations, re-mints and retirements.
  chain = createSandboxChain({ network: 'preprod', now: () => Date.UTC(2025, 0, 1, 3), devAids: false });
});

function amountsOf(value: CSL.Value): Array<{ unit: string; quantity: string }> {
  const out = [{ unit: 'lovelace', quantity: value.coin().to_str() }];
  const ma = value.multiasset();
  const policies = ma?.keys();
  for (let i = 0; ma && policies && i < policies.len(); i++) {
    const assets = ma.get(policies.get(i))!;
    const names = assets.keys();
    for (let k = 0; k < names.len(); k++) out.push({ unit: policies.get(i).to_hex() + Buffer.from(names.get(k).name()).toString('hex'), quantity: assets.get(names.get(k))!.to_str() });
  }
  return out.sort((a, b) => (a.unit === 'lovelace' ? -1 : b.unit === 'lovelace' ? 1 : a.unit < b.unit ? -1 : 1));
}

/** Checks one background transaction's CBOR against everything the chain answers for it. */
function checkTx(hash: string): void {
  const cbor = chain.txCbor(hash)!.cbor;
  const tx = CSL.Transaction.from_hex(cbor);
  const fixed = CSL.FixedTransaction.from_hex(cbor);
  const body = tx.body();
  expect(hashOf(fixed.raw_body())).toBe(hash);
  expect(hashOf(body.to_bytes())).toBe(hash);
  const info = chain.tx(hash)!;
  expect(cbor.length / 2).toBe(info.size);
  expect(body.fee().to_str()).toBe(info.fees);
  // The fee covers the size (the genesis transaction, which creates the world, pays none).
  if (info.block_height > 0) expect(BigInt(info.fees)).toBeGreaterThanOrEqual(BigInt(44 * info.size + 155_381));
  expect(body.ttl_bignum()?.to_str() ?? null).toBe(info.invalid_hereafter);
  expect(body.validity_start_interval_bignum()?.to_str() ?? null).toBe(info.invalid_before);

  const utxos = chain.txUtxos(hash)!;
  const inputs = body.inputs();
  expect(inputs.len()).toBe(utxos.inputs.length);
  utxos.inputs.forEach((i, k) => {
    expect(inputs.get(k).transaction_id().to_hex()).toBe(i.tx_hash);
    expect(inputs.get(k).index()).toBe(i.output_index);
    // The input's transaction is served, and its output is this one.
    expect(chain.txUtxos(i.tx_hash)!.outputs[i.output_index]).toMatchObject({ address: i.address, amount: i.amount });
  });
  const outputs = body.outputs();
  expect(outputs.len()).toBe(utxos.outputs.length);
  utxos.outputs.forEach((o, k) => {
    const out = outputs.get(k);
    expect(out.address().to_bech32()).toBe(o.address);
    expect(amountsOf(out.amount())).toEqual(o.amount);
    expect(out.data_hash()?.to_hex() ?? null).toBe(o.data_hash);
    expect(out.plutus_data()?.to_hex() ?? null).toBe(o.inline_datum);
  });

  const withdrawals = body.withdrawals();
  const listed = chain.txWithdrawals(hash)!;
  expect(withdrawals?.len() ?? 0).toBe(listed.length);
  for (const w of listed) expect(withdrawals!.get(CSL.RewardAddress.from_address(CSL.Address.from_bech32(w.address))!)!.to_str()).toBe(w.amount);

  const certs = body.certs();
  const delegations = chain.txDelegations(hash)!;
  const stakes = chain.txStakes(hash)!;
  const updates = chain.txPoolUpdates(hash)!;
  const retires = chain.txPoolRetires(hash)!;
  expect(certs?.len() ?? 0).toBe(delegations.length + stakes.length + updates.length + retires.length);
  for (const d of delegations) {
    const c = certs!.get(d.cert_index).as_stake_delegation()!;
    expect(CSL.RewardAddress.new(0, c.stake_credential()).to_address().to_bech32('stake_test')).toBe(d.address);
    expect(c.pool_keyhash().to_bech32('pool')).toBe(d.pool_id);
  }
  for (const s of stakes) expect(certs!.get(s.cert_index).as_stake_registration()).toBeDefined();
  for (const u of updates) {
    const params = certs!.get(u.cert_index).as_pool_registration()!.pool_params();
    expect(params.operator().to_bech32('pool')).toBe(u.pool_id);
    expect(params.pledge().to_str()).toBe(u.pledge);
    expect(params.cost().to_str()).toBe(u.fixed_cost);
    expect(params.pool_metadata()?.url().url()).toBe(u.metadata!.url);
  }
  for (const r of retires) {
    const c = certs!.get(r.cert_index).as_pool_retirement()!;
    expect(c.pool_keyhash().to_bech32('pool')).toBe(r.pool_id);
    expect(c.epoch()).toBe(r.retiring_epoch);
  }

  const metadata = chain.txMetadataCbor(hash)!;
  const aux = tx.auxiliary_data();
  expect(aux === undefined).toBe(metadata.length === 0);
  if (aux) {
    expect(body.auxiliary_data_hash()!.to_hex()).toBe(hashOf(aux.to_bytes()));
    for (const m of metadata) expect(aux.metadata()!.get(CSL.BigNum.from_str(m.label))!.to_hex()).toBe(m.metadata);
  }

  const mint = body.mint();
  let minted = 0;
  for (let i = 0; mint && i < mint.len(); i++) minted += mint.get(mint.keys().get(i))!.get(0)!.len();
  expect(minted).toBe(info.asset_mint_or_burn_count);
  const redeemers = chain.txRedeemers(hash)!;
  const witnessRedeemers = tx.witness_set().redeemers();
  expect(witnessRedeemers?.len() ?? 0).toBe(redeemers.length);
  redeemers.forEach((r, k) => {
    const w = witnessRedeemers!.get(k);
    expect(w.ex_units().mem().to_str()).toBe(r.unit_mem);
    expect(w.ex_units().steps().to_str()).toBe(r.unit_steps);
    expect(hashOf(w.data().to_bytes())).toBe(r.redeemer_data_hash);
  });
  if (redeemers.length) expect(body.script_data_hash()).toBeDefined();
  // Key witnesses have the shape of real ones: a 32-byte key and a 64-byte signature each
  const vkeys = tx.witness_set().vkeys();
  // (a script spend of script-locked inputs alone needs none).
  if (redeemers.length === 0) expect(vkeys?.len() ?? 0).toBeGreaterThan(0);
  for (let k = 0; vkeys && k < vkeys.len(); k++) {
    expect(vkeys.get(k).vkey().public_key().as_bytes().length).toBe(32);
    expect(vkeys.get(k).signature().to_bytes().length).toBe(64);
  }
}

describe('background transactions have CBOR', () => {
  it('decodes with CSL, hashes to its listed hash and says what the chain says, for every kind of transaction', () => {
    const tip = chain.tipHeight();
    const seen = { script: 0, delegation: 0, withdrawal: 0, distribution: 0, datum: 0 };
    for (let h = 0; h <= tip; h += 9) {
      for (const hash of chain.blockTxs(String(h), ALL)!) {
        checkTx(hash);
        const t = chain.tx(hash)!;
        if (t.redeemer_count) seen.script++;
        if (t.delegation_count) seen.delegation++;
        if (t.withdrawal_count) seen.withdrawal++;
        if (t.index === 0 && t.block_height % chain.params.segmentLength === 0) seen.distribution++;
        if (chain.txUtxos(hash)!.outputs.some((o) => o.inline_datum || o.data_hash)) seen.datum++;
      }
    }
    // Every distribution: genesis (pool registrations, mints, no inputs) and the later ones (retirements, re-mints, withdrawals).
    for (let seg = 0; seg * chain.params.segmentLength <= tip; seg++) {
      checkTx(chain.blockTxs(String(seg * chain.params.segmentLength), ALL)![0]!);
      seen.distribution++;
    }
    expect(seen.distribution).toBeGreaterThan(8);
    expect(seen.script).toBeGreaterThan(0);
    expect(seen.delegation).toBeGreaterThan(0);
    expect(seen.withdrawal).toBeGreaterThan(0);
    expect(seen.datum).toBeGreaterThan(0);
  });

  it('lists every transaction of a block with its CBOR at /blocks/{x}/txs/cbor', () => {
    const h = chain.tipHeight() - 3;
    const hashes = chain.blockTxs(String(h), ALL)!;
    const rows = chain.blockTxsCbor(String(h), ALL)!;
    expect(rows.map((r) => r.tx_hash)).toEqual(hashes);
    for (const r of rows) expect(r.cbor).toBe(chain.txCbor(r.tx_hash)!.cbor);
  });

  it('finds a transaction by hash in another process, which never simulated its block', () => {
    const tip = chain.tipHeight();
    const hash = chain.blockTxs(String(tip - 40), ALL)!.at(-1)!;
    const other = createSandboxChain({ network: 'preprod', now: () => Date.UTC(2025, 0, 1, 3), devAids: false });
    expect(other.tx(hash)).toEqual(chain.tx(hash));
    expect(other.txCbor(hash)).toEqual(chain.txCbor(hash));
    expect(other.tx('00'.repeat(32))).toBeNull();
  });
});

describe('pool stake is what its delegators control', () => {
  it("each pool's delegators name it, and its live stake sums their controlled amounts; its active stake sums the epoch's snapshot", () => {
    const epoch = chain.epochOfHeight(chain.tipHeight());
    let delegators = 0;
    for (const id of chain.pools(ALL)) {
      const pool = chain.pool(id)!;
      const listed = chain.poolDelegators(id, ALL)!;
      let sum = 0n;
      for (const d of listed) {
        const account = chain.account(d.address)!;
        expect(account.pool_id).toBe(id);
        expect(account.controlled_amount).toBe(d.live_stake);
        sum += BigInt(account.controlled_amount);
      }
      delegators += listed.length;
      expect(String(sum)).toBe(pool.live_stake);
      expect(pool.live_delegators).toBe(listed.length);
      const snapshot = chain.epochPoolStakes(epoch, id, ALL)!;
      expect(String(snapshot.reduce((n, r) => n + BigInt(r.amount), 0n))).toBe(pool.active_stake);
    }
    expect(delegators).toBeGreaterThan(0);
  });
});
