// `/genesis`, `/network` and `/network/eras`.
import type { Router } from 'express';
import type { SandboxChain } from '../../api';

export function mountNetworkRoutes(router: Router, chain: SandboxChain): void {
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
