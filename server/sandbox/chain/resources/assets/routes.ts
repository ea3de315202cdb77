// `/assets/*`: the asset list, an asset, its policy's assets, holders, history, transactions and outputs.
import type { Request, Router } from 'express';
import type { AssetQueries } from './queries';
import { assetParam, boundsQuery, heightBoundsQuery, policyParam } from '../../../../blockfrost/contract';
import { found, ordered, param } from '../../route-kit';
import { sliced } from '../../budget';

export function mountAssetRoutes(router: Router, chain: AssetQueries): void {
  const unit = (req: Request): string => assetParam(param(req, 'asset')).toLowerCase();
  router.get('/assets/:asset', (req, res) => {
    res.json(found(chain.asset(assetParam(param(req, 'asset')))));
  });
  router.get('/assets', (req, res) => {
    res.json(chain.assets(ordered(req)));
  });
  router.get('/assets/policy/:policy_id', (req, res) => {
    const policy = policyParam(param(req, 'policy_id'));
    res.json(found(chain.assetsOfPolicy(policy, ordered(req))));
  });
  router.get('/assets/:asset/addresses', (req, res) => {
    const u = assetParam(param(req, 'asset'));
    res.json(found(chain.assetAddresses(u, ordered(req))));
  });
  // A page of a world asset's re-mints hashes their distributions: in time slices (budget.ts).
  router.get('/assets/:asset/history', async (req, res) => {
    const [u, page] = [unit(req), ordered(req)];
    res.json(found(await sliced(() => chain.assetHistory(u, page))));
  });
  router.get('/assets/:asset/transactions', (req, res) => {
    const u = unit(req);
    res.json(found(chain.assetTransactions(u, { ...ordered(req), ...boundsQuery(req.query) })));
  });
  router.get('/assets/:asset/txs', (req, res) => {
    const u = unit(req);
    res.json(found(chain.assetTransactions(u, { ...ordered(req), ...boundsQuery(req.query) })).map((r) => r.tx_hash));
  });
  router.get('/assets/:asset/utxos', (req, res) => {
    const u = unit(req);
    const page = ordered(req);
    res.json(found(chain.assetUtxos(u, { ...page, ...heightBoundsQuery(req.query) })));
  });
}
