// A devnet from a genesis of its own: its execution prices and Plutus cost models are what
// /epochs/latest/parameters answers, what the ledger's fee check charges the execution units at,
// what the Plutus machine evaluates with, and what script_data_hash must commit to. Its committee is
// the chain's: its members' hot keys vote, and submitted proposals are ratified against its threshold.
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { afterEach, describe, expect, it } from 'vitest';
import { createDevnet, LedgerRefusal, memoryLedgerStore, newDevnetState, type DevnetGenesisInput, type SandboxChain } from '../../../../../server/sandbox/chain/index';
import { exUnitsFee } from '../../../../../server/sandbox/chain/plutus';
import { COST_MODELS_RAW, PROTOCOL } from '../../../../../server/sandbox/chain/protocol';
import { ccColdId, drepId } from '../../../../../server/sandbox/chain/gov';
import { devnetGenesisSchema, PLUTUS_COST_MODEL_LENGTHS, poolIdOfKeyHash } from '../../../../../shared/devnet';
import { anchor, cert, drepVote, govKeysOf, govTx, keyHashOf, proposal } from './gov-builder';
import { adaOnlyUtxo } from './stake-builder';
import { assertSchema, serve, type TestServer } from './support';
import { ALWAYS_V3, lock, scriptAddress, spend } from './plutus-builder';
import { keysOf } from './tx-builder';

const T0 = Date.UTC(2026, 10, 2, 9);
const DEFAULT_PRICES = { price_mem: 0.0577, price_step: 0.0000721 };

function devnet(genesis: DevnetGenesisInput = {}) {
  const clock = { now: T0 };
  const { chain } = createDevnet({ id: 'g1', state: newDevnetState({ now: clock.now, seed: 'devnet-genesis', genesis }), store: memoryLedgerStore(), now: () => clock.now });
  const [alice] = chain.devWallets();
  const next = () => {
    clock.now += chain.params.blockIntervalMs;
  };
  /** The clock at block `height` (its time, when the chain makes it). */
  const advanceTo = (height: number) => {
    clock.now = T0 + height * chain.params.blockIntervalMs;
  };
  return { chain, alice: alice!, keys: keysOf(alice!.mnemonic), next, advanceTo };
}

const refusal = async (chain: SandboxChain, cbor: Uint8Array): Promise<string> => {
  const err = await chain.submit(cbor).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(LedgerRefusal);
  return (err as LedgerRefusal).message;
};

/** Locks 10 ada at the always-succeeding Plutus V3 script: the locked output. */
async function locked(d: ReturnType<typeof devnet>) {
  const hash = await d.chain.submit(lock(d.chain, d.alice.address, d.keys.payment, scriptAddress(ALWAYS_V3), 10_000_000n));
  d.next();
  const u = d.chain.addressUtxos(scriptAddress(ALWAYS_V3).to_bech32(undefined))!.find((x) => x.tx_hash === hash)!;
  return { ...u, lovelace: 10_000_000n };
}

describe('the default cost models', () => {
  it('have the lengths a genesis must give', () => {
    for (const [language, length] of Object.entries(PLUTUS_COST_MODEL_LENGTHS)) expect(COST_MODELS_RAW[language as keyof typeof COST_MODELS_RAW]).toHaveLength(length);
  });
});

describe("a devnet's execution prices", () => {
  it('are served, and the fee pays for the execution units at them: a spend priced at the default prices is refused, one at the devnet\'s accepted', async () => {
    const d = devnet({ protocolParams: { price_mem: 0.5, price_step: '0.0005' } });
    expect(d.chain.parameters(d.chain.latestEpoch().epoch)).toMatchObject({ price_mem: 0.5, price_step: 0.0005 });
    const units = { mem: 1_000_000n, steps: 500_000_000n };
    const charged = exUnitsFee(units.mem, units.steps, d.chain.params.protocol);
    expect(charged).toBe(750_000n);
    expect(exUnitsFee(units.mem, units.steps, PROTOCOL)).toBe(93_750n);
    const out = await locked(d);

    const cheap = spend(d.chain, d.alice.address, d.keys.payment, { script: ALWAYS_V3, locked: out, exUnits: units, prices: DEFAULT_PRICES });
    expect(await refusal(d.chain, cheap)).toMatch(new RegExp(`^The fee is too low: \\d+ lovelace, the minimum for \\d+ bytes is \\d+ \\(44 × size \\+ 155381 \\+ ${charged} for execution units\\)\\.$`));

    const hash = await d.chain.submit(spend(d.chain, d.alice.address, d.keys.payment, { script: ALWAYS_V3, locked: out, exUnits: units }));
    d.next();
    expect(d.chain.txRedeemers(hash)).toEqual([expect.objectContaining({ unit_mem: '1000000', unit_steps: '500000000', fee: String(charged) })]);
  });
});

