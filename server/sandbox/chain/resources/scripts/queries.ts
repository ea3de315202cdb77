// /scripts: scripts of the world's script addresses and of live transactions, their JSON, CBOR,
// redeemers and reference-script utxos; /scripts/datum: datums of live transactions.
import type { ChainContext } from '../../context';
import { amounts, paginate, byChainOrder } from '../../paging';
import type { Pagination } from '../../../../../shared/chain';
import type { TxModel } from '../txs/queries';
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { parseShelleyAddress } from '../../../../../shared/cardano/address';
import type { LiveScript } from '../../ledger';
import { referenceScriptOf, type ScriptRedeemer, type ScriptUtxo, type TxRedeemer } from '../../txs';

/** The chain's queries behind /scripts. */
export interface ScriptQueries {
  script(hash: string): { script_hash: string; type: LiveScript['type']; serialised_size: number | null } | null;
  scriptCbor(hash: string): { cbor: string | null } | null;
  datum(hash: string): { json_value: unknown } | null;
  datumCbor(hash: string): { cbor: string } | null;
  /** Script hashes the chain knows: the world's script addresses', then those of live transactions. */
  scripts(page?: Pagination): Array<{ script_hash: string }>;
  scriptJson(hash: string): { json: unknown } | null;
  scriptRedeemers(hash: string, page?: Pagination): ScriptRedeemer[] | null;
  /** Unspent outputs holding the script as a reference script. */
  scriptUtxos(hash: string, page?: Pagination): ScriptUtxo[] | null;
}

export function scriptPaths(ctx: ChainContext, txs: TxModel): ScriptQueries {
  const { world, hashes, ledger, tipHeight, liveIndex, addressHistory, unspentAt } = ctx;
  const { liveRedeemers, simRedeemers } = txs;
  const findScript = (hash: string): LiveScript | null => (typeof hash === 'string' ? (liveScripts().get(hash.toLowerCase()) ?? null) : null);
  const findDatum = (hash: string): { hash: string; cbor: string } | null => {
    if (typeof hash !== 'string') return null;
    const h = hash.toLowerCase();
    for (const t of ledger.all()) for (const d of t.datums) if (d.hash === h) return d;
    return null;
  };
  /** The world's script addresses are guarded by Plutus scripts whose bytes the sandbox does not have. */
  const worldScripts = new Map<string, number>(world.addresses.filter((a) => a.script).map((a) => [parseShelleyAddress(a.bech32)!.paymentHash, a.index]));
  /** Scripts of visible live transactions (witness sets and reference scripts of outputs), in order of first appearance. */
  let scriptIndex: { seen: number; byHash: Map<string, LiveScript> } | undefined;
  const liveScripts = (): Map<string, LiveScript> => {
    const visible = ledger.all();
    if (scriptIndex?.seen === visible.length) return scriptIndex.byHash;
    const byHash = new Map<string, LiveScript>();
    for (const t of visible) {
      for (const s of t.scripts) if (!byHash.has(s.hash)) byHash.set(s.hash, s);
      for (const o of t.outputs) {
        if (!o.referenceScriptHash || byHash.has(o.referenceScriptHash)) continue;
        const s = referenceScriptOf(o);
        if (s) byHash.set(s.hash, s);
      }
    }
    scriptIndex = { seen: visible.length, byHash };
    return byHash;
  };
  const knownScript = (hash: string): boolean => findScript(hash) !== null || worldScripts.has(hash.toLowerCase());
  const scriptRedeemer = (txHash: string, r: TxRedeemer): ScriptRedeemer => ({
    tx_hash: txHash, tx_index: r.tx_index, purpose: r.purpose, redeemer_data_hash: r.redeemer_data_hash, datum_hash: r.datum_hash,
    unit_mem: r.unit_mem, unit_steps: r.unit_steps, fee: r.fee,
  });
  const paths: ScriptQueries = {
    script(hash) {
      const s = findScript(hash);
      // Blockfrost gives a Plutus script's size (its flat bytes), and no size or CBOR for a native script.
      // A world script address's script: Plutus, with no bytes behind it (background spends only).
      if (!s) return typeof hash === 'string' && worldScripts.has(hash.toLowerCase()) ? { script_hash: hash.toLowerCase(), type: 'plutusV2', serialised_size: null } : null;
      return { script_hash: s.hash, type: s.type, serialised_size: s.type === 'timelock' ? null : CSL.PlutusScript.from_hex(s.cbor).bytes().length };
    },
    scriptCbor(hash) {
      const s = findScript(hash);
      if (!s) return typeof hash === 'string' && worldScripts.has(hash.toLowerCase()) ? { cbor: null } : null;
      return { cbor: s.type === 'timelock' ? null : s.cbor };
    },
    datum(hash) {
      const d = findDatum(hash);
      if (!d) return null;
      return { json_value: JSON.parse(CSL.PlutusData.from_hex(d.cbor).to_json(CSL.PlutusDatumSchema.DetailedSchema)) as unknown };
    },
    datumCbor(hash) {
      const d = findDatum(hash);
      return d ? { cbor: d.cbor } : null;
    },
    scripts(page) {
      const rows = [...worldScripts.keys()];
      for (const h of liveScripts().keys()) if (!worldScripts.has(h)) rows.push(h);
      return paginate(rows, page).map((script_hash) => ({ script_hash }));
    },
    scriptJson(hash) {
      const s = findScript(hash);
      if (s) return { json: s.type === 'timelock' ? s.json : null };
      return knownScript(hash) ? { json: null } : null;
    },
    scriptRedeemers(hash, page) {
      if (typeof hash !== 'string' || !knownScript(hash)) return null;
      const h = hash.toLowerCase();
      const tip = tipHeight();
      const rows: Array<ScriptRedeemer & { height: number; index: number }> = [];
      const address = worldScripts.get(h);
      if (address !== undefined) {
        for (const tx of addressHistory(address, tip)) {
          for (const r of simRedeemers(tx)) if (r.script_hash === h) rows.push({ ...scriptRedeemer(tx.hash, r), height: tx.height, index: tx.index });
        }
      }
      for (const t of ledger.all()) {
        for (const r of liveRedeemers(t)) if (r.script_hash === h) rows.push({ ...scriptRedeemer(t.hash, r), height: t.height, index: liveIndex(t) });
      }
      rows.sort(byChainOrder);
      return paginate(rows, page).map(({ height: _h, index: _i, ...r }) => r);
    },
    scriptUtxos(hash, page) {
      if (typeof hash !== 'string' || !knownScript(hash)) return null;
      const h = hash.toLowerCase();
      const rows = unspentAt(tipHeight()).withReferenceScript(h);
      return paginate(rows, page).map((u): ScriptUtxo => ({
        address: u.address, tx_hash: u.txHash, output_index: u.outputIndex, amount: amounts(u.lovelace, u.assets), block: hashes.block(u.height),
        data_hash: u.dataHash, inline_datum: u.inlineDatum, reference_script_hash: h,
      }));
    },
  };
  return paths;
}
