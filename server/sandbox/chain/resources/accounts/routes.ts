// `/accounts/*`: a stake address's account, addresses, outputs, rewards, certificates and transactions.
import type { Request, Router } from 'express';
import type { ChainBasics } from '../../params';
import type { AccountQueries } from './queries';
import { boundsQuery, stakeAddressParam } from '../../../../blockfrost/contract';
import { found, ordered, param } from '../../route-kit';
import { sliced } from '../../budget';

export function mountAccountRoutes(router: Router, chain: AccountQueries & ChainBasics): void {
  const stake = (req: Request): string => stakeAddressParam(param(req, 'stake_address'), chain.network);
  router.get('/accounts/:stake_address', (req, res) => {
    res.json(found(chain.account(stake(req))));
  });
  const lists = {
    addresses: (s: string, req: Request) => chain.accountAddresses(s, ordered(req)),
    utxos: (s: string, req: Request) => chain.accountUtxos(s, ordered(req)),
    rewards: (s: string, req: Request) => chain.accountRewards(s, ordered(req)),
    history: (s: string, req: Request) => chain.accountHistory(s, ordered(req)),
    delegations: (s: string, req: Request) => chain.accountDelegations(s, ordered(req)),
    registrations: (s: string, req: Request) => chain.accountRegistrations(s, ordered(req)),
    withdrawals: (s: string, req: Request) => chain.accountWithdrawals(s, ordered(req)),
    mirs: (s: string, req: Request) => chain.accountMirs(s, ordered(req)),
    'addresses/assets': (s: string, req: Request) => chain.accountAddressesAssets(s, ordered(req)),
    'addresses/total': (s: string) => chain.accountAddressesTotal(s),
    transactions: (s: string, req: Request) => chain.accountTransactions(s, { ...ordered(req), ...boundsQuery(req.query) }),
  } satisfies Record<string, (stake: string, req: Request) => unknown>;
  // A world key's rewards and certificates come from the transactions of the address window, and its
  // outputs and assets from the UTXO set as of the tip, whose segments the first call simulates: in
  // time slices (budget.ts). The other answers only read caches.
  const slicedLists = new Set(['addresses', 'utxos', 'addresses/assets', 'rewards', 'delegations', 'registrations', 'withdrawals', 'mirs']);
  for (const [sub, answer] of Object.entries(lists)) {
    router.get(`/accounts/:stake_address/${sub}`, async (req, res) => {
      const s = stake(req);
      res.json(found(slicedLists.has(sub) ? await sliced(() => answer(s, req)) : answer(s, req)));
    });
  }
}
