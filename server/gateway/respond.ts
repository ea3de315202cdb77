import type { ServerResponse } from 'node:http';
import { blockfrostError } from '../blockfrost/http';

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
