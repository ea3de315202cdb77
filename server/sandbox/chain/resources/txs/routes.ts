// `/txs/*`: a transaction, its outputs, certificates, withdrawals, metadata, redeemers, signers and CBOR.
import type { Router } from 'express';
import type { TxQueries } from './queries';
import { found, txHash } from '../../route-kit';
import { sliced } from '../../budget';

export function mountTxRoutes(router: Router, chain: TxQueries): void {
  const byHash = {
    '': (h: string) => chain.tx(h),
    utxos: (h: string) => chain.txUtxos(h),
    delegations: (h: string) => chain.txDelegations(h),
    metadata: (h: string) => chain.txMetadata(h),
    'metadata/cbor': (h: string) => chain.txMetadataCbor(h),
    stakes: (h: string) => chain.txStakes(h),
    withdrawals: (h: string) => chain.txWithdrawals(h),
    mirs: (h: string) => chain.txMirs(h),
    pool_updates: (h: string) => chain.txPoolUpdates(h),
    pool_retires: (h: string) => chain.txPoolRetires(h),
    redeemers: (h: string) => chain.txRedeemers(h),
    required_signers: (h: string) => chain.txRequiredSigners(h),
    cbor: (h: string) => chain.txCbor(h),
  } satisfies Record<string, (hash: string) => unknown>;
  for (const [sub, answer] of Object.entries(byHash)) {
    // A hash this process has not simulated is looked up in the sweep's index (another thread),
    // then its segment simulated: in time slices (budget.ts).
    router.get(sub === '' ? '/txs/:hash' : `/txs/:hash/${sub}`, async (req, res) => {
      const hash = txHash(req);
      res.json(found(await sliced(() => answer(hash))));
    });
  }
}
