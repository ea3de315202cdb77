// The dashboard API's one convention for lists that grow: `?limit=` (1–100, 50 when absent) and
// `?cursor=` (the `next` of the previous answer), answered as `{"data": [...one page...], "next":
// "<cursor>" | null}`. `data` stays the array it always was, so a client that reads only `data` gets
// the first page. Lists that can be long also take `?q=`, a case-insensitive search.
// The query schemas the server validates with are in page-query.ts: this module is reached from the
// landing page's entry chunk (its pricing reads the billing queries), which must not carry zod.

export const PAGE_DEFAULT_LIMIT = 50;
export const PAGE_MAX_LIMIT = 100;
/** The longest search text a list accepts. */
export const PAGE_SEARCH_MAX = 100;

export const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${PAGE_MAX_LIMIT}.`;
export const CURSOR_MESSAGE = 'cursor must be the next of a previous page.';

/** One page of a list as the API answers it (the whole body, `data` and `next` side by side). */
export interface PageDto<T> {
  data: T[];
  /** Pass as `cursor` for the following page; null on the last page. */
  next: string | null;
}

/** The query string of a page request, e.g. `limit=50&cursor=…&q=…` (empty parts left out). */
export function pageParams(p: { limit?: number; cursor?: string | null; q?: string }): string {
  const s = new URLSearchParams();
  if (p.limit !== undefined) s.set('limit', String(p.limit));
  if (p.cursor) s.set('cursor', p.cursor);
  if (p.q) s.set('q', p.q);
  return s.toString();
}
