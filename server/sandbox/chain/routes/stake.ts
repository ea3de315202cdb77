// Staking endpoints of the sandbox: accounts' rewards, history, certificates and withdrawals;
// pools' lists, history, metadata, relays, delegators, blocks and certificates; epochs'
// neighbours, stake distribution and blocks; transactions' stake and pool certificates.
import type { Request, Router } from 'express';
import { decodeBech32 } from '../../../../shared/cardano/bech32';
import { badRequest, parsePagination, stringParam } from '../../../blockfrost/http';
import { isStakeAddressOfNetwork, type SandboxChain } from '../api';
import { found, param, txHash } from './params';

const EPOCH_NUMBER = /^\d{1,9}$/;
const BOUND = /^\d{1,15}(?::\d{1,7})?$/;

export function mountStakeRoutes(router: Router, chain: SandboxChain): void {
  const stake = (req: Request): string => {
    const s = param(req, 'stake_address');
    if (!isStakeAddressOfNetwork(s, chain.network)) throw badRequest('Invalid or malformed stake address format.');
    return s;
  };
  const poolId = (req: Request): string => {
    const id = param(req, 'pool_id');
    const bech = decodeBech32(id);
    if (!((bech !== null && bech.prefix === 'pool' && bech.bytes.length === 28) || /^[0-9a-fA-F]{56}$/.test(id))) throw badRequest('Invalid or malformed pool id format.');
    return id;
  };
  const epoch = (req: Request): number => {
    const n = param(req, 'number');
    if (!EPOCH_NUMBER.test(n)) throw badRequest('Missing, out of range or malformed epoch_number.');
    return Number(n);
  };
  const ordered = (req: Request) => parsePagination(req.query, true);
  const unordered = (req: Request) => parsePagination(req.query, false);

  // ---- accounts ----
  router.get('/accounts/:stake_address/rewards', (req, res) => {
    res.json(found(chain.accountRewards(stake(req), ordered(req))));
  });
  router.get('/accounts/:stake_address/history', (req, res) => {
    res.json(found(chain.accountHistory(stake(req), ordered(req))));
  });
  router.get('/accounts/:stake_address/delegations', (req, res) => {
    res.json(found(chain.accountDelegations(stake(req), ordered(req))));
  });
  router.get('/accounts/:stake_address/registrations', (req, res) => {
    res.json(found(chain.accountRegistrations(stake(req), ordered(req))));
  });
  router.get('/accounts/:stake_address/withdrawals', (req, res) => {
    res.json(found(chain.accountWithdrawals(stake(req), ordered(req))));
  });
  router.get('/accounts/:stake_address/mirs', (req, res) => {
    res.json(found(chain.accountMirs(stake(req), ordered(req))));
  });
  router.get('/accounts/:stake_address/addresses/assets', (req, res) => {
    res.json(found(chain.accountAddressesAssets(stake(req), ordered(req))));
  });
  router.get('/accounts/:stake_address/addresses/total', (req, res) => {
    res.json(found(chain.accountAddressesTotal(stake(req))));
  });
  router.get('/accounts/:stake_address/transactions', (req, res) => {
    const s = stake(req);
    const page = ordered(req);
    const from = stringParam(req.query, 'from');
    const to = stringParam(req.query, 'to');
    if ((from !== undefined && !BOUND.test(from)) || (to !== undefined && !BOUND.test(to))) throw badRequest('Invalid (malformed or out of range) from/to parameter(s).');
    res.json(found(chain.accountTransactions(s, { ...page, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) })));
  });

  // ---- pools ----
  router.get('/pools/retired', (req, res) => {
    res.json(chain.poolsRetired(ordered(req)));
  });
  router.get('/pools/retiring', (req, res) => {
    res.json(chain.poolsRetiring(ordered(req)));
  });
  router.get('/pools/:pool_id/history', (req, res) => {
    res.json(found(chain.poolHistory(poolId(req), ordered(req))));
  });
  router.get('/pools/:pool_id/metadata', (req, res) => {
    res.json(found(chain.poolMetadata(poolId(req))));
  });
  router.get('/pools/:pool_id/relays', (req, res) => {
    res.json(found(chain.poolRelays(poolId(req))));
  });
  router.get('/pools/:pool_id/delegators', (req, res) => {
    res.json(found(chain.poolDelegators(poolId(req), ordered(req))));
  });
  router.get('/pools/:pool_id/blocks', (req, res) => {
    res.json(found(chain.poolBlocks(poolId(req), ordered(req))));
  });
  router.get('/pools/:pool_id/updates', (req, res) => {
    res.json(found(chain.poolUpdates(poolId(req), ordered(req))));
  });

  // ---- epochs ----
  router.get('/epochs/:number/next', (req, res) => {
    res.json(found(chain.epochNext(epoch(req), unordered(req))));
  });
  router.get('/epochs/:number/previous', (req, res) => {
    res.json(found(chain.epochPrevious(epoch(req), unordered(req))));
  });
  router.get('/epochs/:number/stakes', (req, res) => {
    res.json(found(chain.epochStakes(epoch(req), unordered(req))));
  });
  router.get('/epochs/:number/stakes/:pool_id', (req, res) => {
    const n = epoch(req);
    res.json(found(chain.epochPoolStakes(n, poolId(req), unordered(req))));
  });
  router.get('/epochs/:number/blocks', (req, res) => {
    res.json(found(chain.epochBlocks(epoch(req), ordered(req))));
  });
  router.get('/epochs/:number/blocks/:pool_id', (req, res) => {
    const n = epoch(req);
    res.json(found(chain.epochPoolBlocks(n, poolId(req), ordered(req))));
  });

  // ---- transactions' certificates ----
  router.get('/txs/:hash/stakes', (req, res) => {
    res.json(found(chain.txStakes(txHash(req))));
  });
  router.get('/txs/:hash/withdrawals', (req, res) => {
    res.json(found(chain.txWithdrawals(txHash(req))));
  });
  router.get('/txs/:hash/mirs', (req, res) => {
    res.json(found(chain.txMirs(txHash(req))));
  });
  router.get('/txs/:hash/pool_updates', (req, res) => {
    res.json(found(chain.txPoolUpdates(txHash(req))));
  });
  router.get('/txs/:hash/pool_retires', (req, res) => {
    res.json(found(chain.txPoolRetires(txHash(req))));
  });
}
