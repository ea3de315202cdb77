// The one bounded body reader of the gateway and its backends: a request body read whole up to a
// limit, or refused as soon as it passes it (the rest is drained and dropped, never held).
import type http from 'node:http';

export type BodyFailure = 'too-large' | 'error';

/**
 * Calls `done` once: with the body at its end, or with null and why as soon as it is larger than
 * `limit` bytes (by its Content-Length or by what arrived) or the request failed. One chunk, the
 * usual case for a small body, is handed over without a copy.
 */
export function readBoundedBody(req: http.IncomingMessage, limit: number, done: (body: Buffer | null, failure?: BodyFailure) => void): void {
  let finished = false;
  const finish = (body: Buffer | null, failure?: BodyFailure) => {
    if (finished) return;
    finished = true;
    done(body, failure);
  };
  if (Number(req.headers['content-length']) > limit) {
    req.resume();
    return finish(null, 'too-large');
  }
  let first: Buffer | null = null;
  let chunks: Buffer[] | null = null;
  let size = 0;
  req.on('data', (c: Buffer) => {
    if (finished) return;
    size += c.length;
    if (size > limit) {
      first = null;
      chunks = null;
      return finish(null, 'too-large');
    }
    if (!first) first = c;
    else (chunks ??= [first]).push(c);
  });
  req.on('end', () => finish(chunks ? Buffer.concat(chunks) : (first ?? Buffer.alloc(0))));
  req.on('error', () => finish(null, 'error'));
}
