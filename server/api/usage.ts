import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../http/route';
import { NotFound } from '../errors';
import { membershipOf } from '../services/workspaces';
import { findProjectRef } from '../services/projects';
import { projectHistory, statsOfProject } from '../services/usage';

const uuid = z.string().uuid('Project not found.');

/** Project statistics and history: members of the project's workspace only. */
export function registerUsageRoutes(router: Router, deps: RouteDeps): void {
  const { db } = deps;

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:workspaceId/projects/:projectUuid/stats',
    permission: { workspace: 'projects.view' },
    params: z.object({ workspaceId: z.string(), projectUuid: uuid }),
    handler: async ({ membership, params }) => statsOfProject(db, await findProjectRef(db, params.projectUuid, membership.workspaceId), membership.ownerId),
  });

  // Answers {data: [{time, requestCount}], max}: the spec's history shape is itself the envelope.
  route(router, deps, {
    method: 'get',
    path: '/projects/:projectUuid/history',
    permission: 'signedIn',
    params: z.object({ projectUuid: uuid }),
    handler: async ({ user, params, res }) => {
      const project = await findProjectRef(db, params.projectUuid);
      await membershipOf(db, project.workspaceId, user!.id).catch(() => {
        throw new NotFound('Project not found.');
      });
      res.json(await projectHistory(db, project.id));
    },
  });
}
