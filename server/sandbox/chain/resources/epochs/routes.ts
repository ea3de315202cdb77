// `/epochs/*`: an epoch, its neighbours, parameters, stake distribution and blocks.
import type { Request, Router } from 'express';
import type { ChainBasics } from '../../params';
import type { EpochQueries } from './queries';
import { epochNumberParam, poolIdParam } from '../../../../blockfrost/contract';
import { found, ordered, param, unordered } from '../../route-kit';
import { sliced } from '../../budget';

export function mountEpochRoutes(router: Router, chain: EpochQueries & ChainBasics): void {
  const epoch = (req: Request): number => epochNumberParam(param(req, 'number'));
  const poolId = (req: Request): string => poolIdParam(param(req, 'pool_id'));
  router.get('/epochs/latest', (_req, res) => {
    res.json(chain.latestEpoch());
  });
  router.get('/epochs/:number', (req, res) => {
    res.json(found(chain.epoch(epoch(req))));
  });
  router.get('/epochs/latest/parameters', (_req, res) => {
    res.json(found(chain.parameters(chain.epochOfHeight(chain.tipHeight()))));
  });
  router.get('/epochs/:number/parameters', (req, res) => {
    res.json(found(chain.parameters(epoch(req))));
  });
  // A page of a hundred epochs simulates their blocks: in time slices, so other requests go on meanwhile.
  router.get('/epochs/:number/next', async (req, res) => {
    const [n, page] = [epoch(req), unordered(req)];
    res.json(found(await sliced(() => chain.epochNext(n, page))));
  });
  router.get('/epochs/:number/previous', async (req, res) => {
    const [n, page] = [epoch(req), unordered(req)];
    res.json(found(await sliced(() => chain.epochPrevious(n, page))));
  });
  router.get('/epochs/:number/stakes', (req, res) => {
    res.json(found(chain.epochStakes(epoch(req), unordered(req))));
  });
  router.get('/epochs/:number/stakes/:pool_id', (req, res) => {
    const n = epoch(req);
    res.json(found(chain.epochPoolStakes(n, poolId(req), unordered(req))));
  });
  router.get('/epochs/:number/blocks', (req, res) => {
    res.json(found(chain.epochBlocks(epoch(req), ordered(req))));
  });
  router.get('/epochs/:number/blocks/:pool_id', (req, res) => {
    const n = epoch(req);
    res.json(found(chain.epochPoolBlocks(n, poolId(req), ordered(req))));
  });
}
