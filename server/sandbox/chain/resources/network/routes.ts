// `/genesis`, `/network` and `/network/eras`.
import type { Router } from 'express';
import type { NetworkQueries } from './queries';

export function mountNetworkRoutes(router: Router, chain: NetworkQueries): void {
  router.get('/genesis', (_req, res) => {
    res.json(chain.genesis());
  });
  router.get('/network', (_req, res) => {
    res.json(chain.networkInfo());
  });
  router.get('/network/eras', (_req, res) => {
    res.json(chain.eras());
  });
}
