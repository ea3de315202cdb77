// Blockfrost's request checks where its backend (blockfrost-backend-ryo on @blockfrost/blockfrost-utils)
// makes them, so a Cairn backend (the sandbox chain) refuses a request with the same status and
// sentence, in the same order.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import type { NextFunction, Request, Response } from 'express';
import { parseShelleyAddress, parseStakeAddress, type CardanoNetwork } from '../../shared/cardano/address';
import { INVALID_PATH_MESSAGE, badRequest, blockfrostError, parsePagination } from './http';
import { blockfrostMethods, blockfrostQueryParameters } from './methods';

export const BLOCK_HASH_MESSAGE = 'Missing or malformed block hash.';
export const BLOCK_NUMBER_MESSAGE = 'Missing, out of range or malformed block number.';
export const ADDRESS_MESSAGE = 'Invalid address for this network or malformed address format.';

/**
 * The path Blockfrost answers for a request path: runs of slashes count as one (Blockfrost's public
 * API serves `/api/v0//addresses/…`, as Blaze sends it, as `/api/v0/addresses/…`).
 */
export function collapseSlashes(path: string): string {
  return path.includes('//') ? path.replace(/\/{2,}/g, '/') : path;
}

/**
 * Whether Blockfrost answers a method on a path: one its document defines for the path (`methods`,
 * HEAD wherever GET is), or for a path it does not define, a read. Anything else is its 400
 * 'Invalid path' (its router has no such route and its not-found handler answers that), never a 405.
 */
export function definesMethod(methods: readonly string[] | undefined, method: string): boolean {
  return methods ? methods.includes(method) : method === 'GET' || method === 'HEAD';
}

/** Whether a string is a Shelley address of this network (not whether the chain knows it). */
export function isAddressOfNetwork(address: string, network: CardanoNetwork): boolean {
  const parsed = parseShelleyAddress(address);
  if (!parsed) return false;
  return network === 'mainnet' ? parsed.network === 'mainnet' : parsed.network !== 'mainnet';
}

/** Whether a string is a stake address of this network. */
export function isStakeAddressOfNetwork(address: string, network: CardanoNetwork): boolean {
  const parsed = parseStakeAddress(address);
  return parsed !== null && parsed.mainnet === (network === 'mainnet');
}

const MAX_SIGNED_INT = 2_147_483_647;

/**
 * A block's hash or number as Blockfrost reads it: whatever JavaScript reads as a number is a block
 * number (0 to 2^31-1), anything else must be a 64-character hex hash. Returns the canonical reference
 * (a number in decimal, a hash in lower case).
 */
export function blockReference(ref: string): string {
  if (ref !== '' && !Number.isNaN(Number(ref))) {
    const n = Number(ref);
    if (!Number.isInteger(n) || n < 0 || n > MAX_SIGNED_INT) throw badRequest(BLOCK_NUMBER_MESSAGE);
    return String(n);
  }
  if (!/^[0-9a-fA-F]{64}$/.test(ref)) throw badRequest(BLOCK_HASH_MESSAGE);
  return ref.toLowerCase();
}

/**
 * An address Blockfrost answers about on this network: a Shelley address of the network, or any
 * well-formed Byron address (base58: Ae2…, DdzFF…, and the testnets' own), which Blockfrost checks
 * for form only.
 */
export function isQueryableAddress(address: string, network: CardanoNetwork): boolean {
  if (isAddressOfNetwork(address, network)) return true;
  return /^[1-9A-HJ-NP-Za-km-z]{20,}$/.test(address) && CSL.ByronAddress.is_valid(address);
}

/**
 * Blockfrost validates the query string against its document's schema before the handler looks at
 * the path's parameters: /blocks/zz/txs?count=500 answers the count's 400, not the hash's. The
 * pagination parameters of every GET path that names them are checked here, first.
 */
export function queryFirst(req: Request, _res: Response, next: NextFunction): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return next();
  const q = req.query;
  if (q.count === undefined && q.page === undefined && q.order === undefined) return next();
  const route = blockfrostMethods().match(req.path);
  const names = route && blockfrostQueryParameters().get(route.template);
  if (!names || !(names.has('count') || names.has('page'))) return next();
  try {
    parsePagination(q, names.has('order'));
  } catch (err) {
    return next(err);
  }
  next();
}

/**
 * The answer for a path nothing served: Blockfrost's 400 'Invalid path' when its document does not
 * define the path, else the sandbox's own 404 saying it does not serve that endpoint.
 */
export function unservedPath(notServedMessage: string) {
  return (req: Request, res: Response): void => {
    if (!blockfrostMethods().match(req.path)) {
      res.status(400).json(blockfrostError(400, INVALID_PATH_MESSAGE));
      return;
    }
    res.status(404).json(blockfrostError(404, notServedMessage));
  };
}
