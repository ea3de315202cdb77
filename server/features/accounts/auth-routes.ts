import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Passport } from 'passport';
import type { Mailer } from '../../mail/mailer';
import { AppError, Invalid } from '../../errors';
import { csrfTokenFor, csrfTokenForSignIn } from '../../http/csrf';
import { route, type RouteDeps, type SignedInUser } from '../../http/route';
import { verifyCaptcha } from './captcha';
import { providerScopes } from './strategies';
import { desktopAuthRouter } from './desktop-routes';
import { createMagicLinkToken, consumeMagicLinkToken } from './magic-links';
import { findOrCreateUserByEmail } from './users';
import { takeSignInSlot } from './sign-in-throttle';
import { OAuthSignInError } from './oauth-accounts';
import { emailSchema, emailSignInSchema, oauthProviders, type OAuthProvider, type SignInOptions } from '../../../shared/auth';
import { messages } from '../../../shared/messages';
import { safeRedirect } from '../../../shared/redirect';
import { linkBase } from '../../http/link-base';
import { originOf, recordAuditForMember } from '../audit/index';

export interface AuthRouterDeps extends RouteDeps {
  mailer: Mailer;
  passport: InstanceType<typeof Passport>;
  enabledProviders: Set<OAuthProvider>;
}

/** Sign-in mails per e-mail address in one window (SIGN_IN_WINDOW_MS); per client IP it is configured. */
const MAX_LINKS_PER_EMAIL = 5;

const errorPage = (code: string) => `/auth/error?error=${encodeURIComponent(code)}`;

/**
 * Signs the user in on a fresh session (passport regenerates the id), issues a new CSRF token and notes
 * where from, for the list of sessions in Settings. `desktop`: the desktop app's code exchange.
 */
function logIn(req: Request, user: Express.User, desktop?: { deviceName: string | null }): Promise<void> {
  return new Promise((resolve, reject) => {
    req.logIn(user, (err) => {
      if (err) return reject(err);
      csrfTokenForSignIn(req);
      req.session.client = {
        signedInAt: Date.now(),
        ip: req.ip ?? null,
        userAgent: req.get('user-agent') ?? null,
        desktop: desktop !== undefined,
        deviceName: desktop?.deviceName ?? null,
      };
      req.session.save((e) => (e ? reject(e) : resolve()));
    });
  });
}

