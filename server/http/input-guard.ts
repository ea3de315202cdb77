import type { NextFunction, Request, Response } from 'express';
import { Invalid } from '../errors';
import { hasNul, NUL_MESSAGE } from '../../shared/text';

const MAX_DEPTH = 64;

function containsNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return hasNul(v);
  if (depth > MAX_DEPTH || v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.some((x) => containsNul(x, depth + 1));
  return Object.entries(v).some(([k, x]) => hasNul(k) || containsNul(x, depth + 1));
}

/**
 * Refuses a NUL character anywhere in the URL or the JSON body with 400, before any route sees
 * it: PostgreSQL cannot store U+0000 in text, and a route added later may forget a schema rule.
 * The shared schemas refuse it as well, with the field's own message.
 */
export function refuseNulBytes() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const url = req.originalUrl;
    if (url.includes('%00') || url.includes('\u0000') || containsNul(req.body)) return next(new Invalid(NUL_MESSAGE));
    next();
  };
}
