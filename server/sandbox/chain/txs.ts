// Shapes and derivations behind the sandbox's transaction-detail endpoints: redeemers (of live
// transactions, read from their CBOR, and of background script spends, derived from the block's
// simulation), required signers, reference scripts, asset mint histories and the mempool answer.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import type { Amount, Tx, TxInput, TxOutput } from '../../../shared/chain';
import type { LiveOutput, LiveRedeemer, LiveScript, LiveTx } from './ledger';
import { exUnitsFee, MAX_TX_EX_MEM, MAX_TX_EX_STEPS, versionOf, type Purpose } from './plutus';
import { PROTOCOL, ratioNumber, type Protocol } from './protocol';
import { remintCount } from './simulate';
import type { WorldAsset } from './world';

export type RedeemerPurpose = 'spend' | 'mint' | 'cert' | 'reward' | 'vote' | 'propose';

/** /txs/{hash}/redeemers */
export interface TxRedeemer {
  tx_index: number;
  purpose: RedeemerPurpose;
  script_hash: string;
  redeemer_data_hash: string;
  datum_hash: string;
  unit_mem: string;
  unit_steps: string;
  fee: string;
}

/** /scripts/{script_hash}/redeemers */
export interface ScriptRedeemer {
  tx_hash: string;
  tx_index: number;
  purpose: RedeemerPurpose;
  redeemer_data_hash: string;
  datum_hash: string;
  unit_mem: string;
  unit_steps: string;
  fee: string;
}

export interface BlockAddress {
  address: string;
  transactions: Array<{ tx_hash: string }>;
}

export interface AddressTotal {
  address: string;
  received_sum: Amount[];
  sent_sum: Amount[];
  tx_count: number;
}

export interface AssetAction {
  tx_hash: string;
  action: 'minted' | 'burned';
  amount: string;
}

export interface AssetUtxo {
  address: string;
  tx_hash: string;
  output_index: number;
  amount: Amount[];
  block: string;
  block_height: number;
  block_time: number;
  data_hash: string | null;
  inline_datum: string | null;
  inline_datum_json: unknown;
  reference_script_hash: string | null;
}

export interface ScriptUtxo {
  address: string;
  tx_hash: string;
  output_index: number;
  amount: Amount[];
  block: string;
  data_hash: string | null;
  inline_datum: string | null;
  reference_script_hash: string;
}

/** /mempool/{hash}: the transaction as Blockfrost shows it before it has a block. */
export interface MempoolTx {
  /** The transaction's own fields: no block, slot or index yet (nor a treasury donation field). */
  tx: Omit<Tx, 'block' | 'block_height' | 'block_time' | 'slot' | 'index' | 'treasury_donation'>;
  inputs: Array<Pick<TxInput, 'address' | 'tx_hash' | 'output_index' | 'collateral' | 'reference'>>;
  outputs: Array<Omit<TxOutput, 'consumed_by_tx'>>;
  redeemers: Array<{ tx_index: number; purpose: RedeemerPurpose; unit_mem: string; unit_steps: string }>;
}

const PURPOSE_NAME: Record<Purpose, RedeemerPurpose> = { spend: 'spend', mint: 'mint', certificate: 'cert', withdrawal: 'reward', vote: 'vote', propose: 'propose' };
export const purposeName = (p: Purpose): RedeemerPurpose => PURPOSE_NAME[p];

/** A live redeemer in Blockfrost's terms: the execution units its transaction declared (what the fee paid for). */
export function liveRedeemer(r: LiveRedeemer, scriptHash: string, prices: Pick<Protocol, 'priceMem' | 'priceStep'> = PROTOCOL): TxRedeemer {
  return {
    tx_index: r.index,
    purpose: purposeName(r.purpose),
    script_hash: scriptHash,
    redeemer_data_hash: r.dataHash,
    datum_hash: r.dataHash,
    unit_mem: String(r.memory),
    unit_steps: String(r.steps),
    fee: String(exUnitsFee(r.memory, r.steps, prices)),
  };
}

const sortInputs = (list: CSL.TransactionInputs | undefined): Array<{ txHash: string; outputIndex: number }> => {
  const out: Array<{ txHash: string; outputIndex: number }> = [];
  for (let i = 0; list && i < list.len(); i++) out.push({ txHash: list.get(i).transaction_id().to_hex(), outputIndex: list.get(i).index() });
  return out.sort((a, b) => (a.txHash < b.txHash ? -1 : a.txHash > b.txHash ? 1 : a.outputIndex - b.outputIndex));
};

function certCredential(cert: CSL.Certificate): CSL.Credential | undefined {
  return (
    cert.as_stake_registration()?.stake_credential() ??
    cert.as_stake_deregistration()?.stake_credential() ??
    cert.as_stake_delegation()?.stake_credential() ??
    cert.as_stake_registration_and_delegation()?.stake_credential()
  );
}

/**
 * The script each redeemer of a live transaction runs, read from the transaction's body the way
 * the ledger's validation pairs them: the sorted inputs, the sorted minting policies, the
 * certificates and the withdrawals. (Validation fills LiveRedeemer.scriptHash in the accepting
 * process; a transaction replayed from the store is decoded only.)
 */
