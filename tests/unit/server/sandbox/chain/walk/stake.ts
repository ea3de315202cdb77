// The walk's requests for staking: accounts' rewards, history, certificates and withdrawals; pools'
// lists, history, metadata, relays, delegators, blocks and certificates; epochs' neighbours, stake
// distribution and blocks; transactions' stake and pool certificates.
import { adaOnlyUtxo, awayFromEpochStart, delegateAndEarn, producingPool, stakeTx } from '../stake-builder';
import type { WalkGroup } from './types';

export const stake: WalkGroup = {
  name: 'stake',
  async prepare(f) {
    const { chain, clock } = f;
    const wallet = chain.devWallets()[2]!;
    await chain.faucet({ address: wallet.address, lovelace: 3_000_000, assets: [{ assetName: Buffer.from('STAKE').toString('hex'), quantity: 7 }] });
    clock.now += chain.params.blockIntervalMs;
    const pool = producingPool(chain);
    const { delegationTx, keys } = await delegateAndEarn(chain, clock, 2, pool);
    awayFromEpochStart(chain, clock);
    const withdraw = BigInt(chain.account(wallet.stakeAddress)!.withdrawable_amount);
    const networkId = chain.network === 'mainnet' ? 1 : 0;
    const withdrawalTx = await chain.submit(stakeTx({ inputs: [adaOnlyUtxo(chain, wallet.address)], change: wallet.address, keys, networkId, withdraw }));
    clock.now += chain.params.blockIntervalMs;
    const retiring = chain.poolsRetiring()[0]!.pool_id;
    Object.assign(f.made, {
      stakeAccount: wallet.stakeAddress,
      stakePool: pool,
      stakeDelegationTx: delegationTx,
      stakeWithdrawalTx: withdrawalTx,
      stakeGenesisTx: chain.pool(pool)!.registration[0]!,
      stakeRetireTx: chain.pool(retiring)!.retirement[0]!,
    });
  },
  requests: {
    '/accounts/{stake_address}/rewards': { path: (f) => `/accounts/${f.made.stakeAccount}/rewards` },
    '/accounts/{stake_address}/history': { path: (f) => `/accounts/${f.made.stakeAccount}/history?order=desc` },
    '/accounts/{stake_address}/delegations': { path: (f) => `/accounts/${f.made.stakeAccount}/delegations` },
    '/accounts/{stake_address}/registrations': { path: (f) => `/accounts/${f.made.stakeAccount}/registrations` },
    '/accounts/{stake_address}/withdrawals': { path: (f) => `/accounts/${f.made.stakeAccount}/withdrawals` },
    // Conway has no instantaneous rewards: no account ever has one.
    '/accounts/{stake_address}/mirs': { path: (f) => `/accounts/${f.made.stakeAccount}/mirs`, mayBeEmpty: true },
    '/accounts/{stake_address}/addresses/assets': { path: (f) => `/accounts/${f.made.stakeAccount}/addresses/assets` },
    '/accounts/{stake_address}/addresses/total': { path: (f) => `/accounts/${f.made.stakeAccount}/addresses/total` },
    '/accounts/{stake_address}/transactions': { path: (f) => `/accounts/${f.made.stakeAccount}/transactions?order=desc` },
    '/pools/retired': { path: () => '/pools/retired' },
    '/pools/retiring': { path: () => '/pools/retiring' },
    '/pools/{pool_id}/history': { path: (f) => `/pools/${f.made.stakePool}/history?order=desc&count=5` },
    '/pools/{pool_id}/metadata': { path: (f) => `/pools/${f.made.stakePool}/metadata` },
    '/pools/{pool_id}/relays': { path: (f) => `/pools/${f.made.stakePool}/relays` },
    '/pools/{pool_id}/delegators': { path: (f) => `/pools/${f.made.stakePool}/delegators` },
    '/pools/{pool_id}/blocks': { path: (f) => `/pools/${f.made.stakePool}/blocks?order=desc` },
    '/pools/{pool_id}/updates': { path: (f) => `/pools/${f.made.stakePool}/updates` },
    '/epochs/{number}/next': { path: (f) => `/epochs/${f.chain.latestEpoch().epoch - 3}/next` },
    '/epochs/{number}/previous': { path: (f) => `/epochs/${f.chain.latestEpoch().epoch}/previous?count=3` },
    '/epochs/{number}/stakes': { path: (f) => `/epochs/${f.chain.latestEpoch().epoch}/stakes` },
    '/epochs/{number}/stakes/{pool_id}': { path: (f) => `/epochs/${f.chain.latestEpoch().epoch}/stakes/${f.made.stakePool}` },
    '/epochs/{number}/blocks': { path: (f) => `/epochs/${f.chain.latestEpoch().epoch - 1}/blocks` },
    '/epochs/{number}/blocks/{pool_id}': { path: (f) => `/epochs/${f.chain.latestEpoch().epoch - 1}/blocks/${f.made.stakePool}` },
    '/txs/{hash}/stakes': { path: (f) => `/txs/${f.made.stakeDelegationTx}/stakes` },
    '/txs/{hash}/withdrawals': { path: (f) => `/txs/${f.made.stakeWithdrawalTx}/withdrawals` },
    // Conway has no MIR certificates.
    '/txs/{hash}/mirs': { path: (f) => `/txs/${f.made.stakeDelegationTx}/mirs`, mayBeEmpty: true },
    '/txs/{hash}/pool_updates': { path: (f) => `/txs/${f.made.stakeGenesisTx}/pool_updates` },
    '/txs/{hash}/pool_retires': { path: (f) => `/txs/${f.made.stakeRetireTx}/pool_retires` },
  },
};
