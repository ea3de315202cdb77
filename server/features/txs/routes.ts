import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route';
import { DEFAULT_TX_CONFIRMATIONS, MAX_TX_CONFIRMATIONS } from '../../../shared/txs';
import { recentSubmissions } from './store';

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
  const confirmationsOf = async (projectId: number): Promise<number> => {
    const row = await db('projects').where({ id: projectId }).first('tx_confirmations');
    return row?.tx_confirmations ?? DEFAULT_TX_CONFIRMATIONS;
  };

  route(router, deps, {
    method: 'get',
    path: '/projects/:projectId/txs',
    permission: { project: 'projects.view' },
    summary: "The project's latest transactions submitted through the gateway, newest first, with their state.",
    handler: async ({ project }) => ({ confirmations: await confirmationsOf(project.id), txs: await recentSubmissions(db, project.id) }),
  });

  route(router, deps, {
    method: 'put',
    path: '/projects/:projectId/tx-confirmations',
    permission: { project: 'projects.update' },
    body: confirmationsSchema,
    summary: 'Sets the blocks that confirm the transactions the project submits from now on.',
    handler: async ({ project, body }) => {
      await db('projects').where({ id: project.id }).update({ tx_confirmations: body.confirmations, updated_at: Date.now() });
      return { confirmations: body.confirmations };
    },
  });
}
