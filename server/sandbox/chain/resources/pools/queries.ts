// /pools: the stake pools, their stake (what their delegators control: stake.ts's distribution),
// blocks, history, metadata, relays, delegators and certificates. The pool model is shared with
// /blocks, /epochs, /network, /txs and /accounts.
import type { ChainContext } from '../../context';
import { paginate, virtualPage } from '../../paging';
import { derive, deriveFloat } from '../../rng';
import type { PoolRetirement, PoolMetadata, PoolRelay } from '../../pools';
import { REWARD_PPM_PER_EPOCH, type PoolHistoryItem, type PoolUpdate, type StakeView } from '../../stake';
import { isDistributionAt, type SimTx } from '../../simulate';
import type { WorldPool } from '../../world';
import type { Pool, PoolExtended, Pagination } from '../../../../../shared/chain';

const SATURATION_POINT = 75_000_000_000_000;

/** Each pool's stake, blocks and Blockfrost object; the stake distribution of an epoch. */
export function poolModel(ctx: ChainContext) {
  const { key, world, schedule, book, epochOf, snapshotHeight, stakeAt, worldStake } = ctx;
  const { blocksPerEpoch, segmentLength } = ctx.params;
  /**
   * The stake distribution at the end of an epoch (the current one: as of the tip). Its pools'
   * stake is what their delegators control, the accounts' `controlled_amount` of then.
   */
  const stakeOf = (epoch: number): StakeView => stakeAt(snapshotHeight(epoch));
  const poolStake = (pool: WorldPool, epoch: number): bigint => stakeOf(epoch).poolStake(pool);
  const totalStake = (epoch: number): bigint => stakeOf(epoch).total();
  const opCert = (pool: WorldPool, epoch: number): { counter: number; hash: string } => {
    const counter = pool.opCertCounterBase + Math.floor(epoch / 90);
    return { counter, hash: derive(pool.opCertKey, 'opcert', counter).toString('hex') };
  };
  const { homePool } = worldStake;
  const weightOf = (pool: WorldPool): number => schedule.weights[pool.index] ?? 0;
  const segmentTx = (segment: number): string => ctx.txHash(segment * segmentLength, 0);
  const retirementTxs = (pool: WorldPool, tip: number): string[] => {
    const r = book.retirementOf(pool);
    if (r) return r.segment * segmentLength <= tip ? [segmentTx(r.segment)] : [];
    const n = book.announcements(pool, tip);
    return n > 0 ? [segmentTx(book.announcement(pool, n - 1).segment)] : [];
  };

  /** Retirement certificates of a background transaction: the first one of each segment carries them. */
  const retirementsOfTx = (tx: SimTx): PoolRetirement[] =>
    isDistributionAt(tx.height, tx.index, segmentLength) ? book.retirementsIn(tx.height / segmentLength) : [];

  const poolObject = (pool: WorldPool, tip: number): Pool => {
    const epoch = epochOf(tip);
    const position = tip - epoch * blocksPerEpoch;
    const now = stakeAt(tip);
    const live = now.poolStake(pool);
    const active = poolStake(pool, epoch - 2);
    const liveTotal = totalStake(epoch);
    const activeTotal = totalStake(epoch - 2);
    const round = (x: number): number => Math.round(x * 1e6) / 1e6;
    const share = (part: bigint, whole: bigint): number => (whole > 0n ? round(Number(part) / Number(whole)) : 0);
    return {
      pool_id: pool.id,
      hex: pool.hex,
      vrf_key: pool.vrfKeyHash,
      blocks_minted: epoch * weightOf(pool) + schedule.countInEpoch(pool.index, epoch, position),
      blocks_epoch: schedule.countInEpoch(pool.index, epoch, position),
      live_stake: String(live),
      live_size: share(live, liveTotal),
      live_saturation: round(Number(live) / SATURATION_POINT),
      live_delegators: now.delegators(pool).length,
      active_stake: String(active),
      active_size: share(active, activeTotal),
      declared_pledge: String(pool.pledge),
      live_pledge: String(pool.pledge + Math.round(deriveFloat(key, 'pool-pledge', pool.index, epoch) * 50) * 1_000_000),
      margin_cost: pool.margin,
      fixed_cost: String(pool.fixedCost),
      reward_account: pool.rewardAccount,
      owners: [pool.rewardAccount],
      registration: [ctx.txHash(0, 0)],
      retirement: retirementTxs(pool, tip),
      calidus_key: null,
    };
  };
  const poolPositions = (pool: WorldPool, epoch: number, lastPosition: number): number[] => {
    const out: number[] = [];
    const order = schedule.epoch(epoch);
    for (let i = 0; i <= lastPosition && i < order.length; i++) if (order[i] === pool.index) out.push(i);
    return out;
  };
  /** The active stake distribution of an epoch (the end of epoch − 2's), pool by pool: world members, then live accounts. */
  const epochDistribution = (epoch: number, only?: WorldPool): Array<{ stake_address: string; pool_id: string; amount: string }> => {
    const out: Array<{ stake_address: string; pool_id: string; amount: string }> = [];
    const view = stakeOf(epoch - 2);
    for (const pool of only ? [only] : world.pools) {
      for (const d of view.delegators(pool)) out.push({ stake_address: d.stakeAddress, pool_id: pool.id, amount: String(d.amount) });
    }
    return out;
  };
  return { stakeOf, poolStake, totalStake, opCert, homePool, weightOf, segmentTx, retirementsOfTx, poolObject, poolPositions, epochDistribution };
}
export type PoolModel = ReturnType<typeof poolModel>;

