// 'Simulate payment' (development only): pays an order's exact amount to its address from the
// sandbox faucet, in the next sandbox block, where the payment watcher sees it as it would see a
// real payment. Mounted on the /dev router, whose guard admits loopback clients only.
import express, { type Router } from 'express';
import type { Db } from '../db/index';
import type { SandboxChain } from './chain/index';
import { orderPaymentTarget } from '../features/ppu/index';
import { parseDbId } from '../../shared/text';
import { Invalid, NotFound } from '../errors';

export function devPpuRouter(db: Db, chain: SandboxChain): Router {
  const router = express.Router();
  router.post('/ppu/orders/:orderId/simulate-payment', (req, res, next) => {
    const id = parseDbId(req.params.orderId);
    if (id === null) return next(new NotFound('Order not found.'));
    orderPaymentTarget(db, id)
      .then(async (target) => {
        const payment = await chain.faucet({ address: target.address, lovelace: target.lovelace.toString() });
        res.set('Cache-Control', 'no-store').json({ data: { txHash: payment.txHash, height: payment.height } });
      })
      .catch((err: unknown) => next(err instanceof RangeError ? new Invalid(err.message) : err));
  });
  return router;
}
