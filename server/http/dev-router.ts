import express, { type Request, type Router } from 'express';
import { Forbidden } from '../errors';
import { isLoopbackIp } from '../../shared/ip';

export const isLoopback = (address: string | undefined): boolean => !!address && isLoopbackIp(address);

/**
 * True when the request comes from this machine: the TCP peer is a loopback address, and so is the
 * client Express derives through TRUST_PROXY (a local reverse proxy forwarding a remote client is
 * not a loopback client).
 */
export const fromLoopback = (req: Request): boolean => isLoopback(req.socket.remoteAddress) && isLoopback(req.ip);

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
