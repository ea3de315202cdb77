// Slot leader schedule. Each pool leads a fixed number of blocks per epoch (its share of the
// total base stake, by largest remainder), in an order shuffled per epoch. Fixed shares make
// "blocks minted so far" a closed formula instead of a walk over the whole chain.
import { Rng } from './rng';
import type { WorldPool } from './world';

export class LeaderSchedule {
  /** Blocks per epoch led by each pool. */
  readonly weights: number[];
  private readonly cache = new Map<number, Uint16Array>();

  constructor(private readonly key: Uint8Array, pools: WorldPool[], private readonly blocksPerEpoch: number) {
    const total = pools.reduce((n, p) => n + p.baseStake, 0);
    const exact = pools.map((p) => (p.baseStake / total) * blocksPerEpoch);
    this.weights = exact.map(Math.floor);
    let left = blocksPerEpoch - this.weights.reduce((a, b) => a + b, 0);
    const byRemainder = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
    for (const { i } of byRemainder) {
      if (left-- <= 0) break;
      this.weights[i]! += 1;
    }
  }

  /** Pool index leading each block of the epoch. */
  epoch(epoch: number): Uint16Array {
    const hit = this.cache.get(epoch);
    if (hit) return hit;
    const slots: number[] = [];
    this.weights.forEach((w, pool) => {
      for (let k = 0; k < w; k++) slots.push(pool);
    });
    const order = Uint16Array.from(Rng.of(this.key, 'schedule', epoch).shuffled(slots));
    if (this.cache.size >= 64) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(epoch, order);
    return order;
  }

  leader(epoch: number, positionInEpoch: number): number {
    return this.epoch(epoch)[positionInEpoch]!;
  }

  /** Blocks led by the pool in positions 0..lastPosition of the epoch. */
  countInEpoch(pool: number, epoch: number, lastPosition: number): number {
    const order = this.epoch(epoch);
    let n = 0;
    for (let i = 0; i <= lastPosition && i < order.length; i++) if (order[i] === pool) n++;
    return n;
  }
}