describe("a devnet's cost models", () => {
  const doubled = COST_MODELS_RAW.PlutusV3.map((n) => n * 2);

  it('are served in both forms, and the machine evaluates with them: the same spend costs twice the budget when every cost doubles', async () => {
    const plain = devnet();
    const costly = devnet({ protocolParams: { cost_models: { PlutusV3: doubled } } });
    const params = costly.chain.parameters(costly.chain.latestEpoch().epoch) as { cost_models_raw: Record<string, number[]>; cost_models: Record<string, Record<string, number>> };
    expect(params.cost_models_raw.PlutusV3).toEqual(doubled);
    expect(params.cost_models.PlutusV3!['0']).toBe(doubled[0]);
    // The languages not given keep their defaults.
    expect(params.cost_models_raw.PlutusV1).toEqual(COST_MODELS_RAW.PlutusV1);

    // One seed, one genesis: the same lock on both, then one spend's bytes evaluated by each.
    const a = await locked(plain);
    const b = await locked(costly);
    expect(b.tx_hash).toBe(a.tx_hash);
    const draft = spend(plain.chain, plain.alice.address, plain.keys.payment, { script: ALWAYS_V3, locked: a });
    expect(await plain.chain.evaluate(draft)).toEqual({ ok: true, redeemers: [{ purpose: 'spend', index: 0, memory: 500, steps: 64_100 }] });
    expect(await costly.chain.evaluate(draft)).toEqual({ ok: true, redeemers: [{ purpose: 'spend', index: 0, memory: 1000, steps: 128_200 }] });
  });

  it('are what script_data_hash must commit to, and what phase 2 budgets against', async () => {
    const d = devnet({ protocolParams: { cost_models: { PlutusV3: doubled } } });
    const out = await locked(d);
    const overDefaults = spend(d.chain, d.alice.address, d.keys.payment, { script: ALWAYS_V3, locked: out, exUnits: { mem: 1000n, steps: 128_200n }, costModels: COST_MODELS_RAW });
    expect(await refusal(d.chain, overDefaults)).toMatch(/^script_data_hash is [0-9a-f]{64}, expected [0-9a-f]{64} \(over the redeemers, the datums and the cost models of \/epochs\/latest\/parameters/);
    // The default budget of this script is too little here.
    const defaultBudget = spend(d.chain, d.alice.address, d.keys.payment, { script: ALWAYS_V3, locked: out, exUnits: { mem: 500n, steps: 64_100n } });
    expect(await refusal(d.chain, defaultBudget)).toMatch(/spend:0 the script needs 1000 memory and 128200 steps, the redeemer declares 500 and 64100/);
    const hash = await d.chain.submit(spend(d.chain, d.alice.address, d.keys.payment, { script: ALWAYS_V3, locked: out, exUnits: { mem: 1000n, steps: 128_200n } }));
    d.next();
    expect(d.chain.tx(hash)).toMatchObject({ redeemer_count: 1, valid_contract: true });
  });
});

describe("a devnet's genesis committee", () => {
  const key = (n: number) => CSL.PrivateKey.from_normal_bytes(new Uint8Array(32).fill(n));
  const cred = (k: CSL.PrivateKey) => CSL.Credential.from_keyhash(k.to_public().hash());
  const [cold1, cold2, hot1, hot2, stranger, poolKey] = [key(11), key(12), key(21), key(22), key(31), key(32)];
  const hotAuth = (cold: CSL.PrivateKey, hot: CSL.PrivateKey) => CSL.Certificate.new_committee_hot_auth(CSL.CommitteeHotAuth.new(cred(cold), cred(hot)));
  const ccVote = (votes: CSL.VotingProcedures, hot: CSL.PrivateKey, txHash: string, index: number, vote: CSL.VoteKind) => {
    votes.insert(CSL.Voter.new_constitutional_committee_hot_credential(cred(hot)), CSL.GovernanceActionId.new(CSL.TransactionHash.from_hex(txHash), index), CSL.VotingProcedure.new(vote));
    return votes;
  };
  const constitution = (url: string) => CSL.GovernanceAction.new_new_constitution_action(CSL.NewConstitutionAction.new(CSL.Constitution.new(anchor(url))));

  let servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });

  it('is the chain\'s committee: its members authorize hot keys, vote with them, and a proposal is ratified when their yes votes reach its threshold', async () => {
    const drepOwner = govKeysOf(devnet().alice.mnemonic);
    const genesis: DevnetGenesisInput = {
      epochLength: 10,
      protocolParams: { gov_action_deposit: '1000000', drep_deposit: '2000000' },
      initialDReps: [{ credential: keyHashOf(drepOwner.drep) }],
      committee: { members: [{ coldCredential: keyHashOf(cold1), expiryEpoch: 50 }, { coldCredential: keyHashOf(cold2), expiryEpoch: 40 }], threshold: { numerator: 3, denominator: 5 } },
      initialPools: [{ poolKeyHash: keyHashOf(poolKey), pledge: '0', cost: '170000000', margin: 0 }],
    };
    const d = devnet(genesis);
    const keys = govKeysOf(d.alice.mnemonic);
    const http = await serve(d.chain);
    servers.push(http);
    d.next();

    const before = (await http.get('/governance/committee')).body;
    assertSchema('/governance/committee', before);
    expect(before.quorum).toEqual({ numerator: 3, denominator: 5 });
    expect(before.members).toEqual([
      expect.objectContaining({ cc_cold_hex: keyHashOf(cold1), status: 'not_authorized', cc_hot_hex: null, expiration_epoch: 50 }),
      expect.objectContaining({ cc_cold_hex: keyHashOf(cold2), status: 'not_authorized', cc_hot_hex: null, expiration_epoch: 40 }),
    ]);

    const utxo = () => adaOnlyUtxo(d.chain, d.alice.address);
    // Only a member's cold key authorizes a hot key.
    expect(await refusal(d.chain, govTx({ inputs: [utxo()], change: d.alice.address, signers: [keys.payment, stranger], certs: [hotAuth(stranger, hot1)] }))).toMatch(/is not a member of the constitutional committee/);
    await d.chain.submit(govTx({ inputs: [utxo()], change: d.alice.address, signers: [keys.payment, keys.stake, cold1, cold2], certs: [cert.stakeRegistration(keys.stake), hotAuth(cold1, hot1), hotAuth(cold2, hot2)], deposit: 2_000_000n }));
    d.next();
    const authorized = (await http.get('/governance/committee')).body;
    expect(authorized.members.map((m: { status: string; cc_hot_hex: string }) => [m.status, m.cc_hot_hex])).toEqual([['authorized', keyHashOf(hot1)], ['authorized', keyHashOf(hot2)]]);

    const proposed = await d.chain.submit(govTx({
      inputs: [utxo()], change: d.alice.address, signers: [keys.payment],
      proposals: [
        proposal(constitution('https://example.invalid/a.txt'), d.alice.stakeAddress!, 1_000_000n),
        proposal(constitution('https://example.invalid/b.txt'), d.alice.stakeAddress!, 1_000_000n),
        proposal(CSL.GovernanceAction.new_info_action(CSL.InfoAction.new()), d.alice.stakeAddress!, 1_000_000n),
      ],
      deposit: 3_000_000n,
    }));
    d.next();
    // A hot key no member authorized may not vote.
    expect(await refusal(d.chain, govTx({ inputs: [utxo()], change: d.alice.address, signers: [keys.payment, stranger], votes: ccVote(CSL.VotingProcedures.new(), stranger, proposed, 0, CSL.VoteKind.Yes) }))).toMatch(/is not the hot key of a committee member/);
    // Proposal 0: both members yes (2/2 ≥ 3/5); proposal 1: one yes, one no (1/2 < 3/5). The DRep votes yes on both.
    let votes = drepVote(CSL.VotingProcedures.new(), drepOwner.drep, proposed, 0, CSL.VoteKind.Yes);
    votes = drepVote(votes, drepOwner.drep, proposed, 1, CSL.VoteKind.Yes);
    for (const [hot, second] of [[hot1, CSL.VoteKind.Yes], [hot2, CSL.VoteKind.No]] as const) votes = ccVote(ccVote(votes, hot, proposed, 0, CSL.VoteKind.Yes), hot, proposed, 1, second);
    const voted = await d.chain.submit(govTx({ inputs: [utxo()], change: d.alice.address, signers: [keys.payment, drepOwner.drep, hot1, hot2], votes }));
    d.next();
    // The holder of a genesis pool's key votes as the pool.
    const poolVote = CSL.VotingProcedures.new();
    poolVote.insert(CSL.Voter.new_stake_pool_key_hash(poolKey.to_public().hash()), CSL.GovernanceActionId.new(CSL.TransactionHash.from_hex(proposed), 2), CSL.VotingProcedure.new(CSL.VoteKind.Yes));
    const byPool = await d.chain.submit(govTx({ inputs: [utxo()], change: d.alice.address, signers: [keys.payment, poolKey], votes: poolVote }));
    d.next();
    expect((await http.get(`/governance/proposals/${proposed}/2/votes`)).body).toEqual([expect.objectContaining({ tx_hash: byPool, voter_role: 'spo', voter: poolIdOfKeyHash(keyHashOf(poolKey)), vote: 'yes' })]);
    const ccVotes = (await http.get(`/governance/committee/${ccColdId(keyHashOf(cold2))}/votes`)).body;
    expect(ccVotes).toEqual([expect.objectContaining({ tx_hash: voted, vote: 'yes' }), expect.objectContaining({ tx_hash: voted, vote: 'no' })]);

    d.advanceTo(25); // epoch 2: the votes of epoch 0 were counted at its end
    const passed = (await http.get(`/governance/proposals/${proposed}/0`)).body;
    expect(passed).toMatchObject({ ratified_epoch: 1, enacted_epoch: 2, expired_epoch: null });
    const failed = (await http.get(`/governance/proposals/${proposed}/1`)).body;
    expect(failed).toMatchObject({ ratified_epoch: null, enacted_epoch: null });
    // A ratified proposal takes no more votes.
    expect(await refusal(d.chain, govTx({ inputs: [utxo()], change: d.alice.address, signers: [keys.payment, hot1], votes: ccVote(CSL.VotingProcedures.new(), hot1, proposed, 0, CSL.VoteKind.No) }))).toMatch(/is no longer open for votes/);

    // A member that resigns votes no more.
    await d.chain.submit(govTx({ inputs: [utxo()], change: d.alice.address, signers: [keys.payment, cold2], certs: [CSL.Certificate.new_committee_cold_resign(CSL.CommitteeColdResign.new(cred(cold2)))] }));
    d.next();
    expect((await http.get('/governance/committee')).body.members[1]).toMatchObject({ status: 'resigned', cc_hot_hex: null });
    expect(await refusal(d.chain, govTx({ inputs: [utxo()], change: d.alice.address, signers: [keys.payment, hot2], votes: ccVote(CSL.VotingProcedures.new(), hot2, proposed, 1, CSL.VoteKind.Yes) }))).toMatch(/is not the hot key of a committee member/);
    expect(await refusal(d.chain, govTx({ inputs: [utxo()], change: d.alice.address, signers: [keys.payment, cold2], certs: [hotAuth(cold2, hot2)] }))).toMatch(/has resigned/);
  });

  it('refuses a committee with a malformed credential, a past expiry or a threshold outside (0, 1], naming the field', () => {
    const member = { coldCredential: 'ab'.repeat(28), expiryEpoch: 10 };
    const issue = (committee: unknown) => {
      const r = devnetGenesisSchema.safeParse({ committee });
      expect(r.success).toBe(false);
      return `${r.error!.issues[0]!.path.join('.')}: ${r.error!.issues[0]!.message}`;
    };
    expect(devnetGenesisSchema.safeParse({ committee: { members: [member], threshold: 1 } }).success).toBe(true);
    expect(issue({ members: [{ ...member, coldCredential: 'xyz' }] })).toMatch(/^committee\.members\.0\.coldCredential: 28 bytes in hex/);
    expect(issue({ members: [{ ...member, expiryEpoch: 0 }] })).toMatch(/^committee\.members\.0\.expiryEpoch: an epoch after the genesis epoch 0/);
    expect(issue({ members: [{ ...member, expiryEpoch: 500 }] })).toMatch(/^committee\.members\.0\.expiryEpoch: at most committee_max_term_length \(146\)/);
    for (const threshold of [0, 1.5, { numerator: 0, denominator: 3 }, { numerator: 4, denominator: 3 }, 'half']) expect(issue({ members: [member], threshold })).toMatch(/^committee\.threshold: a share above 0 and at most 1/);
  });
});

