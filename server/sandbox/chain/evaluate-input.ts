// What /utils/txs/evaluate and /utils/txs/evaluate/utxos read: a transaction as raw CBOR or its
// base16/base64 text, and Ogmios's additional UTxO set ([[TxIn, TxOut], …]) as outputs to evaluate over.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import type { ResolvedOutput } from './plutus';

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The transaction's bytes: raw CBOR (an array's first byte), or base16 or base64 text; null when it is none of them. */
export function txFromBody(body: Buffer): Uint8Array | null {
  if (body.length === 0) return null;
  const first = body[0]!;
  if (first >= 0x80 && first <= 0x9f) return body;
  const text = body.toString('latin1').trim();
  if (HEX.test(text)) return Buffer.from(text, 'hex');
  if (BASE64.test(text)) {
    const bytes = Buffer.from(text, 'base64');
    return bytes.length > 0 ? bytes : null;
  }
  return null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const big = (v: unknown, what: string): CSL.BigNum => {
  if ((typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) && !(typeof v === 'string' && /^\d{1,20}$/.test(v))) throw new Error(`${what} must be a whole number of at least 0.`);
  return CSL.BigNum.from_str(String(v));
};

function scriptRef(script: unknown, at: string): CSL.ScriptRef {
  if (!isObject(script)) throw new Error(`${at}.script must be an object such as {"plutus:v3": "<cbor hex>"}.`);
  const [lang, value] = Object.entries(script)[0] ?? [];
  if (typeof value !== 'string' || !HEX.test(value)) throw new Error(`${at}.script must hold the script's CBOR in hex.`);
  const bytes = Buffer.from(value, 'hex');
  switch (lang) {
    case 'plutus:v1':
      return CSL.ScriptRef.new_plutus_script(CSL.PlutusScript.from_bytes(bytes));
    case 'plutus:v2':
      return CSL.ScriptRef.new_plutus_script(CSL.PlutusScript.from_bytes_v2(bytes));
    case 'plutus:v3':
      return CSL.ScriptRef.new_plutus_script(CSL.PlutusScript.from_bytes_v3(bytes));
    case 'native':
      return CSL.ScriptRef.new_native_script(CSL.NativeScript.from_bytes(bytes));
    default:
      throw new Error(`${at}.script's language must be plutus:v1, plutus:v2, plutus:v3 or native.`);
  }
}

/** Ogmios's additional UTxO set: [[{txId, index}, {address, value: {coins, assets}, datumHash?, datum?, script?}], …]. */
export function parseAdditionalUtxos(set: unknown): ResolvedOutput[] {
  if (!Array.isArray(set)) throw new Error('must be an array of [TxIn, TxOut] pairs.');
  if (set.length > 500) throw new Error('at most 500 outputs.');
  return set.map((pair: unknown, i) => {
    const at = `[${i}]`;
    if (!Array.isArray(pair) || pair.length !== 2 || !isObject(pair[0]) || !isObject(pair[1])) throw new Error(`${at} must be a [TxIn, TxOut] pair.`);
    const [txIn, txOut] = pair as [Record<string, unknown>, Record<string, unknown>];
    const txId = txIn.txId ?? (isObject(txIn.transaction) ? txIn.transaction.id : undefined);
    if (typeof txId !== 'string' || !/^[0-9a-fA-F]{64}$/.test(txId)) throw new Error(`${at}: the TxIn's txId must be a transaction hash.`);
    if (typeof txIn.index !== 'number' || !Number.isInteger(txIn.index) || txIn.index < 0 || txIn.index > 65535) throw new Error(`${at}: the TxIn's index must be a whole number from 0 to 65535.`);
    let address: CSL.Address;
    try {
      address = CSL.Address.from_bech32(String(txOut.address));
    } catch {
      throw new Error(`${at}: the TxOut's address is not a bech32 Cardano address.`);
    }
    if (!isObject(txOut.value)) throw new Error(`${at}: the TxOut's value must be {"coins": …, "assets": {…}}.`);
    const value = CSL.Value.new(big(txOut.value.coins, `${at}.value.coins`));
    if (txOut.value.assets !== undefined) {
      if (!isObject(txOut.value.assets)) throw new Error(`${at}.value.assets must map "policy.name" to quantities.`);
      const ma = CSL.MultiAsset.new();
      for (const [unit, q] of Object.entries(txOut.value.assets)) {
        const [policy, name = ''] = unit.split('.');
        if (!/^[0-9a-fA-F]{56}$/.test(policy ?? '') || !/^(?:[0-9a-fA-F]{2}){0,32}$/.test(name)) throw new Error(`${at}.value.assets: "${unit.slice(0, 80)}" is not "policy.name" in hex.`);
        ma.set_asset(CSL.ScriptHash.from_hex(policy!), CSL.AssetName.new(Buffer.from(name, 'hex')), big(q, `${at}.value.assets["${unit}"]`));
      }
      value.set_multiasset(ma);
    }
    const output = CSL.TransactionOutput.new(address, value);
    const datumHash = txOut.datumHash ?? txOut.datum_hash;
    if (datumHash !== undefined && datumHash !== null) {
      if (typeof datumHash !== 'string' || !/^[0-9a-fA-F]{64}$/.test(datumHash)) throw new Error(`${at}: datumHash must be 32 bytes in hex.`);
      output.set_data_hash(CSL.DataHash.from_hex(datumHash));
    }
    if (txOut.datum !== undefined && txOut.datum !== null) {
      if (typeof txOut.datum !== 'string' || !HEX.test(txOut.datum)) throw new Error(`${at}: datum must be the inline datum's CBOR in hex.`);
      try {
        output.set_plutus_data(CSL.PlutusData.from_hex(txOut.datum));
      } catch {
        throw new Error(`${at}: datum is not Plutus data in CBOR.`);
      }
    }
    if (txOut.script !== undefined && txOut.script !== null) {
      try {
        output.set_script_ref(scriptRef(txOut.script, at));
      } catch (err) {
        throw new Error(err instanceof Error && err.message.startsWith(at) ? err.message : `${at}.script is not a script in CBOR.`);
      }
    }
    return { input: CSL.TransactionInput.new(CSL.TransactionHash.from_hex(txId), txIn.index), output };
  });
}
