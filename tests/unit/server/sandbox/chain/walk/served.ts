// The walk's requests for the chain's first endpoints: blocks, transactions, epochs, addresses,
// accounts, assets, pools, scripts, metadata and the utilities.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { keysOf, payment } from '../tx-builder';
import type { WalkGroup } from './types';

export const served: WalkGroup = {
  name: 'served',
  async prepare(f) {
    const { chain, clock } = f;
    const wallet = chain.devWallets()[0]!;
    const keys = keysOf(wallet.mnemonic);
    const assetName = Buffer.from('WALK').toString('hex');
    await chain.faucet({ address: wallet.address, lovelace: 4_000_000, assets: [{ assetName, quantity: 42 }] });
    const input = chain.addressUtxos(wallet.address)![0]!;
    const paid = await chain.submit(payment({ inputs: [input], to: chain.devWallets()[1]!.address, lovelace: 3_000_000n, change: wallet.address, signers: [keys.payment], metadata: { label: 1968, json: { price: '0.42' } } }));
    clock.now += chain.params.blockIntervalMs;
    // A payment with an inline datum.
    const datum = CSL.PlutusData.new_integer(CSL.BigInt.from_str('42'));
    const utxo = chain.addressUtxos(wallet.address)!.find((u) => u.amount.length === 1)!;
    const inputs = CSL.TransactionInputs.new();
    inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex(utxo.tx_hash), utxo.output_index));
    const outputs = CSL.TransactionOutputs.new();
    const withDatum = CSL.TransactionOutput.new(CSL.Address.from_bech32(wallet.address), CSL.Value.new(CSL.BigNum.from_str('2000000')));
    withDatum.set_plutus_data(datum);
    outputs.add(withDatum);
    const fee = 200_000n;
    const total = BigInt(utxo.amount[0]!.quantity);
    outputs.add(CSL.TransactionOutput.new(CSL.Address.from_bech32(wallet.address), CSL.Value.new(CSL.BigNum.from_str(String(total - 2_000_000n - fee)))));
    const tx = CSL.FixedTransaction.new(CSL.TransactionBody.new_tx_body(inputs, outputs, CSL.BigNum.from_str(String(fee))).to_bytes(), CSL.TransactionWitnessSet.new().to_bytes(), true);
    tx.sign_and_add_vkey_signature(keys.payment);
    await chain.submit(tx.to_bytes());
    clock.now += chain.params.blockIntervalMs;
    Object.assign(f.made, {
      address: wallet.address,
      stake: chain.devWallets()[1]!.stakeAddress,
      paidTx: paid,
      assetUnit: chain.faucetInfo().policyId + assetName,
      policy: chain.faucetInfo().policyId,
      datumHash: CSL.hash_plutus_data(datum).to_hex(),
      xpub: Buffer.from(CSL.Bip32PrivateKey.generate_ed25519_bip32().to_public().as_bytes()).toString('hex'),
    });
  },
  requests: {
    '/': { path: () => '/' },
    '/health': { path: () => '/health' },
    '/health/clock': { path: () => '/health/clock' },
    '/genesis': { path: () => '/genesis' },
    '/network': { path: () => '/network' },
    '/blocks/latest': { path: () => '/blocks/latest' },
    '/blocks/latest/txs': { path: () => '/blocks/latest/txs', mayBeEmpty: true },
    '/blocks/{hash_or_number}': { path: (f) => `/blocks/${f.chain.tipHeight() - 1}` },
    '/blocks/{hash_or_number}/next': { path: (f) => `/blocks/${f.chain.tipHeight() - 5}/next` },
    '/blocks/{hash_or_number}/previous': { path: (f) => `/blocks/${f.chain.latestBlock().hash}/previous` },
    '/blocks/{hash_or_number}/txs': { path: (f) => `/blocks/${f.chain.tx(f.made.paidTx!)!.block}/txs` },
    '/txs/{hash}': { path: (f) => `/txs/${f.made.paidTx}` },
    '/txs/{hash}/utxos': { path: (f) => `/txs/${f.made.paidTx}/utxos` },
    '/txs/{hash}/delegations': { path: (f) => `/txs/${f.made.paidTx}/delegations`, mayBeEmpty: true },
    '/txs/{hash}/metadata': { path: (f) => `/txs/${f.made.paidTx}/metadata` },
    '/txs/{hash}/metadata/cbor': { path: (f) => `/txs/${f.made.paidTx}/metadata/cbor` },
    '/epochs/latest': { path: () => '/epochs/latest' },
    '/epochs/{number}': { path: (f) => `/epochs/${f.chain.latestEpoch().epoch - 1}` },
    '/epochs/latest/parameters': { path: () => '/epochs/latest/parameters' },
    '/epochs/{number}/parameters': { path: (f) => `/epochs/${f.chain.latestEpoch().epoch - 1}/parameters` },
    '/addresses/{address}': { path: (f) => `/addresses/${f.made.address}` },
    '/addresses/{address}/extended': { path: (f) => `/addresses/${f.made.address}/extended` },
    '/addresses/{address}/utxos': { path: (f) => `/addresses/${f.made.address}/utxos` },
    '/addresses/{address}/utxos/{asset}': { path: (f) => `/addresses/${f.made.address}/utxos/${f.made.assetUnit}` },
    '/addresses/{address}/transactions': { path: (f) => `/addresses/${f.made.address}/transactions?order=desc` },
    '/accounts/{stake_address}': { path: (f) => `/accounts/${f.made.stake}` },
    '/accounts/{stake_address}/addresses': { path: (f) => `/accounts/${f.made.stake}/addresses` },
    '/accounts/{stake_address}/utxos': { path: (f) => `/accounts/${f.made.stake}/utxos` },
    '/assets': { path: () => '/assets' },
    '/assets/{asset}': { path: (f) => `/assets/${f.made.assetUnit}` },
    '/assets/{asset}/addresses': { path: (f) => `/assets/${f.chain.catalog().assets[0]!.unit}/addresses` },
    '/assets/policy/{policy_id}': { path: (f) => `/assets/policy/${f.made.policy}` },
    '/pools': { path: () => '/pools' },
    '/pools/extended': { path: () => '/pools/extended?count=5' },
    '/pools/{pool_id}': { path: (f) => `/pools/${f.chain.catalog().pools[0]}` },
    '/scripts/{script_hash}': { path: (f) => `/scripts/${f.made.policy}` },
    '/scripts/{script_hash}/cbor': { path: (f) => `/scripts/${f.made.policy}/cbor` },
    '/scripts/datum/{datum_hash}': { path: (f) => `/scripts/datum/${f.made.datumHash}` },
    '/scripts/datum/{datum_hash}/cbor': { path: (f) => `/scripts/datum/${f.made.datumHash}/cbor` },
    '/metadata/txs/labels': { path: () => '/metadata/txs/labels' },
    '/metadata/txs/labels/{label}': { path: () => '/metadata/txs/labels/1968' },
    '/utils/addresses/xpub/{xpub}/{role}/{index}': { path: (f) => `/utils/addresses/xpub/${f.made.xpub}/0/3` },
  },
};
