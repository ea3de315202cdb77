import type { Router } from 'express';
import { route, type RouteDeps } from '../../http/route';
import { txConfirmationsSchema, txResubmitSchema } from '../../../shared/txs';
import { auditBy } from '../audit/index';
import { projectTxConfirmations, projectTxResubmit, recentSubmissions, setProjectTxConfirmations, setProjectTxResubmit } from './store';

/** The project page's recent submissions, and the depth that confirms the project's transactions. */
export function registerTxRoutes(router: Router, deps: RouteDeps): void {
  const { db } = deps;
  route(router, deps, {
    method: 'get',
    path: '/projects/:projectId/txs',
    permission: { project: 'projects.view' },
    summary: "The project's latest transactions submitted through the gateway, newest first, with their state.",
    handler: async ({ project }) => ({ confirmations: await projectTxConfirmations(db, project.id), resubmit: await projectTxResubmit(db, project.id), txs: await recentSubmissions(db, project.id) }),
  });

  route(router, deps, {
    method: 'put',
    path: '/projects/:projectId/tx-confirmations',
    permission: { project: 'projects.update' },
    body: txConfirmationsSchema,
    summary: 'Sets the blocks that confirm the transactions the project submits from now on.',
    handler: async ({ req, user, project, body }) => {
      const { before, projectName } = await setProjectTxConfirmations(db, project.id, body.confirmations);
      if (before !== body.confirmations) {
        await auditBy(db, req, user, project.workspaceId)('project.tx_confirmations_changed', { type: 'project', id: project.uuid, label: projectName }, { from: before, to: body.confirmations });
      }
      return { confirmations: body.confirmations };
    },
  });

  route(router, deps, {
    method: 'put',
    path: '/projects/:projectId/tx-resubmit',
    permission: { project: 'projects.update' },
    body: txResubmitSchema,
    summary: "Sets whether the project's rolled-back transactions are sent to the mempool again while still valid.",
    handler: async ({ req, user, project, body }) => {
      const { before, projectName } = await setProjectTxResubmit(db, project.id, body.resubmit);
      if (before !== body.resubmit) {
        await auditBy(db, req, user, project.workspaceId)('project.tx_resubmit_changed', { type: 'project', id: project.uuid, label: projectName }, { from: before, to: body.resubmit });
      }
      return { resubmit: body.resubmit };
    },
  });
}
