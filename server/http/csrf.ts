import crypto from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { AppError } from '../errors';

declare module 'express-session' {
  interface SessionData {
    csrfToken?: string;
    oauthRedirect?: string;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const newCsrfToken = () => crypto.randomBytes(32).toString('base64url');

/** The session's CSRF token, created on first use. */
export function csrfTokenFor(req: Request): string {
  if (!req.session.csrfToken) req.session.csrfToken = newCsrfToken();
  return req.session.csrfToken;
}

const equal = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

/** The token of a server-rendered HTML form, which cannot set headers: its `csrf_token` field. */
export const CSRF_FORM_FIELD = 'csrf_token';

function formToken(req: Request): string | undefined {
  if (!req.is('application/x-www-form-urlencoded')) return undefined;
  const value = (req.body as Record<string, unknown> | undefined)?.[CSRF_FORM_FIELD];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Synchronizer-token CSRF check: every state-changing request carries the session's token in
 * X-CSRF-Token (or, from a server-rendered HTML form, its csrf_token field). A cross-site form or
 * fetch cannot read the token, so it is refused with 403.
 */
export function csrfProtection(): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const sent = req.get('x-csrf-token') ?? formToken(req);
    const expected = req.session?.csrfToken;
    if (!sent || !expected || !equal(sent, expected)) {
      return next(new AppError(403, 'csrf', 'Invalid or missing CSRF token. Reload the page and try again.'));
    }
    next();
  };
}
