import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route';
import { findIpfsProjectId, projectIpfs } from './pins';
import type { IpfsProjectDto } from '../../../shared/ipfs';

/** An IPFS project's page: the subscription's storage against its limits, the project's pins, where they live. */
export function registerIpfsRoutes(router: Router, deps: RouteDeps): void {
  const { db, config } = deps;
  route(router, deps, {
    method: 'get',
    path: '/workspaces/:workspaceId/projects/:projectUuid/ipfs',
    permission: { workspace: 'projects.view' },
    params: z.object({ workspaceId: z.string(), projectUuid: z.string().uuid('Project not found.') }),
    query: z.object({
      page: z.coerce.number({ error: 'page must be a whole number from 1' }).int('page must be a whole number from 1').min(1, 'page must be a whole number from 1').default(1),
    }),
    handler: async ({ membership, params, query }): Promise<IpfsProjectDto> => {
      const projectId = await findIpfsProjectId(db, params.projectUuid, membership.workspaceId);
      const figures = await projectIpfs(db, projectId, membership.ownerId, { count: 20, page: query.page }, config.ipfs.gcGraceMs);
      return {
        store: config.gateway.upstreams.ipfs ? 'upstream' : config.ipfs.kuboApiUrl ? 'kubo' : 'embedded',
        filecoinProvider: config.ipfs.pinningService?.url ?? null,
        maxAddBytes: config.gateway.upstreams.ipfs ? null : config.ipfs.maxAddBytes,
        ...figures,
      };
    },
  });
}
