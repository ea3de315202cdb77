import type { Router } from 'express';
import { route, type RouteDeps } from '../../http/route';
import { networkOptions, type NetworkOptionDto } from '../../../shared/networks';

/**
 * GET /api/networks (public): which networks this server can serve, for the Add Project form.
 * `served` says whether a gateway slug has a backend right now (community endpoints come and go).
 */
export function registerNetworkRoutes(router: Router, deps: RouteDeps, served: (slug: string) => boolean): void {
  route(router, deps, {
    method: 'get',
    path: '/networks',
    permission: 'public',
    handler: ({ res }): NetworkOptionDto[] => {
      res.set('Cache-Control', 'no-cache');
      return networkOptions(served);
    },
  });
}
