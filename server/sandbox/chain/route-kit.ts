// What every resource's routes share: reading a path parameter and Blockfrost's 404 for what the
// chain does not know. The checks of the parameters themselves are Blockfrost's
// (server/blockfrost/contract.ts).
import type { Request } from 'express';
import { badRequest, notFound, parsePagination, type PageRequest } from '../../blockfrost/http';
import { blockReference, txHashParam } from '../../blockfrost/contract';

/** A path parameter as text ('' when absent). */
export function param(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}

/** The value, or Blockfrost's 404 when the chain does not know it (null); undefined, when `malformed` is given, is its 400. */
export function found<T>(value: T | null | undefined, malformed?: string): T {
  if (value === undefined && malformed !== undefined) throw badRequest(malformed);
  if (value === null || value === undefined) throw notFound();
  return value;
}

/** `:hash_or_number`, checked as Blockfrost checks a block number or hash. */
export function blockRef(req: Request): string {
  return blockReference(param(req, 'hash_or_number'));
}

/** `:hash`, a transaction hash, lower-cased. */
export function txHash(req: Request): string {
  return txHashParam(param(req, 'hash'));
}

/** `count`, `page` and `order` of a list that Blockfrost orders. */
export const ordered = (req: Request): PageRequest => parsePagination(req.query, true);
/** `count` and `page` of a list without `order`. */
export const unordered = (req: Request): PageRequest => parsePagination(req.query, false);
