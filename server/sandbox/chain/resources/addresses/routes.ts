// `/addresses/*`: an address's balance, outputs, transactions and totals.
import type { Request, Router } from 'express';
import type { ChainBasics } from '../../params';
import type { AddressQueries } from './queries';
import { addressParam, assetParam, boundsQuery } from '../../../../blockfrost/contract';
import { found, ordered, param } from '../../route-kit';
import { sliced } from '../../budget';

// Every answer reads the UTXO set as of the tip or the address window's transactions, whose segments
// (and, the first time, the whole window's blocks) a call may have to simulate: in time slices (budget.ts).
export function mountAddressRoutes(router: Router, chain: AddressQueries & ChainBasics): void {
  const address = (req: Request): string => addressParam(param(req, 'address'), chain.network);
  router.get('/addresses/:address', async (req, res) => {
    const a = address(req);
    res.json(found(await sliced(() => chain.address(a))));
  });
  router.get('/addresses/:address/transactions', async (req, res) => {
    const a = address(req);
    const query = { ...ordered(req), ...boundsQuery(req.query) };
    res.json(found(await sliced(() => chain.addressTransactions(a, query))));
  });
  router.get('/addresses/:address/extended', async (req, res) => {
    const a = address(req);
    res.json(found(await sliced(() => chain.addressExtended(a))));
  });
  router.get('/addresses/:address/utxos', async (req, res) => {
    const a = address(req);
    const page = ordered(req);
    res.json(found(await sliced(() => chain.addressUtxos(a, page))));
  });
  router.get('/addresses/:address/utxos/:asset', async (req, res) => {
    const a = address(req);
    const page = ordered(req);
    const unit = assetParam(param(req, 'asset'), true);
    res.json(found(await sliced(() => chain.addressUtxos(a, page, unit))));
  });
  router.get('/addresses/:address/total', async (req, res) => {
    const a = address(req);
    res.json(found(await sliced(() => chain.addressTotal(a))));
  });
  router.get('/addresses/:address/txs', async (req, res) => {
    const a = address(req);
    const query = { ...ordered(req), ...boundsQuery(req.query) };
    res.json(found(await sliced(() => chain.addressTransactions(a, query))).map((r) => r.tx_hash));
  });
}
