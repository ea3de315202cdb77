// Sign-in for the desktop app through the system browser (RFC 8252): the app opens /auth/desktop/start with a
// PKCE challenge and a state; the browser signs in by any method; /auth/desktop/finish sends it back to the app
// (cairn:// or a 127.0.0.1 loopback port) with a one-time code; the app trades code + verifier for its session.
import express, { type Request, type Response, type Router } from 'express';
import { route, type RouteDeps } from '../../http/route';
import { AppError } from '../../errors';
import { findUserById } from './users';
import { APP_ICON_LINK } from '../../../shared/site';
import { exchangeDesktopCode, issueDesktopCode, startDesktopSignIn } from './desktop-sign-ins';
import {
  DESKTOP_CALLBACK_URI,
  DESKTOP_SIGN_IN_TTL_MS,
  desktopSignInMessages,
  desktopStartQuerySchema,
  desktopTokenBodySchema,
  type DesktopTokenResult,
} from '../../../shared/desktop-auth';
import { signInPathFor } from '../../../shared/routes';

/** Binds the sign-in to the browser that started it: the finish step reads it back, nothing else does. */
export const DESKTOP_REQUEST_COOKIE = 'cairn.desktop_sign_in';
const FINISH_PATH = '/auth/desktop/finish';

function readCookie(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return null;
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(res: Response, status: number, title: string, body: string, refreshTo?: string): void {
  const refresh = refreshTo ? `<meta http-equiv="refresh" content="0;url=${escapeHtml(refreshTo)}">` : '';
  res
    .status(status)
    .type('html')
    .set('Cache-Control', 'no-store')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
        `<title>${escapeHtml(title)} · Cairn</title>${APP_ICON_LINK}${refresh}</head>` +
        `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5">` +
        `<h1 style="font-size:1.5rem">${escapeHtml(title)}</h1>${body}</body></html>`,
    );
}

export function desktopAuthRouter(deps: RouteDeps, logIn: (req: Request, user: Express.User) => Promise<void>): Router {
  const { db } = deps;
  const router = express.Router();

  router.get('/start', async (req, res, next) => {
    try {
      const parsed = desktopStartQuerySchema.safeParse(req.query);
      if (!parsed.success) {
        page(res, 400, 'This sign-in link is not valid', `<p>${escapeHtml(parsed.error.issues[0]?.message ?? 'Invalid request.')}</p><p>Start signing in again from the Cairn app.</p>`);
        return;
      }
      const requestId = await startDesktopSignIn(db, parsed.data);
      res.cookie(DESKTOP_REQUEST_COOKIE, requestId, {
        httpOnly: true,
        sameSite: 'lax',
        secure: req.secure,
        path: '/auth/desktop',
        maxAge: DESKTOP_SIGN_IN_TTL_MS,
      });
      // Already signed in in this browser: straight back to the app; otherwise through the normal sign-in page.
      res.redirect(req.user ? FINISH_PATH : signInPathFor(FINISH_PATH));
    } catch (err) {
      next(err);
    }
  });

  router.get('/finish', async (req, res, next) => {
    try {
      const user = req.user as { id: number } | undefined;
      if (!user) return res.redirect(signInPathFor(FINISH_PATH));
      const requestId = readCookie(req, DESKTOP_REQUEST_COOKIE);
      const issued = requestId ? await issueDesktopCode(db, requestId, user.id) : null;
      res.clearCookie(DESKTOP_REQUEST_COOKIE, { path: '/auth/desktop' });
      if (!issued) {
        page(res, 400, 'Could not finish signing in to the app', `<p>${escapeHtml(desktopSignInMessages.otherBrowser)}</p>`);
        return;
      }
      const target = new URL(issued.redirectUri);
      target.searchParams.set('code', issued.code);
      target.searchParams.set('state', issued.state);
      // The loopback server is ours on this machine: a plain redirect. A custom scheme makes browsers ask before
      // opening the app, so a page says what is happening and keeps a link in case the prompt was dismissed.
      if (issued.redirectUri !== DESKTOP_CALLBACK_URI) return res.redirect(target.href);
      page(
        res,
        200,
        'Return to the Cairn app',
        `<p>You are signed in. Your browser will ask to open the Cairn app; allow it to finish signing in there.</p>` +
          `<p><a href="${escapeHtml(target.href)}">Open the Cairn app</a></p><p>The link works once, within two minutes.</p>`,
        target.href,
      );
    } catch (err) {
      next(err);
    }
  });

  route(router, deps, {
    method: 'post',
    path: '/token',
    permission: 'public',
    body: desktopTokenBodySchema,
    handler: async ({ req, body }): Promise<DesktopTokenResult> => {
      const userId = await exchangeDesktopCode(db, body.code, body.code_verifier);
      const user = userId === null ? undefined : await findUserById(db, userId);
      if (!user) throw new AppError(400, 'invalid_grant', desktopSignInMessages.invalidCode);
      await logIn(req, user);
      return { signedIn: true, email: user.email };
    },
  });

  return router;
}
