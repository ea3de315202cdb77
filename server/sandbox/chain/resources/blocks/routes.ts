// `/blocks/*`: the tip, a block by height, hash or slot, its neighbours, transactions and addresses.
import type { Router } from 'express';
import type { ChainBasics } from '../../params';
import type { BlockQueries } from './queries';
import { int32Param } from '../../../../blockfrost/contract';
import { blockRef, found, ordered, param, unordered } from '../../route-kit';

export function mountBlockRoutes(router: Router, chain: BlockQueries & ChainBasics): void {
  router.get('/blocks/latest', (_req, res) => {
    res.json(chain.latestBlock());
  });
  router.get('/blocks/latest/txs', (req, res) => {
    const page = ordered(req);
    res.json(found(chain.blockTxs(chain.tipHeight(), page)));
  });
  router.get('/blocks/:hash_or_number', (req, res) => {
    res.json(found(chain.blockAt(blockRef(req))));
  });
  router.get('/blocks/:hash_or_number/next', (req, res) => {
    const ref = blockRef(req);
    res.json(found(chain.blockNext(ref, unordered(req))));
  });
  router.get('/blocks/:hash_or_number/previous', (req, res) => {
    const ref = blockRef(req);
    res.json(found(chain.blockPrevious(ref, unordered(req))));
  });
  router.get('/blocks/:hash_or_number/txs', (req, res) => {
    const ref = blockRef(req);
    res.json(found(chain.blockTxs(ref, ordered(req))));
  });
  router.get('/blocks/slot/:slot_number', (req, res) => {
    res.json(found(chain.blockAtSlot(int32Param('slot_number', param(req, 'slot_number')))));
  });
  router.get('/blocks/epoch/:epoch_number/slot/:slot_number', (req, res) => {
    const epoch = int32Param('epoch_number', param(req, 'epoch_number'));
    res.json(found(chain.blockAtEpochSlot(epoch, int32Param('slot_number', param(req, 'slot_number')))));
  });
  router.get('/blocks/latest/txs/cbor', (req, res) => {
    const page = ordered(req);
    res.json(found(chain.blockTxsCbor(chain.tipHeight(), page)));
  });
  router.get('/blocks/:hash_or_number/txs/cbor', (req, res) => {
    const ref = blockRef(req);
    res.json(found(chain.blockTxsCbor(ref, ordered(req))));
  });
  router.get('/blocks/:hash_or_number/addresses', (req, res) => {
    const ref = blockRef(req);
    res.json(found(chain.blockAddresses(ref, unordered(req))));
  });
}
