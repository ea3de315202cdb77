// Plutus transactions built by cardano-serialization-lib's own TransactionBuilder (an off-the-shelf
// builder) from the protocol parameters the chain serves: lock ada at a script, spend it back with
// collateral and a redeemer, as a wallet would.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import type { AddressUtxo, SandboxChain } from '../../../../../server/sandbox/chain/index';
import { costModels } from '../../../../../server/sandbox/chain/plutus';
import { ratioOfDecimal, type CostModelsRaw } from '../../../../../server/sandbox/chain/protocol';

// (program 1.1.0 (lam ctx (con unit ()))): Plutus V3, always succeeds.
export const ALWAYS_V3 = CSL.PlutusScript.from_bytes_v3(Buffer.from('46450101002499', 'hex'));
// (program 1.1.0 (lam ctx [(lam _ (error)) [(force (builtin trace)) (con string "boom") (con unit ())]])): traces 'boom', then fails.
export const FAILS_V3 = CSL.PlutusScript.from_bytes_v3(Buffer.from('5352010100232633573892010462' + '6f6f6d004981', 'hex'));
// (program 1.0.0 (lam d (lam r (lam c (con unit ()))))): Plutus V1 and V2, always succeed.
export const ALWAYS_V2 = CSL.PlutusScript.from_bytes_v2(Buffer.from('4746010000222499', 'hex'));
export const ALWAYS_V1 = CSL.PlutusScript.from_bytes(Buffer.from('4746010000222499', 'hex'));

export const big = (n: bigint | number | string) => CSL.BigNum.from_str(String(n));
export const DATUM = CSL.PlutusData.new_integer(CSL.BigInt.from_str('42'));
export const lovelaceOf = (u: AddressUtxo) => BigInt(u.amount.find((a) => a.unit === 'lovelace')!.quantity);

/** A price of /epochs/latest/parameters (0.0577) as the fraction a builder takes. */
const interval = (price: number): CSL.UnitInterval => {
  const r = ratioOfDecimal(price)!;
  return CSL.UnitInterval.new(big(r.numerator), big(r.denominator));
};

/** CSL's TransactionBuilder configured from /epochs/latest/parameters, as a wallet would (or with the prices given instead). */
export function builder(chain: SandboxChain, prices?: { price_mem: number; price_step: number }): CSL.TransactionBuilder {
  const p = chain.parameters(chain.latestEpoch().epoch)! as Record<string, unknown>;
  const { price_mem, price_step } = prices ?? (p as { price_mem: number; price_step: number });
  const cfg = CSL.TransactionBuilderConfigBuilder.new()
    .fee_algo(CSL.LinearFee.new(big(p.min_fee_a as number), big(p.min_fee_b as number)))
    .pool_deposit(big(p.pool_deposit as string))
    .key_deposit(big(p.key_deposit as string))
    .max_value_size(Number(p.max_val_size))
    .max_tx_size(p.max_tx_size as number)
    .coins_per_utxo_byte(big(p.coins_per_utxo_size as string))
    .ex_unit_prices(CSL.ExUnitPrices.new(interval(price_mem), interval(price_step)))
    .ref_script_coins_per_byte(CSL.UnitInterval.new(big(p.min_fee_ref_script_cost_per_byte as number), big(1)))
    .build();
  return CSL.TransactionBuilder.new(cfg);
}

export const input = (u: { tx_hash: string; output_index: number }) => CSL.TransactionInput.new(CSL.TransactionHash.from_hex(u.tx_hash), u.output_index);
/** The script's enterprise address; network id 0 (the test networks) unless told. */
export const scriptAddress = (script: CSL.PlutusScript, networkId = 0) => CSL.EnterpriseAddress.new(networkId, CSL.Credential.from_scripthash(script.hash())).to_address();

export function sign(tx: CSL.Transaction, key: CSL.PrivateKey): Uint8Array {
  const fixed = CSL.FixedTransaction.from_bytes(tx.to_bytes());
  fixed.sign_and_add_vkey_signature(key);
  return fixed.to_bytes();
}

