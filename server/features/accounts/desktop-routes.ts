// Sign-in for the desktop app through the system browser (RFC 8252): the app opens /auth/desktop/start with a
// PKCE challenge, a state and its device name; the browser signs in by any method; GET /auth/desktop/finish
// shows what is signing in and where the code will go, and only the user's click on that page (a POST with the
// session's CSRF token, for the sign-in the page was shown for) sends the browser back to the app (cairn:// or
// a 127.0.0.1 loopback port) with a one-time code; the app trades code + verifier for its session. Without the
// click, any page could send a signed-in browser to /start with its own challenge and loopback port and take
// the session.
import express, { type Request, type Response, type Router } from 'express';
import { route, type RouteDeps } from '../../http/route';
import { AppError } from '../../errors';
import { findUserById } from './users';
import { SIGN_IN_WINDOW_MS, takeSignInSlot } from './sign-in-throttle';
import { csrfTokenFor, requireCsrfToken } from '../../http/csrf';
import { cancelDesktopSignIn, exchangeDesktopCode, issueDesktopCode, pendingDesktopSignIn, startDesktopSignIn } from './desktop-sign-ins';
import { consentPageCsp, consentPageHtml, escapeHtml, pageHtml, type ConsentView } from './desktop-pages';
import {
  DESKTOP_CALLBACK_URI,
  DESKTOP_SIGN_IN_TTL_MS,
  desktopConsentBodySchema,
  desktopSignInMessages,
  desktopStartQuerySchema,
  desktopTokenBodySchema,
  type DesktopTokenResult,
} from '../../../shared/desktop-auth';
import { signInPathFor } from '../../../shared/routes';

/** Binds the sign-in to the browser that started it: the finish step reads it back, nothing else does. */
export const DESKTOP_REQUEST_COOKIE = 'cairn.desktop_sign_in';
const FINISH_PATH = '/auth/desktop/finish';

function page(res: Response, status: number, title: string, body: string, refreshTo?: string): void {
  res.status(status).type('html').set('Cache-Control', 'no-store').send(pageHtml(title, body, refreshTo));
}

function consentPage(res: Response, view: ConsentView): void {
  const csp = res.getHeader('Content-Security-Policy');
  if (typeof csp === 'string') res.setHeader('Content-Security-Policy', consentPageCsp(csp, view.redirectUri));
  res.status(200).type('html').set('Cache-Control', 'no-store').send(consentPageHtml(view));
}

function readCookie(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return null;
}

