// Stake accounts of the live ledger (ledger.ts): registrations, delegations, withdrawals, the
// stake each account holds at every epoch boundary and the rewards it earns; the world's stake
// (each world stake key delegated to its home pool for good); and the one stake distribution both
// make, which /pools, /epochs, /network, /accounts and the DReps' voting power all read.
//
// Rewards follow the ledger's snapshot rule with one simplification: the reward earned in epoch e
// is computed on the stake snapshot taken at the end of epoch e − 2 (the epoch's active stake: the
// account's utxos plus its reward balance, delegated to a pool at that moment) and credited at the
// first block of epoch e + 1 (the real ledger pays one epoch later). A delegation made in epoch N
// is active from N + 2 and its first reward is withdrawable from the start of N + 3. Each epoch
// pays REWARD_PPM_PER_EPOCH of the snapshot, less the pool's margin.
import { stakeAddressOf } from '../../../shared/cardano/address';
import type { LiveOutput, LiveTx } from './ledger';
import { deriveFloat, Rng } from './rng';
import type { Wallet, World, WorldPool } from './world';

/** Reward per epoch in millionths of the active stake (0.03 %), before the pool's margin. */
export const REWARD_PPM_PER_EPOCH = 300n;

export interface StakeCertEvent {
  txHash: string;
  height: number;
  certIndex: number;
}

export interface LiveStakeAccount {
  stakeAddress: string;
  registrations: Array<StakeCertEvent & { action: 'registered' | 'deregistered' }>;
  delegations: Array<StakeCertEvent & { pool: string }>;
  /** `total`: the sum of this withdrawal and every earlier one. */
  withdrawals: Array<{ txHash: string; height: number; amount: bigint; total: bigint }>;
  /** The lovelace of the account's unspent outputs after each block that changed it, ascending. */
  balance: Array<{ height: number; lovelace: bigint }>;
  /** Rewards earned for `epoch`, credited at `height` (the first block of epoch + 1); `total` sums it and the earlier ones. */
  rewards: Array<{ epoch: number; amount: bigint; pool: string; height: number; total: bigint }>;
  /** Active stake per epoch (the snapshot of the end of epoch − 2) while delegated. */
  history: Array<{ epoch: number; amount: bigint; pool: string }>;
}

/**
 * The first epoch a live delegation is active in: two epochs after its own, as the snapshot rule
 * gives; a devnet's genesis delegations (block 0) from epoch 0, as a genesis' stake distribution is.
 */
export function activeEpochOf(height: number, epochOf: (height: number) => number): number {
  return height === 0 ? 0 : epochOf(height) + 2;
}

export interface LiveStakeOptions {
  blocksPerEpoch: number;
  /** A pool's margin (0–1). */
  margin: (poolId: string) => number;
  /** The output an input spends. */
  outputOf: (txHash: string, outputIndex: number) => LiveOutput | null;
}

/** Index of the last item whose height is ≤ height, or −1. */
function lastAt<T extends { height: number }>(list: T[], height: number): number {
  let lo = 0;
  let hi = list.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]!.height <= height) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The live ledger's stake accounts as of a height (the transactions given are those up to it). */
export class LiveStake {
  readonly accounts = new Map<string, LiveStakeAccount>();

