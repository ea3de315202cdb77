// `/scripts/*`: the script list, a script, its CBOR, JSON, redeemers and outputs, and datums.
import type { Request, Router } from 'express';
import type { ScriptQueries } from './queries';
import { hash28Param, hash32Param } from '../../../../blockfrost/contract';
import { found, ordered, param } from '../../route-kit';

export function mountScriptRoutes(router: Router, chain: ScriptQueries): void {
  const datumHash = (req: Request): string => hash32Param(param(req, 'datum_hash'), 'datum hash');
  const scriptHash = (req: Request): string => hash28Param(param(req, 'script_hash'), 'script hash');
  router.get('/scripts/datum/:datum_hash', (req, res) => {
    res.json(found(chain.datum(datumHash(req))));
  });
  router.get('/scripts/datum/:datum_hash/cbor', (req, res) => {
    res.json(found(chain.datumCbor(datumHash(req))));
  });
  router.get('/scripts/:script_hash', (req, res) => {
    res.json(found(chain.script(scriptHash(req))));
  });
  router.get('/scripts/:script_hash/cbor', (req, res) => {
    res.json(found(chain.scriptCbor(scriptHash(req))));
  });
  router.get('/scripts', (req, res) => {
    res.json(chain.scripts(ordered(req)));
  });
  router.get('/scripts/:script_hash/json', (req, res) => {
    res.json(found(chain.scriptJson(scriptHash(req))));
  });
  router.get('/scripts/:script_hash/redeemers', (req, res) => {
    const hash = scriptHash(req);
    res.json(found(chain.scriptRedeemers(hash, ordered(req))));
  });
  router.get('/scripts/:script_hash/utxos', (req, res) => {
    const hash = scriptHash(req);
    res.json(found(chain.scriptUtxos(hash, ordered(req))));
  });
}
