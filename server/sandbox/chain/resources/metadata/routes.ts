// `/metadata/txs/labels/*`: the metadata labels and each label's transactions.
import type { Router } from 'express';
import type { MetadataQueries } from './queries';
import { labelParam } from '../../../../blockfrost/contract';
import { found, ordered, param } from '../../route-kit';

export function mountMetadataRoutes(router: Router, chain: MetadataQueries): void {
  router.get('/metadata/txs/labels', (req, res) => {
    res.json(chain.metadataLabels(ordered(req)));
  });
  router.get('/metadata/txs/labels/:label', (req, res) => {
    const label = labelParam(param(req, 'label'));
    res.json(found(chain.metadataLabel(label, ordered(req))));
  });
  router.get('/metadata/txs/labels/:label/cbor', (req, res) => {
    const label = labelParam(param(req, 'label'));
    res.json(chain.metadataLabelCbor(label, ordered(req)));
  });
}
