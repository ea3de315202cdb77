import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../http/route';
import type { CustomerSettings } from '../../shared/workspaces';

export function registerSettingsRoutes(router: Router, deps: RouteDeps): void {
  const { db } = deps;
  const read = async (userId: number): Promise<CustomerSettings> => {
    const row = await db('user_settings').where({ user_id: userId }).first('marketing_consent');
    return { marketing_consent: row?.marketing_consent === null || row === undefined ? null : Boolean(row.marketing_consent) };
  };

  route(router, deps, {
    method: 'get',
    path: '/customer/settings',
    permission: 'signedIn',
    handler: ({ user }) => read(user!.id),
  });

  route(router, deps, {
    method: 'put',
    path: '/customer/settings',
    permission: 'signedIn',
    body: z.object({ marketing_consent: z.boolean({ error: 'marketing_consent must be true or false' }) }),
    handler: async ({ user, body }) => {
      const now = Date.now();
      await db('user_settings')
        .insert({ user_id: user!.id, marketing_consent: body.marketing_consent, updated_at: now })
        .onConflict('user_id')
        .merge({ marketing_consent: body.marketing_consent, updated_at: now });
      return read(user!.id);
    },
  });
}
