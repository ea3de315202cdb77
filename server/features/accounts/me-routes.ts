import type { Router } from 'express';
import { route, type RouteDeps } from '../../http/route';
import type { Me } from '../../../shared/api';
import { isOperator } from './operators';

export function registerMeRoutes(router: Router, deps: RouteDeps): void {
  route(router, deps, {
    method: 'get',
    path: '/me',
    permission: 'signedIn',
    handler: ({ user }): Me => ({ id: user!.id, email: user!.email, is_operator: isOperator(deps.config, user!.email) }),
  });

  // Public pages ask who is signed in without provoking a 401 (and a console error) for visitors.
  route(router, deps, {
    method: 'get',
    path: '/session',
    permission: 'public',
    summary: 'The signed-in user, or null for a visitor',
    handler: ({ user }): Me | null => (user ? { id: user.id, email: user.email } : null),
  });
}