export function desktopAuthRouter(deps: RouteDeps, logIn: (req: Request, user: Express.User, desktop?: { deviceName: string | null }) => Promise<void>): Router {
  const { db } = deps;
  const router = express.Router();

  router.get('/start', async (req, res, next) => {
    try {
      const parsed = desktopStartQuerySchema.safeParse(req.query);
      if (!parsed.success) {
        page(res, 400, 'This sign-in link is not valid', `<p>${escapeHtml(parsed.error.issues[0]?.message ?? 'Invalid request.')}</p><p>Start signing in again from the Cairn app.</p>`);
        return;
      }
      // Each start is a row kept until it expires: counted per client address, as sign-in mails are.
      const now = Date.now();
      const full = await takeSignInSlot(db, [{ key: `desktop:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`, max: deps.config.desktopSignInsPerIp }], now);
      if (full) {
        res.set('Retry-After', String(Math.ceil((SIGN_IN_WINDOW_MS - (now % SIGN_IN_WINDOW_MS)) / 1000)));
        page(res, 429, 'Too many sign-ins', '<p>Too many sign-ins to the app were started from your network. Please wait a few minutes and try again.</p>');
        return;
      }
      const requestId = await startDesktopSignIn(db, parsed.data, req.get('user-agent'), now);
      res.cookie(DESKTOP_REQUEST_COOKIE, requestId, {
        httpOnly: true,
        sameSite: 'lax',
        secure: req.secure,
        path: '/auth/desktop',
        maxAge: DESKTOP_SIGN_IN_TTL_MS,
      });
      // Already signed in in this browser: straight to the consent page; otherwise through the normal sign-in page.
      res.redirect(req.user ? FINISH_PATH : signInPathFor(FINISH_PATH));
    } catch (err) {
      next(err);
    }
  });

  const FAILED = 'Could not finish signing in to the app';
  const clearRequestCookie = (res: Response): void => {
    res.clearCookie(DESKTOP_REQUEST_COOKIE, { path: '/auth/desktop' });
  };

  // The consent page. A GET never issues a code, whoever sends the browser here.
  router.get('/finish', async (req, res, next) => {
    try {
      const user = req.user as { id: number; email: string } | undefined;
      if (!user) return res.redirect(signInPathFor(FINISH_PATH));
      const requestId = readCookie(req, DESKTOP_REQUEST_COOKIE);
      const pending = requestId ? await pendingDesktopSignIn(db, requestId) : null;
      if (!pending) {
        clearRequestCookie(res);
        page(res, 400, FAILED, `<p>${escapeHtml(desktopSignInMessages.otherBrowser)}</p>`);
        return;
      }
      consentPage(res, {
        email: user.email,
        deviceName: pending.deviceName,
        userAgent: pending.userAgent,
        redirectUri: pending.redirectUri,
        csrfToken: csrfTokenFor(req),
        signIn: pending.requestHash,
        action: FINISH_PATH,
      });
    } catch (err) {
      next(err);
    }
  });

  // The user's click on the consent page, with the CSRF token in its csrf_token field.
  router.post('/finish', requireCsrfToken, async (req, res, next) => {
    try {
      const user = req.user as { id: number } | undefined;
      if (!user) {
        page(res, 401, FAILED, '<p>You are not signed in in this browser any more. Start again from the app.</p>');
        return;
      }
      const parsed = desktopConsentBodySchema.safeParse(req.body ?? {});
      if (!parsed.success) {
        page(res, 400, FAILED, `<p>${escapeHtml(parsed.error.issues[0]?.message ?? 'The request is not valid.')}</p>`);
        return;
      }
      const requestId = readCookie(req, DESKTOP_REQUEST_COOKIE);
      const pending = requestId ? await pendingDesktopSignIn(db, requestId) : null;
      if (!requestId || !pending) {
        clearRequestCookie(res);
        page(res, 400, FAILED, `<p>${escapeHtml(desktopSignInMessages.otherBrowser)}</p>`);
        return;
      }
      // Another start replaced the one the page was shown for (the cookie now names another): decide on what was seen only.
      if (pending.requestHash !== parsed.data.sign_in) {
        page(res, 409, FAILED, `<p>${escapeHtml(desktopSignInMessages.badConsent)}</p>`);
        return;
      }
      if (parsed.data.decision === 'cancel') {
        await cancelDesktopSignIn(db, requestId);
        clearRequestCookie(res);
        page(res, 200, 'Desktop sign-in cancelled', '<p>Nothing was signed in, and that sign-in request cannot be used any more. You can close this tab.</p>');
        return;
      }
      const issued = await issueDesktopCode(db, requestId, user.id);
      clearRequestCookie(res);
      if (!issued) {
        page(res, 400, FAILED, `<p>${escapeHtml(desktopSignInMessages.otherBrowser)}</p>`);
        return;
      }
      const target = new URL(issued.redirectUri);
      target.searchParams.set('code', issued.code);
      target.searchParams.set('state', issued.state);
      // The loopback server is the app's on this machine: a plain redirect (303: the browser follows with a GET).
      // A custom scheme makes browsers ask before opening the app, so a page says what is happening and keeps a
      // link in case the prompt was dismissed.
      if (issued.redirectUri !== DESKTOP_CALLBACK_URI) return res.redirect(303, target.href);
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
      const exchanged = await exchangeDesktopCode(db, body.code, body.code_verifier);
      const user = exchanged === null ? undefined : await findUserById(db, exchanged.userId);
      if (!user) throw new AppError(400, 'invalid_grant', desktopSignInMessages.invalidCode);
      await logIn(req, user, { deviceName: exchanged!.deviceName });
      return { signedIn: true, email: user.email };
    },
  });

  return router;
}
