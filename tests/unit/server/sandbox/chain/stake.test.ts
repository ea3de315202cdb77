// Staking on the sandbox chain: a development wallet registers and delegates its stake key, earns
// rewards each epoch, withdraws them (exactly its balance) and deregisters; the accounts, pools,
// epochs and transactions endpoints agree with each other about it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLedgerStore, type SandboxChain } from '../../../../../server/sandbox/chain/index';
import { assertSchema, serve, testChain, type TestServer } from './support';
import { poolBech32 } from '../../../../../shared/cardano/fingerprint';
import { adaOnlyUtxo, awayFromEpochStart, producingPool, stakeTx } from './stake-builder';
import { keysOf, type WalletKeys } from './tx-builder';

const sum = (xs: Array<string | number | bigint>): bigint => xs.reduce<bigint>((n, x) => n + BigInt(x), 0n);

describe('a delegation of a development wallet', () => {
  let chain: SandboxChain;
  let clock: { now: number };
  let http: TestServer;
  let pool: string;
  let stake: string;
  let address: string;
  let keys: WalletKeys;
  let delegationTx: string;
  let delegatedEpoch: number;
  const networkId = 0;

  beforeAll(async () => {
    ({ chain, clock } = testChain({ network: 'preprod', store: memoryLedgerStore() }));
    http = await serve(chain);
    pool = producingPool(chain);
    const wallet = chain.devWallets()[0]!;
    stake = wallet.stakeAddress;
    address = wallet.address;
  });
  afterAll(async () => {
    await http.close();
  });

  const get = async (path: string, template: string) => {
    const res = await http.get(path);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    assertSchema(template, res.body);
    return res.body;
  };
  const utxoSum = (): bigint => sum(chain.accountUtxos(stake)!.map((u) => u.amount.find((a) => a.unit === 'lovelace')!.quantity));

  it("before anything: the wallet's stake key is neither registered nor delegated", () => {
    const account = chain.account(stake)!;
    expect(account).toMatchObject({ registered: false, active: false, pool_id: null, rewards_sum: '0', withdrawable_amount: '0' });
    expect(chain.accountRewards(stake)).toEqual([]);
  });

  it('registers and delegates: the account, its delegations and the transaction agree', async () => {
    const before = chain.pool(pool)!.live_delegators;
    const tip = chain.tipHeight();
    delegatedEpoch = chain.epochOfHeight(tip + 1);
    keys = keysOf(chain.devWallets()[0]!.mnemonic);
    delegationTx = await chain.submit(stakeTx({ inputs: [adaOnlyUtxo(chain, address)], change: address, keys, networkId, certs: [{ kind: 'register' }, { kind: 'delegate', pool }] }));
    expect(chain.tx(delegationTx)).toBeNull();
    clock.now += chain.params.blockIntervalMs;

    const account = await get(`/accounts/${stake}`, '/accounts/{stake_address}');
    expect(account).toMatchObject({ registered: true, active: true, pool_id: pool, active_epoch: delegatedEpoch + 2, withdrawable_amount: '0' });
    expect(BigInt(account.controlled_amount)).toBe(utxoSum());
    expect(chain.pool(pool)!.live_delegators).toBe(before + 1);

    const delegations = await get(`/accounts/${stake}/delegations`, '/accounts/{stake_address}/delegations');
    const txDelegations = await get(`/txs/${delegationTx}/delegations`, '/txs/{hash}/delegations');
    expect(delegations).toHaveLength(1);
    expect(txDelegations).toEqual([expect.objectContaining({ address: stake, pool_id: delegations[0].pool_id, active_epoch: delegations[0].active_epoch })]);
    expect(delegations[0]).toMatchObject({ tx_hash: delegationTx, block_height: chain.tx(delegationTx)!.block_height, tx_slot: chain.tx(delegationTx)!.slot });
    expect(await get(`/txs/${delegationTx}/stakes`, '/txs/{hash}/stakes')).toEqual([{ cert_index: 0, address: stake, registration: true }]);
    expect(await get(`/accounts/${stake}/registrations`, '/accounts/{stake_address}/registrations')).toEqual([
      expect.objectContaining({ tx_hash: delegationTx, action: 'registered', deposit: '2000000' }),
    ]);
    expect(chain.tx(delegationTx)).toMatchObject({ delegation_count: 1, stake_cert_count: 1, deposit: '2000000' });
    const delegators = await get(`/pools/${pool}/delegators`, '/pools/{pool_id}/delegators');
    expect(delegators).toContainEqual({ address: stake, live_stake: account.controlled_amount });
    const live = chain.pool(pool)!;
    expect(delegators).toHaveLength(live.live_delegators);
    expect(sum(delegators.map((d: { live_stake: string }) => d.live_stake))).toBe(BigInt(live.live_stake));
  });

  it('earns nothing before the delegation is active, then a reward each epoch', () => {
    const E = chain.params.blocksPerEpoch;
    // Last block of the epoch in which the delegation becomes active: no reward credited yet.
    clock.now = chain.params.genesisTime + ((delegatedEpoch + 3) * E - 1) * chain.params.blockIntervalMs;
    expect(chain.accountRewards(stake)).toEqual([]);
    expect(chain.accountHistory(stake)!.map((h) => h.active_epoch)).toEqual([delegatedEpoch + 2]);
    // The next block opens epoch N + 3: the reward of N + 2 is credited.
    clock.now += chain.params.blockIntervalMs;
    const rewards = chain.accountRewards(stake)!;
    expect(rewards).toEqual([{ epoch: delegatedEpoch + 2, amount: expect.stringMatching(/^[1-9]\d*$/), pool_id: pool, type: 'member' }]);
    // 0.03 % of the active stake, less the pool's margin.
    const history = chain.accountHistory(stake)!;
    const active = BigInt(history[0]!.amount);
    const margin = BigInt(Math.round(chain.pool(pool)!.margin_cost * 1e6));
    expect(BigInt(rewards[0]!.amount)).toBe((((active * 300n) / 1_000_000n) * (1_000_000n - margin)) / 1_000_000n);
    const account = chain.account(stake)!;
    expect(account.rewards_sum).toBe(rewards[0]!.amount);
    expect(account.withdrawable_amount).toBe(rewards[0]!.amount);
    expect(BigInt(account.controlled_amount)).toBe(utxoSum() + BigInt(account.withdrawable_amount));
    clock.now += E * chain.params.blockIntervalMs;
    expect(chain.accountRewards(stake)!.map((r) => r.epoch)).toEqual([delegatedEpoch + 2, delegatedEpoch + 3]);
    // The second snapshot (end of N + 1) precedes the first credit: the same stake.
    expect(BigInt(chain.accountHistory(stake)![1]!.amount)).toBe(active);
  });

  it('the epoch stake distribution holds the account and sums to the pools\' active stake', async () => {
    const epoch = chain.latestEpoch().epoch;
    const all = [];
    for (let page = 1; ; page++) {
      const rows = await get(`/epochs/${epoch}/stakes?page=${page}`, '/epochs/{number}/stakes');
      all.push(...rows);
      if (rows.length < 100) break;
    }
    const history = chain.accountHistory(stake)!.find((h) => h.active_epoch === epoch)!;
    expect(all).toContainEqual({ stake_address: stake, pool_id: pool, amount: history.amount });
    for (const id of chain.pools()) {
      const rows = all.filter((r) => r.pool_id === id);
      expect(sum(rows.map((r) => r.amount)), id).toBe(BigInt(chain.pool(id)!.active_stake));
      const byPool = await get(`/epochs/${epoch}/stakes/${id}`, '/epochs/{number}/stakes/{pool_id}');
      expect(byPool).toEqual(rows.map((r) => ({ stake_address: r.stake_address, amount: r.amount })));
    }
    expect(sum(all.map((r) => r.amount))).toBe(BigInt(chain.latestEpoch().active_stake!));
    const history2 = await get(`/pools/${pool}/history?order=desc&count=1`, '/pools/{pool_id}/history');
    expect(history2[0]).toMatchObject({ epoch, active_stake: chain.pool(pool)!.active_stake, delegators_count: all.filter((r) => r.pool_id === pool).length });
  });

  it('refuses a withdrawal that is not the whole balance, accepts the exact one', async () => {
    awayFromEpochStart(chain, clock);
    const balance = BigInt(chain.account(stake)!.withdrawable_amount);
    expect(balance).toBeGreaterThan(0n);
    await expect(chain.submit(stakeTx({ inputs: [adaOnlyUtxo(chain, address)], change: address, keys, networkId, withdraw: balance - 1n }))).rejects.toThrow(
      `its reward balance is ${balance} lovelace, not ${balance - 1n}`,
    );
    await expect(chain.submit(stakeTx({ inputs: [adaOnlyUtxo(chain, address)], change: address, keys, networkId, certs: [{ kind: 'deregister' }] }))).rejects.toThrow(
      `still holds ${balance} lovelace of rewards`,
    );
    const hash = await chain.submit(stakeTx({ inputs: [adaOnlyUtxo(chain, address)], change: address, keys, networkId, withdraw: balance }));
    clock.now += chain.params.blockIntervalMs;
    expect(await get(`/txs/${hash}/withdrawals`, '/txs/{hash}/withdrawals')).toEqual([{ address: stake, amount: String(balance) }]);
    expect(await get(`/accounts/${stake}/withdrawals`, '/accounts/{stake_address}/withdrawals')).toEqual([
      expect.objectContaining({ tx_hash: hash, amount: String(balance), block_height: chain.tx(hash)!.block_height }),
    ]);
    expect(chain.tx(hash)!.withdrawal_count).toBe(1);
    const account = chain.account(stake)!;
    expect(account.withdrawable_amount).toBe('0');
    expect(BigInt(account.rewards_sum) - BigInt(account.withdrawals_sum)).toBe(0n);
    expect(BigInt(account.controlled_amount)).toBe(utxoSum());
    // The withdrawn lovelace is in the wallet's outputs now.
    const out = chain.txUtxos(hash)!.outputs[0]!;
    const spent = chain.txUtxos(hash)!.inputs[0]!;
    expect(BigInt(out.amount[0]!.quantity)).toBe(BigInt(spent.amount[0]!.quantity) + balance - BigInt(chain.tx(hash)!.fees));
  });

  it('deregisters with its last rewards withdrawn in the same transaction, and the deposit comes back', async () => {
    clock.now += chain.params.blocksPerEpoch * chain.params.blockIntervalMs;
    awayFromEpochStart(chain, clock);
    const balance = BigInt(chain.account(stake)!.withdrawable_amount);
    expect(balance).toBeGreaterThan(0n);
    const hash = await chain.submit(stakeTx({ inputs: [adaOnlyUtxo(chain, address)], change: address, keys, networkId, withdraw: balance, certs: [{ kind: 'deregister' }] }));
    clock.now += chain.params.blockIntervalMs;
    expect(chain.tx(hash)).toMatchObject({ deposit: '-2000000', stake_cert_count: 1 });
    expect(chain.txStakes(hash)).toEqual([{ cert_index: 0, address: stake, registration: false }]);
    expect(chain.account(stake)).toMatchObject({ registered: false, active: false, pool_id: null, withdrawable_amount: '0' });
    expect(chain.accountRegistrations(stake)!.map((r) => r.action)).toEqual(['registered', 'deregistered']);
    const rewardsBefore = chain.accountRewards(stake)!.length;
    clock.now += 3 * chain.params.blocksPerEpoch * chain.params.blockIntervalMs;
    expect(chain.accountRewards(stake)!.length).toBe(rewardsBefore);
    expect(chain.account(stake)!.withdrawable_amount).toBe('0');
    // Withdrawing from an unregistered key is refused.
    await expect(chain.submit(stakeTx({ inputs: [adaOnlyUtxo(chain, address)], change: address, keys, networkId, withdraw: 0n }))).rejects.toThrow('is not registered');
  });

  it("an account's transactions, assets and totals", async () => {
    const txs = await get(`/accounts/${stake}/transactions`, '/accounts/{stake_address}/transactions');
    expect(txs.map((t: { tx_hash: string }) => t.tx_hash)).toContain(delegationTx);
    expect(txs.every((t: { address: string }) => chain.addressesOfStake(stake).includes(t.address) || t.address === address)).toBe(true);
    const desc = await get(`/accounts/${stake}/transactions?order=desc&count=2`, '/accounts/{stake_address}/transactions');
    expect(desc).toEqual(txs.slice(-2).reverse());
    const total = await get(`/accounts/${stake}/addresses/total`, '/accounts/{stake_address}/addresses/total');
    expect(total.tx_count).toBe(txs.length);
    expect(BigInt(total.received_sum[0].quantity) - BigInt(total.sent_sum[0].quantity)).toBe(utxoSum());
    expect(await get(`/accounts/${stake}/mirs`, '/accounts/{stake_address}/mirs')).toEqual([]);
  });
});

