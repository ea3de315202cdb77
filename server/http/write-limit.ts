import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors';

/** The refusal of a state-changing request past the user's rate (the renderer shows the message as is). */
export const TOO_MANY_WRITES_MESSAGE = 'Too many changes in a short time. Please wait a moment and try again.';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A token bucket per key: `burst` tokens at most, refilled at `perMinute` a minute. In-process: with
 * several api processes each holds its own buckets, so a user gets at most that many times the rate.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private lastSweep = 0;
  private readonly perMs: number;

  constructor(
    private readonly burst: number,
    perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / 60_000;
  }

  /** Takes one token for the key: 0 when taken, otherwise the milliseconds until one is there (nothing taken). */
  take(key: string): number {
    const at = this.now();
    this.sweep(at);
    const b = this.buckets.get(key);
    const tokens = b ? Math.min(this.burst, b.tokens + (at - b.at) * this.perMs) : this.burst;
    if (tokens < 1) {
      this.buckets.set(key, { tokens, at });
      return Math.ceil((1 - tokens) / this.perMs);
    }
    this.buckets.set(key, { tokens: tokens - 1, at });
    return 0;
  }

  /** Buckets that have refilled are the same as none: let them go, once per refill time at most. */
  private sweep(at: number): void {
    const fullAfterMs = this.burst / this.perMs;
    if (at - this.lastSweep < fullAfterMs) return;
    this.lastSweep = at;
    for (const [key, b] of this.buckets) if (b.tokens + (at - b.at) * this.perMs >= this.burst) this.buckets.delete(key);
  }
}

/**
 * Limits each signed-in user's state-changing dashboard requests (anything but GET, HEAD and
 * OPTIONS), whatever the workspace: past the rate, 429 with Retry-After and nothing done. A person
 * never meets it; a script writing in a loop (filling the audit log, say) does.
 */
export function writeRateLimit(opts: { burst: number; perMinute: number; now?: () => number }) {
  const buckets = new TokenBuckets(opts.burst, opts.perMinute, opts.now);
  return (req: Request, res: Response, next: NextFunction): void => {
    const user = req.user as { id: number } | undefined;
    if (!user || SAFE_METHODS.has(req.method)) return next();
    const waitMs = buckets.take(String(user.id));
    if (waitMs === 0) return next();
    res.set('Retry-After', String(Math.max(1, Math.ceil(waitMs / 1000))));
    next(new AppError(429, 'too_many_requests', TOO_MANY_WRITES_MESSAGE));
  };
}
