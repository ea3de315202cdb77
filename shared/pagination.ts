// The dashboard API's one convention for lists that grow: `?limit=` (1–100, 50 when absent) and
// `?cursor=` (the `next` of the previous answer), answered as `{"data": [...one page...], "next":
// "<cursor>" | null}`. `data` stays the array it always was, so a client that reads only `data` gets
// the first page. Lists that can be long also take `?q=`, a case-insensitive search.
import { z } from 'zod';

export const PAGE_DEFAULT_LIMIT = 50;
export const PAGE_MAX_LIMIT = 100;
/** The longest search text a list accepts. */
export const PAGE_SEARCH_MAX = 100;

const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${PAGE_MAX_LIMIT}.`;
export const CURSOR_MESSAGE = 'cursor must be the next of a previous page.';

/** An opaque cursor: base64url text, as pageCursor() writes it. */
export const pageCursorSchema = z.string({ error: CURSOR_MESSAGE }).regex(/^[A-Za-z0-9_-]{1,400}$/, CURSOR_MESSAGE);

export const pageQuerySchema = z.object({
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(PAGE_MAX_LIMIT, LIMIT_MESSAGE)
    .optional(),
  cursor: pageCursorSchema.optional(),
});
export type PageQuery = z.output<typeof pageQuerySchema>;

/** A page query plus `q`, for the lists a person searches. */
export const searchPageQuerySchema = pageQuerySchema.extend({
  q: z
    .string({ error: 'q must be text.' })
    .max(PAGE_SEARCH_MAX, `q must be at most ${PAGE_SEARCH_MAX} characters.`)
    .transform((s) => s.trim())
    .optional(),
});
export type SearchPageQuery = z.output<typeof searchPageQuerySchema>;

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
