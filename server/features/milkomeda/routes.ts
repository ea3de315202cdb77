import type { Router } from 'express';
import { route, type RouteDeps } from '../../http/route';
import { NotFound } from '../../errors';
import { usesEvmDevChain } from '../../sandbox/chains';
import { DEV_ACCOUNTS, DEV_ACCOUNT_BALANCE_WEI } from '../../sandbox/evm-accounts';
import { MILKOMEDA_MAINNET } from '../../../shared/milkomeda';
import type { DevChainInfo } from '../../../shared/milkomeda';

export function registerMilkomedaRoutes(router: Router, deps: RouteDeps): void {
  // The embedded EVM development chain says what it is in the dashboard; it never exists in production.
  route(router, deps, {
    method: 'get',
    path: '/milkomeda/dev-chain',
    permission: 'signedIn',
    summary: "The embedded EVM development chain's funded accounts (404 when Milkomeda has an upstream, and in production)",
    handler: (): DevChainInfo => {
      if (!usesEvmDevChain(deps.config)) throw new NotFound('Milkomeda is not served by the development chain on this server.');
      return { chainId: MILKOMEDA_MAINNET.chainIdNumber, balanceWei: DEV_ACCOUNT_BALANCE_WEI.toString(), accounts: DEV_ACCOUNTS.map((a) => ({ ...a })) };
    },
  });
}
