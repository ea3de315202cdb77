// /accounts/{stake_address}: world stake keys (background) and those the live ledger has seen:
// balance, addresses, utxos, rewards, history, certificates, withdrawals and transactions.
import type { ChainContext } from '../../context';
import { parseBound, paginate, virtualPage, amountList, type AddressTxQuery } from '../../paging';
import type { Account, AddressUtxo, Pagination } from '../../../../../shared/chain';
import type { PoolModel } from '../pools/queries';
import type { AddressQueries } from '../addresses/queries';
import { stakeAddressOf } from '../../../../../shared/cardano/address';
import { activeEpochOf, type AccountDelegation, type AccountRegistration, type AccountTransaction, type LiveStake, type LiveStakeAccount, type AccountAddressesTotal, type AccountHistoryItem, type AccountReward, type AccountWithdrawal } from '../../stake';
import { STAKE_KEY_DEPOSIT, type SimTx } from '../../simulate';
import type { Wallet } from '../../world';

/** The chain's queries behind /accounts. */
export interface AccountQueries {
  account(stakeAddress: string): Account | null;
  accountAddresses(stakeAddress: string, page?: Pagination): Array<{ address: string }> | null;
  accountUtxos(stakeAddress: string, page?: Pagination): AddressUtxo[] | null;
  accountRewards(stakeAddress: string, page?: Pagination): AccountReward[] | null;
  accountHistory(stakeAddress: string, page?: Pagination): AccountHistoryItem[] | null;
  accountDelegations(stakeAddress: string, page?: Pagination): AccountDelegation[] | null;
  accountRegistrations(stakeAddress: string, page?: Pagination): AccountRegistration[] | null;
  accountWithdrawals(stakeAddress: string, page?: Pagination): AccountWithdrawal[] | null;
  /** Instantaneous rewards: none on this chain (Conway has no MIR certificates). */
  accountMirs(stakeAddress: string, page?: Pagination): AccountWithdrawal[] | null;
  accountAddressesAssets(stakeAddress: string, page?: Pagination): Array<{ unit: string; quantity: string }> | null;
  accountAddressesTotal(stakeAddress: string): AccountAddressesTotal | null;
  accountTransactions(stakeAddress: string, query?: AddressTxQuery): AccountTransaction[] | null;
  /** Base addresses controlled by a stake address (empty when unknown). */
  addressesOfStake(stakeAddress: string): string[];
}

export function accountPaths(ctx: ChainContext, pools: PoolModel, addresses: AddressQueries): AccountQueries {
  const index = accountIndex(ctx);
  return { ...accountHoldings(ctx, pools, index, addresses), ...accountStaking(ctx, pools, index) };
}

type AccountIndex = ReturnType<typeof accountIndex>;

