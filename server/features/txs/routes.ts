import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route';
import { MAX_TX_CONFIRMATIONS } from '../../../shared/txs';
import { projectTxConfirmations, recentSubmissions, setProjectTxConfirmations } from './store';

const confirmationsSchema = z.object({
  confirmations: z
    .number({ error: 'Confirmations must be a whole number of blocks.' })
    .int('Confirmations must be a whole number of blocks.')
    .min(1, 'Confirmations must be at least 1 block.')
    .max(MAX_TX_CONFIRMATIONS, `Confirmations must be at most ${MAX_TX_CONFIRMATIONS} blocks.`),
});

/** The project page's recent submissions, and the depth that confirms the project's transactions. */
export function registerTxRoutes(router: Router, deps: RouteDeps): void {
  const { db } = deps;
  route(router, deps, {
    method: 'get',
    path: '/projects/:projectId/txs',
    permission: { project: 'projects.view' },
    summary: "The project's latest transactions submitted through the gateway, newest first, with their state.",
    handler: async ({ project }) => ({ confirmations: await projectTxConfirmations(db, project.id), txs: await recentSubmissions(db, project.id) }),
  });

  route(router, deps, {
    method: 'put',
    path: '/projects/:projectId/tx-confirmations',
    permission: { project: 'projects.update' },
    body: confirmationsSchema,
    summary: 'Sets the blocks that confirm the transactions the project submits from now on.',
    handler: async ({ project, body }) => {
      await setProjectTxConfirmations(db, project.id, body.confirmations);
      return { confirmations: body.confirmations };
    },
  });
}
