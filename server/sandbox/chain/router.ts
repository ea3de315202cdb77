// Express router serving a sandbox chain in the Blockfrost API shapes. Mount it at the API root of
// a network (the paths are relative to /api/v0). Every response, errors included, carries
// `X-Cairn-Sandbox: simulated`.
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { decodeBech32 } from '../../../shared/cardano/bech32';
import { isStakeAddressOfNetwork, type SandboxChain } from './api';
import { LedgerRefusal } from './ledger';
import { ogmiosResult, type ResolvedOutput } from './plutus';
import { parseAdditionalUtxos, txFromBody } from './evaluate-input';
import { mountStakeRoutes } from './routes/stake';
import { mountTxsRoutes } from './routes/txs';
import { ADDRESS_MESSAGE, isQueryableAddress, queryFirst, unservedPath } from '../../blockfrost/contract';
import { blockRef, found, param, txHash } from './routes/params';
import { mountGovRoutes } from './routes/gov';
import {
  BlockfrostHttpError,
  INTERNAL_ERROR_MESSAGE,
  badRequest,
  blockfrostError,
  parsePagination,
  stringParam,
} from '../../blockfrost/http';
import { SANDBOX_HEADER } from '../../blockfrost/http';

export { SANDBOX_HEADER };

export const SANDBOX_HEADER_VALUE = 'simulated';

export interface SandboxRouterOptions {
  /** `url` of GET /; default: this router's own absolute URL as the request reached it. */
  url?: string;
  /** `version` of GET /; default '0.1.0'. */
  version?: string;
  /** Answer unknown paths with the Blockfrost 404 (default true); false passes them on. */
  catchAll?: boolean;
}

const EPOCH_NUMBER = /^\d{1,9}$/;
const ASSET_UNIT = /^[0-9a-fA-F]{56,120}$/;
const BOUND = /^\d{1,15}(?::\d{1,7})?$/;
const HASH28 = /^[0-9a-fA-F]{56}$/;
const HASH32 = /^[0-9a-fA-F]{64}$/;
const LABEL = /^\d{1,20}$/;

/** The 404 of an endpoint the sandbox does not serve (the chain's README, 'What the sandbox serves'). */
export const NOT_SERVED_MESSAGE = 'The requested component has not been found. The Cairn sandbox chain does not serve this endpoint; configure an upstream for this network to use it.';