/** The chain's queries behind /pools (a pool's votes are governance's). */
export interface PoolQueries {
  pools(page?: Pagination): string[];
  poolsExtended(page?: Pagination): PoolExtended[];
  pool(poolId: string): Pool | null;
  poolsRetired(page?: Pagination): Array<{ pool_id: string; epoch: number }>;
  poolsRetiring(page?: Pagination): Array<{ pool_id: string; epoch: number }>;
  poolHistory(poolId: string, page?: Pagination): PoolHistoryItem[] | null;
  /** The pool's metadata (every pool of the chain has some); null for an unknown pool. */
  poolMetadata(poolId: string): (PoolMetadata & { pool_id: string; hex: string }) | null;
  poolRelays(poolId: string): PoolRelay[] | null;
  poolDelegators(poolId: string, page?: Pagination): Array<{ address: string; live_stake: string }> | null;
  poolBlocks(poolId: string, page?: Pagination): string[] | null;
  poolUpdates(poolId: string, page?: Pagination): PoolUpdate[] | null;
}

export function poolPaths(ctx: ChainContext, pools: PoolModel): PoolQueries {
  const { world, hashes, schedule, book, tipHeight, epochOf, poolById, stakeAt } = ctx;
  const { blocksPerEpoch, segmentLength } = ctx.params;
  const { stakeOf, totalStake, weightOf, segmentTx, poolObject, poolPositions } = pools;
  const poolExtendedObject = (pool: WorldPool, tip: number): PoolExtended => {
    const p = poolObject(pool, tip);
    return {
      pool_id: p.pool_id, hex: p.hex, active_stake: p.active_stake, live_stake: p.live_stake, live_saturation: p.live_saturation,
      blocks_minted: p.blocks_minted, declared_pledge: p.declared_pledge, margin_cost: p.margin_cost, fixed_cost: p.fixed_cost, metadata: null,
    };
  };
  /** Whether a pool is retired at an epoch (its retirement epoch has begun). */
  const retiredAt = (pool: WorldPool, epoch: number): boolean => {
    const r = book.retirementOf(pool);
    return r !== null && epoch >= r.retiringEpoch;
  };
  const poolRewards = (active: bigint, pool: WorldPool): { rewards: bigint; fees: bigint } => {
    const rewards = (active * REWARD_PPM_PER_EPOCH) / 1_000_000n;
    const fixed = BigInt(pool.fixedCost);
    if (rewards <= fixed) return { rewards, fees: rewards };
    const marginPpm = BigInt(Math.round(pool.margin * 1_000_000));
    return { rewards, fees: fixed + ((rewards - fixed) * marginPpm) / 1_000_000n };
  };
  const paths: PoolQueries = {
    pools(page) {
      return paginate(world.pools.map((p) => p.id), page);
    },
    poolsExtended(page) {
      const tip = tipHeight();
      return paginate(world.pools, page).map((p) => poolExtendedObject(p, tip));
    },
    pool(id) {
      if (typeof id !== 'string') return null;
      const pool = poolById(id);
      return pool ? poolObject(pool, tipHeight()) : null;
    },
    poolsRetired(page) {
      const epoch = epochOf(tipHeight());
      const rows = book.retired.filter((p) => retiredAt(p, epoch)).map((p) => ({ pool_id: p.id, epoch: book.retirementOf(p)!.retiringEpoch }));
      return paginate(rows, page);
    },
    poolsRetiring(page) {
      const tip = tipHeight();
      const epoch = epochOf(tip);
      const rows: Array<{ pool_id: string; epoch: number }> = [];
      for (const p of book.retired) {
        const r = book.retirementOf(p)!;
        if (r.segment * segmentLength <= tip && r.retiringEpoch > epoch) rows.push({ pool_id: p.id, epoch: r.retiringEpoch });
      }
      for (const p of book.retiring) {
        const n = book.announcements(p, tip);
        if (n > 0) rows.push({ pool_id: p.id, epoch: book.announcement(p, n - 1).retiringEpoch });
      }
      return paginate(rows, page);
    },
    poolHistory(id, page) {
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      if (!pool) return null;
      const tip = tipHeight();
      const current = epochOf(tip);
      const retirement = book.retirementOf(pool);
      const last = retirement ? Math.min(current, retirement.retiringEpoch - 1) : current;
      return virtualPage(last + 1, page, (e): PoolHistoryItem => {
        const snapshot = stakeOf(e - 2);
        const active = retirement ? 0n : snapshot.poolStake(pool);
        const total = totalStake(e - 2);
        const { rewards, fees } = poolRewards(active, pool);
        return {
          epoch: e,
          blocks: e < current ? weightOf(pool) : schedule.countInEpoch(pool.index, e, tip - e * blocksPerEpoch),
          active_stake: String(active),
          active_size: total > 0n ? Math.round((Number(active) / Number(total)) * 1e6) / 1e6 : 0,
          delegators_count: retirement ? 0 : snapshot.delegators(pool).length,
          rewards: String(rewards),
          fees: String(fees),
        };
      });
    },
    poolMetadata(id) {
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      return pool ? { pool_id: pool.id, hex: pool.hex, ...book.metadata(pool) } : null;
    },
    poolRelays(id) {
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      return pool ? book.relays(pool) : null;
    },
    poolDelegators(id, page) {
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      if (!pool) return null;
      return paginate([...stakeAt(tipHeight()).delegators(pool)], page).map((d) => ({ address: d.stakeAddress, live_stake: String(d.amount) }));
    },
    poolBlocks(id, page) {
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      if (!pool) return null;
      const w = weightOf(pool);
      if (w === 0) return [];
      const tip = tipHeight();
      const current = epochOf(tip);
      const total = current * w + schedule.countInEpoch(pool.index, current, tip - current * blocksPerEpoch);
      return virtualPage(total, page, (i) => {
        const e = Math.floor(i / w);
        return hashes.block(e * blocksPerEpoch + poolPositions(pool, e, blocksPerEpoch - 1)[i - e * w]!);
      });
    },
    poolUpdates(id, page) {
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      if (!pool) return null;
      const tip = tipHeight();
      const registration: PoolUpdate = { tx_hash: ctx.txHash(0, 0), cert_index: book.all.indexOf(pool), action: 'registered' };
      const retirement = book.retirementOf(pool);
      if (retirement) {
        const rows = [registration];
        if (retirement.segment * segmentLength <= tip) rows.push({ tx_hash: segmentTx(retirement.segment), cert_index: retirement.certIndex, action: 'deregistered' });
        return paginate(rows, page);
      }
      return virtualPage(1 + book.announcements(pool, tip), page, (i) => {
        if (i === 0) return registration;
        const a = book.announcement(pool, i - 1);
        return { tx_hash: segmentTx(a.segment), cert_index: a.certIndex, action: 'deregistered' };
      });
    },
  };
  return paths;
}
