import type { IncomingMessage, ServerResponse } from 'node:http';
import { blockfrostError } from '../blockfrost/http';
import { readBoundedBody } from './body';

/**
 * Every answer of the gateway may be read from any origin (dApps, the API reference's 'try it'): the
 * key travels in a header, never in a cookie, as Blockfrost allows. Each answer carries it in its
 * own writeHead rather than through an early res.setHeader, which would send every proxied answer's
 * headers through setHeader's checks one by one (Node's slow path for mixed header APIs).
 */
export const ANY_ORIGIN = { 'access-control-allow-origin': '*' } as const;

/** ANY_ORIGIN set ahead, for a backend that writes its own headers progressively (the sandbox's Express app, IPFS). */
export function allowAnyOrigin(res: ServerResponse): void {
  for (const [name, value] of Object.entries(ANY_ORIGIN)) res.setHeader(name, value);
}

export function sendJson(res: ServerResponse, status: number, body: unknown, extra?: Record<string, string>): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), ...ANY_ORIGIN, ...extra });
  res.end(payload);
}

/** Every gateway error has exactly the Blockfrost body: {status_code, error, message}. */
export function sendBlockfrostError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, blockfrostError(status, message));
}

/** How much of a refused JSON-RPC body is read to answer with its id; a longer one is answered with id null. */
const REFUSAL_BODY_READ = 64 * 1024;
/** JSON-RPC's code for a call refused for its key (the server-defined range, as Ethereum RPC providers use it). */
export const JSON_RPC_UNAUTHORIZED = -32001;
const JSON_RPC_LIMIT = -32005;
/** JSON-RPC's internal error: nothing on this server can answer the call. */
const JSON_RPC_INTERNAL = -32603;

const rpcId = (call: unknown): string | number | null => {
  if (call === null || typeof call !== 'object' || Array.isArray(call)) return null;
  const id = (call as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
};

/**
 * Refuses a JSON-RPC request (a wrong or missing key, a network turned off, no backend) with the HTTP status
 * Blockfrost uses and a JSON-RPC error object carrying the call's id (one per call of a batch), so
 * viem and ethers show the reason. The status line's reason phrase says it too: ethers reports a
 * refused HTTP status by its status line.
 */
export function sendJsonRpcRefusal(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  const code = status === 402 || status === 429 ? JSON_RPC_LIMIT : status >= 500 ? JSON_RPC_INTERNAL : JSON_RPC_UNAUTHORIZED;
  const answer = (body: Buffer | null) => {
    let parsed: unknown = null;
    if (body) {
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        parsed = null;
      }
    }
    const error = (id: string | number | null) => ({ jsonrpc: '2.0', id, error: { code, message } });
    const reply = Array.isArray(parsed) && parsed.length > 0 ? parsed.slice(0, 100).map((c) => error(rpcId(c))) : error(rpcId(parsed));
    const payload = JSON.stringify(reply);
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, message.replace(/[^\x20-\x7e]/g, ''), { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), ...ANY_ORIGIN });
    res.end(payload);
  };
  if (req.method !== 'POST' || req.readableEnded) return answer(null);
  readBoundedBody(req, REFUSAL_BODY_READ, (body) => answer(body)); // past the limit: answered without the ids
}