describe('pools, epochs and their blocks', () => {
  let chain: SandboxChain;
  let http: TestServer;
  beforeAll(async () => {
    ({ chain } = testChain({ network: 'preview' }));
    http = await serve(chain);
  });
  afterAll(async () => {
    await http.close();
  });

  it('epochs last 30 blocks of 20 s: /genesis and /epochs agree', async () => {
    const genesis = (await http.get('/genesis')).body;
    expect(genesis.epoch_length).toBe(600);
    const latest = (await http.get('/epochs/latest')).body;
    expect(latest.end_time - latest.start_time).toBe(genesis.epoch_length * genesis.slot_length);
  });

  it('an epoch\'s blocks by pool agree with the pool\'s blocks and the blocks\' slot leaders', async () => {
    const epoch = chain.latestEpoch().epoch - 1;
    const hashes: string[] = (await http.get(`/epochs/${epoch}/blocks`)).body;
    expect(hashes).toHaveLength(chain.params.blocksPerEpoch);
    expect(hashes[0]).toBe(chain.blockAt(epoch * chain.params.blocksPerEpoch)!.hash);
    const leaders = new Map<string, string[]>();
    for (const h of hashes) {
      const leader = chain.blockAt(h)!.slot_leader;
      leaders.set(leader, [...(leaders.get(leader) ?? []), h]);
    }
    for (const id of chain.pools()) {
      const res = await http.get(`/epochs/${epoch}/blocks/${id}`);
      expect(res.status).toBe(200);
      expect(res.body, id).toEqual(leaders.get(id) ?? []);
    }
    const pool = producingPool(chain);
    const recent: string[] = (await http.get(`/pools/${pool}/blocks?order=desc`)).body;
    expect(recent.length).toBe(100);
    for (const h of recent) expect(chain.blockAt(h)!.slot_leader).toBe(pool);
    // Descending from the tip: every block the pool led in the span is there, in order.
    const lowest = chain.blockAt(recent[recent.length - 1]!)!.height!;
    const led: string[] = [];
    for (let h = chain.tipHeight(); h >= lowest; h--) if (chain.blockAt(h)!.slot_leader === pool) led.push(chain.blockAt(h)!.hash);
    expect(recent).toEqual(led);
    const first: string[] = (await http.get(`/pools/${pool}/blocks?count=3`)).body;
    const heights = first.map((h) => chain.blockAt(h)!.height!);
    expect(heights).toEqual([...heights].sort((a, b) => a - b));
    expect(heights[0]).toBeLessThan(chain.params.blocksPerEpoch);
    for (const h of first) expect(chain.blockAt(h)!.slot_leader).toBe(pool);
    const history = (await http.get(`/pools/${pool}/history?order=desc&count=2`)).body;
    expect(history[1]).toMatchObject({ epoch, blocks: leaders.get(pool)!.length });
    const page2: string[] = (await http.get(`/pools/${pool}/blocks?order=desc&page=2&count=50`)).body;
    expect(page2).toEqual(recent.slice(50));
  });

  it('next and previous epochs', async () => {
    const current = chain.latestEpoch().epoch;
    const next = (await http.get(`/epochs/${current - 3}/next`)).body;
    expect(next.map((e: { epoch: number }) => e.epoch)).toEqual([current - 2, current - 1, current]);
    const previous = (await http.get(`/epochs/${current}/previous?count=2`)).body;
    expect(previous.map((e: { epoch: number }) => e.epoch)).toEqual([current - 2, current - 1]);
    const page2 = (await http.get(`/epochs/${current}/previous?count=2&page=2`)).body;
    expect(page2.map((e: { epoch: number }) => e.epoch)).toEqual([current - 4, current - 3]);
    expect((await http.get(`/epochs/${current}/next`)).body).toEqual([]);
    expect((await http.get(`/epochs/1/previous`)).body.map((e: { epoch: number }) => e.epoch)).toEqual([0]);
  });

  it('retired and retiring pools, with their certificates', async () => {
    const current = chain.latestEpoch().epoch;
    const retired = (await http.get('/pools/retired')).body;
    expect(retired.length).toBeGreaterThan(0);
    const listed: string[] = chain.pools();
    for (const r of retired) {
      expect(r.epoch).toBeLessThanOrEqual(current);
      expect(listed).not.toContain(r.pool_id);
      const pool = (await http.get(`/pools/${r.pool_id}`)).body;
      expect(pool.retirement).toHaveLength(1);
      expect(pool.blocks_minted).toBe(0);
      const updates = (await http.get(`/pools/${r.pool_id}/updates`)).body;
      expect(updates.map((u: { action: string }) => u.action)).toEqual(['registered', 'deregistered']);
      expect(updates[1].tx_hash).toBe(pool.retirement[0]);
      expect((await http.get(`/txs/${pool.retirement[0]}/pool_retires`)).body).toContainEqual({ cert_index: updates[1].cert_index, pool_id: r.pool_id, retiring_epoch: r.epoch });
      expect((await http.get(`/pools/${r.pool_id}/history`)).body.length).toBe(r.epoch);
    }
    const retiring = (await http.get('/pools/retiring')).body;
    expect(retiring.length).toBeGreaterThan(0);
    for (const r of retiring) {
      expect(r.epoch).toBeGreaterThan(current);
      expect(listed).toContain(r.pool_id);
      const pool = (await http.get(`/pools/${r.pool_id}`)).body;
      const retires = (await http.get(`/txs/${pool.retirement[0]}/pool_retires`)).body;
      expect(retires).toContainEqual(expect.objectContaining({ pool_id: r.pool_id, retiring_epoch: r.epoch }));
      expect(chain.tx(pool.retirement[0])!.pool_retire_count).toBe(retires.length);
      const updates = (await http.get(`/pools/${r.pool_id}/updates?order=desc&count=1`)).body;
      expect(updates).toEqual([expect.objectContaining({ tx_hash: pool.retirement[0], action: 'deregistered' })]);
    }
    const genesisTx = chain.pool(listed[0]!)!.registration[0]!;
    const registrations = (await http.get(`/txs/${genesisTx}/pool_updates`)).body;
    assertSchema('/txs/{hash}/pool_updates', registrations);
    expect(registrations.length).toBe(chain.tx(genesisTx)!.pool_update_count);
    for (const id of [...listed, ...retired.map((r: { pool_id: string }) => r.pool_id)]) expect(registrations.map((r: { pool_id: string }) => r.pool_id)).toContain(id);
    const meta = (await http.get(`/pools/${listed[0]}/metadata`)).body;
    expect(registrations.find((r: { pool_id: string }) => r.pool_id === listed[0]).metadata).toEqual({ url: meta.url, hash: meta.hash, ticker: meta.ticker, name: meta.name, description: meta.description, homepage: meta.homepage });
    expect(registrations.find((r: { pool_id: string }) => r.pool_id === listed[0]).relays).toEqual((await http.get(`/pools/${listed[0]}/relays`)).body);
  });

  it('a world account: rewards less withdrawals is what it can withdraw, and each withdrawal is in its transaction', async () => {
    const stake = chain.catalog().stakeAddresses.find((s) => (chain.accountWithdrawals(s) ?? []).length > 0)!;
    expect(stake).toBeDefined();
    const account = chain.account(stake)!;
    expect(BigInt(account.rewards_sum) - BigInt(account.withdrawals_sum)).toBe(BigInt(account.withdrawable_amount));
    const withdrawals = (await http.get(`/accounts/${stake}/withdrawals`)).body;
    expect(sum(withdrawals.map((w: { amount: string }) => w.amount))).toBe(BigInt(account.withdrawals_sum));
    for (const w of withdrawals) expect((await http.get(`/txs/${w.tx_hash}/withdrawals`)).body).toContainEqual({ address: stake, amount: w.amount });
    expect(sum(chain.accountRewards(stake)!.map((r) => r.amount))).toBe(BigInt(account.rewards_sum));
    const history = (await http.get(`/accounts/${stake}/history?order=desc&count=1`)).body;
    assertSchema('/accounts/{stake_address}/history', history);
    const epoch = chain.latestEpoch().epoch;
    expect((await http.get(`/epochs/${epoch}/stakes/${history[0].pool_id}`)).body).toContainEqual({ stake_address: stake, amount: history[0].amount });
  });

  it('background delegations: the account and the transaction agree', async () => {
    const stake = chain.catalog().stakeAddresses.find((s) => (chain.accountDelegations(s) ?? []).length > 0)!;
    expect(stake).toBeDefined();
    const delegations = (await http.get(`/accounts/${stake}/delegations`)).body;
    assertSchema('/accounts/{stake_address}/delegations', delegations);
    for (const d of delegations) {
      expect((await http.get(`/txs/${d.tx_hash}/delegations`)).body).toContainEqual(expect.objectContaining({ address: stake, pool_id: d.pool_id, active_epoch: d.active_epoch }));
    }
    expect(chain.account(stake)!.pool_id).toBe(delegations[delegations.length - 1].pool_id);
  });

  it('pages and orders every list the same way', async () => {
    const pool = producingPool(chain);
    const epoch = chain.latestEpoch().epoch - 1;
    const retiring = chain.poolsRetiring()[0]!.pool_id;
    const world = chain.catalog().stakeAddresses[7]!;
    const lists: Array<{ path: string; template: string; ordered: boolean }> = [
      { path: `/pools/${pool}/history`, template: '/pools/{pool_id}/history', ordered: true },
      { path: `/pools/${pool}/blocks`, template: '/pools/{pool_id}/blocks', ordered: true },
      { path: `/pools/${pool}/delegators`, template: '/pools/{pool_id}/delegators', ordered: true },
      { path: `/pools/${retiring}/updates`, template: '/pools/{pool_id}/updates', ordered: true },
      { path: `/epochs/${epoch}/blocks`, template: '/epochs/{number}/blocks', ordered: true },
      { path: `/epochs/${epoch}/stakes`, template: '/epochs/{number}/stakes', ordered: false },
      { path: `/epochs/${epoch - 10}/next`, template: '/epochs/{number}/next', ordered: false },
      { path: `/accounts/${world}/history`, template: '/accounts/{stake_address}/history', ordered: true },
    ];
    for (const { path, template, ordered } of lists) {
      const four = (await http.get(`${path}?count=4`)).body;
      expect(four, path).toHaveLength(4);
      assertSchema(template, four);
      expect((await http.get(`${path}?count=2&page=2`)).body, path).toEqual(four.slice(2, 4));
      expect((await http.get(`${path}?count=3&page=21474836`)).body, path).toEqual([]);
      if (!ordered) continue;
      const desc = (await http.get(`${path}?count=100&order=desc`)).body;
      const asc = (await http.get(`${path}?count=100`)).body;
      if (asc.length < 100) expect(desc, path).toEqual([...asc].reverse());
      else expect(desc[0], path).not.toEqual(asc[0]);
    }
  });

  it('answers 400 for malformed and 404 for unknown', async () => {
    const unknownPool = poolBech32(new Uint8Array(28).fill(7));
    const cases: Array<[string, number]> = [
      ['/accounts/stake_test1notreal/rewards', 400],
      ['/accounts/stake1uyh0g4jk9ag6u4ek9jvuxgt5ehcmu9v5cvwv3acucz0w09qjh0wan/history', 400],
      [`/accounts/${chain.catalog().stakeAddresses[3]}/rewards?count=0`, 400],
      [`/accounts/${chain.catalog().stakeAddresses[3]}/rewards?order=sideways`, 400],
      ['/pools/nope/history', 400],
      ['/pools/retired?page=0', 400],
      ['/epochs/x/stakes', 400],
      ['/epochs/latest/blocks', 400],
      [`/epochs/${chain.latestEpoch().epoch + 1}/blocks`, 404],
      [`/epochs/${chain.latestEpoch().epoch + 1}/next`, 404],
      [`/epochs/1/stakes/${unknownPool}`, 404],
      ['/txs/zz/stakes', 400],
      [`/txs/${'ab'.repeat(32)}/withdrawals`, 404],
      [`/txs/${'ab'.repeat(32)}/pool_retires`, 404],
    ];
    for (const [path, status] of cases) {
      const res = await http.get(path);
      expect(res.status, path).toBe(status);
      expect(res.body.status_code).toBe(status);
    }
    for (const sub of ['history', 'metadata', 'relays', 'delegators', 'blocks', 'updates']) expect((await http.get(`/pools/${unknownPool}/${sub}`)).status).toBe(404);
    expect((await http.get(`/accounts/${'stake_test1' + 'u'.repeat(10)}/rewards`)).status).toBe(400);
  });
});
