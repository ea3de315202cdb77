import type { Request } from 'express';
import type { Config } from '../config';

// localhost, 127.x.y.z or [::1], with an optional port: nothing a visitor could point elsewhere.
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;

/**
 * The origin for links Cairn mails (sign-in, invitations). PUBLIC_URL when set, or in production;
 * otherwise the loopback address the user actually used, so a link asked for on 127.0.0.1 signs
 * them in on 127.0.0.1, where their cookie lives, and not on localhost.
 */
export function linkBase(config: Config, req: Request): string {
  if (config.publicUrlConfigured || config.isProduction) return config.publicUrl;
  const host = req.headers.host ?? '';
  return LOOPBACK_HOST.test(host) ? `${req.protocol}://${host}` : config.publicUrl;
}
