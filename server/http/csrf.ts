import crypto from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { AppError } from '../errors';

declare module 'express-session' {
  interface SessionData {
    csrfToken?: string;
    oauthRedirect?: string;
  }
}

/**
 * Someone not signed in keeps the CSRF token for the sign-in form in this cookie, signed with the
 * session secret, instead of in a stored session: a client that asks for tokens in a loop costs the
 * server nothing. Signing in moves the token into the (stored) session and drops this cookie.
 */
export const CSRF_COOKIE = 'cairn.csrf';

export const newCsrfToken = () => crypto.randomBytes(32).toString('base64url');

/** The signing key of the CSRF cookie, per request: csrfCookieKey() puts it there. */
const cookieKeys = new WeakMap<Request, Buffer>();

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

const sign = (token: string, key: Buffer) => crypto.createHmac('sha256', key).update(token).digest('base64url');

function readCookie(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return null;
}

/** The token in a well-signed CSRF cookie, or null. */
function cookieToken(req: Request, key: Buffer): string | null {
  const value = readCookie(req, CSRF_COOKIE);
  const dot = value?.indexOf('.') ?? -1;
  if (!value || dot <= 0) return null;
  const token = value.slice(0, dot);
  return equal(value.slice(dot + 1), sign(token, key)) ? token : null;
}

/** The token a state-changing request must carry: the session's, else the CSRF cookie's. */
function expectedToken(req: Request): string | null {
  if (req.session?.csrfToken) return req.session.csrfToken;
  const key = cookieKeys.get(req);
  return key ? cookieToken(req, key) : null;
}

/**
 * The CSRF token of this client: its session's when it has one (everyone signed in), else the
 * CSRF cookie's, which is set on first use. Only behind csrfCookieKey(), which holds the key.
 */
export function csrfTokenFor(req: Request): string {
  const known = expectedToken(req);
  if (known) return known;
  const key = cookieKeys.get(req);
  if (!key || !req.res) throw new Error('csrfTokenFor needs csrfCookieKey() in front of the route');
  const token = newCsrfToken();
  req.res.cookie(CSRF_COOKIE, `${token}.${sign(token, key)}`, {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.secure,
    path: '/',
    encode: String,
  });
  return token;
}

/** Signing in: a fresh token in the session, and the anonymous CSRF cookie is no longer needed. */
export function csrfTokenForSignIn(req: Request): string {
  req.session.csrfToken = newCsrfToken();
  if (readCookie(req, CSRF_COOKIE) !== null) req.res?.clearCookie(CSRF_COOKIE, { path: '/' });
  return req.session.csrfToken;
}

/** Holds the signing key of the CSRF cookie for the requests it sees (/api and /auth), checking nothing itself. */
export function csrfCookieKey(secret: string): RequestHandler {
  const key = crypto.createHmac('sha256', secret).update('cairn csrf cookie').digest();
  return (req, _res, next) => {
    cookieKeys.set(req, key);
    next();
  };
}

/**
 * Synchronizer-token CSRF check: the request carries its client's token in X-CSRF-Token, or from a
 * server-rendered HTML form in its csrf_token field (the session's token, or for someone not signed in
 * the one in the signed CSRF cookie). A cross-site form or fetch cannot read the token, so it is
 * refused with 403. route() runs it for every state-changing route (its `csrf` option).
 */
export function assertCsrfToken(req: Request): void {
  const sent = req.get('x-csrf-token') ?? formToken(req);
  const expected = expectedToken(req);
  if (!sent || !expected || !equal(sent, expected)) throw new AppError(403, 'csrf', 'Invalid or missing CSRF token. Reload the page and try again.');
}

/** assertCsrfToken() in front of a handler that is not declared with route() (the desktop sign-in's consent form). */
export const requireCsrfToken: RequestHandler = (req, _res, next) => {
  try {
    assertCsrfToken(req);
    next();
  } catch (err) {
    next(err);
  }
};
