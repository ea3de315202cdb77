import path from 'node:path';
import { safeRedirect } from '../../shared/redirect';

const DEEP_LINK_SCHEME = 'cairn';

const DEEP_LINK_PREFIX = /^cairn:\/\//i;

/**
 * `cairn://open?path=/dashboard/...` → the absolute URL of that page on the Cairn origin, or null for anything
 * else (another action, credentials, a path that could leave the origin such as `//evil.example`).
 */
export function parseDeepLink(link: string, cairnOrigin: string): string | null {
  if (typeof link !== 'string' || !DEEP_LINK_PREFIX.test(link)) return null;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  // `host` includes any port, so `cairn://open:1/` is refused too; some browsers append a slash to the host.
  if (url.host.toLowerCase() !== 'open' || url.username !== '' || url.password !== '') return null;
  if (url.pathname !== '' && url.pathname !== '/') return null;
  const target = safeRedirect(url.searchParams.get('path'), '');
  if (target === '') return null;
  const resolved = new URL(target, cairnOrigin);
  return resolved.origin === cairnOrigin ? resolved.href : null;
}

/** The deep link among a launch's arguments (Windows and Linux pass it on the command line), if any. */
export function findDeepLinkInArgv(argv: readonly string[]): string | null {
  for (let i = argv.length - 1; i >= 0; i -= 1) {
    const arg = argv[i];
    if (arg !== undefined && DEEP_LINK_PREFIX.test(arg)) return arg;
  }
  return null;
}

interface LaunchInfo {
  /** `process.defaultApp`: true when started as `electron <path>` during development. */
  defaultApp: boolean;
  execPath: string;
  argv: readonly string[];
}

interface ProtocolClientArgs {
  scheme: string;
  development?: { execPath: string; args: string[] };
}

/**
 * Arguments for `app.setAsDefaultProtocolClient`. A packaged app registers itself; in development the OS must
 * start the electron binary with the app's path, or the link would open Electron's default app.
 */
export function protocolClientArgs(launch: LaunchInfo): ProtocolClientArgs {
  const appPath = launch.argv[1];
  if (!launch.defaultApp || appPath === undefined) return { scheme: DEEP_LINK_SCHEME };
  return { scheme: DEEP_LINK_SCHEME, development: { execPath: launch.execPath, args: [path.resolve(appPath)] } };
}
