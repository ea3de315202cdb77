import type { ServerResponse } from 'node:http';
import { blockfrostError } from '../chain/sandbox/http';

export function sendJson(res: ServerResponse, status: number, body: unknown, extra?: Record<string, string>): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), ...extra });
  res.end(payload);
}

/** Every gateway error has exactly the Blockfrost body: {status_code, error, message}. */
export function sendBlockfrostError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, blockfrostError(status, message));
}
