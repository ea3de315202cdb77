// Builds signed transactions with cardano-serialization-lib from a development wallet's mnemonic,
// as a wallet would: the keys come from the mnemonic the start-up log prints, nothing else.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { mnemonicToEntropy } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import type { AddressUtxo } from '../../../../../server/sandbox/chain/index';

const harden = (n: number) => 0x8000_0000 + n;
const big = (n: bigint | number) => CSL.BigNum.from_str(String(n));

export interface WalletKeys {
  payment: CSL.PrivateKey;
  stake: CSL.PrivateKey;
}

export function keysOf(mnemonic: string): WalletKeys {
  const root = CSL.Bip32PrivateKey.from_bip39_entropy(mnemonicToEntropy(mnemonic, wordlist), new Uint8Array());
  const account = root.derive(harden(1852)).derive(harden(1815)).derive(harden(0));
  return { payment: account.derive(0).derive(0).to_raw_key(), stake: account.derive(2).derive(0).to_raw_key() };
}

export interface PaymentOptions {
  inputs: AddressUtxo[];
  to: string;
  lovelace: bigint;
  change: string;
  signers: CSL.PrivateKey[];
  /** Fee in lovelace; the minimum for the size when absent. */
  fee?: bigint;
  ttl?: bigint;
  validFrom?: bigint;
  /** Lovelace added to the change beyond what balances (to break value preservation). */
  extraChange?: bigint;
  certs?: CSL.Certificates;
  deposit?: bigint;
  metadata?: { label: number; json: unknown };
}

/** A signed payment spending `inputs` (lovelace only) with change; answers the CBOR. */
export function payment(o: PaymentOptions): Uint8Array {
  const total = o.inputs.reduce((n, u) => n + BigInt(u.amount.find((a) => a.unit === 'lovelace')!.quantity), 0n);
  const build = (fee: bigint): Uint8Array => {
    const inputs = CSL.TransactionInputs.new();
    for (const u of o.inputs) inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex(u.tx_hash), u.output_index));
    const outputs = CSL.TransactionOutputs.new();
    // `to` may be a Byron address (base58).
    const to = o.to.startsWith('addr') ? CSL.Address.from_bech32(o.to) : CSL.ByronAddress.from_base58(o.to).to_address();
    outputs.add(CSL.TransactionOutput.new(to, CSL.Value.new(big(o.lovelace))));
    const change = total - o.lovelace - fee - (o.deposit ?? 0n) + (o.extraChange ?? 0n);
    outputs.add(CSL.TransactionOutput.new(CSL.Address.from_bech32(o.change), CSL.Value.new(big(change))));
    const body = CSL.TransactionBody.new_tx_body(inputs, outputs, big(fee));
    if (o.ttl !== undefined) body.set_ttl(big(o.ttl));
    if (o.validFrom !== undefined) body.set_validity_start_interval_bignum(big(o.validFrom));
    if (o.certs) body.set_certs(o.certs);
    let aux: CSL.AuxiliaryData | undefined;
    if (o.metadata) {
      aux = CSL.AuxiliaryData.new();
      const md = CSL.GeneralTransactionMetadata.new();
      md.insert(big(o.metadata.label), CSL.encode_json_str_to_metadatum(JSON.stringify(o.metadata.json), CSL.MetadataJsonSchema.NoConversions));
      aux.set_metadata(md);
      body.set_auxiliary_data_hash(CSL.hash_auxiliary_data(aux));
    }
    const tx = aux
      ? CSL.FixedTransaction.new_with_auxiliary(body.to_bytes(), CSL.TransactionWitnessSet.new().to_bytes(), aux.to_bytes(), true)
      : CSL.FixedTransaction.new(body.to_bytes(), CSL.TransactionWitnessSet.new().to_bytes(), true);
    for (const key of o.signers) tx.sign_and_add_vkey_signature(key);
    return tx.to_bytes();
  };
  if (o.fee !== undefined) return build(o.fee);
  let fee = 0n;
  for (let i = 0; i < 4; i++) {
    const needed = 44n * BigInt(build(fee).length) + 155_381n;
    if (needed <= fee) break;
    fee = needed;
  }
  return build(fee);
}

/** A transaction whose witness signs a different body: the key is right, the signature is not over this body. */
export function withForeignSignature(cbor: Uint8Array, key: CSL.PrivateKey): Uint8Array {
  const tx = CSL.FixedTransaction.from_bytes(cbor);
  const other = CSL.FixedTransaction.from_bytes(cbor);
  const body = other.body();
  body.set_ttl(big(999_999_999));
  const signed = CSL.FixedTransaction.new(body.to_bytes(), CSL.TransactionWitnessSet.new().to_bytes(), true);
  signed.sign_and_add_vkey_signature(key);
  tx.set_witness_set(signed.witness_set().to_bytes());
  return tx.to_bytes();
}
