// Blockfrost error bodies and query parsing shared by the sandbox router.
import type { Request } from 'express';

/** Answers of Cairn's simulators carry this header (the dashboard's 'Sandbox data'): 'simulated' for the sandbox chain, 'development-chain' for the EVM development chain. */
export const SANDBOX_HEADER = 'X-Cairn-Sandbox';

/** Pagination with Blockfrost's defaults filled in. */
export interface PageRequest {
  count: number;
  page: number;
  order: 'asc' | 'desc';
}

/** `/blocks/{hash_or_number}` and `/blocks/:hash` have the same shape: `/blocks/{}`. */
export const pathShape = (p: string): string => p.replace(/\{[^}]+\}/g, '{}').replace(/:\w+/g, '{}');

export interface BlockfrostErrorBody {
  status_code: number;
  error: string;
  message: string;
}

const ERROR_NAMES: Record<number, string> = {
  400: 'Bad Request',
  402: 'Project Over Limit',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  // Cairn's own extensions (a devnet's steering call meeting another's change, a snapshot name taken).
  409: 'Conflict',
  413: 'Payload Too Large',
  418: 'Requested Banned',
  425: 'Pin Queue Full',
  429: 'Project Over Limit',
  500: 'Internal Server Error',
};

export const NOT_FOUND_MESSAGE = 'The requested component has not been found.';
export const INTERNAL_ERROR_MESSAGE = 'An unexpected response was received from the backend.';
/** Blockfrost's answer (400) for a path its document does not define. */
export const INVALID_PATH_MESSAGE = 'Invalid path. Please check https://docs.blockfrost.io/';

export function blockfrostError(status: number, message: string): BlockfrostErrorBody {
  return { status_code: status, error: ERROR_NAMES[status] ?? 'Error', message };
}

/** Thrown by handlers; the router's error handler answers it in the Blockfrost body. */
export class BlockfrostHttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'BlockfrostHttpError';
  }
}

export const badRequest = (message: string): BlockfrostHttpError => new BlockfrostHttpError(400, message);
export const notFound = (): BlockfrostHttpError => new BlockfrostHttpError(404, NOT_FOUND_MESSAGE);

const PAGE_MAX = 21_474_836;

function intParam(query: Request['query'], name: string, min: number, max: number, fallback: number): number {
  const raw = query[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^[+-]?\d+$/.test(raw.trim())) throw badRequest(`querystring/${name} must be integer`);
  const value = Number(raw.trim());
  if (value < min) throw badRequest(`querystring/${name} must be >= ${min}`);
  if (value > max) throw badRequest(`querystring/${name} must be <= ${max}`);
  return value;
}

/**
 * Blockfrost pagination: count 1–100 (default 100), page ≥ 1 (default 1), order asc|desc
 * (default asc, only where the endpoint is ordered). Bad values throw a 400.
 */
export function parsePagination(query: Request['query'], withOrder: boolean): PageRequest {
  const count = intParam(query, 'count', 1, 100, 100);
  const page = intParam(query, 'page', 1, PAGE_MAX, 1);
  let order: PageRequest['order'] = 'asc';
  if (withOrder && query.order !== undefined) {
    if (query.order !== 'asc' && query.order !== 'desc') throw badRequest('querystring/order must be equal to one of the allowed values');
    order = query.order;
  }
  return { count, page, order };
}

/** An optional string query parameter; repeated or nested values are a 400. */
export function stringParam(query: Request['query'], name: string): string | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw badRequest(`querystring/${name} must be string`);
  return raw;
}
