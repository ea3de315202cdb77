import type { Router } from 'express';
import { route, type RouteDeps } from '../../http/route';
import type { QuotaDto } from '../../../shared/workspaces';
import { getQuota } from './quota';

export function registerQuotaRoutes(router: Router, deps: RouteDeps): void {
  const { db } = deps;
  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/quota',
    permission: { workspace: 'workspace.view' },
    handler: ({ membership }): Promise<QuotaDto> => getQuota(db, membership.ownerId, deps.config.ipfs.gcGraceMs, Date.now(), membership.workspaceId),
  });
}
