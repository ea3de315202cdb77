/**
 * Runs `work` every `intervalMs`, one run at a time: a tick that comes while a run is still going is
 * skipped. When a run answers true (more is waiting), the next one starts at once instead of at the
 * next tick. wake() asks for a run now rather than at the next tick (one more run after the current
 * one when a run is going, however many wakes came during it). A failed run is reported to `onError`
 * and the ticker carries on.
 */
export class SerialTicker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private stopped = true;
  private woken = false;

  constructor(
    private readonly work: () => Promise<boolean | void>,
    private readonly intervalMs: number,
    private readonly onError: (err: Error) => void,
  ) {}

  /**
   * Runs now, then every intervalMs; with `phaseMs` (below intervalMs), the second run comes phaseMs
   * from now and the periodic ones every intervalMs after it, so tickers started together need not
   * run together (and none waits longer for its second run than without).
   */
  start(opts: { phaseMs?: number } = {}): void {
    this.stopped = false;
    const every = () => {
      this.timer = setInterval(() => this.tick(), this.intervalMs);
      this.timer.unref();
    };
    if (opts.phaseMs && opts.phaseMs > 0) {
      this.timer = setTimeout(() => {
        every();
        this.tick();
      }, opts.phaseMs);
      this.timer.unref();
    } else every();
    this.tick();
  }

  /** Stops ticking and waits for a run in progress to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) {
      clearTimeout(this.timer);
      clearInterval(this.timer);
    }
    this.timer = undefined;
    await this.running;
  }

  /** Runs now, or once more as soon as the run under way ends: for work that was just handed something to do. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) this.woken = true;
    else this.tick();
  }

  private tick(): void {
    if (this.stopped || this.running) return;
    this.woken = false;
    this.running = this.work()
      .then((more) => {
        if (more === true) setImmediate(() => this.tick());
      })
      .catch((err: unknown) => this.onError(err instanceof Error ? err : new Error(String(err))))
      .finally(() => {
        this.running = null;
        if (this.woken) setImmediate(() => this.tick());
      });
  }
}
