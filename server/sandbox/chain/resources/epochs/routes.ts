// `/epochs/*`: an epoch, its neighbours, parameters, stake distribution and blocks.
import type { Request, Router } from 'express';
import type { ChainBasics } from '../../params';
import type { EpochQueries } from './queries';
import { epochNumberParam, poolIdParam } from '../../../../blockfrost/contract';
import { found, ordered, param, unordered } from '../../route-kit';

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
  router.get('/epochs/:number/next', (req, res) => {
    res.json(found(chain.epochNext(epoch(req), unordered(req))));
  });
  router.get('/epochs/:number/previous', (req, res) => {
    res.json(found(chain.epochPrevious(epoch(req), unordered(req))));
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
