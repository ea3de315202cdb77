// Stake accounts of the live ledger (ledger.ts): registrations, delegations, withdrawals, the
// stake each account holds at every epoch boundary and the rewards it earns.
//
// Rewards follow the ledger's snapshot rule with one simplification: the reward earned in epoch e
// is computed on the stake snapshot taken at the end of epoch e − 2 (the epoch's active stake: the
// account's utxos plus its reward balance, delegated to a pool at that moment) and credited at the
// first block of epoch e + 1 (the real ledger pays one epoch later). A delegation made in epoch N
// is active from N + 2 and its first reward is withdrawable from the start of N + 3. Each epoch
// pays REWARD_PPM_PER_EPOCH of the snapshot, less the pool's margin.
import { stakeAddressOf } from '../../../shared/cardano/address';
import type { LiveOutput, LiveTx } from './ledger';

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
    for (let e = Math.floor(a.delegations[0]!.height / E) + 2; e <= current; e++) {
      const snapshot = (e - 1) * E - 1;
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