/** Pays `lovelace` from the wallet to `to` with an inline datum (and optionally a reference script). */
export function lock(chain: SandboxChain, wallet: string, key: CSL.PrivateKey, to: CSL.Address, lovelace: bigint, opts: { referenceScript?: CSL.PlutusScript; datumHash?: boolean; from?: AddressUtxo } = {}): Uint8Array {
  const b = builder(chain);
  // The wallet's first output unless told (it must hold ada only).
  const utxo = opts.from ?? chain.addressUtxos(wallet)![0]!;
  b.add_regular_input(CSL.Address.from_bech32(wallet), input(utxo), CSL.Value.new(big(lovelaceOf(utxo))));
  const out = CSL.TransactionOutput.new(to, CSL.Value.new(big(lovelace)));
  if (opts.datumHash) out.set_data_hash(CSL.hash_plutus_data(DATUM));
  else out.set_plutus_data(DATUM);
  if (opts.referenceScript) out.set_script_ref(CSL.ScriptRef.new_plutus_script(opts.referenceScript));
  b.add_output(out);
  b.add_change_if_needed(CSL.Address.from_bech32(wallet));
  return sign(b.build_tx(), key);
}

export interface SpendOptions {
  script: CSL.PlutusScript;
  locked: { tx_hash: string; output_index: number; lovelace: bigint };
  exUnits?: { mem: bigint; steps: bigint };
  /** Spend with the script from this reference input instead of the witness set. */
  reference?: { tx_hash: string; output_index: number };
  invalid?: boolean;
  /** The datum the locked output's datum hash names, given in the witness set. */
  datum?: CSL.PlutusData;
  /** Build with these prices instead of the chain's (/epochs/latest/parameters). */
  prices?: { price_mem: number; price_step: number };
  /** Hash the script data over these cost models instead of the chain's. */
  costModels?: CostModelsRaw;
}

/** Spends a script-locked output back to the wallet, with collateral from the wallet. */
export function spend(chain: SandboxChain, wallet: string, key: CSL.PrivateKey, o: SpendOptions): Uint8Array {
  const b = builder(chain, o.prices);
  const ex = o.exUnits ?? { mem: 1_000_000n, steps: 500_000_000n };
  const redeemer = CSL.Redeemer.new(CSL.RedeemerTag.new_spend(), big(0), CSL.PlutusData.new_integer(CSL.BigInt.from_str('1')), CSL.ExUnits.new(big(ex.mem), big(ex.steps)));
  const source = o.reference
    ? CSL.PlutusScriptSource.new_ref_input(o.script.hash(), input(o.reference), o.script.language_version(), o.script.bytes().length)
    : CSL.PlutusScriptSource.new(o.script);
  const witness = o.datum ? CSL.PlutusWitness.new_with_ref(source, CSL.DatumSource.new(o.datum), redeemer) : CSL.PlutusWitness.new_with_ref_without_datum(source, redeemer);
  const inputs = CSL.TxInputsBuilder.new();
  inputs.add_plutus_script_input(witness, input(o.locked), CSL.Value.new(big(o.locked.lovelace)));
  b.set_inputs(inputs);
  const walletUtxo = chain.addressUtxos(wallet)!.find((u) => lovelaceOf(u) > 5_000_000n)!;
  const collateral = CSL.TxInputsBuilder.new();
  collateral.add_regular_input(CSL.Address.from_bech32(wallet), input(walletUtxo), CSL.Value.new(big(lovelaceOf(walletUtxo))));
  b.set_collateral(collateral);
  b.add_required_signer(CSL.Ed25519KeyHash.from_hex(key.to_public().hash().to_hex()));
  b.calc_script_data_hash(costModels(undefined, o.costModels ?? chain.params.protocol.costModels));
  b.add_change_if_needed(CSL.Address.from_bech32(wallet));
  const tx = b.build_tx();
  if (o.invalid) {
    // A transaction that says its scripts fail: the collateral returns nothing, all of it is taken.
    tx.set_is_valid(false);
  }
  return sign(tx, key);
}
