// Background transactions answer /txs/{hash}/cbor with a Conway transaction whose body hashes to
// the hash the chain lists, and whose every part agrees with /txs/{hash}, /utxos, /withdrawals,
// /delegations, /stakes, /pool_retires, /pool_updates, /metadata and /redeemers: payments,
// delegations with and without registration, withdrawals, datums, script spends, and the faucet
// distributions (mint, metadata, pool registrations and retirements).
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { describe, expect, it } from 'vitest';
import type { Amount, SandboxChain } from '../../../../../server/sandbox/chain/index';
import { SentHashes } from '../../../../../server/sandbox/chain/tx-cbor';
import { serve, testChain } from './support';

type Kind = 'payment' | 'registration' | 'delegation' | 'withdrawal' | 'inline datum' | 'datum hash' | 'script spend' | 'mint' | 'metadata' | 'pool retirement';

const amountsOf = (out: CSL.TransactionOutput): Amount[] => {
  const v = out.amount();
  const rows: Amount[] = [{ unit: 'lovelace', quantity: v.coin().to_str() }];
  const ma = v.multiasset();
  if (ma) {
    const policies = ma.keys();
    for (let p = 0; p < policies.len(); p++) {
      const policy = policies.get(p);
      const assets = ma.get(policy)!;
      const names = assets.keys();
      for (let n = 0; n < names.len(); n++) {
        const name = names.get(n);
        rows.push({ unit: policy.to_hex() + Buffer.from(name.name()).toString('hex'), quantity: assets.get(name)!.to_str() });
      }
    }
  }
  return rows.sort((a, b) => (a.unit === 'lovelace' ? -1 : b.unit === 'lovelace' ? 1 : a.unit < b.unit ? -1 : 1));
};
const sorted = (rows: Amount[]): Amount[] => [...rows].sort((a, b) => (a.unit === 'lovelace' ? -1 : b.unit === 'lovelace' ? 1 : a.unit < b.unit ? -1 : 1));

