// What the sandbox's route groups share: reading a path parameter, Blockfrost's 404 for what the
// chain does not know, and the checks of the parameters several groups take, with Blockfrost's 400s.
import type { Request } from 'express';
import { badRequest, notFound } from '../../../blockfrost/http';
import { blockReference } from '../../../blockfrost/contract';

const TX_HASH = /^[0-9a-fA-F]{64}$/;

/** A path parameter as text ('' when absent). */
export function param(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}

/** The value, or Blockfrost's 404 when the chain does not know it (null). */
export function found<T>(value: T | null): T {
  if (value === null) throw notFound();
  return value;
}

/** `:hash_or_number`, checked as Blockfrost checks a block number or hash. */
export function blockRef(req: Request): string {
  return blockReference(param(req, 'hash_or_number'));
}

/** `:hash`, a transaction hash (64 hex digits), lower-cased. */
export function txHash(req: Request): string {
  const hash = param(req, 'hash');
  if (!TX_HASH.test(hash)) throw badRequest('Missing or malformed transaction hash.');
  return hash.toLowerCase();
}
