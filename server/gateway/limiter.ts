import { DAY_MS } from '../../shared/time';

/** What the limiter says about one request. */
export type Verdict = 'ok' | 'rate_limited' | 'over_quota' | 'banned';

export interface AdmitRequest {
  ip: string;
  /** Token bucket per project. */
  bucketKey: string;
  rate: number;
  burst: number;
  /** Daily quota per subscription owner; `day` is the UTC day number (ms / 86 400 000). */
  quotaKey: string;
  day: number;
  quotaLimit: number;
  /** Requests already counted today before this process started (from quota_usage). */
  quotaBase: number;
  /**
   * Pay as you go: the workspace whose request balance pays once the daily quota is used up, its
   * credited total and what was spent of it when the key was loaded. Absent (or credited 0): no balance.
   */
  balanceKey?: string;
  balanceCredited?: number;
  balanceSpentBase?: number;
}

export interface BanPolicy {
  /** Rejections (429/402) within the window that get an IP banned. */
  threshold: number;
  windowSeconds: number;
  seconds: number;
}

export interface Limiter {
  readonly kind: 'memory' | 'redis';
  admit(r: AdmitRequest): Promise<Verdict>;
  /**
   * Writes what the balances spent to the database (ppu_balances.spent): from memory, the requests
   * paid since the last call, put back when the write fails; from Redis, each touched balance's total
   * as Redis counts it, so what a killed gateway spent is written by any other (or the next) one.
   */
  flushBalanceSpends(store: BalanceStore): Promise<void>;
  close(): Promise<void>;
}

/** Where balance spends go (the gateway passes the database's). */
export interface BalanceStore {
  /** Adds requests spent (per balance key) to what the database holds. */
  addSpends(spends: Map<string, number>): Promise<void>;
  /** Raises what the database holds to these totals (per balance key); never lowers it. */
  raiseSpent(totals: Map<string, number>): Promise<void>;
}

/** Counts requests paid from a balance in this process until they are written to the database. */
export class BalanceSpends {
  private pending = new Map<string, number>();
  add(key: string, n = 1): void {
    this.pending.set(key, (this.pending.get(key) ?? 0) + n);
  }
  drain(): Map<string, number> {
    const out = this.pending;
    this.pending = new Map();
    return out;
  }
}

export const utcDay = (ms: number) => Math.floor(ms / DAY_MS);

/**
 * One process's limits: a token bucket per project, a daily counter per subscription and the flood
 * ban per IP. JavaScript runs one request at a time, so each check-and-take is atomic and the daily
 * quota can never overshoot within this process. Several gateway processes share limits through
 * Redis instead.
 */
export class MemoryLimiter implements Limiter {
  readonly kind = 'memory';
  private buckets = new Map<string, { tokens: number; at: number }>();
  private quotas = new Map<string, { day: number; used: number }>();
  private rejections = new Map<string, { count: number; since: number }>();
  private bans = new Map<string, number>();
  /** What each balance has spent in all (at least the database's figure when the key was loaded). */
  private balances = new Map<string, number>();
  private readonly spends = new BalanceSpends();
  private sweeper: NodeJS.Timeout;

  constructor(
    private readonly ban: BanPolicy,
    private readonly now: () => number = Date.now,
  ) {
    // Full buckets and old counters carry no information; dropping them keeps memory bounded.
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  admit(r: AdmitRequest): Promise<Verdict> {
    return Promise.resolve(this.admitNow(r));
  }

  admitNow(r: AdmitRequest): Verdict {
    const now = this.now();
    const bannedUntil = this.bans.get(r.ip);
    if (bannedUntil !== undefined) {
      if (bannedUntil > now) return 'banned';
      this.bans.delete(r.ip);
    }
    let bucket = this.buckets.get(r.bucketKey);
    if (!bucket) {
      bucket = { tokens: r.burst, at: now };
      this.buckets.set(r.bucketKey, bucket);
    }
    bucket.tokens = Math.min(r.burst, bucket.tokens + ((now - bucket.at) * r.rate) / 1000);
    bucket.at = now;
    let verdict: Verdict = 'ok';
    if (bucket.tokens < 1) verdict = 'rate_limited';
    else {
      let quota = this.quotas.get(r.quotaKey);
      if (!quota || quota.day !== r.day) {
        quota = { day: r.day, used: r.quotaBase };
        this.quotas.set(r.quotaKey, quota);
      }
      if (quota.used + 1 > r.quotaLimit) {
        verdict = 'over_quota';
        // Past the daily quota: the workspace's pay-as-you-go balance pays, never below zero.
        if (r.balanceCredited && r.balanceKey) {
          const spent = Math.max(this.balances.get(r.balanceKey) ?? 0, r.balanceSpentBase ?? 0);
          if (spent + 1 <= r.balanceCredited) {
            this.balances.set(r.balanceKey, spent + 1);
            this.spends.add(r.balanceKey);
            bucket.tokens -= 1;
            verdict = 'ok';
          }
        }
      } else {
        quota.used += 1;
        bucket.tokens -= 1;
      }
    }
    if (verdict !== 'ok') this.reject(r.ip, now);
    return verdict;
  }

  /** Starts a bucket not yet held at `tokens` as of `at` (a share of a shared bucket last seen so), instead of full. */
  seedBucket(key: string, tokens: number, at: number): void {
    if (!this.buckets.has(key)) this.buckets.set(key, { tokens, at });
  }

  /** Requests paid from each balance (by balanceKey) since the last call. */
  drainBalanceSpends(): Map<string, number> {
    return this.spends.drain();
  }

  async flushBalanceSpends(store: BalanceStore): Promise<void> {
    const spends = this.spends.drain();
    if (spends.size === 0) return;
    try {
      await store.addSpends(spends);
    } catch (err) {
      for (const [k, n] of spends) this.spends.add(k, n);
      throw err;
    }
  }

  private reject(ip: string, now: number) {
    let rej = this.rejections.get(ip);
    if (!rej || now - rej.since > this.ban.windowSeconds * 1000) {
      rej = { count: 0, since: now };
      this.rejections.set(ip, rej);
    }
    rej.count += 1;
    if (rej.count >= this.ban.threshold) {
      this.bans.set(ip, now + this.ban.seconds * 1000);
      this.rejections.delete(ip);
    }
  }

  private sweep() {
    const now = this.now();
    // A bucket untouched for an hour has refilled to its burst; forgetting it changes nothing.
    for (const [k, b] of this.buckets) if (now - b.at > 3_600_000) this.buckets.delete(k);
    const today = utcDay(now);
    for (const [k, q] of this.quotas) if (q.day < today) this.quotas.delete(k);
    for (const [ip, rej] of this.rejections) if (now - rej.since > this.ban.windowSeconds * 1000) this.rejections.delete(ip);
    for (const [ip, until] of this.bans) if (until <= now) this.bans.delete(ip);
  }

  close(): Promise<void> {
    clearInterval(this.sweeper);
    return Promise.resolve();
  }
}
