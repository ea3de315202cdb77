// /txs/{hash}: a transaction, its utxos, delegations, metadata, certificates, withdrawals,
// redeemers, required signers and CBOR, for background (simulated) and live (ledger.ts)
// transactions alike. The transaction shapes are shared with /blocks, /scripts and /mempool.
import type { ChainContext } from '../../context';
import { amounts } from '../../paging';
import type { PoolModel } from '../pools/queries';
import { parseShelleyAddress } from '../../../../../shared/cardano/address';
import type { LiveOutput, LiveTx } from '../../ledger';
import { BACKGROUND_REDEEMER_DATA_HASH, backgroundRedeemerUnits, sortedInputs } from '../../tx-cbor';
import type { TxPoolUpdate, TxStakeCert } from '../../stake';
import type { SimOutput, SimTx } from '../../simulate';
import { liveRedeemer, redeemerScripts, requiredSigners, type TxRedeemer } from '../../txs';
import type { Amount, Tx, TxDelegation, TxDelegationWithPool, TxDetails, TxInput, TxOutput, TxUtxos } from '../../../../../shared/chain';

/** Background and live transactions in Blockfrost's shapes, with their redeemers. */
export function txModel(ctx: ChainContext, pools: PoolModel) {
  return { ...simTxModel(ctx, pools), ...liveTxModel(ctx, pools) };
}

/** Background (simulated) transactions. */
function simTxModel(ctx: ChainContext, pools: PoolModel) {
  const { key, world, hashes, book, slotOf, timeOf, epochOf, addressText } = ctx;
  const { retirementsOfTx, poolObject } = pools;
  const outputAmounts = (o: SimOutput): Amount[] => amounts(o.lovelace, o.assets);

  const txObject = (tx: SimTx): Tx => {
    let lovelace = 0;
    const assets = new Map<string, bigint>();
    for (const o of tx.outputs) {
      lovelace += o.lovelace;
      for (const [unit, q] of o.assets) assets.set(unit, (assets.get(unit) ?? 0n) + BigInt(q));
    }
    return {
      hash: tx.hash,
      block: hashes.block(tx.height),
      block_height: tx.height,
      block_time: timeOf(tx.height),
      slot: slotOf(tx.height),
      index: tx.index,
      output_amount: amounts(lovelace, [...assets.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))),
      fees: String(tx.fee),
      deposit: String(tx.deposit),
      size: tx.size,
      invalid_before: tx.invalidBefore === null ? null : String(tx.invalidBefore),
      invalid_hereafter: tx.invalidHereafter === null ? null : String(tx.invalidHereafter),
      utxo_count: tx.inputs.length + tx.outputs.length,
      withdrawal_count: tx.withdrawals.length,
      mir_cert_count: 0,
      delegation_count: tx.delegations.length,
      stake_cert_count: tx.stakeRegistrations,
      pool_update_count: tx.height === 0 && tx.index === 0 ? book.all.length : tx.poolUpdates,
      pool_retire_count: retirementsOfTx(tx).length,
      asset_mint_or_burn_count: tx.mints,
      redeemer_count: tx.redeemers,
      valid_contract: true,
      treasury_donation: '0',
    };
  };

  const utxosObject = (tx: SimTx, tip: number): TxUtxos => ({
    hash: tx.hash,
    inputs: tx.inputs.map((i): TxInput => ({
      address: addressText(i.output.address),
      amount: outputAmounts(i.output),
      tx_hash: i.txHash,
      output_index: i.outputIndex,
      data_hash: i.output.dataHash,
      inline_datum: i.output.inlineDatum,
      reference_script_hash: null,
      collateral: false,
      reference: false,
    })),
    outputs: tx.outputs.map((o, outputIndex): TxOutput => ({
      address: addressText(o.address),
      amount: outputAmounts(o),
      output_index: outputIndex,
      data_hash: o.dataHash,
      inline_datum: o.inlineDatum,
      collateral: false,
      reference_script_hash: null,
      consumed_by_tx: o.consumedBy && o.consumedBy.height <= tip ? ctx.txHash(o.consumedBy.height, o.consumedBy.index) : null,
    })),
  });

  const delegationObjects = (tx: SimTx): TxDelegation[] =>
    tx.delegations.map((d, i) => {
      const certIndex = tx.stakeRegistrations > 0 ? i + tx.stakeRegistrations : i;
      return {
        index: certIndex,
        cert_index: certIndex,
        address: world.wallets[d.wallet]!.stakeAddress!,
        pool_id: world.pools[d.pool]!.id,
        active_epoch: epochOf(tx.height) + 2,
      };
    });

  const detailsObject = (tx: SimTx, tip: number): TxDetails => {
    const utxos = utxosObject(tx, tip);
    return {
      tx: txObject(tx),
      inputs: utxos.inputs,
      outputs: utxos.outputs,
      delegations: delegationObjects(tx).map((d): TxDelegationWithPool => ({ ...d, pool: poolObject(world.poolByKey.get(d.pool_id)!, tip) })),
    };
  };
  /** A background script spend's redeemers: one per input (all at the script's address), in sorted-input order. */
  const simRedeemers = (tx: SimTx): TxRedeemer[] => {
    if (tx.redeemers === 0) return [];
    const inputs = sortedInputs(tx.inputs);
    return inputs.slice(0, tx.redeemers).map((input, i): TxRedeemer => {
      const units = backgroundRedeemerUnits(key, tx, i, ctx.params.protocol);
      return {
        tx_index: i,
        purpose: 'spend',
        script_hash: parseShelleyAddress(addressText(input.output.address))!.paymentHash,
        redeemer_data_hash: BACKGROUND_REDEEMER_DATA_HASH,
        datum_hash: BACKGROUND_REDEEMER_DATA_HASH,
        unit_mem: String(units.mem),
        unit_steps: String(units.steps),
        fee: String(units.fee),
      };
    });
  };
  return { txObject, utxosObject, delegationObjects, detailsObject, simRedeemers };
}

