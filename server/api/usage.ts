import type { Router } from 'express';
import { route, type RouteDeps } from '../http/route';
import { projectHistory, statsOfProject } from '../services/usage';
import { privateNetworkRequests } from '../services/private-network';
import { projectInsight } from '../services/insight';
import { projectInsightSchema } from '../../shared/insight';

/** Project statistics and history: members of the project's workspace only (route() resolves it). */
export function registerUsageRoutes(router: Router, deps: RouteDeps): void {
  const { db } = deps;

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:workspaceId/projects/:projectUuid/stats',
    permission: { project: 'projects.view' },
    handler: async ({ membership, project }) => {
      // After the stats: reading them moves the project's 30-day window, which this count reads too.
      const stats = await statsOfProject(db, project, membership.ownerId);
      return { ...stats, privateNetworkRequests: await privateNetworkRequests(db, project.id) };
    },
  });

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:workspaceId/projects/:projectUuid/insight',
    permission: { project: 'projects.view' },
    summary: "Request insight: latency percentiles and errors by status class over 30 days, today by the hour, the recent failed requests",
    response: projectInsightSchema,
    handler: ({ project }) => projectInsight(db, project.id),
  });

  // Answers {data: [{time, requestCount}], max}: the spec's history shape is itself the envelope.
  route(router, deps, {
    method: 'get',
    path: '/projects/:projectUuid/history',
    permission: { project: 'projects.view' },
    handler: async ({ project, res }) => {
      res.json(await projectHistory(db, project.id));
    },
  });
}
