import pino, { type Logger } from 'pino';
import { redactKeys } from '../shared/project-key';

export type { Logger };

// Paths that may carry credentials; pino replaces them with [redacted] before anything is written.
const redact = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrf-token"]',
  'req.headers.project_id',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.secret',
  '*.csrfToken',
  '*.captchaToken',
];

const SENSITIVE_QUERY = /([?&](?:token|code|state|captchaToken|email)=)[^&#]*/gi;

// Invitation tokens travel in the path: the API's accept and preview, and the page the mail links to.
const SENSITIVE_PATH = /^((?:\/api)?\/(?:invitations|workspace-invite)\/)[^/?#]+/i;

/** Strips secrets from a URL's path and query string before it is logged (a project key anywhere in it too). */
export const sanitizeUrl = (url: string) => redactKeys(url.replace(SENSITIVE_PATH, '$1[redacted]').replace(SENSITIVE_QUERY, '$1[redacted]'));

/**
 * Every line is written with its project keys replaced by [key], wherever they sit (a URL with the key
 * in its path, an error message quoting one), so no log ever holds a key that works.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: redact, censor: '[redacted]' }, base: { service: 'cairn' }, hooks: { streamWrite: redactKeys } }, destination);
}