/** Which addresses and live accounts a stake address has, and its world wallet's history. */
function accountIndex(ctx: ChainContext) {
  const { world, ledger, tipHeight, slotOf, timeOf, liveStakeAt, addressText, addressHistory } = ctx;
  // Addresses paid by visible live transactions, by stake address (background outputs only pay world
  // addresses, whose stake addresses the world knows); rebuilt once per block or accepted transaction.
  const stakeOfAddress = new Map<string, string | null>();
  let liveStakeIndex: { size: number; tip: number; map: Map<string, string[]> } | undefined;
  const liveAddressesByStake = (): Map<string, string[]> => {
    const tip = tipHeight();
    if (liveStakeIndex?.size === ledger.size && liveStakeIndex.tip === tip) return liveStakeIndex.map;
    const map = new Map<string, string[]>();
    for (const t of ledger.all()) {
      for (const o of t.outputs) {
        let s = stakeOfAddress.get(o.address);
        if (s === undefined) {
          s = stakeAddressOf(o.address);
          stakeOfAddress.set(o.address, s);
        }
        if (!s) continue;
        const list = map.get(s) ?? [];
        if (!list.includes(o.address)) list.push(o.address);
        map.set(s, list);
      }
    }
    liveStakeIndex = { size: ledger.size, tip, map };
    return map;
  };
  const addressesOfStakeAt = (stake: string, _tip: number): string[] => {
    const wallet = world.walletByStakeAddress.get(stake);
    const out = new Set<string>(wallet ? wallet.addresses.map(addressText) : []);
    for (const a of liveAddressesByStake().get(stake) ?? []) out.add(a);
    return [...out];
  };
  const knownStake = (stake: string): boolean => world.walletByStakeAddress.has(stake) || ledger.accounts().has(stake) || liveAddressesByStake().has(stake);
  /** The background wallet's latest delegation (to its home pool) within the address window. */
  const worldDelegation = (stake: string, tip: number): { height: number } | null => {
    const wallet = world.walletByStakeAddress.get(stake);
    if (!wallet) return null;
    let found: { height: number } | null = null;
    for (const a of wallet.addresses) {
      for (const tx of addressHistory(a, tip)) {
        for (const d of tx.delegations) if (d.wallet === wallet.id && (!found || tx.height >= found.height)) found = { height: tx.height };
      }
    }
    return found;
  };

  /** The background wallet's reward withdrawals within the address window, ascending. */
  const worldWithdrawals = (wallet: Wallet, tip: number): Array<{ tx: SimTx; amount: number }> => {
    const seen = new Set<string>();
    const out: Array<{ tx: SimTx; amount: number }> = [];
    for (const a of wallet.addresses) {
      for (const tx of addressHistory(a, tip)) {
        if (seen.has(tx.hash)) continue;
        seen.add(tx.hash);
        for (const w of tx.withdrawals) if (w.wallet === wallet.id) out.push({ tx, amount: w.amount });
      }
    }
    return out.sort((x, y) => x.tx.height - y.tx.height || x.tx.index - y.tx.index);
  };
  const knownAccount = (stake: string): boolean => typeof stake === 'string' && knownStake(stake);
  /** The live ledger's account of a stake key it registered, else null (a world key, or one only paid to). */
  const liveAccountOf = (stake: string, tip: number): { model: LiveStake; account: LiveStakeAccount } | null => {
    const model = liveStakeAt(tip);
    const account = model.accounts.get(stake);
    if (account && (account.registrations.length > 0 || !world.walletByStakeAddress.has(stake))) return { model, account };
    return null;
  };
  /** Background transactions touching a world wallet within the address window, ascending. */
  const worldWalletTxs = (wallet: Wallet, tip: number): SimTx[] => {
    const byHash = new Map<string, SimTx>();
    for (const a of wallet.addresses) for (const tx of addressHistory(a, tip)) byHash.set(tx.hash, tx);
    return [...byHash.values()].sort((x, y) => x.height - y.height || x.index - y.index);
  };
  const txPlace = (height: number): { tx_slot: number; block_time: number; block_height: number } => ({ tx_slot: slotOf(height), block_time: timeOf(height), block_height: height });
  return { liveAddressesByStake, addressesOfStakeAt, knownStake, knownAccount, worldDelegation, worldWithdrawals, liveAccountOf, worldWalletTxs, txPlace };
}

