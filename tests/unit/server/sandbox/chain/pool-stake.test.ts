// One stake distribution on every shared sandbox network: a pool's live stake is what its delegators'
// accounts control, each delegator's /accounts names the pool, and an epoch's active stake is the
// live stake at the end of epoch − 2, the same in /pools, /pools/extended, /pools/{id}/history,
// /epochs, /network and /accounts/{stake}/history. A delegation submitted to /tx/submit joins it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLedgerStore, type SandboxChain } from '../../../../../server/sandbox/chain/index';
import { assertSchema, serve, testChain, type TestServer } from './support';
import { adaOnlyUtxo, awayFromEpochStart, stakeTx } from './stake-builder';
import { keysOf } from './tx-builder';

const sum = (xs: Array<string | bigint>): bigint => xs.reduce<bigint>((n, x) => n + BigInt(x), 0n);

interface PoolRow { pool_id: string; live_stake: string; active_stake: string; live_delegators: number }
interface DelegatorRow { address: string; live_stake: string }
interface StakeRow { stake_address: string; amount: string }

describe.each(['mainnet', 'preprod', 'preview'] as const)('the stake distribution of the %s sandbox', (network) => {
  let chain: SandboxChain;
  let clock: { now: number };
  let http: TestServer;
  const networkId = network === 'mainnet' ? 1 : 0;

  beforeAll(async () => {
    ({ chain, clock } = testChain({ network, store: memoryLedgerStore() }));
    await chain.ready();
    http = await serve(chain);
  });
  afterAll(async () => {
    await http?.close();
  });

  const get = async (path: string, template: string) => {
    const res = await http.get(path);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    assertSchema(template, res.body);
    return res.body;
  };
  /** Every page of a list. */
  const all = async <T>(path: string, template: string): Promise<T[]> => {
    const out: T[] = [];
    for (let page = 1; ; page++) {
      const rows = await get(`${path}${path.includes('?') ? '&' : '?'}count=100&page=${page}`, template);
      out.push(...rows);
      if (rows.length < 100) return out;
    }
  };
  const next = (blocks = 1): void => {
    clock.now += blocks * chain.params.blockIntervalMs;
  };
  const E = (): number => chain.params.blocksPerEpoch;

  it("every pool on /pools: its delegators sum to its live stake, each one's account names the pool and controls its live stake, and the active stake is the epoch's", async () => {
    awayFromEpochStart(chain, clock);
    const ids: string[] = await get('/pools?count=100', '/pools');
    expect(ids.length).toBeGreaterThan(10);
    const epoch = (await get('/epochs/latest', '/epochs/latest')).epoch;
    let accounts = 0;
    for (const id of ids) {
      const pool: PoolRow = await get(`/pools/${id}`, '/pools/{pool_id}');
      const delegators = await all<DelegatorRow>(`/pools/${id}/delegators`, '/pools/{pool_id}/delegators');
      expect(delegators.length, id).toBe(pool.live_delegators);
      expect(delegators.length, id).toBeGreaterThan(0);
      expect(sum(delegators.map((d) => d.live_stake)), id).toBe(BigInt(pool.live_stake));
      for (const d of delegators) {
        const account = await get(`/accounts/${d.address}`, '/accounts/{stake_address}');
        expect(account, `${id}'s delegator ${d.address}`).toMatchObject({ pool_id: id, active: true, registered: true, controlled_amount: d.live_stake });
        accounts++;
      }
      const active = await all<StakeRow>(`/epochs/${epoch}/stakes/${id}`, '/epochs/{number}/stakes/{pool_id}');
      expect(sum(active.map((s) => s.amount)), id).toBe(BigInt(pool.active_stake));
      const [history] = await get(`/pools/${id}/history?order=desc&count=1`, '/pools/{pool_id}/history');
      expect(history, id).toMatchObject({ epoch, active_stake: pool.active_stake, delegators_count: active.length });
      // Each delegator of the epoch's distribution was delegated to the pool then, with that stake.
      const [first] = await get(`/accounts/${active[0]!.stake_address}/history?order=desc&count=1`, '/accounts/{stake_address}/history');
      expect(first).toEqual({ active_epoch: epoch, amount: active[0]!.amount, pool_id: id });
    }
    expect(accounts).toBeGreaterThan(ids.length);
  });

  it('/network, /pools/extended and /epochs/latest sum the same pools', async () => {
    const extended = await all<PoolRow>('/pools/extended', '/pools/extended');
    const ids: string[] = await all('/pools', '/pools');
    expect(extended.map((p) => p.pool_id)).toEqual(ids);
    for (const p of extended.slice(0, 4)) expect(await get(`/pools/${p.pool_id}`, '/pools/{pool_id}')).toMatchObject({ live_stake: p.live_stake, active_stake: p.active_stake });
    const stake = (await get('/network', '/network')).stake;
    expect(BigInt(stake.live)).toBe(sum(extended.map((p) => p.live_stake)));
    expect(BigInt(stake.active)).toBe(sum(extended.map((p) => p.active_stake)));
    const latest = await get('/epochs/latest', '/epochs/latest');
    expect(latest.active_stake).toBe(stake.active);
    const distribution = await all<StakeRow>(`/epochs/${latest.epoch}/stakes`, '/epochs/{number}/stakes');
    expect(sum(distribution.map((s) => s.amount))).toBe(BigInt(stake.active));
  });

  it("an epoch's last live stake is the active stake two epochs later, and stays in the history", async () => {
    const epoch = chain.latestEpoch().epoch + 1;
    // The last block of the next epoch: its stake is that epoch's snapshot.
    clock.now = chain.params.genesisTime + ((epoch + 1) * E() - 1) * chain.params.blockIntervalMs;
    const ids = chain.pools().slice(0, 6);
    const live = new Map<string, { pool: PoolRow; delegators: DelegatorRow[] }>();
    for (const id of ids) live.set(id, { pool: await get(`/pools/${id}`, '/pools/{pool_id}'), delegators: await all(`/pools/${id}/delegators`, '/pools/{pool_id}/delegators') });
    const check = async (): Promise<void> => {
      for (const id of ids) {
        const then = live.get(id)!;
        const stakes = await all<StakeRow>(`/epochs/${epoch + 2}/stakes/${id}`, '/epochs/{number}/stakes/{pool_id}');
        expect(stakes, id).toEqual(then.delegators.map((d) => ({ stake_address: d.address, amount: d.live_stake })));
        // The newest epochs first: the page holds epoch + 2.
        const history = ((await get(`/pools/${id}/history?order=desc&count=100`, '/pools/{pool_id}/history')) as Array<{ epoch: number }>).find((h) => h.epoch === epoch + 2);
        expect(history, id).toMatchObject({ active_stake: then.pool.live_stake, delegators_count: then.pool.live_delegators });
        const d = then.delegators[then.delegators.length - 1]!;
        const accountHistory: Array<{ active_epoch: number }> = await get(`/accounts/${d.address}/history?order=desc&count=100`, '/accounts/{stake_address}/history');
        expect(accountHistory.find((h) => h.active_epoch === epoch + 2)).toEqual({ active_epoch: epoch + 2, amount: d.live_stake, pool_id: id });
      }
    };
    next(2 * E());
    expect(chain.latestEpoch().epoch).toBe(epoch + 2);
    for (const id of ids) expect((await get(`/pools/${id}`, '/pools/{pool_id}')).active_stake, id).toBe(live.get(id)!.pool.live_stake);
    await check();
    next(5 * E());
    await check();
  });

  it('a payment to a world address adds to its account and to its pool', async () => {
    awayFromEpochStart(chain, clock);
    const address = chain.catalog().addresses.filter((a) => a.stakeAddress && !a.script)[3]!;
    const before = await get(`/accounts/${address.stakeAddress}`, '/accounts/{stake_address}');
    const pool = before.pool_id as string;
    const poolBefore: PoolRow = await get(`/pools/${pool}`, '/pools/{pool_id}');
    await chain.faucet({ address: address.address, lovelace: 7_000_000n });
    next();
    const after = await get(`/accounts/${address.stakeAddress}`, '/accounts/{stake_address}');
    expect(BigInt(after.controlled_amount) - BigInt(before.controlled_amount)).toBe(7_000_000n);
    const poolAfter: PoolRow = await get(`/pools/${pool}`, '/pools/{pool_id}');
    expect(BigInt(poolAfter.live_stake) - BigInt(poolBefore.live_stake)).toBe(7_000_000n);
    expect(await all(`/pools/${pool}/delegators`, '/pools/{pool_id}/delegators')).toContainEqual({ address: address.stakeAddress, live_stake: after.controlled_amount });
  });

  it('a delegation submitted to /tx/submit is a delegator of its pool at once, and in its active stake two epochs later', async () => {
    awayFromEpochStart(chain, clock);
    const wallet = chain.devWallets()[1]!;
    const keys = keysOf(wallet.mnemonic);
    const pool = chain.pools()[5]!;
    const before: PoolRow = await get(`/pools/${pool}`, '/pools/{pool_id}');
    const cbor = stakeTx({ inputs: [adaOnlyUtxo(chain, wallet.address)], change: wallet.address, keys, networkId, certs: [{ kind: 'register' }, { kind: 'delegate', pool }] });
    const res = await fetch(`${http.base}/tx/submit`, { method: 'POST', headers: { 'Content-Type': 'application/cbor' }, body: Buffer.from(cbor) });
    expect(res.status, await res.clone().text()).toBe(200);
    const hash = (await res.json()) as string;
    next();
    const delegatedEpoch = chain.latestEpoch().epoch;
    expect(await get(`/txs/${hash}/delegations`, '/txs/{hash}/delegations')).toEqual([expect.objectContaining({ address: wallet.stakeAddress, pool_id: pool, active_epoch: delegatedEpoch + 2 })]);
    const account = await get(`/accounts/${wallet.stakeAddress}`, '/accounts/{stake_address}');
    expect(account).toMatchObject({ pool_id: pool, active: true, registered: true, active_epoch: delegatedEpoch + 2 });
    const utxos = sum(chain.accountUtxos(wallet.stakeAddress, { count: 100 })!.map((u) => u.amount.find((a) => a.unit === 'lovelace')!.quantity));
    expect(BigInt(account.controlled_amount)).toBe(utxos);
    const delegators = await all<DelegatorRow>(`/pools/${pool}/delegators`, '/pools/{pool_id}/delegators');
    expect(delegators).toContainEqual({ address: wallet.stakeAddress, live_stake: account.controlled_amount });
    const after: PoolRow = await get(`/pools/${pool}`, '/pools/{pool_id}');
    expect(after.live_delegators).toBe(before.live_delegators + 1);
    expect(BigInt(after.live_stake) - BigInt(before.live_stake)).toBe(BigInt(account.controlled_amount));
    expect(sum(delegators.map((d) => d.live_stake))).toBe(BigInt(after.live_stake));
    // Not in the active stake until the snapshot at the end of its epoch is two epochs old.
    const inActive = async (): Promise<boolean> => (await all<StakeRow>(`/epochs/${chain.latestEpoch().epoch}/stakes/${pool}`, '/epochs/{number}/stakes/{pool_id}')).some((s) => s.stake_address === wallet.stakeAddress);
    expect(await inActive()).toBe(false);
    clock.now = chain.params.genesisTime + ((delegatedEpoch + 1) * E() - 1) * chain.params.blockIntervalMs;
    const snapshot = (await get(`/accounts/${wallet.stakeAddress}`, '/accounts/{stake_address}')).controlled_amount;
    const snapshotPool: PoolRow = await get(`/pools/${pool}`, '/pools/{pool_id}');
    next(E() + 1);
    expect(chain.latestEpoch().epoch).toBe(delegatedEpoch + 2);
    expect(await inActive()).toBe(true);
    const stakes = await all<StakeRow>(`/epochs/${delegatedEpoch + 2}/stakes/${pool}`, '/epochs/{number}/stakes/{pool_id}');
    expect(stakes).toContainEqual({ stake_address: wallet.stakeAddress, amount: snapshot });
    const active: PoolRow = await get(`/pools/${pool}`, '/pools/{pool_id}');
    expect(active.active_stake).toBe(snapshotPool.live_stake);
    expect(sum(stakes.map((s) => s.amount))).toBe(BigInt(active.active_stake));
    expect(await get(`/accounts/${wallet.stakeAddress}/history`, '/accounts/{stake_address}/history')).toEqual([{ active_epoch: delegatedEpoch + 2, amount: snapshot, pool_id: pool }]);
  });
});
