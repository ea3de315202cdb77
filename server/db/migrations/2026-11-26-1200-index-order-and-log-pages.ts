import { pageIndexes, type PageIndex } from './page-indexes';

// Pay-as-you-go orders and the subscription log are read a page at a time, newest first, by id
// (server/db/pagination.ts): with (workspace_id, id) and (user_id, id) each page is one index range
// of `limit + 1` entries, however many orders a workspace or log entries a user holds.
const INDEXES: readonly PageIndex[] = [
  ['ppu_orders', ['workspace_id', 'id'], 'ppu_orders_by_workspace_page'],
  ['subscription_logs', ['user_id', 'id'], 'subscription_logs_by_user_page'],
] as const;

export const { up, down } = pageIndexes(INDEXES);