/** The account, its addresses, outputs, assets, totals and transactions (its addresses' transactions, merged). */
function accountHoldings(ctx: ChainContext, pools: PoolModel, index: AccountIndex, addresses: AddressQueries) {
  const { homePool } = pools;
  const { world, ledger, governance, tipHeight, epochOf, liveStakeAt, stakeAt, addressText, unspentAt, utxoObject, sumOf } = ctx;
  const { addressesOfStakeAt, knownStake, knownAccount, worldDelegation, worldWithdrawals, worldWalletTxs } = index;
  return {
    account(stake) {
      if (typeof stake !== 'string' || !knownStake(stake)) return null;
      const tip = tipHeight();
      // What the account controls is its stake in the distribution the pools sum (stake.ts).
      const controlled = stakeAt(tip).controlled(stake);
      const model = liveStakeAt(tip);
      const live = model.accounts.get(stake);
      const wallet = world.walletByStakeAddress.get(stake);
      if (wallet && !live?.registrations.length) {
        // A world stake key: registered from the start and delegated to its home pool, which its
        // background delegations within the address window re-delegate to; its withdrawals within
        // the window are its rewards.
        const background = worldDelegation(stake, tip);
        const withdrawn = worldWithdrawals(wallet, tip).reduce((n, w) => n + BigInt(w.amount), 0n);
        return {
          stake_address: stake, active: true, registered: true, active_epoch: background ? epochOf(background.height) + 2 : null,
          controlled_amount: String(controlled), rewards_sum: String(withdrawn), withdrawals_sum: String(withdrawn), reserves_sum: '0', treasury_sum: '0',
          withdrawable_amount: '0', pool_id: homePool(wallet).id, drep_id: governance.drepOfStake(stake),
        };
      }
      const delegation = live ? model.delegationAt(live, tip) : null;
      const rewards = live ? model.rewardsAt(live, tip) : 0n;
      const withdrawals = live ? model.withdrawnAt(live, tip) : 0n;
      return {
        stake_address: stake,
        active: delegation !== null,
        registered: live ? model.registeredAt(live, tip) : false,
        active_epoch: delegation ? activeEpochOf(delegation.height, epochOf) : null,
        controlled_amount: String(controlled),
        rewards_sum: String(rewards),
        withdrawals_sum: String(withdrawals),
        reserves_sum: '0',
        treasury_sum: '0',
        withdrawable_amount: String(rewards - withdrawals),
        pool_id: delegation?.pool ?? null,
        drep_id: governance.drepOfStake(stake),
      };
    },
    accountAddresses(stake, page) {
      if (typeof stake !== 'string' || !knownStake(stake)) return null;
      return paginate(addressesOfStakeAt(stake, tipHeight()), page).map((address) => ({ address }));
    },
    accountUtxos(stake, page) {
      if (typeof stake !== 'string' || !knownStake(stake)) return null;
      const tip = tipHeight();
      const set = new Set(addressesOfStakeAt(stake, tip));
      return paginate(unspentAt(tip).ofAddresses(set), page).map(utxoObject);
    },
    accountAddressesAssets(stake, page) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const set = new Set(addressesOfStakeAt(stake, tip));
      const sum = sumOf(unspentAt(tip).ofAddresses(set));
      return paginate([...sum.assets.entries()].map(([unit, q]) => ({ unit, quantity: String(q) })), page);
    },
    accountAddressesTotal(stake) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const mine = new Set(addressesOfStakeAt(stake, tip));
      const received = { lovelace: 0n, assets: new Map<string, bigint>() };
      const sent = { lovelace: 0n, assets: new Map<string, bigint>() };
      const add = (into: typeof received, lovelace: bigint, assets: Iterable<[string, bigint]>): void => {
        into.lovelace += lovelace;
        for (const [unit, q] of assets) into.assets.set(unit, (into.assets.get(unit) ?? 0n) + q);
      };
      const seen = new Set<string>();
      const wallet = world.walletByStakeAddress.get(stake);
      for (const tx of wallet ? worldWalletTxs(wallet, tip) : []) {
        seen.add(tx.hash);
        for (const o of tx.outputs) if (mine.has(addressText(o.address))) add(received, BigInt(o.lovelace), o.assets.map(([u, q]) => [u, BigInt(q)]));
        for (const i of tx.inputs) if (mine.has(addressText(i.output.address))) add(sent, BigInt(i.output.lovelace), i.output.assets.map(([u, q]) => [u, BigInt(q)]));
      }
      for (const address of mine) {
        for (const t of ledger.txsOf(address)) {
          if (seen.has(t.hash)) continue;
          seen.add(t.hash);
          for (const o of t.outputs) if (mine.has(o.address)) add(received, o.lovelace, o.assets);
          for (const i of t.inputs) {
            const o = ledger.outputOf(i.txHash, i.outputIndex);
            if (o && mine.has(o.address)) add(sent, o.lovelace, o.assets);
          }
        }
      }
      return { stake_address: stake, received_sum: amountList(received.lovelace, received.assets), sent_sum: amountList(sent.lovelace, sent.assets), tx_count: seen.size };
    },
    accountTransactions(stake, query) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const rows = new Map<string, AccountTransaction>();
      for (const address of addressesOfStakeAt(stake, tip)) {
        for (const tx of addresses.addressTransactions(address) ?? []) if (!rows.has(tx.tx_hash)) rows.set(tx.tx_hash, { address, ...tx });
      }
      const from = parseBound(query?.from);
      const to = parseBound(query?.to);
      const all = [...rows.values()]
        .sort((a, b) => a.block_height - b.block_height || a.tx_index - b.tx_index)
        .filter((tx) => {
          if (from && (tx.block_height < from[0] || (tx.block_height === from[0] && from[1] >= 0 && tx.tx_index < from[1]))) return false;
          if (to && (tx.block_height > to[0] || (tx.block_height === to[0] && to[1] >= 0 && tx.tx_index > to[1]))) return false;
          return true;
        });
      return paginate(all, query);
    },
    addressesOfStake(stake) {
      const wallet = world.walletByStakeAddress.get(stake);
      return wallet ? wallet.addresses.map(addressText) : [];
    },
  } satisfies Partial<AccountQueries>;
}

