// `/pools/*`: the pool lists, a pool, its history, metadata, relays, delegators, blocks, updates and votes.
import type { Request, Router } from 'express';
import type { PoolQueries } from './queries';
import type { GovernanceQueries } from '../governance/queries';
import { POOL_ID_MESSAGE, poolIdHex, poolIdParam } from '../../../../blockfrost/contract';
import { badRequest } from '../../../../blockfrost/http';
import { found, ordered, param } from '../../route-kit';
import { sliced } from '../../budget';

export function mountPoolRoutes(router: Router, chain: PoolQueries & GovernanceQueries): void {
  const poolId = (req: Request): string => poolIdParam(param(req, 'pool_id'));
  router.get('/pools/extended', (req, res) => {
    res.json(chain.poolsExtended(ordered(req)));
  });
  router.get('/pools/:pool_id', (req, res, next) => {
    const id = param(req, 'pool_id');
    // The lists under /pools, below.
    if (id === 'retired' || id === 'retiring') return next();
    res.json(found(chain.pool(poolIdParam(id))));
  });
  router.get('/pools', (req, res) => {
    res.json(chain.pools(ordered(req)));
  });
  router.get('/pools/retired', (req, res) => {
    res.json(chain.poolsRetired(ordered(req)));
  });
  router.get('/pools/retiring', (req, res) => {
    res.json(chain.poolsRetiring(ordered(req)));
  });
  const lists = {
    history: (id: string, req: Request) => chain.poolHistory(id, ordered(req)),
    metadata: (id: string) => chain.poolMetadata(id),
    relays: (id: string) => chain.poolRelays(id),
    delegators: (id: string, req: Request) => chain.poolDelegators(id, ordered(req)),
    blocks: (id: string, req: Request) => chain.poolBlocks(id, ordered(req)),
    updates: (id: string, req: Request) => chain.poolUpdates(id, ordered(req)),
  } satisfies Record<string, (id: string, req: Request) => unknown>;
  for (const [sub, answer] of Object.entries(lists)) {
    router.get(`/pools/:pool_id/${sub}`, (req, res) => {
      res.json(found(answer(poolId(req), req)));
    });
  }
  router.get('/pools/:pool_id/votes', async (req, res) => {
    const hex = poolIdHex(param(req, 'pool_id'));
    if (hex === null) throw badRequest(POOL_ID_MESSAGE);
    const page = ordered(req);
    res.json(found(await sliced(() => chain.governance().poolVotes(hex, page))));
  });
}
