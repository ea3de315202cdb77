// The gateway's side of transaction tracking: what records each POST /tx/submit of a network, and the
// Cairn extension GET /cairn/v1/txs/{hash}/status. Both are GatewayBackends the composition root hands
// to the gateway, so the requests pass the same admission steps (key, allow-lists, limits, metering).
import type http from 'node:http';
import type { Knex } from 'knex';
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import type { Db } from '../../db/index';
import type { Logger } from '../../logger';
import type { CairnExtension, GatewayBackend } from '../../gateway/backend';
import { sendBlockfrostError, sendJson } from '../../gateway/respond';
import { readBoundedBody } from '../../gateway/body';
import { errorMessageOf } from '../../gateway/gateway-response';
import { NOT_FOUND_MESSAGE } from '../../blockfrost/http';
import type { LocalChain } from '../../blockfrost/chain';
import { networks } from '../../../shared/networks';
import { TX_HASH_MESSAGE, TX_HASH_PATTERN } from '../../../shared/txs';
import { recordSubmission, txStatus, type LandedIn } from './store';
import type { TxChange } from './tracker';

/** What the sandbox's /tx/submit reads at most (its express.raw limit), and says beyond it. */
const SUBMIT_LIMIT = 32 * 1024;
const TOO_LARGE_MESSAGE = 'The transaction is larger than the maximum transaction size.';

/** The hash and validity end of a transaction's CBOR; null when it is not a transaction. */
export function txFacts(cbor: Uint8Array): { hash: string; ttlSlot: number | null } | null {
  try {
    const tx = CSL.FixedTransaction.from_bytes(cbor);
    try {
      const ttl = tx.body().ttl_bignum();
      return { hash: tx.transaction_hash().to_hex(), ttlSlot: ttl ? Number(ttl.to_str()) : null };
    } finally {
      tx.free();
    }
  } catch {
    return null;
  }
}

const isSubmit = (req: http.IncomingMessage, path: string): boolean => req.method === 'POST' && path.split('?', 1)[0] === '/tx/submit';
const isCbor = (req: http.IncomingMessage): boolean => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'application/cbor';

/**
 * A network's backend that also records every transaction submitted to it: pending once the backend
 * accepted it (200), invalid with the ledger's reason when it refused a transaction (400). The body is
 * read here (the backend's body parser then takes it as read), so its hash is known whatever the answer.
 */
export function trackingSubmissions(
  inner: GatewayBackend,
  opts: {
    db: Db;
    logger: Logger;
    slug: string;
    withChange?: (trx: Knex.Transaction, change: TxChange) => Promise<unknown>;
    /** For a chain served in process: where a project's transactions sit on it (recordSubmission's landedIn). */
    landedIn?: (projectId: number) => Promise<LandedIn | null>;
  },
): GatewayBackend {
  const network = networks.find((n) => n.slug === opts.slug)?.webhookId;
  if (network === undefined || network === null) return inner;
  const record = async (projectId: number, facts: { hash: string; ttlSlot: number | null }, cbor: Buffer, reason?: string) => {
    try {
      // The chain is found before the recording's transaction, which must not wait on the database.
      // Without it (the chain could not be read) the follower lands the transaction when it reaches its block.
      const landedIn = reason === undefined ? await opts.landedIn?.(projectId).catch(() => null) : undefined;
      await recordSubmission(opts.db, { projectId, network, txHash: facts.hash, ttlSlot: facts.ttlSlot, cbor, ...(reason !== undefined ? { reason } : {}) }, opts.withChange, landedIn ?? undefined);
    } catch (err) {
      opts.logger.warn({ network: opts.slug, err: { message: (err as Error).message } }, 'txs: recording a submitted transaction failed');
    }
  };
  return {
    kind: inner.kind,
    admits: inner.admits,
    ...(inner.close ? { close: () => inner.close!() } : {}),
    handle(req, res, path, call, steps) {
      if (!isSubmit(req, path) || !isCbor(req)) return inner.handle(req, res, path, call, steps);
      readBoundedBody(req, SUBMIT_LIMIT, (body, failure) => {
        if (failure === 'error') return void res.destroy();
        if (!body) return sendBlockfrostError(res, 400, TOO_LARGE_MESSAGE);
        // Read in full: the backend's body parser takes req.body as it is.
        (req as http.IncomingMessage & { body?: Buffer }).body = body;
        const facts = body.length > 0 ? txFacts(body) : null;
        if (facts) {
          res.once('finish', () => {
            if (res.statusCode === 200) void record(call.project.projectId, facts, body);
            else if (res.statusCode === 400) void record(call.project.projectId, facts, body, errorMessageOf(res) ?? 'Refused by the ledger.');
          });
        }
        inner.handle(req, res, path, call, steps);
      });
    },
  };
}

/** A chain served in process as recordSubmission's landedIn: the block its /txs/{hash} names. */
export const landedOn =
  (chain: LocalChain): LandedIn =>
  (hash) => {
    const tx = chain.tx(hash);
    return tx ? { height: tx.block_height, hash: tx.block } : null;
  };

export const CAIRN_TX_STATUS_TEMPLATE = '/cairn/v1/txs/{hash}/status';
const STATUS_PATH = /^\/cairn\/v1\/txs\/([^/]*)\/status$/;

/** GET /cairn/v1/txs/{hash}/status: the calling project's transaction; another project's answers 404. */
export function txStatusBackend(db: Db, logger: Logger): CairnExtension {
  return {
    kind: 'cairn',
    admits: 'request',
    template: (method, path) => (method === 'GET' && STATUS_PATH.test(path.split('?', 1)[0]!) ? CAIRN_TX_STATUS_TEMPLATE : null),
    handle(_req, res, path, call) {
      let hash = STATUS_PATH.exec(path.split('?', 1)[0]!)?.[1] ?? '';
      try {
        hash = decodeURIComponent(hash);
      } catch {
        // not a hash: answered below
      }
      if (!TX_HASH_PATTERN.test(hash)) return sendBlockfrostError(res, 400, TX_HASH_MESSAGE);
      txStatus(db, call.project.projectId, hash).then(
        (status) => (status ? sendJson(res, 200, status) : sendBlockfrostError(res, 404, NOT_FOUND_MESSAGE)),
        (err: unknown) => {
          logger.error({ err: { message: (err as Error).message } }, 'txs: reading a transaction status failed');
          sendBlockfrostError(res, 500, 'The transaction status could not be read.');
        },
      );
    },
  };
}
