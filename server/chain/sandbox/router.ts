// Express router serving a sandbox chain in the Blockfrost API shapes. Mount it at the API root of
// a network (the paths are relative to /api/v0). Every response, errors included, carries
// `X-Cairn-Sandbox: simulated`.
import { Router, type NextFunction, type Request, type Response } from 'express';
import { decodeBech32 } from '../cardano/bech32';
import { isAddressOfNetwork, type SandboxChain } from './chain';
import {
  BlockfrostHttpError,
  INTERNAL_ERROR_MESSAGE,
  NOT_FOUND_MESSAGE,
  badRequest,
  blockfrostError,
  notFound,
  parsePagination,
  stringParam,
} from './http';

export const SANDBOX_HEADER = 'X-Cairn-Sandbox';
export const SANDBOX_HEADER_VALUE = 'simulated';

export interface SandboxRouterOptions {
  /** `url` of GET /; default: this router's own absolute URL as the request reached it. */
  url?: string;
  /** `version` of GET /; default '0.1.0'. */
  version?: string;
  /** Answer unknown paths with the Blockfrost 404 (default true); false passes them on. */
  catchAll?: boolean;
}

const BLOCK_REF = /^(?:\d{1,15}|[0-9a-fA-F]{64})$/;
const TX_HASH = /^[0-9a-fA-F]{64}$/;
const EPOCH_NUMBER = /^\d{1,9}$/;
const ASSET_UNIT = /^[0-9a-fA-F]{56,120}$/;
const BOUND = /^\d{1,15}(?::\d{1,7})?$/;

function param(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}

function blockRef(req: Request): string {
  const ref = param(req, 'hash_or_number');
  if (!BLOCK_REF.test(ref)) throw badRequest('Missing, out of range or malformed block number or hash.');
  return ref;
}

function txHash(req: Request): string {
  const hash = param(req, 'hash');
  if (!TX_HASH.test(hash)) throw badRequest('Missing or malformed transaction hash.');
  return hash.toLowerCase();
}

function found<T>(value: T | null): T {
  if (value === null) throw notFound();
  return value;
}

export function sandboxRouter(chain: SandboxChain, options: SandboxRouterOptions = {}): Router {
  const router = Router();
  const version = options.version ?? '0.1.0';

  router.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader(SANDBOX_HEADER, SANDBOX_HEADER_VALUE);
    next();
  });

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
    if (!isAddressOfNetwork(address, chain.network)) throw badRequest('Invalid address for this network or malformed address format.');
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

  router.get('/pools/:pool_id', (req, res) => {
    const id = param(req, 'pool_id');
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

  if (options.catchAll ?? true) {
    router.use((_req: Request, res: Response) => {
      res.status(404).json(blockfrostError(404, NOT_FOUND_MESSAGE));
    });
  }

  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    res.setHeader(SANDBOX_HEADER, SANDBOX_HEADER_VALUE);
    if (err instanceof BlockfrostHttpError) {
      res.status(err.status).json(blockfrostError(err.status, err.message));
      return;
    }
    res.status(500).json(blockfrostError(500, INTERNAL_ERROR_MESSAGE));
  });

  return router;
}