/** Live transactions (the ledger's). */
function liveTxModel(ctx: ChainContext, pools: PoolModel) {
  const { hashes, ledger, slotOf, timeOf, epochOf, poolById, liveIndex } = ctx;
  const { poolObject } = pools;

  const liveAmounts = (o: LiveOutput): Amount[] => amounts(o.lovelace, o.assets);
  const liveTxObject = (t: LiveTx): Tx => {
    let lovelace = 0n;
    const assets = new Map<string, bigint>();
    for (const o of t.outputs) {
      lovelace += o.lovelace;
      for (const [unit, q] of o.assets) assets.set(unit, (assets.get(unit) ?? 0n) + q);
    }
    return {
      hash: t.hash,
      block: hashes.block(t.height),
      block_height: t.height,
      block_time: timeOf(t.height),
      slot: slotOf(t.height),
      index: liveIndex(t),
      output_amount: amounts(lovelace, [...assets.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))),
      fees: String(t.fee),
      deposit: String(t.deposit),
      size: t.size,
      invalid_before: t.invalidBefore === null ? null : String(t.invalidBefore),
      invalid_hereafter: t.invalidHereafter === null ? null : String(t.invalidHereafter),
      utxo_count: t.inputs.length + t.outputs.length,
      withdrawal_count: t.withdrawals.length,
      mir_cert_count: 0,
      delegation_count: t.certs.filter((c) => c.kind === 'delegation').length,
      stake_cert_count: t.certs.filter((c) => c.kind !== 'delegation').length,
      pool_update_count: 0,
      pool_retire_count: 0,
      asset_mint_or_burn_count: t.mint.size,
      redeemer_count: t.redeemers.length,
      valid_contract: t.validContract,
      treasury_donation: '0',
    };
  };
  const liveUtxosObject = (t: LiveTx): TxUtxos => ({
    hash: t.hash,
    inputs: t.inputs.map((i): TxInput => {
      const o = ledger.outputOf(i.txHash, i.outputIndex)!;
      return {
        address: o.address, amount: liveAmounts(o), tx_hash: i.txHash, output_index: i.outputIndex, data_hash: o.dataHash,
        inline_datum: o.inlineDatum, reference_script_hash: o.referenceScriptHash, collateral: !t.validContract, reference: false,
      };
    }),
    outputs: t.outputs.map((o, i): TxOutput => ({
      address: o.address, amount: liveAmounts(o), output_index: t.outputOffset + i, data_hash: o.dataHash, inline_datum: o.inlineDatum,
      collateral: !t.validContract, reference_script_hash: o.referenceScriptHash, consumed_by_tx: ledger.spentBy(t.hash, t.outputOffset + i),
    })),
  });
  const liveDelegations = (t: LiveTx): TxDelegation[] =>
    t.certs.filter((c) => c.kind === 'delegation').map((c) => ({
      index: c.certIndex, cert_index: c.certIndex, address: c.stakeAddress, pool_id: c.pool!, active_epoch: epochOf(t.height) + 2,
    }));
  const liveDetails = (t: LiveTx, tip: number): TxDetails => {
    const utxos = liveUtxosObject(t);
    return {
      tx: liveTxObject(t),
      inputs: utxos.inputs,
      outputs: utxos.outputs,
      delegations: liveDelegations(t).map((d): TxDelegationWithPool => ({ ...d, pool: poolObject(poolById(d.pool_id)!, tip) })),
    };
  };
  const liveRedeemerCache = new Map<string, TxRedeemer[]>();
  const liveRedeemers = (t: LiveTx): TxRedeemer[] => {
    let hit = liveRedeemerCache.get(t.hash);
    if (!hit) {
      const scripts = redeemerScripts(t, (h, i) => ledger.outputOf(h, i));
      hit = t.redeemers.map((r, i) => liveRedeemer(r, scripts[i]!, ctx.params.protocol));
      liveRedeemerCache.set(t.hash, hit);
    }
    return hit;
  };
  return { liveTxObject, liveUtxosObject, liveDelegations, liveDetails, liveRedeemers };
}
export type TxModel = ReturnType<typeof txModel>;

