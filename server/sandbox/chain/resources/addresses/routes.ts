// `/addresses/*`: an address's balance, outputs, transactions and totals.
import type { Request, Router } from 'express';
import type { ChainBasics } from '../../params';
import type { AddressQueries } from './queries';
import { addressParam, assetParam, boundsQuery } from '../../../../blockfrost/contract';
import { found, ordered, param } from '../../route-kit';

export function mountAddressRoutes(router: Router, chain: AddressQueries & ChainBasics): void {
  const address = (req: Request): string => addressParam(param(req, 'address'), chain.network);
  router.get('/addresses/:address', (req, res) => {
    res.json(found(chain.address(address(req))));
  });
  router.get('/addresses/:address/transactions', (req, res) => {
    const a = address(req);
    const page = ordered(req);
    res.json(found(chain.addressTransactions(a, { ...page, ...boundsQuery(req.query) })));
  });
  router.get('/addresses/:address/extended', (req, res) => {
    res.json(found(chain.addressExtended(address(req))));
  });
  router.get('/addresses/:address/utxos', (req, res) => {
    const a = address(req);
    res.json(found(chain.addressUtxos(a, ordered(req))));
  });
  router.get('/addresses/:address/utxos/:asset', (req, res) => {
    const a = address(req);
    const unit = assetParam(param(req, 'asset'), true);
    res.json(found(chain.addressUtxos(a, ordered(req), unit)));
  });
  router.get('/addresses/:address/total', (req, res) => {
    res.json(found(chain.addressTotal(address(req))));
  });
  router.get('/addresses/:address/txs', (req, res) => {
    const a = address(req);
    const page = ordered(req);
    res.json(found(chain.addressTransactions(a, { ...page, ...boundsQuery(req.query) })).map((r) => r.tx_hash));
  });
}