describe("a devnet's genesis stake distribution", () => {
  const key = (n: number) => CSL.PrivateKey.from_normal_bytes(new Uint8Array(32).fill(n));
  const cred = (k: CSL.PrivateKey) => CSL.Credential.from_keyhash(k.to_public().hash());
  const holder = (n: number) => ({
    address: CSL.BaseAddress.new(0, cred(key(n)), cred(key(n + 1))).to_address().to_bech32(undefined),
    stakeAddress: CSL.RewardAddress.new(0, cred(key(n + 1))).to_address().to_bech32(undefined),
  });
  const [a, b] = [holder(41), holder(43)];
  const poolCold = keyHashOf(key(51));
  const drepHex = keyHashOf(key(61));

  let servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });

  it('registers its pools and delegates its initial funds to them (and their votes to its DReps) from block 0: /pools, /accounts and the epoch snapshots agree', async () => {
    const d = devnet({
      epochLength: 10,
      initialFunds: [{ address: a.address, lovelace: '5000000000' }, { address: b.address, lovelace: '2000000000' }],
      initialPools: [{ pledge: '1000000000', cost: '340000000', margin: 0.02, ticker: 'MINE', name: 'My pool' }, { poolKeyHash: poolCold, pledge: '0', cost: '170000000', margin: 0 }],
      initialDReps: [{ credential: drepHex }],
      initialDelegations: [{ stakeAddress: a.stakeAddress, pool: 0 }, { stakeAddress: b.stakeAddress, pool: poolIdOfKeyHash(poolCold), drep: drepHex }],
    });
    const http = await serve(d.chain);
    servers.push(http);
    d.next();

    const ids = (await http.get('/pools?count=100')).body as string[];
    const [mine, keyed] = ids.slice(-2) as [string, string];
    expect(keyed).toBe(poolIdOfKeyHash(poolCold));
    const pool = (await http.get(`/pools/${mine}`)).body;
    assertSchema('/pools/{pool_id}', pool);
    // The genesis' stake distribution is active from epoch 0, as a genesis' is.
    expect(pool).toMatchObject({ live_stake: '5000000000', active_stake: '5000000000', live_delegators: 1, declared_pledge: '1000000000', fixed_cost: '340000000', margin_cost: 0.02, blocks_minted: 0 });
    expect((await http.get(`/pools/${mine}/metadata`)).body).toMatchObject({ pool_id: mine, ticker: 'MINE', name: 'My pool' });
    expect((await http.get(`/pools/${mine}/delegators`)).body).toEqual([{ address: a.stakeAddress, live_stake: '5000000000' }]);
    expect((await http.get(`/pools/${keyed}`)).body).toMatchObject({ hex: poolCold, live_stake: '2000000000', live_delegators: 1 });
    const account = (await http.get(`/accounts/${a.stakeAddress}`)).body;
    assertSchema('/accounts/{stake_address}', account);
    expect(account).toMatchObject({ stake_address: a.stakeAddress, active: true, active_epoch: 0, pool_id: mine, controlled_amount: '5000000000' });
    expect(account.drep_id).toBeNull();
    expect((await http.get(`/accounts/${b.stakeAddress}`)).body).toMatchObject({ pool_id: keyed, drep_id: drepId(drepHex, false), controlled_amount: '2000000000' });
    expect((await http.get(`/governance/dreps/${drepId(drepHex, false)}`)).body).toMatchObject({ amount: '2000000000', active: true });
    expect((await http.get(`/accounts/${a.stakeAddress}/delegations`)).body).toEqual([expect.objectContaining({ active_epoch: 0, pool_id: mine, amount: '5000000000', block_height: 0 })]);

    // The epochs' snapshots: epochs 0 and 1 have the genesis', epoch 2 the end of epoch 0's; the rewards of each epoch follow at the next.
    d.advanceTo(45);
    const history = (await http.get(`/pools/${mine}/history`)).body as Array<{ epoch: number; active_stake: string; delegators_count: number }>;
    expect(history.slice(0, 3).map((h) => [h.epoch, h.active_stake, h.delegators_count])).toEqual([[0, '5000000000', 1], [1, '5000000000', 1], [2, '5000000000', 1]]);
    expect(((await http.get(`/accounts/${a.stakeAddress}/history`)).body as Array<{ active_epoch: number; pool_id: string }>).slice(0, 3)).toEqual([0, 1, 2].map((e) => ({ active_epoch: e, amount: '5000000000', pool_id: mine })));
    const rewards = (await http.get(`/accounts/${a.stakeAddress}/rewards`)).body as Array<{ epoch: number; pool_id: string; amount: string }>;
    expect(rewards.map((r) => r.epoch)).toEqual([0, 1, 2, 3]);
    expect(rewards.every((r) => r.pool_id === mine && BigInt(r.amount) > 0n)).toBe(true);
  });

  it('refuses pools and delegations it cannot make, naming the field', () => {
    const issue = (genesis: DevnetGenesisInput) => {
      const r = devnetGenesisSchema.safeParse(genesis);
      expect(r.success).toBe(false);
      return `${r.error!.issues[0]!.path.join('.')}: ${r.error!.issues[0]!.message}`;
    };
    const pool = { pledge: '0', cost: '170000000', margin: 0 };
    const funds = [{ address: a.address, lovelace: '5000000000' }];
    expect(issue({ initialPools: [{ ...pool, poolKeyHash: 'zz' }] })).toMatch(/^initialPools\.0\.poolKeyHash: 28 bytes in hex/);
    expect(issue({ initialPools: [{ ...pool, margin: 1.5 }] })).toMatch(/^initialPools\.0\.margin: /);
    expect(issue({ initialPools: [{ ...pool, pledge: '9000000000000001' }] })).toMatch(/^initialPools\.0\.pledge: at most 9 billion ada/);
    expect(issue({ initialFunds: funds, initialPools: [pool], initialDelegations: [{ stakeAddress: b.stakeAddress, pool: 0 }] })).toMatch(/^initialDelegations\.0\.stakeAddress: the stake address of a base address of initialFunds/);
    expect(issue({ initialFunds: funds, initialPools: [pool], initialDelegations: [{ stakeAddress: a.stakeAddress, pool: 1 }] })).toMatch(/^initialDelegations\.0\.pool: a pool of initialPools/);
    expect(issue({ initialFunds: funds, initialDelegations: [{ stakeAddress: a.stakeAddress, drep: drepHex }] })).toMatch(/^initialDelegations\.0\.drep: the credential of one of initialDReps/);
    expect(issue({ initialFunds: funds, initialDelegations: [{ stakeAddress: a.stakeAddress }] })).toMatch(/^initialDelegations\.0\.pool: a pool, a drep or both/);
    expect(devnetGenesisSchema.safeParse({ initialFunds: funds, initialDelegations: [{ stakeAddress: a.stakeAddress, drep: 'abstain' }] }).success).toBe(true);
  });
});
