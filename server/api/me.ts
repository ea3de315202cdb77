import type { Router } from 'express';
import { route, type RouteDeps } from '../http/route';
import type { Me } from '../../shared/api';
import { isOperator } from '../services/operators';

export function registerMeRoutes(router: Router, deps: RouteDeps): void {
  route(router, deps, {
    method: 'get',
    path: '/me',
    permission: 'signedIn',
    handler: ({ user }): Me => ({ id: user!.id, email: user!.email, is_operator: isOperator(deps.config, user!.email) }),
  });
}
