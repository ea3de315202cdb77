import { z } from 'zod';
import { text } from './text';
import { messages } from './messages';

// Deliberately simple: one @, something on each side, a dot in the domain, no spaces.
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailSchema = text({ error: messages.signIn.emailEmpty })
  .trim()
  .min(1, messages.signIn.emailEmpty)
  .max(254, messages.signIn.emailInvalid)
  .regex(EMAIL_RE, messages.signIn.emailInvalid)
  .transform((e) => e.toLowerCase());

export const emailSignInSchema = (captchaEnabled: boolean) =>
  z.object({
    email: emailSchema,
    captchaToken: captchaEnabled
      ? text({ error: messages.signIn.captchaRequired }).min(1, messages.signIn.captchaRequired)
      : text().optional().nullable(),
    callbackUrl: text().max(2048).optional().nullable(),
  });

export const oauthProviders = ['github', 'google', 'gitlab'] as const;
export type OAuthProvider = (typeof oauthProviders)[number];

export const providerLabels: Record<OAuthProvider, string> = {
  github: 'GitHub',
  google: 'Google',
  gitlab: 'GitLab',
};

/** What GET /auth/providers answers: which sign-in options the page shows. */
export interface SignInOptions {
  email: true;
  captchaSiteKey: string | null;
  github: boolean;
  google: boolean;
  gitlab: boolean;
}

/** Readable reasons for /auth/error?error=<code>. */
const authErrorReasons: Record<string, string> = {
  Verification: 'The sign-in link is no longer valid. It may have been used already or it may have expired.',
  OAuthSignin: 'Could not start signing in with that provider. Please try again.',
  OAuthCallback: 'The provider did not confirm the sign-in. Please try again.',
  OAuthAccountNotLinked:
    'An account with this e-mail already exists. The provider did not confirm that the e-mail is verified, so sign in the way you did before.',
  OAuthEmailNotVerified:
    'The provider did not confirm that your e-mail address is verified. Verify it there, or sign in with an e-mail link.',
  OAuthNoEmail: 'The provider did not share an e-mail address with us, and Cairn needs one to sign you in.',
  AccessDenied: 'Access was denied.',
  Configuration: 'This sign-in method is not configured on this server.',
};

export const authErrorReason = (code: string | null | undefined): string =>
  (code && authErrorReasons[code]) || messages.signIn.genericError;
