import type { Router } from 'express';
import { route, type RouteDeps } from '../../http/route';
import type { StatusReport } from '../../../shared/status';

/** GET /api/status: the public status page's data (no address, key or other internal detail). */
export function registerStatusRoutes(router: Router, deps: RouteDeps, report: () => Promise<StatusReport>): void {
  route(router, deps, {
    method: 'get',
    path: '/status',
    permission: 'public',
    summary: 'Whether the gateway, the webhook worker, the database and each network backend answer',
    handler: ({ res }) => {
      res.set('Cache-Control', 'no-store');
      return report();
    },
  });
}