  constructor(txs: LiveTx[], readonly height: number, private readonly options: LiveStakeOptions) {
    const account = (stakeAddress: string): LiveStakeAccount => {
      let a = this.accounts.get(stakeAddress);
      if (!a) {
        a = { stakeAddress, registrations: [], delegations: [], withdrawals: [], balance: [], rewards: [], history: [] };
        this.accounts.set(stakeAddress, a);
      }
      return a;
    };
    const move = (address: string, height: number, lovelace: bigint): void => {
      const stake = stakeAddressOf(address);
      if (!stake) return;
      const a = account(stake);
      const last = a.balance[a.balance.length - 1];
      if (last && last.height === height) last.lovelace += lovelace;
      else a.balance.push({ height, lovelace: (last?.lovelace ?? 0n) + lovelace });
    };
    for (const tx of txs) {
      for (const i of tx.inputs) {
        const o = options.outputOf(i.txHash, i.outputIndex);
        if (o) move(o.address, tx.height, -o.lovelace);
      }
      for (const o of tx.outputs) move(o.address, tx.height, o.lovelace);
      for (const w of tx.withdrawals) {
        const list = account(w.stakeAddress).withdrawals;
        list.push({ txHash: tx.hash, height: tx.height, amount: w.amount, total: (list[list.length - 1]?.total ?? 0n) + w.amount });
      }
      for (const c of tx.certs) {
        const event = { txHash: tx.hash, height: tx.height, certIndex: c.certIndex };
        if (c.kind === 'delegation') account(c.stakeAddress).delegations.push({ ...event, pool: c.pool! });
        else account(c.stakeAddress).registrations.push({ ...event, action: c.kind === 'registration' ? 'registered' : 'deregistered' });
      }
    }
    for (const a of this.accounts.values()) this.earn(a);
  }

  private earn(a: LiveStakeAccount): void {
    if (a.delegations.length === 0) return;
    const E = this.options.blocksPerEpoch;
    const current = Math.floor(this.height / E);
    for (let e = activeEpochOf(a.delegations[0]!.height, (h) => Math.floor(h / E)); e <= current; e++) {
      // The snapshots before block 0 are the genesis block's: its delegations are active from epoch 0.
      const snapshot = Math.max(0, (e - 1) * E - 1);
      const pool = this.poolAt(a, snapshot);
      if (pool === null) continue;
      const amount = this.stakeAt(a, snapshot);
      a.history.push({ epoch: e, amount, pool });
      const creditHeight = (e + 1) * E;
      // A reward is paid to an account still registered when the epoch ends.
      if (creditHeight > this.height || !this.registeredAt(a, creditHeight - 1)) continue;
      const marginPpm = BigInt(Math.round(this.options.margin(pool) * 1_000_000));
      const reward = (((amount * REWARD_PPM_PER_EPOCH) / 1_000_000n) * (1_000_000n - marginPpm)) / 1_000_000n;
      if (reward > 0n) a.rewards.push({ epoch: e, amount: reward, pool, height: creditHeight, total: (a.rewards[a.rewards.length - 1]?.total ?? 0n) + reward });
    }
  }

  registeredAt(a: LiveStakeAccount, height: number): boolean {
    const i = lastAt(a.registrations, height);
    return i >= 0 && a.registrations[i]!.action === 'registered';
  }

  /** The pool the account is delegated to after the block at `height` (null when not registered or not delegated since registering). */
  poolAt(a: LiveStakeAccount, height: number): string | null {
    const r = lastAt(a.registrations, height);
    if (r < 0 || a.registrations[r]!.action !== 'registered') return null;
    const d = lastAt(a.delegations, height);
    if (d < 0) return null;
    const delegation = a.delegations[d]!;
    const registration = a.registrations[r]!;
    // A delegation before the latest registration was cancelled by a deregistration in between.
    if (delegation.height < registration.height || (delegation.height === registration.height && delegation.certIndex < registration.certIndex)) return null;
    return delegation.pool;
  }

  /** The delegation certificate in force after the block at `height`. */
  delegationAt(a: LiveStakeAccount, height: number): (StakeCertEvent & { pool: string }) | null {
    if (this.poolAt(a, height) === null) return null;
    return a.delegations[lastAt(a.delegations, height)]!;
  }

  utxoAt(a: LiveStakeAccount, height: number): bigint {
    const i = lastAt(a.balance, height);
    return i < 0 ? 0n : a.balance[i]!.lovelace;
  }