/** Checks one background transaction's CBOR against the chain's answers; returns the kinds it shows. */
function check(chain: SandboxChain, hash: string): Set<Kind> {
  const kinds = new Set<Kind>();
  const cbor = chain.txCbor(hash)!.cbor;
  expect(CSL.FixedTransaction.from_hex(cbor).transaction_hash().to_hex()).toBe(hash);
  const tx = CSL.Transaction.from_hex(cbor);
  const body = tx.body();
  const info = chain.tx(hash)!;
  const utxos = chain.txUtxos(hash)!;
  expect(info.size).toBe(cbor.length / 2);
  expect(body.fee().to_str()).toBe(info.fees);
  expect(body.ttl_bignum()?.to_str() ?? null).toBe(info.invalid_hereafter);
  expect(body.validity_start_interval_bignum()?.to_str() ?? null).toBe(info.invalid_before);
  // A fee never below the size fee of the bytes served.
  expect(BigInt(info.fees) >= 44n * BigInt(info.size) + 155_381n || info.fees === '0').toBe(true);

  const inputs = body.inputs();
  const bodyInputs = Array.from({ length: inputs.len() }, (_, i) => `${inputs.get(i).transaction_id().to_hex()}#${inputs.get(i).index()}`);
  expect(bodyInputs.sort()).toEqual(utxos.inputs.map((i) => `${i.tx_hash}#${i.output_index}`).sort());
  for (const i of utxos.inputs) {
    // Each input is an output of the transaction it names, which says this one consumed it.
    const spent = chain.txUtxos(i.tx_hash)!.outputs[i.output_index]!;
    expect({ address: spent.address, amount: spent.amount, consumed_by_tx: spent.consumed_by_tx }).toEqual({ address: i.address, amount: i.amount, consumed_by_tx: hash });
  }

  const outputs = body.outputs();
  expect(outputs.len()).toBe(utxos.outputs.length);
  utxos.outputs.forEach((o, i) => {
    const out = outputs.get(i);
    expect(out.address().to_bech32(undefined)).toBe(o.address);
    expect(amountsOf(out)).toEqual(sorted(o.amount));
    const datum = out.plutus_data();
    expect(datum ? datum.to_hex() : null).toBe(o.inline_datum);
    if (o.inline_datum) kinds.add('inline datum');
    expect(out.data_hash()?.to_hex() ?? null).toBe(o.data_hash);
    if (o.data_hash) kinds.add('datum hash');
  });

  const withdrawals = body.withdrawals();
  const bodyWithdrawals: Array<{ address: string; amount: string }> = [];
  if (withdrawals) {
    const keys = withdrawals.keys();
    for (let i = 0; i < keys.len(); i++) bodyWithdrawals.push({ address: keys.get(i).to_address().to_bech32(undefined), amount: withdrawals.get(keys.get(i))!.to_str() });
  }
  expect(bodyWithdrawals).toEqual(chain.txWithdrawals(hash));

  const certs = body.certs();
  const certList = Array.from({ length: certs?.len() ?? 0 }, (_, i) => certs!.get(i));
  expect(certList.length).toBe(info.delegation_count + info.stake_cert_count + info.pool_update_count + info.pool_retire_count);
  const delegations = chain.txDelegations(hash)!;
  for (const d of delegations) {
    const cert = certList[d.cert_index]!.as_stake_delegation()!;
    expect(cert.pool_keyhash().to_bech32('pool')).toBe(d.pool_id);
    expect(CSL.RewardAddress.from_address(CSL.Address.from_bech32(d.address))!.payment_cred().to_hex()).toBe(cert.stake_credential().to_hex());
    kinds.add('delegation');
  }
  for (const s of chain.txStakes(hash)!) {
    expect(certList[s.cert_index]!.as_stake_registration()).toBeTruthy();
    kinds.add('registration');
  }
  for (const r of chain.txPoolRetires(hash)!) {
    const cert = certList[r.cert_index]!.as_pool_retirement()!;
    expect({ pool: cert.pool_keyhash().to_bech32('pool'), epoch: cert.epoch() }).toEqual({ pool: r.pool_id, epoch: r.retiring_epoch });
    kinds.add('pool retirement');
  }
  for (const u of chain.txPoolUpdates(hash)!) {
    const params = certList[u.cert_index]!.as_pool_registration()!.pool_params();
    expect(params.operator().to_bech32('pool')).toBe(u.pool_id);
    expect(params.vrf_keyhash().to_hex()).toBe(u.vrf_key);
    expect([params.pledge().to_str(), params.cost().to_str()]).toEqual([u.pledge, u.fixed_cost]);
    expect(params.reward_account().to_address().to_bech32(undefined)).toBe(u.reward_account);
    expect(params.pool_metadata()!.url().url()).toBe(u.metadata!.url);
    expect(params.pool_metadata()!.pool_metadata_hash().to_hex()).toBe(u.metadata!.hash);
    expect(params.relays().len()).toBe(u.relays.length);
  }

  const mint = body.mint();
  expect(mint ? mint.keys().len() > 0 : false).toBe(info.asset_mint_or_burn_count > 0);
  if (mint) kinds.add('mint');

  const metadata = chain.txMetadataCbor(hash)!;
  const aux = tx.auxiliary_data();
  if (metadata.length > 0) {
    expect(body.auxiliary_data_hash()!.to_hex()).toBe(CSL.hash_auxiliary_data(aux!).to_hex());
    const general = aux!.metadata()!;
    for (const m of metadata) expect(general.get(CSL.BigNum.from_str(m.label))!.to_hex()).toBe(m.metadata);
    expect(general.len()).toBe(metadata.length);
    // The sandbox writes the metadatum itself: the bytes CSL makes of its JSON.
    for (const m of chain.txMetadata(hash)!) {
      const csl = CSL.encode_json_str_to_metadatum(JSON.stringify(m.json_metadata), CSL.MetadataJsonSchema.NoConversions).to_hex();
      expect(metadata.find((x) => x.label === m.label)!.metadata).toBe(csl);
    }
    kinds.add('metadata');
  } else {
    expect(aux).toBeUndefined();
    expect(body.auxiliary_data_hash()).toBeUndefined();
  }

  const witnesses = tx.witness_set();
  const redeemers = chain.txRedeemers(hash)!;
  expect(witnesses.redeemers()?.len() ?? 0).toBe(info.redeemer_count);
  redeemers.forEach((r, i) => {
    const w = witnesses.redeemers()!.get(i);
    expect({ index: w.index().to_str(), mem: w.ex_units().mem().to_str(), steps: w.ex_units().steps().to_str() }).toEqual({ index: String(r.tx_index), mem: r.unit_mem, steps: r.unit_steps });
    expect(CSL.hash_plutus_data(w.data()).to_hex()).toBe(r.redeemer_data_hash);
    kinds.add('script spend');
  });
  if (info.redeemer_count > 0) expect(body.script_data_hash()).toBeTruthy();
  if (inputs.len() > 0) expect(witnesses.vkeys()!.len()).toBeGreaterThan(0);
  if (info.withdrawal_count > 0 && info.asset_mint_or_burn_count === 0) kinds.add('withdrawal');
  if (kinds.size === 0 && certList.length === 0) kinds.add('payment');
  return kinds;
}

