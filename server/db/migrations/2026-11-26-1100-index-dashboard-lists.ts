import { pageIndexes, type PageIndex } from './page-indexes';

// The dashboard's lists are read a page at a time in their sort order (server/db/pagination.ts):
// with an index on (workspace, sort key) each page is one index range of `limit + 1` entries, on
// PostgreSQL as on SQLite, however many projects, webhooks or invitations a workspace holds.
const INDEXES: readonly PageIndex[] = [
  ['projects', ['workspace_id', 'id'], 'projects_by_workspace_page'],
  ['webhooks', ['workspace_id', 'created_at', 'id'], 'webhooks_by_workspace_page'],
  ['workspace_invitations', ['workspace_id', 'created_at', 'id'], 'workspace_invitations_by_workspace_page'],
] as const;

export const { up, down } = pageIndexes(INDEXES);
