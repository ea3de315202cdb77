// Blockfrost's request checks where its backend (blockfrost-backend-ryo on @blockfrost/blockfrost-utils)
// makes them, so a Cairn backend (the sandbox chain) refuses a request with the same status and
// sentence, in the same order.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import type { NextFunction, Request, Response } from 'express';
import { parseShelleyAddress, parseStakeAddress, type CardanoNetwork } from '../../shared/cardano/address';
import { decodeBech32 } from '../../shared/cardano/bech32';
import { INVALID_PATH_MESSAGE, badRequest, blockfrostError, parsePagination, stringParam } from './http';
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
 * /tx/submit's answer (cardano-submit-api's, which Blockfrost passes on as the message) for a body
 * that is no CBOR list and so no transaction of any era: each of the six Shelley-based eras' decoders
 * fails at offset 0.
 */
export const SUBMIT_NOT_A_TX_MESSAGE = `{"contents":{"contents":[${Array(6).fill('"DecoderErrorDeserialiseFailure \\"Shelley Tx\\" (DeserialiseFailure 0 \\"expected list len or indef\\")"').join(',')}],"tag":"TxCmdTxReadError"},"tag":"TxSubmitFail"}`;

/** Whether a /tx/submit body starts as a transaction must: a CBOR array (major type 4). */
export function startsAsCborList(body: Uint8Array): boolean {
  return body.length > 0 && body[0]! >> 5 === 4;
}

