import type { Router } from 'express';
import { route, type RouteDeps } from '../../http/route';
import { NotFound } from '../../errors';
import type { DevChainInfo } from '../../../shared/milkomeda';

/** `devChain`: the embedded EVM development chain's accounts, or null when Milkomeda has an upstream (and always in production). */
export function registerMilkomedaRoutes(router: Router, deps: RouteDeps, devChain: DevChainInfo | null): void {
  // The embedded EVM development chain says what it is in the dashboard; it never exists in production.
  route(router, deps, {
    method: 'get',
    path: '/milkomeda/dev-chain',
    permission: 'signedIn',
    summary: "The embedded EVM development chain's funded accounts (404 when Milkomeda has an upstream, and in production)",
    handler: (): DevChainInfo => {
      if (!devChain) throw new NotFound('Milkomeda is not served by the development chain on this server.');
      return devChain;
    },
  });
}
