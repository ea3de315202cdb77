import type { Router } from 'express';
import { route, type RouteDeps } from '../../http/route';
import { NotFound } from '../../errors';
import { can } from '../../../shared/permissions';
import { AUDIT_EXPORT_MAX_ROWS, auditFilterSchema, auditPageQuerySchema } from '../../../shared/audit';
import type { Membership } from '../../../shared/workspaces';
import { auditEntriesForExport, filterBounds, listAuditEntries } from './audit';
import { AUDIT_CSV_HEADER, auditCsvLine, csvLine } from './csv';

/** Members without 'audit.view' are told nothing about the log, not even that it exists. */
const mayRead = (membership: Membership) => {
  if (!can(membership.role, 'audit.view')) throw new NotFound('There is no such API endpoint.');
};

export function registerAuditRoutes(router: Router, deps: RouteDeps): void {
  const { db } = deps;

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/audit',
    permission: { workspace: 'workspace.view' },
    query: auditPageQuerySchema,
    summary: "One page of the workspace's audit log, newest first (owner and administrators; anyone else gets 404). `next` is the cursor of the following page.",
    handler: ({ membership, query }) => {
      mayRead(membership);
      return listAuditEntries(db, membership.workspaceId, query);
    },
  });

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/audit/export.csv',
    permission: { workspace: 'workspace.view' },
    query: auditFilterSchema,
    summary: `The audit log's entries matching the filters as CSV, newest first (at most ${AUDIT_EXPORT_MAX_ROWS.toLocaleString('en-US')} rows).`,
    handler: async ({ res, membership, query }) => {
      mayRead(membership);
      filterBounds(query);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="cairn-audit-workspace-${membership.workspaceId}.csv"`);
      res.setHeader('Cache-Control', 'no-store');
      res.status(200);
      res.write(csvLine(AUDIT_CSV_HEADER));
      for await (const e of auditEntriesForExport(db, membership.workspaceId, query, AUDIT_EXPORT_MAX_ROWS)) res.write(auditCsvLine(e));
      res.end();
    },
  });
}
