// Blocks by slot, block addresses and CBOR, transaction redeemers, required signers and CBOR,
// address totals, asset histories and holders, scripts, metadata CBOR and the mempool.
import type { Request, Router } from 'express';
import type { SandboxChain } from '../api';
import { ADDRESS_MESSAGE, isQueryableAddress } from '../../../blockfrost/contract';
import { blockRef, found, param, txHash } from './params';
import { badRequest, parsePagination, stringParam } from '../../../blockfrost/http';

const ASSET_UNIT = /^[0-9a-fA-F]{56,120}$/;
const HASH28 = /^[0-9a-fA-F]{56}$/;
const LABEL = /^\d{1,20}$/;
const BOUND = /^\d{1,15}(?::\d{1,7})?$/;
const HEIGHT = /^\d{1,15}$/;
const INT32_MAX = 2_147_483_647;

/** A slot or epoch number as Blockfrost checks it: an integer first, then within 0..2^31-1. */
function intParam(req: Request, name: string): number {
  const raw = param(req, name);
  if (!/^-?\d+$/.test(raw)) throw badRequest(`params/${name} must be integer`);
  const n = Number(raw);
  if (n < 0 || n > INT32_MAX) throw badRequest(`Missing, out of range or malformed ${name}.`);
  return n;
}

function assetUnit(req: Request): string {
  const unit = param(req, 'asset');
  if (!ASSET_UNIT.test(unit)) throw badRequest('Invalid or malformed asset format.');
  return unit.toLowerCase();
}

function scriptHash(req: Request): string {
  const hash = param(req, 'script_hash');
  if (!HASH28.test(hash)) throw badRequest('Invalid or malformed script hash format.');
  return hash.toLowerCase();
}

function bounds(req: Request, pattern: RegExp): { from?: string; to?: string } {
  const from = stringParam(req.query, 'from');
  const to = stringParam(req.query, 'to');
  for (const b of [from, to]) if (b !== undefined && !pattern.test(b)) throw badRequest('Invalid (malformed or out of range) from/to parameter(s).');
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

export function mountTxsRoutes(router: Router, chain: SandboxChain): void {
  const addressParam = (req: Request): string => {
    const address = param(req, 'address');
    if (!isQueryableAddress(address, chain.network)) throw badRequest(ADDRESS_MESSAGE);
    return address;
  };

  router.get('/blocks/slot/:slot_number', (req, res) => {
    res.json(found(chain.blockAtSlot(intParam(req, 'slot_number'))));
  });
  router.get('/blocks/epoch/:epoch_number/slot/:slot_number', (req, res) => {
    const epoch = intParam(req, 'epoch_number');
    res.json(found(chain.blockAtEpochSlot(epoch, intParam(req, 'slot_number'))));
  });
  router.get('/blocks/latest/txs/cbor', (req, res) => {
    const page = parsePagination(req.query, true);
    res.json(found(chain.blockTxsCbor(chain.tipHeight(), page)));
  });
  router.get('/blocks/:hash_or_number/txs/cbor', (req, res) => {
    const ref = blockRef(req);
    res.json(found(chain.blockTxsCbor(ref, parsePagination(req.query, true))));
  });
  router.get('/blocks/:hash_or_number/addresses', (req, res) => {
    const ref = blockRef(req);
    res.json(found(chain.blockAddresses(ref, parsePagination(req.query, false))));
  });

  router.get('/txs/:hash/redeemers', (req, res) => {
    res.json(found(chain.txRedeemers(txHash(req))));
  });
  router.get('/txs/:hash/required_signers', (req, res) => {
    res.json(found(chain.txRequiredSigners(txHash(req))));
  });
  router.get('/txs/:hash/cbor', (req, res) => {
    res.json(found(chain.txCbor(txHash(req))));
  });

  router.get('/addresses/:address/total', (req, res) => {
    res.json(found(chain.addressTotal(addressParam(req))));
  });
  router.get('/addresses/:address/txs', (req, res) => {
    const address = addressParam(req);
    const page = parsePagination(req.query, true);
    const rows = found(chain.addressTransactions(address, { ...page, ...bounds(req, BOUND) }));
    res.json(rows.map((r) => r.tx_hash));
  });

  router.get('/assets/:asset/history', (req, res) => {
    const unit = assetUnit(req);
    res.json(found(chain.assetHistory(unit, parsePagination(req.query, true))));
  });
  router.get('/assets/:asset/transactions', (req, res) => {
    const unit = assetUnit(req);
    res.json(found(chain.assetTransactions(unit, { ...parsePagination(req.query, true), ...bounds(req, BOUND) })));
  });
  router.get('/assets/:asset/txs', (req, res) => {
    const unit = assetUnit(req);
    res.json(found(chain.assetTransactions(unit, { ...parsePagination(req.query, true), ...bounds(req, BOUND) })).map((r) => r.tx_hash));
  });
  router.get('/assets/:asset/utxos', (req, res) => {
    const unit = assetUnit(req);
    const page = parsePagination(req.query, true);
    const { from, to } = bounds(req, HEIGHT);
    res.json(found(chain.assetUtxos(unit, { ...page, ...(from === undefined ? {} : { from: Number(from) }), ...(to === undefined ? {} : { to: Number(to) }) })));
  });

  router.get('/scripts', (req, res) => {
    res.json(chain.scripts(parsePagination(req.query, true)));
  });
  router.get('/scripts/:script_hash/json', (req, res) => {
    res.json(found(chain.scriptJson(scriptHash(req))));
  });
  router.get('/scripts/:script_hash/redeemers', (req, res) => {
    const hash = scriptHash(req);
    res.json(found(chain.scriptRedeemers(hash, parsePagination(req.query, true))));
  });
  router.get('/scripts/:script_hash/utxos', (req, res) => {
    const hash = scriptHash(req);
    res.json(found(chain.scriptUtxos(hash, parsePagination(req.query, true))));
  });

  router.get('/metadata/txs/labels/:label/cbor', (req, res) => {
    const label = param(req, 'label');
    if (!LABEL.test(label)) throw badRequest('Invalid or malformed label format.');
    res.json(chain.metadataLabelCbor(label, parsePagination(req.query, true)));
  });

  router.get('/mempool', (req, res) => {
    res.json(chain.mempool(parsePagination(req.query, true)));
  });
  router.get('/mempool/addresses/:address', (req, res) => {
    const address = addressParam(req);
    res.json(chain.mempoolOfAddress(address, parsePagination(req.query, true)));
  });
  router.get('/mempool/:hash', (req, res) => {
    res.json(found(chain.mempoolTx(txHash(req))));
  });
}