export function redeemerScripts(tx: LiveTx, outputOf: (txHash: string, outputIndex: number) => LiveOutput | null): string[] {
  if (tx.redeemers.every((r) => r.scriptHash)) return tx.redeemers.map((r) => r.scriptHash!);
  const body = CSL.FixedTransaction.from_hex(tx.cbor).body();
  const inputs = sortInputs(body.inputs());
  const policies = new Set<string>();
  const mint = body.mint();
  const keys = mint?.keys();
  for (let i = 0; keys && i < keys.len(); i++) policies.add(keys.get(i).to_hex());
  const sortedPolicies = [...policies].sort();
  const withdrawals = body.withdrawals()?.keys();
  const scriptOfAddress = (bech32: string | undefined): string | null =>
    bech32 ? (CSL.Address.from_bech32(bech32).payment_cred()?.to_scripthash()?.to_hex() ?? null) : null;
  return tx.redeemers.map((r) => {
    if (r.scriptHash) return r.scriptHash;
    let hash: string | null = null;
    if (r.purpose === 'spend') {
      const i = inputs[r.index];
      hash = i ? scriptOfAddress(outputOf(i.txHash, i.outputIndex)?.address) : null;
    } else if (r.purpose === 'mint') hash = sortedPolicies[r.index] ?? null;
    else if (r.purpose === 'certificate') {
      const certs = body.certs();
      hash = certs && r.index < certs.len() ? (certCredential(certs.get(r.index))?.to_scripthash()?.to_hex() ?? null) : null;
    } else if (r.purpose === 'withdrawal') {
      hash = withdrawals && r.index < withdrawals.len() ? (withdrawals.get(r.index).payment_cred().to_scripthash()?.to_hex() ?? null) : null;
    }
    // Validation refuses a redeemer that points at nothing, so an accepted one always resolves.
    return hash ?? '';
  });
}

/** The key hashes a live transaction's body names as required signers. */
export function requiredSigners(tx: LiveTx): Array<{ witness_hash: string }> {
  const list = CSL.FixedTransaction.from_hex(tx.cbor).body().required_signers();
  const out: Array<{ witness_hash: string }> = [];
  for (let i = 0; list && i < list.len(); i++) out.push({ witness_hash: list.get(i).to_hex() });
  return out;
}

/** The reference script an output carries, as a LiveScript. */
export function referenceScriptOf(o: LiveOutput): LiveScript | null {
  if (!o.referenceScriptHash) return null;
  const ref = CSL.TransactionOutput.from_hex(o.cbor).script_ref();
  if (!ref) return null;
  if (ref.is_native_script()) {
    const ns = ref.native_script()!;
    return { hash: o.referenceScriptHash, type: 'timelock', cbor: ns.to_hex(), json: JSON.parse(ns.to_json()) as unknown };
  }
  const ps = ref.plutus_script()!;
  return { hash: o.referenceScriptHash, type: versionOf(ps), cbor: ps.to_hex(), json: null };
}

/**
 * Execution units of a background script spend. The simulation charges each redeemer a share of
 * the fee above the size fee; the units are derived so that their price at the chain's prices
 * (0.0577 per memory unit, 0.0000721 per step by default) fits that share, within the
 * per-transaction limits.
 */
export function backgroundUnits(share: number, memFraction: number, redeemers: number, prices: Pick<Protocol, 'priceMem' | 'priceStep'> = PROTOCOL): { mem: bigint; steps: bigint; fee: bigint } {
  const { mem, steps } = backgroundUnitCounts(share, memFraction, redeemers, prices);
  return { mem: BigInt(mem), steps: BigInt(steps), fee: exUnitsFee(BigInt(mem), BigInt(steps), prices) };
}

/** backgroundUnits' memory and steps as numbers (what measuring their encoding needs). */
export function backgroundUnitCounts(share: number, memFraction: number, redeemers: number, prices: Pick<Protocol, 'priceMem' | 'priceStep'> = PROTOCOL): { mem: number; steps: number } {
  const memCap = Number(MAX_TX_EX_MEM) / redeemers;
  const stepCap = Number(MAX_TX_EX_STEPS) / redeemers;
  const priceMem = ratioNumber(prices.priceMem);
  const priceStep = ratioNumber(prices.priceStep);
  const mem = priceMem > 0 ? Math.max(0, Math.min(Math.floor((share * memFraction) / priceMem), Math.floor(memCap))) : Math.floor(memCap * memFraction);
  const steps = priceStep > 0 ? Math.max(0, Math.min(Math.floor((share - priceMem * mem) / priceStep), Math.floor(stepCap))) : Math.floor(stepCap * memFraction);
  // Floating-point division may land a unit above the share: the units are what the share pays for.
  return { mem, steps };
}

/** The segment whose distribution mints a world asset for the k-th time after genesis (k ≥ 1). */
export function remintSegment(asset: WorldAsset, k: number): number {
  const m = asset.mintEvery!;
  return asset.mintPhase === 0 ? k * m : asset.mintPhase + (k - 1) * m;
}

/** How many mint actions a world asset has had up to a segment: its genesis supply and the re-mints. */
export function worldMintCount(asset: WorldAsset, lastSegment: number): number {
  return 1 + remintCount(asset, lastSegment);
}

/** A datum's JSON in the detailed schema, or null when the bytes are no Plutus data. */
export function datumJson(cbor: string | null): unknown {
  if (!cbor) return null;
  try {
    return JSON.parse(CSL.PlutusData.from_hex(cbor).to_json(CSL.PlutusDatumSchema.DetailedSchema)) as unknown;
  } catch {
    return null;
  }
}
