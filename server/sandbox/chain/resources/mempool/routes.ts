// `/mempool/*`: accepted transactions waiting for the next block.
import type { Router } from 'express';
import type { ChainBasics } from '../../params';
import type { MempoolQueries } from './queries';
import { addressParam } from '../../../../blockfrost/contract';
import { found, ordered, param, txHash } from '../../route-kit';

export function mountMempoolRoutes(router: Router, chain: MempoolQueries & ChainBasics): void {
  router.get('/mempool', (req, res) => {
    res.json(chain.mempool(ordered(req)));
  });
  router.get('/mempool/addresses/:address', (req, res) => {
    const address = addressParam(param(req, 'address'), chain.network);
    res.json(chain.mempoolOfAddress(address, ordered(req)));
  });
  router.get('/mempool/:hash', (req, res) => {
    res.json(found(chain.mempoolTx(txHash(req))));
  });
}
