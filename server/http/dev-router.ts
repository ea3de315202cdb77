import express, { type Router } from 'express';
import { Forbidden } from '../errors';
import { fromLoopback } from './loopback';

/**
 * The one /dev router (development aids: mailbox, faucet, simulated payments …). Mounted only
 * outside production; every route on it, whoever adds it, answers loopback clients only, because
 * the server listens on 0.0.0.0 by default and the mailbox holds everyone's sign-in links.
 */
export function devRouter(): Router {
  const router = express.Router();
  router.use((req, _res, next) => {
    next(fromLoopback(req) ? undefined : new Forbidden('The development tools answer clients on this machine (loopback) only.'));
  });
  return router;
}
