import type { Db } from '../../db/index';
import { orderRowsAbove, watchedOrderRows, type WatchedOrderRow } from './ppu';

/** Ids below the highest one seen that are read again on every refresh (see below). */
const REREAD_WINDOW = 100;
/** The index is rebuilt from the database this often, whatever happened. */
const FULL_RELOAD_MS = 10 * 60_000;

/**
 * The payment watcher's index of the orders it watches, by address, in memory: a block's output
 * addresses are looked up here, so a block costs the same with ten or ten thousand orders open, and
 * the database is asked only about the few addresses found (whose state it still decides).
 *
 * It is a superset of the watched orders: loaded in full at start (and every 10 minutes, and after
 * a rollback, which can make a paid order watched again), then on every pass the orders above the
 * highest id seen are added, re-reading the last 100 ids below it, so an order whose transaction
 * commits after a later one (PostgreSQL hands out ids before commit) is still found. Orders that
 * stop being watched stay until the next full load; the database's answer filters them out.
 */
export class WatchedOrderIndex {
  private byAddress = new Map<string, number>();
  /** Orders awaiting payment when last read, by id: their expiry time. */
  private awaiting = new Map<number, number>();
  private maxId = 0;
  private loadedAt = -Infinity;

  constructor(
    private readonly db: Db,
    private readonly network: string,
  ) {}

  get size(): number {
    return this.byAddress.size;
  }

  /** The next refresh reloads everything (after a rollback). */
  invalidate(): void {
    this.loadedAt = -Infinity;
  }

  async refresh(now = Date.now()): Promise<void> {
    if (now - this.loadedAt >= FULL_RELOAD_MS) {
      const { rows, maxId } = await watchedOrderRows(this.db, this.network, now);
      this.byAddress = new Map();
      this.awaiting = new Map();
      this.maxId = maxId;
      for (const r of rows) this.add(r);
      this.loadedAt = now;
      return;
    }
    const { rows, maxId } = await orderRowsAbove(this.db, this.network, Math.max(0, this.maxId - REREAD_WINDOW));
    for (const r of rows) this.add(r);
    this.maxId = Math.max(this.maxId, maxId);
  }

  private add(r: WatchedOrderRow): void {
    if (r.status === 'paid' || r.status === 'underpaid') return;
    this.byAddress.set(r.address, r.id);
    if (r.status === 'awaiting_payment') this.awaiting.set(r.id, r.expiresAt);
  }

  /** The addresses among these that belong to an order of the index. */
  candidates(addresses: Iterable<string>): string[] {
    const out: string[] = [];
    for (const a of addresses) if (this.byAddress.has(a)) out.push(a);
    return out;
  }

  /** Orders awaiting payment (when last read) whose time is up. */
  due(now: number): number[] {
    const out: number[] = [];
    for (const [id, expiresAt] of this.awaiting) if (expiresAt <= now) out.push(id);
    return out;
  }

  /** Orders the database has now expired (or that were paid meanwhile): no longer awaiting. */
  settled(ids: number[]): void {
    for (const id of ids) this.awaiting.delete(id);
  }
}