export function authRouter(deps: AuthRouterDeps): Router {
  const { db, config, logger, mailer, passport, enabledProviders } = deps;
  const router = express.Router();
  // Every way in ends here: the sign-in is recorded in each workspace the user belongs to.
  const signIn = async (req: Request, user: Express.User, method: string, desktop?: { deviceName: string | null }): Promise<void> => {
    await logIn(req, user, desktop);
    const { id, email } = user as SignedInUser;
    await recordAuditForMember(db, id, { actor: { userId: id, email }, action: 'member.signed_in', target: { type: 'member', id, label: email }, ...originOf(req), details: { method } });
  };
  router.use('/desktop', desktopAuthRouter(deps, (req, user, desktop) => signIn(req, user, 'desktop', desktop)));

  route(router, deps, {
    method: 'get',
    path: '/csrf',
    permission: 'public',
    handler: ({ req }) => ({ csrfToken: csrfTokenFor(req) }),
  });

  route(router, deps, {
    method: 'get',
    path: '/providers',
    permission: 'public',
    handler: (): SignInOptions => ({
      email: true,
      captchaSiteKey: config.captcha?.siteKey ?? null,
      github: enabledProviders.has('github'),
      google: enabledProviders.has('google'),
      gitlab: enabledProviders.has('gitlab'),
    }),
  });

  route(router, deps, {
    method: 'post',
    path: '/signin/email',
    permission: 'public',
    body: emailSignInSchema(config.captcha !== null),
    handler: async ({ req, body }) => {
      if (config.captcha) {
        const ok = await verifyCaptcha(config.captcha, body.captchaToken ?? '', req.ip);
        if (!ok) throw new Invalid(messages.signIn.captchaRequired);
      }
      const full = await takeSignInSlot(db, [
        { key: `email:${body.email}`, max: MAX_LINKS_PER_EMAIL },
        { key: `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`, max: config.signInLinksPerIp },
      ]);
      if (full) {
        throw new AppError(
          429,
          'too_many_links',
          full.key.startsWith('email:')
            ? 'Too many sign-in links were requested for this e-mail. Please wait a few minutes and try again.'
            : 'Too many sign-in links were requested from your network. Please wait a few minutes and try again.',
        );
      }
      const callbackUrl = safeRedirect(body.callbackUrl);
      const token = await createMagicLinkToken(db, body.email, config.magicLinkTtlMs);
      const link =
        `${linkBase(config, req)}/auth/callback/email?token=${encodeURIComponent(token)}` +
        `&email=${encodeURIComponent(body.email)}&callbackUrl=${encodeURIComponent(callbackUrl)}`;
      const minutes = Math.round(config.magicLinkTtlMs / 60000);
      try {
        await mailer.send({
          to: body.email,
          subject: 'Sign in to Cairn',
          text: `Sign in to Cairn by opening this link:\n\n${link}\n\nThe link works once and expires in ${minutes} minutes. If you did not ask for it, you can ignore this e-mail.`,
          html: `<p>Sign in to Cairn by opening this link:</p><p><a href="${link}">Sign in to Cairn</a></p><p>The link works once and expires in ${minutes} minutes. If you did not ask for it, you can ignore this e-mail.</p>`,
        });
      } catch (err) {
        logger.error({ err: { message: (err as Error).message } }, 'could not send sign-in mail');
        throw new AppError(503, 'mail_failed', 'We could not send the sign-in e-mail. Please try again later.');
      }
      return { redirect: '/auth/verify-request' };
    },
  });

  // The link in the e-mail. Spends the token once, creates the account on first sign-in.
  router.get('/callback/email', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const token = typeof req.query.token === 'string' ? req.query.token : '';
      const email = emailSchema.safeParse(req.query.email);
      if (!token || !email.success || !(await consumeMagicLinkToken(db, token, email.data))) {
        return res.redirect(errorPage('Verification'));
      }
      const user = await findOrCreateUserByEmail(db, email.data);
      await signIn(req, user, 'email');
      res.redirect(safeRedirect(req.query.callbackUrl));
    } catch (err) {
      next(err);
    }
  });

  const knownProvider = (p: string | undefined): p is OAuthProvider =>
    !!p && (oauthProviders as readonly string[]).includes(p) && enabledProviders.has(p as OAuthProvider);

  router.get('/signin/:provider', (req, res, next) => {
    const provider = req.params.provider;
    if (!knownProvider(provider)) return res.redirect(errorPage('Configuration'));
    req.session.oauthRedirect = safeRedirect(req.query.redirect ?? req.query.callbackUrl);
    passport.authenticate(provider, { scope: providerScopes[provider], session: false })(req, res, next);
  });

  router.get('/callback/:provider', (req, res, next) => {
    const provider = req.params.provider;
    if (!knownProvider(provider)) return res.redirect(errorPage('Configuration'));
    passport.authenticate(provider, { session: false }, (err: unknown, user: Express.User | false) => {
      if (err instanceof OAuthSignInError) return res.redirect(errorPage(err.code));
      if (err || !user) {
        if (err) logger.warn({ provider, err: { message: (err as Error).message } }, 'oauth sign-in failed');
        return res.redirect(errorPage(req.query.error === 'access_denied' ? 'AccessDenied' : 'OAuthCallback'));
      }
      const target = safeRedirect(req.session.oauthRedirect);
      signIn(req, user, provider)
        .then(() => res.redirect(target))
        .catch(next);
    })(req, res, next);
  });

  route(router, deps, {
    method: 'post',
    path: '/signout',
    permission: 'public',
    handler: async ({ req, res, user }) => {
      if (user) await recordAuditForMember(db, user.id, { actor: { userId: user.id, email: user.email }, action: 'member.signed_out', target: { type: 'member', id: user.id, label: user.email }, ...originOf(req) });
      await new Promise<void>((resolve, reject) => req.logout((e) => (e ? reject(e) : resolve())));
      await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
      res.clearCookie(SESSION_COOKIE, { path: '/' });
      return { redirect: '/auth/signin' };
    },
  });

  return router;
}

export const SESSION_COOKIE = 'cairn.sid';
