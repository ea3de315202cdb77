import { z } from 'zod';

// Input rules every text and id field shares, so the server and the forms refuse the same things.

/** PostgreSQL text cannot hold U+0000; SQLite would store it and cut it off on the way out. */
export const NUL_MESSAGE = 'Text must not contain NUL characters.';
export const hasNul = (v: string): boolean => v.includes('\u0000');
const noNul = (v: string): boolean => !hasNul(v);

/** A string schema that refuses NUL characters; chain trim/min/max after it as usual. */
export const text = (params?: Parameters<typeof z.string>[0]) => z.string(params).refine(noNul, NUL_MESSAGE);

/** Database ids are 32-bit on PostgreSQL (serial/integer). */
export const MAX_DB_ID = 2_147_483_647;

/**
 * A row id from a path, query or body: decimal digits only ('0x9', ' 9', '9e0', '+9', '09' are not
 * ids) or a JSON integer, between 1 and 2,147,483,647. Anything else is null.
 */
export function parseDbId(raw: unknown): number | null {
  let n: number;
  if (typeof raw === 'number') n = raw;
  else if (typeof raw === 'string' && /^[1-9]\d{0,9}$/.test(raw)) n = Number(raw);
  else return null;
  return Number.isInteger(n) && n >= 1 && n <= MAX_DB_ID ? n : null;
}

/** zod form of parseDbId, with the message to show when it is not an id. */
export const dbIdSchema = (message: string) =>
  z.union([z.string(), z.number()], { error: message }).transform((v, ctx) => {
    const id = parseDbId(v);
    if (id === null) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return id;
  });
