// /mempool: accepted transactions waiting for the next block.
import type { ChainContext } from '../../context';
import { paginate } from '../../paging';
import type { Pagination } from '../../../../../shared/chain';
import type { TxModel } from '../txs/queries';
import type { LiveTx } from '../../ledger';
import { purposeName, type MempoolTx } from '../../txs';

/** The chain's queries behind /mempool. */
export interface MempoolQueries {
  /** Accepted transactions waiting for the next block, in the order they were accepted. */
  mempool(page?: Pagination): Array<{ tx_hash: string }>;
  mempoolTx(hash: string): MempoolTx | null;
  mempoolOfAddress(address: string, page?: Pagination): Array<{ tx_hash: string }>;
}

export function mempoolPaths(ctx: ChainContext, txs: TxModel): MempoolQueries {
  const { ledger } = ctx;
  const { liveTxObject, liveUtxosObject } = txs;
  const pendingTouches = (t: LiveTx, address: string): boolean =>
    t.outputs.some((o) => o.address === address) || t.inputs.some((i) => ledger.outputOf(i.txHash, i.outputIndex)?.address === address);
  const paths: MempoolQueries = {
    mempool(page) {
      return paginate(ledger.pending(), page).map((t) => ({ tx_hash: t.hash }));
    },
    mempoolTx(hash) {
      if (typeof hash !== 'string') return null;
      const t = ledger.pending().find((p) => p.hash === hash.toLowerCase());
      if (!t) return null;
      const full = liveTxObject(t);
      const utxos = liveUtxosObject(t);
      return {
        tx: {
          hash: full.hash, output_amount: full.output_amount, fees: full.fees, deposit: full.deposit, size: full.size, invalid_before: full.invalid_before,
          invalid_hereafter: full.invalid_hereafter, utxo_count: full.utxo_count, withdrawal_count: full.withdrawal_count, mir_cert_count: full.mir_cert_count,
          delegation_count: full.delegation_count, stake_cert_count: full.stake_cert_count, pool_update_count: full.pool_update_count,
          pool_retire_count: full.pool_retire_count, asset_mint_or_burn_count: full.asset_mint_or_burn_count, redeemer_count: full.redeemer_count,
          valid_contract: full.valid_contract,
        },
        inputs: utxos.inputs.map((i) => ({ address: i.address, tx_hash: i.tx_hash, output_index: i.output_index, collateral: i.collateral, reference: i.reference })),
        outputs: utxos.outputs.map(({ consumed_by_tx: _spent, ...o }) => o),
        redeemers: t.redeemers.map((r) => ({ tx_index: r.index, purpose: purposeName(r.purpose), unit_mem: String(r.memory), unit_steps: String(r.steps) })),
      };
    },
    mempoolOfAddress(address, page) {
      return paginate(ledger.pending().filter((t) => pendingTouches(t, address)), page).map((t) => ({ tx_hash: t.hash }));
    },
  };
  return paths;
}
