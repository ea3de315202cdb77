import type { Router } from 'express';
import { route, type RouteDeps } from '../../http/route';
import { projectHistory, statsOfProject } from './usage';
import { projectInsight } from './insight';
import { projectInsightSchema } from '../../../shared/insight';

/** Project statistics and history: members of the project's workspace only (route() resolves it). */
export function registerUsageRoutes(router: Router, deps: RouteDeps): void {
  const { db } = deps;

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:workspaceId/projects/:projectUuid/stats',
    permission: { project: 'projects.view' },
    // The answer includes privateNetworkRequests, read with the TOP 10s (after the window moved).
    handler: async ({ membership, project }) => statsOfProject(db, project, membership.ownerId),
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
