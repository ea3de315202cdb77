// `/utils/*`: addresses from an account's public key, and the Plutus evaluation of a transaction.
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { UtilQueries } from './queries';
import { LedgerRefusal } from '../../ledger';
import { ogmiosResult, type ResolvedOutput } from '../../plutus';
import { parseAdditionalUtxos, txFromBody } from '../../evaluate-input';
import { xpubParams } from '../../../../blockfrost/contract';
import { badRequest } from '../../../../blockfrost/http';
import { param } from '../../route-kit';
import { mediaType } from '../submit/routes';

const evaluateVersion = (req: Request): 5 | 6 => {
  const v = req.query.version;
  if (v === undefined) return 5;
  if (v === '5' || v === '6') return Number(v) as 5 | 6;
  throw badRequest('version must be 5 or 6 (the Ogmios version of the answer).');
};

export function mountUtilRoutes(router: Router, chain: UtilQueries): void {
  router.get('/utils/addresses/xpub/:xpub/:role/:index', (req, res) => {
    const p = xpubParams(param(req, 'xpub'), param(req, 'role'), param(req, 'index'));
    res.json({ ...p, address: chain.xpubAddress(p.xpub, p.role, p.index) });
  });

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
    if (mediaType(req.get('content-type')) !== 'application/cbor') {
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
    if (mediaType(req.get('content-type')) !== 'application/json') {
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
}