describe('background transactions have CBOR', () => {
  it('whose body hashes to their hash and agrees with every answer, for every kind of background transaction', () => {
    const { chain } = testChain();
    const tip = chain.tipHeight();
    const seen = new Map<Kind, number>();
    const segment = chain.params.segmentLength;
    // The blocks around a segment start (the distribution) and back far enough to meet every kind.
    const firstOfSegment = Math.floor(tip / segment) * segment;
    for (let h = firstOfSegment - 40; h <= Math.min(tip, firstOfSegment + 20); h++) {
      for (const hash of chain.blockTxs(h, { count: 100, page: 1, order: 'asc' })!) {
        for (const k of check(chain, hash)) seen.set(k, (seen.get(k) ?? 0) + 1);
      }
    }
    for (const kind of ['payment', 'registration', 'delegation', 'withdrawal', 'inline datum', 'datum hash', 'script spend', 'mint', 'metadata'] as const) {
      expect(seen.get(kind), kind).toBeGreaterThan(0);
    }
    // The genesis distribution registers every pool; a later one retires some (in segments 1–3 and every segment's announcements).
    check(chain, chain.blockTxs(0, { count: 1, page: 1, order: 'asc' })![0]!);
    expect(check(chain, chain.blockTxs(segment, { count: 1, page: 1, order: 'asc' })![0]!).has('pool retirement')).toBe(true);
  }, 120_000);

  it('on mainnet and preview too, and over HTTP: a hash listed anywhere answers its CBOR', async () => {
    for (const network of ['mainnet', 'preview'] as const) {
      const { chain } = testChain({ network });
      const tip = chain.tipHeight();
      for (let h = tip - 3; h <= tip; h++) for (const hash of chain.blockTxs(h)!) check(chain, hash);
      const http = await serve(chain);
      try {
        const hash = chain.blockTxs(tip)![0]!;
        const res = await http.get(`/txs/${hash}/cbor`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(chain.txCbor(hash));
        // A deep block's distribution, whose hash depends on its parents' reserves, resolves too.
        const deep = chain.blockTxs(chain.params.segmentLength * 777)![0]!;
        expect((await http.get(`/txs/${deep}/cbor`)).status).toBe(200);
        expect((await http.get(`/txs/${'ab'.repeat(32)}/cbor`)).status).toBe(404);
      } finally {
        await http.close();
      }
    }
  }, 120_000);
});

describe('the distribution hashes a sweep worker sends', () => {
  it('are kept for every segment, the first sent as the last, however long the history', () => {
    // More segments than the hashes a chain computes itself keeps (2^15): a shared chain's two years.
    const sent = new SentHashes();
    const hashOf = (s: number): string => s.toString(16).padStart(8, '0').repeat(8);
    for (let s = 40_000; s >= 0; s--) if (s % 7 !== 3) sent.set(s, hashOf(s));
    for (let s = 0; s <= 40_000; s++) expect(sent.get(s), `segment ${s}`).toBe(s % 7 === 3 ? undefined : hashOf(s));
    expect(sent.get(40_001)).toBeUndefined();
    expect(sent.get(1_000_000)).toBeUndefined();
  });
});
