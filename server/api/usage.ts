import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../http/route';
import { NotFound } from '../errors';
import { membershipOf } from '../services/workspaces';
import { getSubscription } from '../services/subscriptions';
import { projectHistory, projectStats } from '../services/usage';

const uuid = z.string().uuid('Project not found.');

/** Project statistics and history: members of the project's workspace only. */
export function registerUsageRoutes(router: Router, deps: RouteDeps): void {
  const { db } = deps;

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:workspaceId/projects/:projectUuid/stats',
    permission: { workspace: 'projects.view' },
    params: z.object({ workspaceId: z.string(), projectUuid: uuid }),
    handler: async ({ membership, params }) => {
      const [project, { plan }] = await Promise.all([
        db('projects').where({ uuid: params.projectUuid, workspace_id: membership.workspaceId }).first('id'),
        getSubscription(db, membership.ownerId),
      ]);
      if (!project) throw new NotFound('Project not found.');
      return projectStats(db, project.id, plan.name);
    },
  });

  // Answers {data: [{time, requestCount}], max}: the spec's history shape is itself the envelope.
  route(router, deps, {
    method: 'get',
    path: '/projects/:projectUuid/history',
    permission: 'signedIn',
    params: z.object({ projectUuid: uuid }),
    handler: async ({ user, params, res }) => {
      const project = await db('projects').where({ uuid: params.projectUuid }).first('id', 'workspace_id');
      if (!project) throw new NotFound('Project not found.');
      await membershipOf(db, project.workspace_id, user!.id).catch(() => {
        throw new NotFound('Project not found.');
      });
      res.json(await projectHistory(db, project.id));
    },
  });
}
