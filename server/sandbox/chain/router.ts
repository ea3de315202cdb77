// Express router serving a sandbox chain in the Blockfrost API shapes. Mount it at the API root of
// a network (the paths are relative to /api/v0). Every response, errors included, carries
// `X-Cairn-Sandbox: simulated`.
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { SandboxChain } from './api';
import { queryFirst, singleSlashes, unservedPath } from '../../blockfrost/contract';
import { blockfrostMethods, blockfrostQueryParameters } from '../../blockfrost/methods';
import { BlockfrostHttpError, INTERNAL_ERROR_MESSAGE, SANDBOX_HEADER, blockfrostError } from '../../blockfrost/http';
import { RESOURCES } from './resources';

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

/** The 404 of an endpoint the sandbox does not serve (the chain's README, 'What the sandbox serves'). */
export const NOT_SERVED_MESSAGE = 'The requested component has not been found. The Cairn sandbox chain does not serve this endpoint; configure an upstream for this network to use it.';

export function sandboxRouter(chain: SandboxChain, options: SandboxRouterOptions = {}): Router {
  const router = Router();
  router.use((_req: Request, res: Response, next: NextFunction) => {
    res.setHeader(SANDBOX_HEADER, SANDBOX_HEADER_VALUE);
    next();
  });
  router.use(singleSlashes);
  // The document's tables read now, not by the first request that names a page (10–20 ms of scanning).
  blockfrostMethods();
  blockfrostQueryParameters();
  router.use(queryFirst);
  const root = { ...(options.url === undefined ? {} : { url: options.url }), version: options.version ?? '0.1.0' };
  for (const resource of RESOURCES) resource.mount(router, chain, root);
  if (options.catchAll ?? true) {
    router.use(unservedPath(NOT_SERVED_MESSAGE));
  }
  router.use(errorAnswer);
  return router;
}

/** Blockfrost's error body for whatever a route threw; a 500 never says more than that. */
function errorAnswer(err: unknown, _req: Request, res: Response, next: NextFunction): void {
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
}
