// The gateway's response class: it keeps the first bytes of an error answer (status 400 and above),
// whoever writes it (the gateway itself, a proxied backend, the sandbox chain, IPFS), so metering can
// store the error's message with the failed request. Successful answers cost one comparison a write.
import http from 'node:http';

/** An error body longer than this is not read for its message (Blockfrost's are about 100 bytes). */
const KEPT_BYTES = 2048;

type Chunk = string | Buffer | Uint8Array;
const KEPT = Symbol('cairn.errorBody');
type Kept = { chunks: Buffer[] | null; bytes: number };
type Keeping = http.ServerResponse & { [KEPT]?: Kept };

function keep(res: Keeping, chunk: unknown): void {
  if (res.statusCode < 400) return;
  if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) return;
  const kept = (res[KEPT] ??= { chunks: [], bytes: 0 });
  if (!kept.chunks) return;
  const b = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
  kept.bytes += b.length;
  if (kept.bytes > KEPT_BYTES) kept.chunks = null;
  else kept.chunks.push(b);
}

const superWrite = http.ServerResponse.prototype.write as (...args: unknown[]) => boolean;
const superEnd = http.ServerResponse.prototype.end as (...args: unknown[]) => http.ServerResponse;

function write(this: Keeping, chunk: Chunk, ...rest: unknown[]): boolean {
  keep(this, chunk);
  return superWrite.call(this, chunk, ...rest);
}

function end(this: Keeping, ...args: unknown[]): http.ServerResponse {
  if (typeof args[0] !== 'function') keep(this, args[0]);
  return superEnd.apply(this, args);
}

export class GatewayResponse<Req extends http.IncomingMessage = http.IncomingMessage> extends http.ServerResponse<Req> {}
Object.defineProperty(GatewayResponse.prototype, 'write', { value: write, writable: true, configurable: true });
Object.defineProperty(GatewayResponse.prototype, 'end', { value: end, writable: true, configurable: true });

/**
 * Keeps doing so on a response whose prototype a framework replaces (Express sets its own on every
 * response it handles, the sandbox chain's router among them).
 */
export function keepErrorBodyOwn(res: http.ServerResponse): void {
  if (!(res instanceof GatewayResponse)) return;
  Object.defineProperty(res, 'write', { value: write, writable: true, configurable: true });
  Object.defineProperty(res, 'end', { value: end, writable: true, configurable: true });
}

/** The message of an error answer: Blockfrost's `message`, or a JSON-RPC error's; undefined for a success or an unreadable body. */
export function errorMessageOf(res: http.ServerResponse): string | undefined {
  const chunks = (res as Keeping)[KEPT]?.chunks;
  if (!chunks || chunks.length === 0) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
  const one = Array.isArray(body) ? body[0] : body;
  if (!one || typeof one !== 'object') return undefined;
  const o = one as { message?: unknown; error?: { message?: unknown } };
  if (typeof o.message === 'string') return o.message;
  if (o.error && typeof o.error === 'object' && typeof o.error.message === 'string') return o.error.message;
  return undefined;
}
