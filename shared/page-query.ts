// The page query (`?limit=`, `?cursor=`, `?q=`) as the server validates it; the convention itself is
// in pagination.ts.
import { z } from 'zod';
import { CURSOR_MESSAGE, LIMIT_MESSAGE, PAGE_MAX_LIMIT, PAGE_SEARCH_MAX } from './pagination';

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
