// `/nutlink/*`: nut.link oracles, their tickers and data points.
import type { Request, Router } from 'express';
import type { ChainBasics } from '../../params';
import type { NutlinkQueries } from './queries';
import { shelleyAddressParam, tickerParam } from '../../../../blockfrost/contract';
import { found, ordered, param } from '../../route-kit';

export function mountNutlinkRoutes(router: Router, chain: NutlinkQueries & ChainBasics): void {
  const oracle = (req: Request): string => shelleyAddressParam(param(req, 'address'), chain.network);
  const ticker = (req: Request): string => tickerParam(param(req, 'ticker'));
  router.get('/nutlink/tickers/:ticker', (req, res) => {
    const t = ticker(req);
    res.json(found(chain.nutlinkTicker(t, ordered(req))));
  });
  router.get('/nutlink/:address', (req, res) => {
    res.json(found(chain.nutlinkAddress(oracle(req))));
  });
  router.get('/nutlink/:address/tickers', (req, res) => {
    const address = oracle(req);
    res.json(found(chain.nutlinkTickers(address, ordered(req))));
  });
  router.get('/nutlink/:address/tickers/:ticker', (req, res) => {
    const address = oracle(req);
    const t = ticker(req);
    res.json(found(chain.nutlinkAddressTicker(address, t, ordered(req))));
  });
}
