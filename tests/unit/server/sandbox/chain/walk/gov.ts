// The walk's requests for governance (DReps, the committee, proposals, votes), /network/eras and
// nut.link. prepare() registers a DRep with a development wallet, delegates the wallet's vote to
// it, submits a proposal and votes on it, and publishes a nut.link data point.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { cert, drepVote, govKeysOf, govTx, proposal } from '../gov-builder';
import type { WalkGroup } from './types';

export const gov: WalkGroup = {
  name: 'gov',
  async prepare(f) {
    const { chain, clock } = f;
    // Wallet 1: the staking group registers wallet 2's stake key.
    const wallet = chain.devWallets()[1]!;
    const keys = govKeysOf(wallet.mnemonic);
    await chain.faucet({ address: wallet.address, lovelace: 100_000_000_000n });
    clock.now += chain.params.blockIntervalMs;
    const drepDeposit = 500_000_000n;
    const govDeposit = 100_000_000_000n;
    const registered = await chain.submit(govTx({
      inputs: chain.addressUtxos(wallet.address)!,
      change: wallet.address,
      signers: [keys.payment, keys.stake, keys.drep],
      certs: [
        cert.stakeRegistration(keys.stake),
        cert.drepRegistration(keys.drep, drepDeposit, 'https://example.invalid/drep.jsonld'),
        cert.voteDelegation(keys.stake, CSL.DRep.new_key_hash(keys.drep.to_public().hash())),
      ],
      proposals: [proposal(CSL.GovernanceAction.new_info_action(CSL.InfoAction.new()), wallet.stakeAddress, govDeposit)],
      deposit: 2_000_000n + drepDeposit + govDeposit,
    }));
    clock.now += chain.params.blockIntervalMs;
    await chain.submit(govTx({
      inputs: chain.addressUtxos(wallet.address)!,
      change: wallet.address,
      signers: [keys.payment, keys.drep],
      votes: drepVote(CSL.VotingProcedures.new(), keys.drep, registered, 0, CSL.VoteKind.Yes),
      metadata: { label: 1968, json: { ADAUSD: [{ source: 'walk', value: '0.5' }] } },
    }));
    clock.now += chain.params.blockIntervalMs;
    const g = chain.governance();
    const world = g.proposals({ count: 100, page: 1, order: 'desc' }, );
    const withParameters = world.find((p) => p.governance_type === 'parameter_change')!;
    const withWithdrawals = world.find((p) => p.governance_type === 'treasury_withdrawals')!;
    const withVotes = world.find((p) => (g.proposalVotes(p.tx_hash, p.cert_index, { count: 1, page: 1, order: 'asc' }) ?? []).length > 0)!;
    const committee = g.committee();
    const oracle = chain.nutlinkTicker('ADAUSD', { count: 1, page: 1, order: 'asc' })![0]!.address;
    Object.assign(f.made, {
      govDrep: CSL.DRep.new_key_hash(keys.drep.to_public().hash()).to_bech32(false),
      govLiveProposal: registered,
      govParameters: `${withParameters.tx_hash}/${withParameters.cert_index}`,
      govParametersId: withParameters.id,
      govWithdrawals: `${withWithdrawals.tx_hash}/${withWithdrawals.cert_index}`,
      govWithdrawalsId: withWithdrawals.id,
      govVoted: `${withVotes.tx_hash}/${withVotes.cert_index}`,
      govVotedId: withVotes.id,
      govHot: committee.members.find((m) => m.status === 'authorized')!.cc_hot_id!,
      govOracle: oracle,
      govWallet: wallet.address,
    });
  },
  requests: {
    '/governance/committee': { path: () => '/governance/committee' },
    '/governance/committee/votes': { path: () => '/governance/committee/votes?order=desc&count=20' },
    '/governance/committee/{cc_id}/votes': { path: (f) => `/governance/committee/${f.made.govHot}/votes?order=desc&count=5` },
    '/governance/dreps': { path: () => '/governance/dreps?count=50' },
    '/governance/dreps/{drep_id}': { path: (f) => `/governance/dreps/${f.made.govDrep}` },
    '/governance/dreps/{drep_id}/delegators': { path: (f) => `/governance/dreps/${f.made.govDrep}/delegators` },
    '/governance/dreps/{drep_id}/metadata': { path: (f) => `/governance/dreps/${f.made.govDrep}/metadata` },
    '/governance/dreps/{drep_id}/updates': { path: (f) => `/governance/dreps/${f.made.govDrep}/updates` },
    '/governance/dreps/{drep_id}/votes': { path: (f) => `/governance/dreps/${f.made.govDrep}/votes` },
    '/governance/proposals': { path: () => '/governance/proposals?order=desc' },
    '/governance/proposals/{tx_hash}/{cert_index}': { path: (f) => `/governance/proposals/${f.made.govLiveProposal}/0` },
    '/governance/proposals/{tx_hash}/{cert_index}/parameters': { path: (f) => `/governance/proposals/${f.made.govParameters}/parameters` },
    '/governance/proposals/{tx_hash}/{cert_index}/withdrawals': { path: (f) => `/governance/proposals/${f.made.govWithdrawals}/withdrawals` },
    '/governance/proposals/{tx_hash}/{cert_index}/votes': { path: (f) => `/governance/proposals/${f.made.govVoted}/votes` },
    '/governance/proposals/{tx_hash}/{cert_index}/metadata': { path: (f) => `/governance/proposals/${f.made.govParameters}/metadata` },
    '/governance/proposals/{gov_action_id}': { path: (f) => `/governance/proposals/${f.made.govParametersId}` },
    '/governance/proposals/{gov_action_id}/parameters': { path: (f) => `/governance/proposals/${f.made.govParametersId}/parameters` },
    '/governance/proposals/{gov_action_id}/withdrawals': { path: (f) => `/governance/proposals/${f.made.govWithdrawalsId}/withdrawals` },
    '/governance/proposals/{gov_action_id}/votes': { path: (f) => `/governance/proposals/${f.made.govVotedId}/votes` },
    '/governance/proposals/{gov_action_id}/metadata': { path: (f) => `/governance/proposals/${f.made.govWithdrawalsId}/metadata` },
    '/pools/{pool_id}/votes': { path: (f) => `/pools/${f.chain.catalog().pools[0]}/votes?order=desc&count=10` },
    '/network/eras': { path: () => '/network/eras' },
    '/nutlink/{address}': { path: (f) => `/nutlink/${f.made.govOracle}` },
    '/nutlink/{address}/tickers': { path: (f) => `/nutlink/${f.made.govOracle}/tickers` },
    '/nutlink/{address}/tickers/{ticker}': { path: (f) => `/nutlink/${f.made.govOracle}/tickers/ADAUSD?order=desc&count=3` },
    '/nutlink/tickers/{ticker}': { path: () => '/nutlink/tickers/ADAUSD?order=desc&count=3' },
  },
};
