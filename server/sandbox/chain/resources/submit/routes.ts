// `POST /tx/submit`: a signed transaction into the live ledger.
import express, { type Router } from 'express';
import type { SubmitQueries } from './queries';
import { LedgerRefusal } from '../../ledger';
import { badRequest } from '../../../../blockfrost/http';
import { SUBMIT_NOT_A_TX_MESSAGE, startsAsCborList } from '../../../../blockfrost/contract';

/** The media type of a request, lower-cased, without parameters. */
export const mediaType = (header: string | undefined): string => (header ?? '').split(';')[0]!.trim().toLowerCase();

export function mountSubmitRoutes(router: Router, chain: SubmitQueries): void {
  router.post('/tx/submit', express.raw({ type: () => true, limit: '32kb' }), (req, res, next) => {
    if (mediaType(req.get('content-type')) !== 'application/cbor') {
      next(badRequest('Content-Type must be application/cbor, with the signed transaction as raw CBOR bytes.'));
      return;
    }
    const body = req.body as unknown;
    if (!Buffer.isBuffer(body) || body.length === 0) {
      next(badRequest('The request body must be the signed transaction in CBOR.'));
      return;
    }
    if (!startsAsCborList(body)) {
      next(badRequest(SUBMIT_NOT_A_TX_MESSAGE));
      return;
    }
    chain.submit(body).then(
      (hash) => res.json(hash),
      (err: unknown) => next(err instanceof LedgerRefusal ? badRequest(err.message) : err),
    );
  });
}
