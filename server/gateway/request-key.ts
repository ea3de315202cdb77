// Where the gateway finds a request's project key: the `project_id` header (Blockfrost's way), else
// the first segment of the path (`/<key>/api/v0/…`, the form of providers whose clients take only a
// URL), else the password of basic auth (`https://:<key>@host/…`). The one place that knows these
// forms; the key cache then decides whether the key is good.
import type http from 'node:http';
import { PROJECT_KEY } from '../../shared/project-key';

export type KeySource = 'header' | 'path' | 'basic';

export interface RequestKey {
  /** The key as sent (a header sent twice is an array, which no key matches); undefined when none was sent. */
  key: string | string[] | undefined;
  source: KeySource | null;
  /** The path without a key segment: what the gateway routes on and what anything downstream sees. */
  pathname: string;
}

/** The password of an `Authorization: Basic …` header, or null. */
export function basicAuthPassword(header: string): string | null {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i === -1 ? null : decoded.slice(i + 1) || null;
}

/** A key-shaped first segment of the path, with the path that follows it ('/' when nothing does). */
function keyInPath(pathname: string): { key: string; rest: string } | null {
  const end = pathname.indexOf('/', 1);
  const first = end === -1 ? pathname.slice(1) : pathname.slice(1, end);
  if (!PROJECT_KEY.test(first)) return null;
  return { key: first, rest: end === -1 ? '/' : pathname.slice(end) };
}

/**
 * The request's key and the path to route on. A key segment is always taken off the path, even when
 * the header also names a key (the header wins), so no key ever reaches a backend, a log or metering.
 */
export function requestKey(req: http.IncomingMessage, pathname: string): RequestKey {
  const inPath = keyInPath(pathname);
  const path = inPath ? inPath.rest : pathname;
  const header = req.headers.project_id;
  if (header !== undefined) return { key: header, source: 'header', pathname: path };
  if (inPath) return { key: inPath.key, source: 'path', pathname: path };
  const auth = req.headers.authorization;
  const password = auth ? basicAuthPassword(auth) : null;
  if (auth) return { key: password ?? '', source: 'basic', pathname: path };
  return { key: undefined, source: null, pathname: path };
}