/** Rewards, history, certificates and withdrawals. */
function accountStaking(ctx: ChainContext, pools: PoolModel, index: AccountIndex) {
  const { world, tipHeight, epochOf } = ctx;
  const { stakeOf, homePool } = pools;
  const { knownAccount, worldWithdrawals, liveAccountOf, worldWalletTxs, txPlace } = index;
  return {
    accountRewards(stake, page) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const live = liveAccountOf(stake, tip);
      if (live) return paginate(live.account.rewards, page).map((r) => ({ epoch: r.epoch, amount: String(r.amount), pool_id: r.pool, type: 'member' as const }));
      // A world stake key withdraws what it earned: each withdrawal is the reward of the epoch before it.
      const wallet = world.walletByStakeAddress.get(stake)!;
      const byEpoch = new Map<number, bigint>();
      for (const w of worldWithdrawals(wallet, tip)) {
        const e = Math.max(0, epochOf(w.tx.height) - 1);
        byEpoch.set(e, (byEpoch.get(e) ?? 0n) + BigInt(w.amount));
      }
      return paginate([...byEpoch.entries()], page).map(([epoch, amount]) => ({ epoch, amount: String(amount), pool_id: homePool(wallet).id, type: 'member' as const }));
    },
    accountHistory(stake, page) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const live = liveAccountOf(stake, tip);
      if (live) return paginate(live.account.history, page).map((h) => ({ active_epoch: h.epoch, amount: String(h.amount), pool_id: h.pool }));
      const wallet = world.walletByStakeAddress.get(stake);
      if (!wallet) return [];
      const pool = homePool(wallet).id;
      return virtualPage(epochOf(tip) + 1, page, (e) => ({ active_epoch: e, amount: String(stakeOf(e - 2).controlled(stake)), pool_id: pool }));
    },
    accountDelegations(stake, page) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const live = liveAccountOf(stake, tip);
      if (live) {
        const { model, account } = live;
        return paginate(account.delegations, page).map((d) => ({
          active_epoch: activeEpochOf(d.height, epochOf), tx_hash: d.txHash, amount: String(model.stakeAt(account, d.height)), pool_id: d.pool, ...txPlace(d.height),
        }));
      }
      const wallet = world.walletByStakeAddress.get(stake);
      if (!wallet) return [];
      const rows: AccountDelegation[] = [];
      for (const tx of worldWalletTxs(wallet, tip)) {
        for (const d of tx.delegations) {
          if (d.wallet !== wallet.id) continue;
          const kept = tx.outputs.reduce((n, o) => n + (wallet.addresses.includes(o.address) ? o.lovelace : 0), 0);
          rows.push({ active_epoch: epochOf(tx.height) + 2, tx_hash: tx.hash, amount: String(kept), pool_id: world.pools[d.pool]!.id, ...txPlace(tx.height) });
        }
      }
      return paginate(rows, page);
    },
    accountRegistrations(stake, page) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const live = liveAccountOf(stake, tip);
      if (live) {
        return paginate(live.account.registrations, page).map((r) => ({ tx_hash: r.txHash, action: r.action, deposit: String(ctx.params.protocol.keyDeposit), ...txPlace(r.height) }));
      }
      const wallet = world.walletByStakeAddress.get(stake);
      if (!wallet) return [];
      const rows: AccountRegistration[] = [];
      for (const tx of worldWalletTxs(wallet, tip)) {
        if (tx.stakeRegistrations > 0 && tx.delegations.some((d) => d.wallet === wallet.id)) rows.push({ tx_hash: tx.hash, action: 'registered', deposit: String(STAKE_KEY_DEPOSIT), ...txPlace(tx.height) });
      }
      return paginate(rows, page);
    },
    accountWithdrawals(stake, page) {
      if (!knownAccount(stake)) return null;
      const tip = tipHeight();
      const live = liveAccountOf(stake, tip);
      if (live) return paginate(live.account.withdrawals, page).map((w) => ({ tx_hash: w.txHash, amount: String(w.amount), ...txPlace(w.height) }));
      const wallet = world.walletByStakeAddress.get(stake);
      if (!wallet) return [];
      return paginate(worldWithdrawals(wallet, tip), page).map((w) => ({ tx_hash: w.tx.hash, amount: String(w.amount), ...txPlace(w.tx.height) }));
    },
    accountMirs(stake) {
      return knownAccount(stake) ? [] : null;
    },
  } satisfies Partial<AccountQueries>;
}
