// Pages the app shows without a server (the JSONPath sandbox): the web build packaged with the app, served on a
// scheme of its own so the React router sees ordinary paths. Only files inside the build are ever answered.
import path from 'node:path';

export const LOCAL_SCHEME = 'cairn-app';
const LOCAL_ORIGIN = `${LOCAL_SCHEME}://app`;
/** The sandbox page of the web build, standalone (no sign-in, no server). */
export const SANDBOX_URL = `${LOCAL_ORIGIN}/jsonpath-sandbox`;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Routes of the web build the local scheme may show; anything else is not a page of this window. */
const LOCAL_ROUTES = new Set(['/jsonpath-sandbox']);

type LocalFile = { file: string; type: string } | { status: 404 };

/** The file of the web build that answers `url`, or 404; client routes get index.html. */
export function resolveLocalFile(url: string, webDir: string): LocalFile {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { status: 404 };
  }
  if (parsed.origin !== LOCAL_ORIGIN && `${parsed.protocol}//${parsed.host}` !== LOCAL_ORIGIN) return { status: 404 };
  let pathname: string;
  try {
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return { status: 404 };
  }
  if (LOCAL_ROUTES.has(pathname.replace(/\/+$/, ''))) return { file: path.join(webDir, 'index.html'), type: TYPES['.html']! };
  const root = path.resolve(webDir);
  const file = path.resolve(root, `.${pathname}`);
  if (!file.startsWith(root + path.sep) || pathname.includes('\0')) return { status: 404 };
  const type = TYPES[path.extname(file).toLowerCase()];
  return type ? { file, type } : { status: 404 };
}

/** True for a page of the local scheme (the sandbox window may navigate within it, nowhere else). */
export const isLocalPage = (url: string): boolean => {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${LOCAL_SCHEME}:` && parsed.host === 'app';
  } catch {
    return false;
  }
};
