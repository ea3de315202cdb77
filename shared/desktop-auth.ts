import { z } from 'zod';

// The desktop app's sign-in through the system browser: PKCE (RFC 7636) with the S256 method, returning by
// the cairn:// deep link or, where the OS does not deliver those, a loopback redirect (RFC 8252 §7.3).

export const DESKTOP_CALLBACK_URI = 'cairn://auth/callback';
/** `http://127.0.0.1:<port>/callback`: the loopback fallback; any port, since the app picks a free one. */
const LOOPBACK_CALLBACK_RE = /^http:\/\/127\.0\.0\.1:(\d{1,5})\/callback$/;

export const desktopSignInMessages = {
  badRedirect: `redirect_uri must be ${DESKTOP_CALLBACK_URI} or http://127.0.0.1:<port>/callback.`,
  badChallenge: 'code_challenge must be the base64url SHA-256 of a code verifier (43 characters).',
  badMethod: 'code_challenge_method must be S256.',
  badState: 'state must be 16 to 256 URL-safe characters.',
  badDevice: "device must be 1 to 100 letters, digits, spaces or . _ - ( ) '",
  badConsent: 'This consent form is not for the sign-in this browser has under way. Start again from the app.',
  invalidCode: 'This sign-in code is not valid: it was used already, it expired, or it does not match this app.',
  otherBrowser: 'Finish signing in to the desktop app in the browser the app opened: this browser did not start the sign-in, or it took too long. Start again from the app.',
} as const;

const isDesktopRedirectUri = (uri: string): boolean => {
  if (uri === DESKTOP_CALLBACK_URI) return true;
  const m = LOOPBACK_CALLBACK_RE.exec(uri);
  const port = m ? Number(m[1]) : 0;
  return port >= 1 && port <= 65535;
};

const base64url = /^[A-Za-z0-9_-]+$/;

/** The device name the app reports (its host name and OS): shown on the consent page, so plain characters only. */
export const DEVICE_NAME_MAX = 100;
const DEVICE_NAME_RE = /^[\p{L}\p{N} ._()'-]+$/u;
const deviceNameSchema = z
  .string({ error: desktopSignInMessages.badDevice })
  .min(1, desktopSignInMessages.badDevice)
  .max(DEVICE_NAME_MAX, desktopSignInMessages.badDevice)
  .regex(DEVICE_NAME_RE, desktopSignInMessages.badDevice);

/** A device name the schema takes, made from whatever the OS calls the machine; undefined when nothing is left. */
export function cleanDeviceName(raw: string): string | undefined {
  const cleaned = raw.replace(/[^\p{L}\p{N} ._()'-]+/gu, ' ').replace(/\s+/g, ' ').trim().slice(0, DEVICE_NAME_MAX).trim();
  return cleaned === '' ? undefined : cleaned;
}

export const desktopStartQuerySchema = z.object({
  code_challenge: z.string({ error: desktopSignInMessages.badChallenge }).length(43, desktopSignInMessages.badChallenge).regex(base64url, desktopSignInMessages.badChallenge),
  code_challenge_method: z.literal('S256', { error: desktopSignInMessages.badMethod }),
  state: z.string({ error: desktopSignInMessages.badState }).min(16, desktopSignInMessages.badState).max(256, desktopSignInMessages.badState).regex(base64url, desktopSignInMessages.badState),
  redirect_uri: z.string({ error: desktopSignInMessages.badRedirect }).refine(isDesktopRedirectUri, desktopSignInMessages.badRedirect),
  device: deviceNameSchema.optional(),
});
export type DesktopStartQuery = z.infer<typeof desktopStartQuerySchema>;

/** The consent form the browser posts to /auth/desktop/finish (CSRF token checked before the route). */
export const desktopConsentBodySchema = z.object({
  decision: z.enum(['approve', 'cancel'], { error: 'decision must be approve or cancel.' }),
  sign_in: z.string({ error: desktopSignInMessages.badConsent }).regex(/^[0-9a-f]{64}$/, desktopSignInMessages.badConsent),
});

/** RFC 7636 §4.1: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~]. */
const codeVerifierSchema = z
  .string({ error: 'code_verifier is required.' })
  .min(43, 'code_verifier must be 43 to 128 characters.')
  .max(128, 'code_verifier must be 43 to 128 characters.')
  .regex(/^[A-Za-z0-9._~-]+$/, 'code_verifier may only hold letters, digits and - . _ ~');

export const desktopTokenBodySchema = z.object({
  code: z.string({ error: 'code is required.' }).min(1, 'code is required.').max(256, desktopSignInMessages.invalidCode),
  code_verifier: codeVerifierSchema,
});

export interface DesktopTokenResult {
  signedIn: true;
  email: string;
}

/** How long the browser may take to sign in after the app opened it, and how long the issued code lives. */
export const DESKTOP_SIGN_IN_TTL_MS = 15 * 60 * 1000;
export const DESKTOP_CODE_TTL_MS = 2 * 60 * 1000;
