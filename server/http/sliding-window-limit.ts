/**
 * An in-process limit of `max` events per key within `windowMs` (a sliding window of timestamps),
 * for endpoints that are costly for the server but cheap to call. Keys idle for a window are let go.
 */
export class SlidingWindowLimit {
  private readonly hits = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one event for the key; false (and not counted) when the key is at its limit. */
  take(key: string): boolean {
    const at = this.now();
    this.sweep(at);
    const since = at - this.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (list.length >= this.max) {
      this.hits.set(key, list);
      return false;
    }
    list.push(at);
    this.hits.set(key, list);
    return true;
  }

  private sweep(at: number): void {
    if (at - this.lastSweep < this.windowMs) return;
    this.lastSweep = at;
    for (const [key, list] of this.hits) if (list.every((t) => t <= at - this.windowMs)) this.hits.delete(key);
  }
}