/** The chain's queries behind /txs. */
export interface TxQueries {
  tx(hash: string): Tx | null;
  txUtxos(hash: string): TxUtxos | null;
  txDelegations(hash: string): TxDelegation[] | null;
  txDetails(hash: string): TxDetails | null;
  txMetadata(hash: string): Array<{ label: string; json_metadata: unknown }> | null;
  txMetadataCbor(hash: string): Array<{ label: string; cbor_metadata: string | null; metadata: string | null }> | null;
  txStakes(hash: string): TxStakeCert[] | null;
  txWithdrawals(hash: string): Array<{ address: string; amount: string }> | null;
  txMirs(hash: string): Array<{ pot: 'reserve' | 'treasury'; cert_index: number; address: string; amount: string }> | null;
  txPoolUpdates(hash: string): TxPoolUpdate[] | null;
  txPoolRetires(hash: string): Array<{ cert_index: number; pool_id: string; retiring_epoch: number }> | null;
  txRedeemers(hash: string): TxRedeemer[] | null;
  txRequiredSigners(hash: string): Array<{ witness_hash: string }> | null;
  /** The bytes a live transaction was submitted as, a background transaction's CBOR (tx-cbor.ts); null for an unknown one. */
  txCbor(hash: string): { cbor: string } | null;
}

