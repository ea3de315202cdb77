// /epochs: an epoch's bounds, totals, parameters, neighbours, stake distribution and blocks.
import type { ChainContext } from '../../context';
import { fillPage, paginate, virtualPage } from '../../paging';
import type { PoolModel } from '../pools/queries';
import { protocolParameters, type ProtocolParameters } from '../../protocol';
import { overdue, spent } from '../../budget';
import { derive } from '../../rng';
import type { Epoch, EpochStart, Pagination } from '../../../../../shared/chain';

/** The chain's queries behind /epochs. */
export interface EpochQueries {
  latestEpoch(): Epoch;
  epoch(n: number): Epoch | null;
  /** Start and end of an epoch (also of one not yet begun), as in the webhook epoch payload. */
  epochBounds(n: number): EpochStart;
  parameters(epoch: number): ProtocolParameters | null;
  epochNext(epoch: number, page?: Pagination): Epoch[] | null;
  epochPrevious(epoch: number, page?: Pagination): Epoch[] | null;
  /** The epoch's active stake distribution (the snapshot of the end of epoch − 2). */
  epochStakes(epoch: number, page?: Pagination): Array<{ stake_address: string; pool_id: string; amount: string }> | null;
  epochPoolStakes(epoch: number, poolId: string, page?: Pagination): Array<{ stake_address: string; amount: string }> | null;
  epochBlocks(epoch: number, page?: Pagination): string[] | null;
  epochPoolBlocks(epoch: number, poolId: string, page?: Pagination): string[] | null;
}

