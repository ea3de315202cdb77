// `/metadata/txs/labels/*`: the metadata labels and each label's transactions.
import type { Router } from 'express';
import type { MetadataQueries } from './queries';
import { labelParam } from '../../../../blockfrost/contract';
import { found, ordered, param } from '../../route-kit';
import { sliced } from '../../budget';

export function mountMetadataRoutes(router: Router, chain: MetadataQueries): void {
  router.get('/metadata/txs/labels', (req, res) => {
    res.json(chain.metadataLabels(ordered(req)));
  });
  // A page of the oracle's data points hashes their distributions: in time slices (budget.ts).
  router.get('/metadata/txs/labels/:label', async (req, res) => {
    const [label, page] = [labelParam(param(req, 'label')), ordered(req)];
    res.json(found(await sliced(() => chain.metadataLabel(label, page))));
  });
  router.get('/metadata/txs/labels/:label/cbor', async (req, res) => {
    const [label, page] = [labelParam(param(req, 'label')), ordered(req)];
    res.json(await sliced(() => chain.metadataLabelCbor(label, page)));
  });
}