export function txPaths(ctx: ChainContext, pools: PoolModel, txs: TxModel): TxQueries {
  const { world, book, ledger, nutlink, tipHeight, resolveTx } = ctx;
  const { retirementsOfTx } = pools;
  const { txObject, utxosObject, delegationObjects, detailsObject, liveTxObject, liveUtxosObject, liveDelegations, liveDetails, liveRedeemers, simRedeemers } = txs;
  const paths: TxQueries = {
    tx(hash) {
      const live = ledger.tx(hash);
      if (live) return liveTxObject(live);
      const t = resolveTx(hash, tipHeight());
      return t ? txObject(t) : null;
    },
    txUtxos(hash) {
      const live = ledger.tx(hash);
      if (live) return liveUtxosObject(live);
      const tip = tipHeight();
      const t = resolveTx(hash, tip);
      return t ? utxosObject(t, tip) : null;
    },
    txDelegations(hash) {
      const live = ledger.tx(hash);
      if (live) return liveDelegations(live);
      const t = resolveTx(hash, tipHeight());
      return t ? delegationObjects(t) : null;
    },
    txDetails(hash) {
      const tip = tipHeight();
      const live = ledger.tx(hash);
      if (live) return liveDetails(live, tip);
      const t = resolveTx(hash, tip);
      return t ? detailsObject(t, tip) : null;
    },
    txMetadata(hash) {
      const live = ledger.tx(hash);
      if (live) return live.metadata.map((m) => ({ label: m.label, json_metadata: m.json }));
      const t = resolveTx(hash, tipHeight());
      return t ? nutlink.worldMetadata(t.height, t.index).map((m) => ({ label: m.label, json_metadata: m.json })) : null;
    },
    txMetadataCbor(hash) {
      const live = ledger.tx(hash);
      if (live) return live.metadata.map((m) => ({ label: m.label, cbor_metadata: `\\x${m.cbor}`, metadata: m.cbor }));
      const t = resolveTx(hash, tipHeight());
      if (!t) return null;
      return nutlink.worldMetadata(t.height, t.index).map((m) => {
        const cbor = nutlink.cborOf(m.json);
        return { label: m.label, cbor_metadata: `\\x${cbor}`, metadata: cbor };
      });
    },
    txStakes(hash) {
      const live = ledger.tx(hash);
      if (live) return live.certs.filter((c) => c.kind !== 'delegation').map((c) => ({ cert_index: c.certIndex, address: c.stakeAddress, registration: c.kind === 'registration' }));
      const t = resolveTx(hash, tipHeight());
      if (!t) return null;
      return t.stakeRegistrations > 0 ? t.delegations.map((d) => ({ cert_index: 0, address: world.wallets[d.wallet]!.stakeAddress!, registration: true })) : [];
    },
    txWithdrawals(hash) {
      const live = ledger.tx(hash);
      if (live) return live.withdrawals.map((w) => ({ address: w.stakeAddress, amount: String(w.amount) }));
      const t = resolveTx(hash, tipHeight());
      return t ? t.withdrawals.map((w) => ({ address: world.wallets[w.wallet]!.stakeAddress!, amount: String(w.amount) })) : null;
    },
    txMirs(hash) {
      return ledger.tx(hash) || resolveTx(hash, tipHeight()) ? [] : null;
    },
    txPoolUpdates(hash) {
      if (ledger.tx(hash)) return [];
      const t = resolveTx(hash, tipHeight());
      if (!t) return null;
      if (t.height !== 0 || t.index !== 0) return [];
      return book.all.map((pool, i): TxPoolUpdate => {
        const m = book.metadata(pool);
        return {
          cert_index: i, pool_id: pool.id, vrf_key: pool.vrfKeyHash, pledge: String(pool.pledge), margin_cost: pool.margin, fixed_cost: String(pool.fixedCost),
          reward_account: pool.rewardAccount, owners: [pool.rewardAccount],
          metadata: { url: m.url, hash: m.hash, ticker: m.ticker, name: m.name, description: m.description, homepage: m.homepage },
          relays: book.relays(pool), active_epoch: 2,
        };
      });
    },
    txPoolRetires(hash) {
      if (ledger.tx(hash)) return [];
      const t = resolveTx(hash, tipHeight());
      return t ? retirementsOfTx(t).map((r) => ({ cert_index: r.certIndex, pool_id: r.pool.id, retiring_epoch: r.retiringEpoch })) : null;
    },
    txRedeemers(hash) {
      const live = ledger.tx(hash);
      if (live) return liveRedeemers(live);
      const t = resolveTx(hash, tipHeight());
      return t ? simRedeemers(t) : null;
    },
    txRequiredSigners(hash) {
      const live = ledger.tx(hash);
      if (live) return requiredSigners(live);
      // Background transactions are simulated without required signers.
      return resolveTx(hash, tipHeight()) ? [] : null;
    },
    txCbor(hash) {
      const live = ledger.tx(hash);
      if (live) return { cbor: live.cbor };
      const t = resolveTx(hash, tipHeight());
      return t ? { cbor: ctx.txCbor(t) } : null;
    },
  };
  return paths;
}
