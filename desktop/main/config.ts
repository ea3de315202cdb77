export const DEFAULT_CAIRN_URL = 'http://localhost:3000/dashboard';

export interface DesktopConfig {
  /** The page the window opens first. */
  cairnUrl: string;
  /** The only origin the window may show and the bridge may answer, e.g. `http://localhost:3000`. */
  cairnOrigin: string;
}

export class DesktopConfigError extends Error {
  override name = 'DesktopConfigError';
}

/** Reads CAIRN_URL (the Cairn server the desktop app wraps); unset or empty means the local default. */
export function readDesktopConfig(env: Readonly<Record<string, string | undefined>>): DesktopConfig {
  const raw = env.CAIRN_URL?.trim() || DEFAULT_CAIRN_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DesktopConfigError(`CAIRN_URL must be an absolute http:// or https:// URL, for example ${DEFAULT_CAIRN_URL}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DesktopConfigError(`CAIRN_URL must use http:// or https://, not ${url.protocol}//.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new DesktopConfigError('CAIRN_URL must not carry a user name or password.');
  }
  return { cairnUrl: url.href, cairnOrigin: url.origin };
}