  rewardsAt(a: LiveStakeAccount, height: number): bigint {
    const i = lastAt(a.rewards, height);
    return i < 0 ? 0n : a.rewards[i]!.total;
  }

  withdrawnAt(a: LiveStakeAccount, height: number): bigint {
    const i = lastAt(a.withdrawals, height);
    return i < 0 ? 0n : a.withdrawals[i]!.total;
  }

  /** Rewards credited and not withdrawn by the end of the block at `height`. */
  rewardBalanceAt(a: LiveStakeAccount, height: number): bigint {
    return this.rewardsAt(a, height) - this.withdrawnAt(a, height);
  }

  /** What the account controls after the block at `height`: its utxos and its reward balance. */
  stakeAt(a: LiveStakeAccount, height: number): bigint {
    return this.utxoAt(a, height) + this.rewardBalanceAt(a, height);
  }

  /** Every account delegated after the block at `height`, with its pool and stake, in first-seen order. */
  distribution(height: number): Array<{ stakeAddress: string; pool: string; amount: bigint }> {
    const out: Array<{ stakeAddress: string; pool: string; amount: bigint }> = [];
    if (height < 0) return out;
    for (const a of this.accounts.values()) {
      const pool = this.poolAt(a, height);
      if (pool !== null) out.push({ stakeAddress: a.stakeAddress, pool, amount: this.stakeAt(a, height) });
    }
    return out;
  }
}

// ---- The world's stake and the stake distribution ----

/** The pool a world stake key delegates to for good, its home pool: its background delegations re-delegate to it. */
export function homePoolIndex(walletId: number, poolCount: number): number {
  return walletId % poolCount;
}

/**
 * The world's stake keys (the faucet's, the stake wallets' and the script stake wallets') as
 * delegators: each is a member of its home pool and holds a fixed share of the pool's world stake,
 * which moves from epoch to epoch around the pool's base stake. A closed formula of the chain key
 * and the epoch, so any epoch's distribution costs the same.
 */
export interface WorldStake {
  homePool(wallet: Wallet): WorldPool;
  /** The pool's members, in wallet order. */
  members(pool: WorldPool): readonly Wallet[];
  /** The world's stake delegated to a pool in an epoch (an epoch before 0: epoch 0's). */
  poolStake(pool: WorldPool, epoch: number): bigint;
  /** Each member's part of `poolStake`, in member order; the parts sum to it exactly. */
  shares(pool: WorldPool, epoch: number): readonly bigint[];
  shareOf(wallet: Wallet, epoch: number): bigint;
}

