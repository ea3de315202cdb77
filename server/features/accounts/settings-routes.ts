import type { Router } from 'express';
import { z } from 'zod';
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
    body: z.object({ marketing_consent: z.boolean({ error: 'marketing_consent must be true or false' }) }),
    handler: ({ user, body }) => setMarketingConsent(db, user!.id, body.marketing_consent),
  });
}
