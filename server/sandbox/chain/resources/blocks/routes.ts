// `/blocks/*`: the tip, a block by height, hash or slot, its neighbours, transactions and addresses.
import type { Router } from 'express';
import type { ChainBasics } from '../../params';
import type { BlockQueries } from './queries';
import { int32Param } from '../../../../blockfrost/contract';
import { blockRef, found, ordered, param, unordered } from '../../route-kit';
import { sliced } from '../../budget';

export function mountBlockRoutes(router: Router, chain: BlockQueries & ChainBasics): void {
  // A block never read before may need its segment simulated: in time slices too (budget.ts).
  router.get('/blocks/latest', async (_req, res) => {
    res.json(await sliced(() => chain.latestBlock()));
  });
  router.get('/blocks/latest/txs', async (req, res) => {
    const page = ordered(req);
    res.json(found(await sliced(() => chain.blockTxs(chain.tipHeight(), page))));
  });
  router.get('/blocks/:hash_or_number', async (req, res) => {
    const ref = blockRef(req);
    res.json(found(await sliced(() => chain.blockAt(ref))));
  });
  // A page of a hundred blocks may simulate three segments: in time slices (budget.ts).
  router.get('/blocks/:hash_or_number/next', async (req, res) => {
    const [ref, page] = [blockRef(req), unordered(req)];
    res.json(found(await sliced(() => chain.blockNext(ref, page))));
  });
  router.get('/blocks/:hash_or_number/previous', async (req, res) => {
    const [ref, page] = [blockRef(req), unordered(req)];
    res.json(found(await sliced(() => chain.blockPrevious(ref, page))));
  });
  router.get('/blocks/:hash_or_number/txs', async (req, res) => {
    const [ref, page] = [blockRef(req), ordered(req)];
    res.json(found(await sliced(() => chain.blockTxs(ref, page))));
  });
  router.get('/blocks/slot/:slot_number', (req, res) => {
    res.json(found(chain.blockAtSlot(int32Param('slot_number', param(req, 'slot_number')))));
  });
  router.get('/blocks/epoch/:epoch_number/slot/:slot_number', (req, res) => {
    const epoch = int32Param('epoch_number', param(req, 'epoch_number'));
    res.json(found(chain.blockAtEpochSlot(epoch, int32Param('slot_number', param(req, 'slot_number')))));
  });
  router.get('/blocks/latest/txs/cbor', async (req, res) => {
    const page = ordered(req);
    res.json(found(await sliced(() => chain.blockTxsCbor(chain.tipHeight(), page))));
  });
  router.get('/blocks/:hash_or_number/txs/cbor', async (req, res) => {
    const [ref, page] = [blockRef(req), ordered(req)];
    res.json(found(await sliced(() => chain.blockTxsCbor(ref, page))));
  });
  router.get('/blocks/:hash_or_number/addresses', (req, res) => {
    const ref = blockRef(req);
    res.json(found(chain.blockAddresses(ref, unordered(req))));
  });
}