export function sandboxRouter(chain: SandboxChain, options: SandboxRouterOptions = {}): Router {
  const router = Router();
  const version = options.version ?? '0.1.0';

  router.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader(SANDBOX_HEADER, SANDBOX_HEADER_VALUE);
    next();
  });
  router.use(queryFirst);

  router.get('/', (req, res) => {
    res.json({ url: options.url ?? `${req.protocol}://${req.get('host') ?? 'localhost'}${req.baseUrl}/`, version });
  });
  router.get('/health', (_req, res) => {
    res.json({ is_healthy: true });
  });
  router.get('/health/clock', (_req, res) => {
    res.json({ server_time: chain.now() });
  });
  router.get('/genesis', (_req, res) => {
    res.json(chain.genesis());
  });
  router.get('/network', (_req, res) => {
    res.json(chain.networkInfo());
  });

  router.get('/blocks/latest', (_req, res) => {
    res.json(chain.latestBlock());
  });
  router.get('/blocks/latest/txs', (req, res) => {
    const page = parsePagination(req.query, true);
    res.json(found(chain.blockTxs(chain.tipHeight(), page)));
  });
  router.get('/blocks/:hash_or_number', (req, res) => {
    res.json(found(chain.blockAt(blockRef(req))));
  });
  router.get('/blocks/:hash_or_number/next', (req, res) => {
    const ref = blockRef(req);
    res.json(found(chain.blockNext(ref, parsePagination(req.query, false))));
  });
  router.get('/blocks/:hash_or_number/previous', (req, res) => {
    const ref = blockRef(req);
    res.json(found(chain.blockPrevious(ref, parsePagination(req.query, false))));
  });
  router.get('/blocks/:hash_or_number/txs', (req, res) => {
    const ref = blockRef(req);
    res.json(found(chain.blockTxs(ref, parsePagination(req.query, true))));
  });

  router.get('/txs/:hash', (req, res) => {
    res.json(found(chain.tx(txHash(req))));
  });
  router.get('/txs/:hash/utxos', (req, res) => {
    res.json(found(chain.txUtxos(txHash(req))));
  });
  router.get('/txs/:hash/delegations', (req, res) => {
    res.json(found(chain.txDelegations(txHash(req))));
  });

  router.get('/epochs/latest', (_req, res) => {
    res.json(chain.latestEpoch());
  });
  router.get('/epochs/:number', (req, res) => {
    const n = param(req, 'number');
    if (!EPOCH_NUMBER.test(n)) throw badRequest('Missing, out of range or malformed epoch_number.');
    res.json(found(chain.epoch(Number(n))));
  });

  const addressParam = (req: Request): string => {
    const address = param(req, 'address');
    if (!isQueryableAddress(address, chain.network)) throw badRequest(ADDRESS_MESSAGE);
    return address;
  };
  router.get('/addresses/:address', (req, res) => {
    res.json(found(chain.address(addressParam(req))));
  });
  router.get('/addresses/:address/transactions', (req, res) => {
    const address = addressParam(req);
    const page = parsePagination(req.query, true);
    const from = stringParam(req.query, 'from');
    const to = stringParam(req.query, 'to');
    if (from !== undefined && !BOUND.test(from)) throw badRequest('Invalid (malformed or out of range) from/to parameter(s).');
    if (to !== undefined && !BOUND.test(to)) throw badRequest('Invalid (malformed or out of range) from/to parameter(s).');
    res.json(found(chain.addressTransactions(address, { ...page, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) })));
  });

  router.get('/pools/extended', (req, res) => {
    res.json(chain.poolsExtended(parsePagination(req.query, true)));
  });
  router.get('/pools/:pool_id', (req, res, next) => {
    const id = param(req, 'pool_id');
    // Blockfrost's own paths under /pools that the sandbox does not serve.
    if (id === 'retired' || id === 'retiring') return next();
    const bech = decodeBech32(id);
    const valid = (bech !== null && bech.prefix === 'pool' && bech.bytes.length === 28) || /^[0-9a-fA-F]{56}$/.test(id);
    if (!valid) throw badRequest('Invalid or malformed pool id format.');
    res.json(found(chain.pool(id)));
  });
  router.get('/assets/:asset', (req, res) => {
    const unit = param(req, 'asset');
    if (!ASSET_UNIT.test(unit)) throw badRequest('Invalid or malformed asset format.');
    res.json(found(chain.asset(unit)));
  });

  router.get('/epochs/latest/parameters', (_req, res) => {
    res.json(found(chain.parameters(chain.epochOfHeight(chain.tipHeight()))));
  });
  router.get('/epochs/:number/parameters', (req, res) => {
    const n = param(req, 'number');
    if (!EPOCH_NUMBER.test(n)) throw badRequest('Missing, out of range or malformed epoch_number.');
    res.json(found(chain.parameters(Number(n))));
  });

  router.get('/addresses/:address/extended', (req, res) => {
    res.json(found(chain.addressExtended(addressParam(req))));
  });
  router.get('/addresses/:address/utxos', (req, res) => {
    const address = addressParam(req);
    res.json(found(chain.addressUtxos(address, parsePagination(req.query, true))));
  });
  router.get('/addresses/:address/utxos/:asset', (req, res) => {
    const address = addressParam(req);
    const unit = param(req, 'asset');
    if (unit !== 'lovelace' && !ASSET_UNIT.test(unit)) throw badRequest('Invalid or malformed asset format.');
    const rows = found(chain.addressUtxos(address, parsePagination(req.query, true), unit));
    res.json(rows);
  });

  router.get('/txs/:hash/metadata', (req, res) => {
    res.json(found(chain.txMetadata(txHash(req))));
  });
  router.get('/txs/:hash/metadata/cbor', (req, res) => {
    res.json(found(chain.txMetadataCbor(txHash(req))));
  });

  const stakeParam = (req: Request): string => {
    const stake = param(req, 'stake_address');
    if (!isStakeAddressOfNetwork(stake, chain.network)) throw badRequest('Invalid or malformed stake address format.');
    return stake;
  };
  router.get('/accounts/:stake_address', (req, res) => {
    res.json(found(chain.account(stakeParam(req))));
  });
  router.get('/accounts/:stake_address/addresses', (req, res) => {
    const stake = stakeParam(req);
    res.json(found(chain.accountAddresses(stake, parsePagination(req.query, true))));
  });
  router.get('/accounts/:stake_address/utxos', (req, res) => {
    const stake = stakeParam(req);
    res.json(found(chain.accountUtxos(stake, parsePagination(req.query, true))));
  });

  router.get('/assets', (req, res) => {
    res.json(chain.assets(parsePagination(req.query, true)));
  });
  router.get('/assets/policy/:policy_id', (req, res) => {
    const policy = param(req, 'policy_id');
    if (!HASH28.test(policy)) throw badRequest('Invalid or malformed policy format.');
    res.json(found(chain.assetsOfPolicy(policy, parsePagination(req.query, true))));
  });
  router.get('/assets/:asset/addresses', (req, res) => {
    const unit = param(req, 'asset');
    if (!ASSET_UNIT.test(unit)) throw badRequest('Invalid or malformed asset format.');
    res.json(found(chain.assetAddresses(unit, parsePagination(req.query, true))));
  });

  router.get('/pools', (req, res) => {
    res.json(chain.pools(parsePagination(req.query, true)));
  });

  const hash28 = (req: Request, name: string, what: string): string => {
    const h = param(req, name);
    if (!HASH28.test(h)) throw badRequest(`Invalid or malformed ${what} format.`);
    return h;
  };
  const hash32 = (req: Request, name: string, what: string): string => {
    const h = param(req, name);
    if (!HASH32.test(h)) throw badRequest(`Invalid or malformed ${what} format.`);
    return h;
  };
  router.get('/scripts/datum/:datum_hash', (req, res) => {
    res.json(found(chain.datum(hash32(req, 'datum_hash', 'datum hash'))));
  });
  router.get('/scripts/datum/:datum_hash/cbor', (req, res) => {
    res.json(found(chain.datumCbor(hash32(req, 'datum_hash', 'datum hash'))));
  });
  router.get('/scripts/:script_hash', (req, res) => {
    res.json(found(chain.script(hash28(req, 'script_hash', 'script hash'))));
  });
  router.get('/scripts/:script_hash/cbor', (req, res) => {
    res.json(found(chain.scriptCbor(hash28(req, 'script_hash', 'script hash'))));
  });

  router.get('/metadata/txs/labels', (req, res) => {
    res.json(chain.metadataLabels(parsePagination(req.query, true)));
  });
  router.get('/metadata/txs/labels/:label', (req, res) => {
    const label = param(req, 'label');
    if (!LABEL.test(label)) throw badRequest('Invalid or malformed label format.');
    res.json(found(chain.metadataLabel(label, parsePagination(req.query, true))));
  });

  router.get('/utils/addresses/xpub/:xpub/:role/:index', (req, res) => {
    const xpub = param(req, 'xpub');
    const role = param(req, 'role');
    const index = param(req, 'index');
    if (!/^[0-9a-fA-F]{128}$/.test(xpub)) throw badRequest('Invalid or malformed xpub: 64 bytes (public key and chain code) in hex.');
    if (!/^\d{1,10}$/.test(role) || !/^\d{1,10}$/.test(index) || Number(role) >= 2 ** 31 || Number(index) >= 2 ** 31) {
      throw badRequest('role and index must be whole numbers below 2^31 (soft derivation).');
    }
    res.json({ xpub, role: Number(role), index: Number(index), address: chain.xpubAddress(xpub, Number(role), Number(index)) });
  });

  router.post('/tx/submit', express.raw({ type: () => true, limit: '32kb' }), (req, res, next) => {
    const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/cbor') {
      next(badRequest('Content-Type must be application/cbor, with the signed transaction as raw CBOR bytes.'));
      return;
    }
    const body = req.body as unknown;
    if (!Buffer.isBuffer(body) || body.length === 0) {
      next(badRequest('The request body must be the signed transaction in CBOR.'));
      return;
    }
    chain.submit(body).then(
      (hash) => res.json(hash),
      (err: unknown) => next(err instanceof LedgerRefusal ? badRequest(err.message) : err),
    );
  });

  const evaluateVersion = (req: Request): 5 | 6 => {
    const v = req.query.version;
    if (v === undefined) return 5;
    if (v === '5' || v === '6') return Number(v) as 5 | 6;
    throw badRequest('version must be 5 or 6 (the Ogmios version of the answer).');
  };
  const answerEvaluation = (req: Request, res: Response, next: NextFunction, cbor: Uint8Array, additional: ResolvedOutput[] = []) => {
    let version: 5 | 6;
    try {
      version = evaluateVersion(req);
    } catch (err) {
      next(err);
      return;
    }
    chain.evaluate(cbor, additional).then(
      (evaluation) => res.json(ogmiosResult(evaluation, version)),
      (err: unknown) => next(err instanceof LedgerRefusal ? badRequest(err.message) : err),
    );
  };

  router.post('/utils/txs/evaluate', express.raw({ type: () => true, limit: '64kb' }), (req, res, next) => {
    const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/cbor') {
      next(badRequest('Content-Type must be application/cbor, with the transaction as CBOR (raw bytes, or base16 or base64 text).'));
      return;
    }
    const cbor = Buffer.isBuffer(req.body) ? txFromBody(req.body) : null;
    if (!cbor) {
      next(badRequest('The request body must be the transaction in CBOR (raw bytes, or base16 or base64 text).'));
      return;
    }
    answerEvaluation(req, res, next, cbor);
  });

  router.post('/utils/txs/evaluate/utxos', express.json({ type: () => true, limit: '256kb' }), (req, res, next) => {
    const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      next(badRequest('Content-Type must be application/json: {"cbor": "<transaction>", "additionalUtxoSet": [[TxIn, TxOut], …]}.'));
      return;
    }
    const body = req.body as { cbor?: unknown; additionalUtxoSet?: unknown } | null;
    const cbor = body && typeof body.cbor === 'string' ? txFromBody(Buffer.from(body.cbor)) : null;
    if (!cbor) {
      next(badRequest('cbor must be the transaction in CBOR, as base16 or base64 text.'));
      return;
    }
    let additional: ResolvedOutput[];
    try {
      additional = parseAdditionalUtxos(body!.additionalUtxoSet ?? []);
    } catch (err) {
      next(badRequest(`additionalUtxoSet: ${(err as Error).message}`));
      return;
    }
    answerEvaluation(req, res, next, cbor, additional);
  });

  mountStakeRoutes(router, chain);
  mountTxsRoutes(router, chain);
  mountGovRoutes(router, chain);
  if (options.catchAll ?? true) {
    router.use(unservedPath(NOT_SERVED_MESSAGE));
  }

  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    res.setHeader(SANDBOX_HEADER, SANDBOX_HEADER_VALUE);
    const status = (err as { status?: unknown; type?: unknown }).status;
    if (status === 413) {
      res.status(400).json(blockfrostError(400, 'The transaction is larger than the maximum transaction size.'));
      return;
    }
    if (err instanceof BlockfrostHttpError) {
      res.status(err.status).json(blockfrostError(err.status, err.message));
      return;
    }
    // A body that is not JSON: Blockfrost answers 400 with the JSON parser's own message.
    if ((err as { type?: unknown }).type === 'entity.parse.failed') {
      res.status(400).json(blockfrostError(400, (err as Error).message));
      return;
    }
    res.status(500).json(blockfrostError(500, INTERNAL_ERROR_MESSAGE));
  });

  return router;
}
