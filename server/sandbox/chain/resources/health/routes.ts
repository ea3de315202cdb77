// `/`, `/health` and `/health/clock`: the API's root and the backend's liveness and clock.
import type { Router } from 'express';
import type { ChainBasics } from '../../params';

export function mountHealthRoutes(router: Router, chain: ChainBasics, root: { url?: string; version: string }): void {
  router.get('/', (req, res) => {
    res.json({ url: root.url ?? `${req.protocol}://${req.get('host') ?? 'localhost'}${req.baseUrl}/`, version: root.version });
  });
  router.get('/health', (_req, res) => {
    res.json({ is_healthy: true });
  });
  router.get('/health/clock', (_req, res) => {
    res.json({ server_time: chain.now() });
  });
}
