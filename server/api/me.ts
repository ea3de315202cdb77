import type { Router } from 'express';
import { route, type RouteDeps } from '../http/route';
import type { Me } from '../../shared/api';

export function registerMeRoutes(router: Router, deps: RouteDeps): void {
  route(router, deps, {
    method: 'get',
    path: '/me',
    permission: 'signedIn',
    handler: ({ user }): Me => ({ id: user!.id, email: user!.email }),
  });
}
