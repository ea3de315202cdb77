// What the gateway does to a request before any backend sees it so that every network, an upstream
// or the sandbox, answers it as Blockfrost's public API does (the rules live in server/blockfrost/contract.ts).
import type http from 'node:http';
import { collapseSlashes, definesMethod } from '../blockfrost/contract';
import { INVALID_PATH_MESSAGE } from '../blockfrost/http';
import type { PathRoute } from '../blockfrost/methods';
import { sendBlockfrostError } from './respond';

/** The request's path (without its query) as Blockfrost reads it: doubled slashes count as one. */
export const blockfrostPath = collapseSlashes;

/**
 * Whether the request's method is one Blockfrost answers on its path (HEAD wherever GET is; a path
 * its document does not define only for reading, answered by the backend); else answers its 400
 * 'Invalid path' and returns false.
 */
export function methodAllowed(route: PathRoute | undefined, req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (definesMethod(route?.methods, req.method ?? 'GET')) return true;
  sendBlockfrostError(res, 400, INVALID_PATH_MESSAGE);
  return false;
}