export function epochPaths(ctx: ChainContext, pools: PoolModel): EpochQueries {
  const { key, hashes, book, tipHeight, timeOf, epochOf, poolById, blockTotals, epochTotals, liveSums } = ctx;
  const { blocksPerEpoch, genesisTime, blockIntervalMs } = ctx.params;
  const { totalStake, poolPositions, epochDistribution } = pools;
  // A closed epoch's background sums come from the chain's totals (totals.ts: a few numbers an
  // epoch, summed ahead by prepare() or by an earlier read), its live transactions' are added
  // block by block; the open epoch's running sum is kept apart and extended as its blocks are made.
  let openSums: { epoch: number; upTo: number; txCount: number; output: bigint; fees: bigint } | undefined;
  const sumsOf = (epoch: number, last: number): { txCount: number; output: bigint; fees: bigint } => {
    const first = epoch * blocksPerEpoch;
    const closed = last === first + blocksPerEpoch - 1;
    // A closed epoch's sums, made from its segments' decisions if no read made them yet.
    if (closed && !epochTotals(epoch)) ctx.epochSums(first, last);
    const indexed = closed ? epochTotals(epoch) : null;
    if (indexed) {
      const sums = { ...indexed };
      for (let h = first; h <= last; h++) {
        const live = liveSums(h);
        // Most blocks hold none: no sum of big integers made for them.
        if (live.count === 0) continue;
        sums.txCount += live.count;
        sums.output += live.output;
        sums.fees += live.fees;
      }
      return sums;
    }
    const entry = openSums?.epoch === epoch && openSums.upTo <= last ? openSums : { epoch, upTo: first - 1, txCount: 0, output: 0n, fees: 0n };
    const worked = entry.upTo < last;
    for (let h = entry.upTo + 1; h <= last; h++) {
      const b = blockTotals(h);
      const live = liveSums(h);
      entry.txCount += b.txCount + live.count;
      entry.output += BigInt(b.outputLovelace) + live.output;
      entry.fees += BigInt(b.fees) + live.fees;
      entry.upTo = h;
    }
    openSums = entry;
    // An epoch summed is a unit of a page's work (budget.ts): its segments' totals are kept, so a next slice resumes after it.
    if (worked) spent();
    return { txCount: entry.txCount, output: entry.output, fees: entry.fees };
  };
  const epochBounds = (n: number): EpochStart => ({
    epoch: n,
    start_time: Math.floor((genesisTime + n * blocksPerEpoch * blockIntervalMs) / 1000),
    end_time: Math.floor((genesisTime + (n + 1) * blocksPerEpoch * blockIntervalMs) / 1000),
  });
  /**
   * An epoch of a page of epochs: a unit of the page's work too (budget.ts), since its stake
   * snapshot costs some as well; its sums and its stake view are kept, so a next slice reads them.
   */
  const pageEpoch = (n: number, tip: number): Epoch => {
    const epoch = epochObject(n, tip)!;
    if (overdue()) spent();
    return epoch;
  };
  const epochObject = (n: number, tip: number): Epoch | null => {
    if (!Number.isSafeInteger(n) || n < 0 || n > epochOf(tip)) return null;
    const first = n * blocksPerEpoch;
    const last = Math.min(tip, (n + 1) * blocksPerEpoch - 1);
    const sums = sumsOf(n, last);
    return {
      ...epochBounds(n),
      first_block_time: timeOf(first),
      last_block_time: timeOf(last),
      block_count: last - first + 1,
      tx_count: sums.txCount,
      output: String(sums.output),
      fees: String(sums.fees),
      active_stake: String(totalStake(n - 2)),
    };
  };
  const paths: EpochQueries = {
    latestEpoch() {
      const tip = tipHeight();
      return epochObject(epochOf(tip), tip)!;
    },
    epoch(n) {
      return epochObject(n, tipHeight());
    },
    epochBounds,
    parameters(n) {
      if (!Number.isSafeInteger(n) || n < 0 || n > epochOf(tipHeight())) return null;
      return protocolParameters(n, derive(key, 'epoch-nonce', n).toString('hex'), ctx.params.protocol);
    },
    epochNext(n, page) {
      const tip = tipHeight();
      const current = epochOf(tip);
      if (!Number.isSafeInteger(n) || n < 0 || n > current) return null;
      const p = fillPage(page, 100);
      const first = n + 1 + (p.page - 1) * p.count;
      ctx.epochSums(first * blocksPerEpoch, Math.min(current, first + p.count - 1) * blocksPerEpoch + blocksPerEpoch - 1);
      return virtualPage(current - n, { ...fillPage(page, 100), order: 'asc' }, (i) => pageEpoch(n + 1 + i, tip));
    },
    epochPrevious(n, page) {
      const tip = tipHeight();
      if (!Number.isSafeInteger(n) || n < 0 || n > epochOf(tip)) return null;
      const p = fillPage(page, 100);
      const end = n - 1 - (p.page - 1) * p.count;
      const out: Epoch[] = [];
      ctx.epochSums(Math.max(0, end - p.count + 1) * blocksPerEpoch, end * blocksPerEpoch + blocksPerEpoch - 1);
      for (let e = Math.max(0, end - p.count + 1); e <= end; e++) out.push(pageEpoch(e, tip));
      return out;
    },
    epochStakes(n, page) {
      if (!Number.isSafeInteger(n) || n < 0 || n > epochOf(tipHeight())) return null;
      return paginate(epochDistribution(n), { ...fillPage(page, 100), order: 'asc' });
    },
    epochPoolStakes(n, id, page) {
      if (!Number.isSafeInteger(n) || n < 0 || n > epochOf(tipHeight())) return null;
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      if (!pool) return null;
      return paginate(epochDistribution(n, pool), { ...fillPage(page, 100), order: 'asc' }).map((d) => ({ stake_address: d.stake_address, amount: d.amount }));
    },
    epochBlocks(n, page) {
      const tip = tipHeight();
      if (!Number.isSafeInteger(n) || n < 0 || n > epochOf(tip)) return null;
      const first = n * blocksPerEpoch;
      return virtualPage(Math.min(tip, first + blocksPerEpoch - 1) - first + 1, page, (i) => hashes.block(first + i));
    },
    epochPoolBlocks(n, id, page) {
      const tip = tipHeight();
      if (!Number.isSafeInteger(n) || n < 0 || n > epochOf(tip)) return null;
      const pool = typeof id === 'string' ? poolById(id) : undefined;
      if (!pool) return null;
      const first = n * blocksPerEpoch;
      const positions = book.isRetired(pool) ? [] : poolPositions(pool, n, Math.min(tip, first + blocksPerEpoch - 1) - first);
      return paginate(positions.map((pos) => hashes.block(first + pos)), page);
    },
  };
  return paths;
}