/** Express middleware: the request's path with runs of slashes as one (collapseSlashes), its query kept. */
export function singleSlashes(req: Request, _res: Response, next: NextFunction): void {
  const q = req.url.indexOf('?');
  const path = q === -1 ? req.url : req.url.slice(0, q);
  if (path.includes('//')) req.url = collapseSlashes(path) + (q === -1 ? '' : req.url.slice(q));
  next();
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
 * define the path or not for this method, else the sandbox's own 404 saying it does not serve that endpoint.
 */
export function unservedPath(notServedMessage: string) {
  return (req: Request, res: Response): void => {
    const route = blockfrostMethods().match(req.path);
    if (!route || !definesMethod(route.methods, req.method)) {
      res.status(400).json(blockfrostError(400, INVALID_PATH_MESSAGE));
      return;
    }
    res.status(404).json(blockfrostError(404, notServedMessage));
  };
}

// ---- path and query parameters: each check with the sentence Blockfrost answers it with ----

export const TX_HASH_MESSAGE = 'Missing or malformed transaction hash.';
export const EPOCH_NUMBER_MESSAGE = 'Missing, out of range or malformed epoch_number.';
export const ASSET_MESSAGE = 'Invalid or malformed asset format.';
export const POLICY_MESSAGE = 'Invalid or malformed policy format.';
export const POOL_ID_MESSAGE = 'Invalid or malformed pool id format.';
export const STAKE_ADDRESS_MESSAGE = 'Invalid or malformed stake address format.';
export const LABEL_MESSAGE = 'Invalid or malformed label format.';
export const BOUNDS_MESSAGE = 'Invalid (malformed or out of range) from/to parameter(s).';
export const DREP_MESSAGE = 'Invalid or malformed DRep id.';
export const CC_MESSAGE = 'Invalid or malformed cc credential id.';
export const GOV_ACTION_MESSAGE = 'Invalid or malformed governance action id (CIP-129 gov_action1…).';
export const CERT_INDEX_MESSAGE = 'Invalid or malformed certificate index.';
export const TICKER_MESSAGE = 'Invalid or malformed ticker.';
export const ORDER_BY_MESSAGE = 'querystring/order_by must be equal to one of the allowed values';
export const XPUB_MESSAGE = 'Invalid or malformed xpub: 64 bytes (public key and chain code) in hex.';
export const XPUB_PATH_MESSAGE = 'role and index must be whole numbers below 2^31 (soft derivation).';

const HEX56 = /^[0-9a-fA-F]{56}$/;
const HEX64 = /^[0-9a-fA-F]{64}$/;

/** A transaction hash (64 hex digits), lower-cased. */
export function txHashParam(raw: string): string {
  if (!HEX64.test(raw)) throw badRequest(TX_HASH_MESSAGE);
  return raw.toLowerCase();
}

/** An epoch number of /epochs/{number}. */
export function epochNumberParam(raw: string): number {
  if (!/^\d{1,9}$/.test(raw)) throw badRequest(EPOCH_NUMBER_MESSAGE);
  return Number(raw);
}

/** A slot or epoch number as Blockfrost checks it: an integer first, then within 0..2^31-1. */
export function int32Param(name: string, raw: string): number {
  if (!/^-?\d+$/.test(raw)) throw badRequest(`params/${name} must be integer`);
  const n = Number(raw);
  if (n < 0 || n > MAX_SIGNED_INT) throw badRequest(`Missing, out of range or malformed ${name}.`);
  return n;
}

/** An asset unit (policy id and asset name in hex), as given; `lovelace` too where the path takes it. */
export function assetParam(raw: string, lovelace = false): string {
  if (lovelace && raw === 'lovelace') return raw;
  if (!/^[0-9a-fA-F]{56,120}$/.test(raw)) throw badRequest(ASSET_MESSAGE);
  return raw;
}

export function policyParam(raw: string): string {
  if (!HEX56.test(raw)) throw badRequest(POLICY_MESSAGE);
  return raw;
}

/** A pool id, bech32 (pool1…) or 56 hex digits, as given. */
export function poolIdParam(raw: string): string {
  if (poolIdHex(raw) === null) throw badRequest(POOL_ID_MESSAGE);
  return raw;
}

/** The 28 bytes of a pool id in hex, or null when it is no pool id. */
export function poolIdHex(raw: string): string | null {
  const bech = decodeBech32(raw);
  if (bech !== null && bech.prefix === 'pool' && bech.bytes.length === 28) return Buffer.from(bech.bytes).toString('hex');
  return HEX56.test(raw) ? raw.toLowerCase() : null;
}

export function stakeAddressParam(raw: string, network: CardanoNetwork): string {
  if (!isStakeAddressOfNetwork(raw, network)) throw badRequest(STAKE_ADDRESS_MESSAGE);
  return raw;
}

/** An address of /addresses/{address} and /mempool/addresses/{address} (isQueryableAddress). */
export function addressParam(raw: string, network: CardanoNetwork): string {
  if (!isQueryableAddress(raw, network)) throw badRequest(ADDRESS_MESSAGE);
  return raw;
}

/** A Shelley address of the network (nut.link oracles). */
export function shelleyAddressParam(raw: string, network: CardanoNetwork): string {
  if (!isAddressOfNetwork(raw, network)) throw badRequest(ADDRESS_MESSAGE);
  return raw;
}

/** A 28-byte hash (`what`: script hash, …), lower-cased. */
export function hash28Param(raw: string, what: string): string {
  if (!HEX56.test(raw)) throw badRequest(`Invalid or malformed ${what} format.`);
  return raw.toLowerCase();
}

/** A 32-byte hash (`what`: datum hash, …), as given. */
export function hash32Param(raw: string, what: string): string {
  if (!HEX64.test(raw)) throw badRequest(`Invalid or malformed ${what} format.`);
  return raw;
}

export function labelParam(raw: string): string {
  if (!/^\d{1,20}$/.test(raw)) throw badRequest(LABEL_MESSAGE);
  return raw;
}

export function certIndexParam(raw: string): number {
  if (!/^\d{1,5}$/.test(raw)) throw badRequest(CERT_INDEX_MESSAGE);
  return Number(raw);
}

export function tickerParam(raw: string): string {
  if (!/^[\x21-\x7e]{1,64}$/.test(raw)) throw badRequest(TICKER_MESSAGE);
  return raw;
}

/** /utils/addresses/xpub/{xpub}/{role}/{index}: soft derivation only. */
export function xpubParams(xpub: string, role: string, index: string): { xpub: string; role: number; index: number } {
  if (!/^[0-9a-fA-F]{128}$/.test(xpub)) throw badRequest(XPUB_MESSAGE);
  if (!/^\d{1,10}$/.test(role) || !/^\d{1,10}$/.test(index) || Number(role) >= 2 ** 31 || Number(index) >= 2 ** 31) throw badRequest(XPUB_PATH_MESSAGE);
  return { xpub, role: Number(role), index: Number(index) };
}

/** `from`/`to` of the lists that take them: "height" or "height:index". */
export function boundsQuery(query: Request['query']): { from?: string; to?: string } {
  const from = stringParam(query, 'from');
  const to = stringParam(query, 'to');
  for (const b of [from, to]) if (b !== undefined && !/^\d{1,15}(?::\d{1,7})?$/.test(b)) throw badRequest(BOUNDS_MESSAGE);
  boundsInOrder(from, to);
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/**
 * Blockfrost's further checks of `from`/`to` (@blockfrost/blockfrost-utils'
 * getAdditionalParametersFromRequest): heights and indexes within 0..2^31-1, and `from` not after
 * `to` (a higher height, or at the same height a higher index when both give one).
 */
function boundsInOrder(from: string | undefined, to: string | undefined): void {
  const parts = (b: string | undefined): number[] | undefined => b?.split(':').map(Number);
  const f = parts(from);
  const t = parts(to);
  if ([...(f ?? []), ...(t ?? [])].some((n) => n > MAX_SIGNED_INT)) throw badRequest(BOUNDS_MESSAGE);
  if (!f || !t) return;
  if (f[0]! > t[0]! || (f[1] !== undefined && t[1] !== undefined && f[0] === t[0] && f[1] > t[1])) throw badRequest(BOUNDS_MESSAGE);
}

/** `from`/`to` as block heights. */
export function heightBoundsQuery(query: Request['query']): { from?: number; to?: number } {
  const from = stringParam(query, 'from');
  const to = stringParam(query, 'to');
  for (const b of [from, to]) if (b !== undefined && !/^\d{1,15}$/.test(b)) throw badRequest(BOUNDS_MESSAGE);
  boundsInOrder(from, to);
  return { ...(from === undefined ? {} : { from: Number(from) }), ...(to === undefined ? {} : { to: Number(to) }) };
}

/** A boolean query parameter (`true`/`false`), undefined when absent. */
export function booleanQuery(query: Request['query'], name: string): boolean | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw badRequest(`querystring/${name} must be boolean`);
}