export function worldStake(key: Uint8Array, world: World): WorldStake {
  const { pools } = world;
  const homePool = (wallet: Wallet): WorldPool => pools[homePoolIndex(wallet.id, pools.length)]!;
  const members = new Map<WorldPool, Wallet[]>(pools.map((p) => [p, []]));
  const place = new Map<Wallet, number>();
  for (const w of world.wallets) {
    if (!w.stakeAddress) continue;
    const list = members.get(homePool(w))!;
    place.set(w, list.length);
    list.push(w);
  }
  const weight = new Map<Wallet, bigint>(world.wallets.map((w) => [w, BigInt(1 + Math.floor(deriveFloat(key, 'member-weight', w.id) * 999))]));
  const weights = new Map<WorldPool, bigint>([...members].map(([p, list]) => [p, list.reduce((n, w) => n + weight.get(w)!, 0n)]));
  // An epoch's stake moves every pool's at once: one hash an epoch (a page of a hundred epochs'
  // totals is a hundred hashes, not one per pool), its factors kept for many epochs; shares are
  // read for one pool's delegators, kept for fewer.
  const factors = new Map<number, Float64Array>();
  const parts = new Map<number, bigint[]>();
  const keep = <T>(memo: Map<number, T>, id: number, value: T, size: number): T => {
    memo.set(id, value);
    if (memo.size > size) memo.delete(memo.keys().next().value!);
    return value;
  };
  const factorsOf = (e: number): Float64Array => {
    const hit = factors.get(e);
    if (hit) return hit;
    const rng = Rng.of(key, 'pool-stake', e);
    return keep(factors, e, Float64Array.from(pools, () => 0.94 + 0.12 * rng.float()), 8192);
  };
  const totalOf = (pool: WorldPool, epoch: number): bigint => {
    if ((members.get(pool) ?? []).length === 0) return 0n;
    return BigInt(Math.round((pool.baseStake * factorsOf(Math.max(0, epoch))[pool.index]!) / 1_000_000) * 1_000_000);
  };
  const sharesOf = (pool: WorldPool, epoch: number): bigint[] => {
    const id = Math.max(0, epoch) * 64 + pool.index;
    const hit = parts.get(id);
    if (hit) return hit;
    const total = totalOf(pool, epoch);
    const list = members.get(pool) ?? [];
    const sum = weights.get(pool) ?? 0n;
    const shares = list.map((w) => (sum === 0n ? 0n : (total * weight.get(w)!) / sum));
    if (shares.length) shares[0] = shares[0]! + total - shares.reduce((n, x) => n + x, 0n);
    return keep(parts, id, shares, 4096);
  };
  return {
    homePool,
    members: (pool) => members.get(pool) ?? [],
    poolStake: totalOf,
    shares: sharesOf,
    shareOf: (wallet, epoch) => (place.has(wallet) ? sharesOf(homePool(wallet), epoch)[place.get(wallet)!]! : 0n),
  };
}

/** A delegator of a pool and the lovelace it controls. */
export interface Delegator {
  stakeAddress: string;
  amount: bigint;
}

/**
 * The stake distribution after one block: what every account controls and the pool it is
 * delegated to. A world stake key controls its share of its home pool's world stake and what live
 * transactions paid its addresses; a live account (a key the live ledger registered) its unspent
 * outputs and its reward balance. A pool's stake is the sum of its delegators'.
 */
export interface StakeView {
  readonly height: number;
  /** The world's members of the pool, then the live accounts delegated to it, in first-seen order. */
  delegators(pool: WorldPool): readonly Delegator[];
  poolStake(pool: WorldPool): bigint;
  /** The world's pools' stake, summed. */
  total(): bigint;
  /** The lovelace a stake address controls (0 for one nothing paid). */
  controlled(stakeAddress: string): bigint;
  /** `controlled` of every world stake key and every stake address the live ledger paid. */
  controlledAll(): Map<string, bigint>;
}

