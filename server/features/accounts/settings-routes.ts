import type { Router } from 'express';
import { customerSettingsSchema } from '../../../shared/workspaces';
import { route, type RouteDeps } from '../../http/route';
import { getCustomerSettings, setMarketingConsent } from './settings';

export function registerSettingsRoutes(router: Router, deps: RouteDeps): void {
  const { db } = deps;

  route(router, deps, {
    method: 'get',
    path: '/customer/settings',
    permission: 'signedIn',
    handler: ({ user }) => getCustomerSettings(db, user!.id),
  });

  route(router, deps, {
    method: 'put',
    path: '/customer/settings',
    permission: 'signedIn',
    body: customerSettingsSchema,
    handler: ({ user, body }) => setMarketingConsent(db, user!.id, body.marketing_consent),
  });
}