/** The distribution after the block at `height` (epoch `epoch`), from the world's stake and the live ledger's accounts as of the tip. */
export function stakeView(world: World, shares: WorldStake, live: LiveStake, height: number, epoch: number): StakeView {
  // Before block 0 (the snapshots of epochs 0 and 1) the live layer is the genesis block's: a devnet's genesis delegations are active from epoch 0.
  const at = Math.max(0, height);
  /** What live transactions paid a world stake key's addresses, unspent after the block. */
  const liveUtxo = (stakeAddress: string): bigint => {
    const a = live.accounts.get(stakeAddress);
    return a ? live.utxoAt(a, at) : 0n;
  };
  const controlled = (stakeAddress: string): bigint => {
    const wallet = world.walletByStakeAddress.get(stakeAddress);
    if (wallet) return shares.shareOf(wallet, epoch) + liveUtxo(stakeAddress);
    const a = live.accounts.get(stakeAddress);
    return a ? live.stakeAt(a, at) : 0n;
  };
  // The live layer by pool (built when a pool's stake or delegators are read, not for one account):
  // the live accounts delegated to each pool, and the lovelace they and the world's members hold.
  let byPool: { delegated: Map<string, Delegator[]>; lovelace: Map<string, bigint> } | undefined;
  const livePools = (): NonNullable<typeof byPool> => {
    if (byPool) return byPool;
    const delegated = new Map<string, Delegator[]>();
    const lovelace = new Map<string, bigint>();
    const add = (pool: string, amount: bigint): void => {
      lovelace.set(pool, (lovelace.get(pool) ?? 0n) + amount);
    };
    for (const a of live.accounts.values()) {
      const wallet = world.walletByStakeAddress.get(a.stakeAddress);
      if (wallet) add(shares.homePool(wallet).id, live.utxoAt(a, at));
    }
    for (const d of live.distribution(at)) {
      if (world.walletByStakeAddress.has(d.stakeAddress)) continue;
      const list = delegated.get(d.pool) ?? [];
      list.push({ stakeAddress: d.stakeAddress, amount: d.amount });
      delegated.set(d.pool, list);
      add(d.pool, d.amount);
    }
    return (byPool = { delegated, lovelace });
  };
  const lists = new Map<WorldPool, Delegator[]>();
  const delegators = (pool: WorldPool): Delegator[] => {
    let list = lists.get(pool);
    if (!list) {
      const parts = shares.shares(pool, epoch);
      list = shares.members(pool).map((w, i) => ({ stakeAddress: w.stakeAddress!, amount: parts[i]! + liveUtxo(w.stakeAddress!) }));
      list.push(...(livePools().delegated.get(pool.id) ?? []));
      lists.set(pool, list);
    }
    return list;
  };
  const poolStake = (pool: WorldPool): bigint => shares.poolStake(pool, epoch) + (livePools().lovelace.get(pool.id) ?? 0n);
  let total: bigint | undefined;
  let all: Map<string, bigint> | undefined;
  return {
    height,
    delegators,
    poolStake,
    total: () => (total ??= world.pools.reduce((n, p) => n + poolStake(p), 0n)),
    controlled,
    controlledAll() {
      if (!all) {
        all = new Map();
        for (const w of world.wallets) if (w.stakeAddress) all.set(w.stakeAddress, controlled(w.stakeAddress));
        for (const stake of live.accounts.keys()) if (!all.has(stake)) all.set(stake, controlled(stake));
      }
      return all;
    },
  };
}

// ---- Blockfrost shapes of the stake endpoints ----

export interface AccountReward { epoch: number; amount: string; pool_id: string; type: 'leader' | 'member' | 'pool_deposit_refund' }
export interface AccountHistoryItem { active_epoch: number; amount: string; pool_id: string }
export interface AccountDelegation { active_epoch: number; tx_hash: string; amount: string; pool_id: string; tx_slot: number; block_time: number; block_height: number }
export interface AccountRegistration { tx_hash: string; action: 'registered' | 'deregistered'; deposit: string | null; tx_slot: number; block_time: number; block_height: number }
export interface AccountWithdrawal { tx_hash: string; amount: string; tx_slot: number; block_time: number; block_height: number }
export interface AccountAddressesTotal { stake_address: string; received_sum: Array<{ unit: string; quantity: string }>; sent_sum: Array<{ unit: string; quantity: string }>; tx_count: number }
export interface AccountTransaction { address: string; tx_hash: string; tx_index: number; block_height: number; block_time: number }
export interface PoolHistoryItem { epoch: number; blocks: number; active_stake: string; active_size: number; delegators_count: number; rewards: string; fees: string }
export interface PoolUpdate { tx_hash: string; cert_index: number; action: 'registered' | 'deregistered' }
export interface TxStakeCert { cert_index: number; address: string; registration: boolean }
export interface TxPoolUpdate {
  cert_index: number; pool_id: string; vrf_key: string; pledge: string; margin_cost: number; fixed_cost: string; reward_account: string; owners: string[];
  metadata: { url: string; hash: string; ticker: string; name: string; description: string; homepage: string } | null;
  relays: Array<{ ipv4: string | null; ipv6: string | null; dns: string | null; dns_srv: string | null; port: number }>;
  active_epoch: number;
}
