import { Redis } from 'ioredis';
import crypto from 'node:crypto';
import { MemoryLimiter, type AdmitRequest, type BalanceStore, type BanPolicy, type Limiter, type Verdict } from './limiter';
import type { Logger } from '../logger';

// Admits a batch of requests in one atomic round trip, each in turn as if alone: ban check, token-bucket
// refill and take, daily quota check and increment (or a pay-as-you-go spend), and the flood counter.
// Redis's own clock (TIME, read once for the batch) keeps every gateway process in step.
//   KEYS[1] the dirty balances; ARGV[1..5] the channel a new ban is published on, the quota counters'
//   TTL, the ban threshold, the flood window and the ban's seconds. Then the requests, each one of:
//   - a check: ARGV '0', rate, burst, quota limit, quota base, balance credited, balance spent base,
//     balance member; KEYS ban, flood counter, bucket, quota counter, balance counter.
//   - a take (a request the gateway admitted at once, recorded without a check, the bucket going below
//     zero if others emptied it meanwhile): ARGV '1', rate, burst, quota base; KEYS bucket, quota counter.
// Answers 4 numbers a request: verdict (0 ok, 1 rate limited, 2 over quota, 3 banned, 4 paid from the
// balance), the quota counter, the balance counter (-1: none) and the bucket's whole tokens.
const ADMIT = `
local t = redis.call('TIME')
local clock = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local out = {}
local function refill(bucket, rate, burst)
  local now = clock
  local b = redis.call('HMGET', bucket, 'tokens', 'at')
  local tokens = tonumber(b[1])
  local at = tonumber(b[2])
  if tokens == nil or at == nil then tokens = burst at = now end
  if now > at then tokens = math.min(burst, tokens + (now - at) * rate / 1000) else now = at end
  return tokens, now
end
local function store(bucket, tokens, now, rate, burst)
  redis.call('HSET', bucket, 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', bucket, math.ceil(burst / rate * 1000) + 60000)
end
local function take(k, a)
  local rate = tonumber(ARGV[a + 2])
  local burst = tonumber(ARGV[a + 3])
  local tokens, now = refill(KEYS[k + 1], rate, burst)
  tokens = tokens - 1
  redis.call('SET', KEYS[k + 2], ARGV[a + 4], 'NX', 'EX', ARGV[2])
  local used = redis.call('INCR', KEYS[k + 2])
  store(KEYS[k + 1], tokens, now, rate, burst)
  return 0, used, -1, math.floor(tokens)
end
local function admit(k, a)
  if redis.call('EXISTS', KEYS[k + 1]) == 1 then return 3, -1, -1, 0 end
  local rate = tonumber(ARGV[a + 2])
  local burst = tonumber(ARGV[a + 3])
  local tokens, now = refill(KEYS[k + 3], rate, burst)
  local verdict = 0
  if tokens < 1 then
    verdict = 1
  else
    redis.call('SET', KEYS[k + 4], ARGV[a + 5], 'NX', 'EX', ARGV[2])
    local used = tonumber(redis.call('GET', KEYS[k + 4]))
    if used + 1 > tonumber(ARGV[a + 4]) then
      verdict = 2
      -- Past the daily quota: the workspace's pay-as-you-go balance pays, never below zero.
      local credited = tonumber(ARGV[a + 6])
      if credited > 0 then
        redis.call('SET', KEYS[k + 5], ARGV[a + 7], 'NX')
        local spent = tonumber(redis.call('GET', KEYS[k + 5]))
        if spent + 1 <= credited then
          redis.call('INCR', KEYS[k + 5])
          -- Marked for the database: any gateway's next flush writes this balance's total.
          redis.call('SADD', KEYS[1], ARGV[a + 8])
          tokens = tokens - 1
          verdict = 4
        end
      end
    else
      redis.call('INCR', KEYS[k + 4])
      tokens = tokens - 1
    end
  end
  store(KEYS[k + 3], tokens, now, rate, burst)
  if verdict > 0 and verdict < 4 then
    local n = redis.call('INCR', KEYS[k + 2])
    if n == 1 then redis.call('EXPIRE', KEYS[k + 2], ARGV[4]) end
    if n >= tonumber(ARGV[3]) then
      redis.call('SET', KEYS[k + 1], '1', 'EX', ARGV[5])
      redis.call('DEL', KEYS[k + 2])
      -- Every gateway hears of the ban at once, so none admits this client at once any more.
      redis.call('PUBLISH', ARGV[1], KEYS[k + 1])
    end
  end
  -- The shared counts as they now stand, for this gateway's share of what is left should Redis stop.
  return verdict, tonumber(redis.call('GET', KEYS[k + 4]) or '-1'), tonumber(redis.call('GET', KEYS[k + 5]) or '-1'), math.floor(tokens)
end
local k, a, i = 1, 5, 0
while a < #ARGV do
  local verdict, used, spent, tokens
  if ARGV[a + 1] == '1' then
    verdict, used, spent, tokens = take(k, a)
    k = k + 2
    a = a + 4
  else
    verdict, used, spent, tokens = admit(k, a)
    k = k + 5
    a = a + 8
  end
  out[i * 4 + 1] = verdict
  out[i * 4 + 2] = used
  out[i * 4 + 3] = spent
  out[i * 4 + 4] = tokens
  i = i + 1
end
return out
`;

// Counts a gateway admitted on its own while Redis did not answer, added to the shared counters once
// it answers again. A counter Redis lost (a restart without persistence) starts from what the gateway
// last saw of it. KEYS: the counter, the dirty set of balances ('' for a quota counter); ARGV: the
// seed, the count to add, the counter's lifetime in seconds (0: none) and the balance key.
const REPLAY = `
if tonumber(ARGV[3]) > 0 then redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[3]) else redis.call('SET', KEYS[1], ARGV[1], 'NX') end
local total = redis.call('INCRBY', KEYS[1], ARGV[2])
if ARGV[4] ~= '' then redis.call('SADD', KEYS[2], ARGV[4]) end
return total
`;

// The gateways on this Redis: each says it is alive every second (by Redis's clock); the count of
// those heard from within GATEWAY_STALE_MS is what each divides the limits by during an outage.
const ROSTER = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return redis.call('ZCARD', KEYS[1])
`;

// After a flush wrote the totals it read: a balance leaves the dirty set only when its counter still
// holds what was written (a spend in between keeps it there for the next flush). ARGV: the counters'
// prefix, then balance key and the value written ('' for a counter that was gone), pair by pair.
const CLEAN = `
for i = 2, #ARGV, 2 do
  local v = redis.call('GET', ARGV[1] .. ARGV[i])
  if (v == false and ARGV[i + 1] == '') or v == ARGV[i + 1] then redis.call('SREM', KEYS[1], ARGV[i]) end
end
return 0
`;

// 4: admitted, paid from the pay-as-you-go balance.
const VERDICTS: Verdict[] = ['ok', 'rate_limited', 'over_quota', 'banned', 'ok'];

/**
 * ADMIT is sent by its SHA1 (EVALSHA), loaded at start and again after a NOSCRIPT (a restarted Redis).
 * ioredis's own script commands send the whole script (EVAL) in every auto-pipelined batch, since it
 * remembers a script as loaded per socket and a pipeline writes through an object of its own: 4 KB
 * to write, and for Redis to hash, per call.
 */
const ADMIT_SHA = crypto.createHash('sha1').update(ADMIT).digest('hex');
type CleanCommand = (dirty: string, ...args: string[]) => Promise<number>;
type ReplayCommand = (counter: string, dirty: string, seed: number, add: number, ttlSeconds: number, member: string) => Promise<number>;
type RosterCommand = (roster: string, instance: string, staleMs: number) => Promise<number>;
type Commands = { cairnClean: CleanCommand; cairnReplay: ReplayCommand; cairnRoster: RosterCommand };

/** Requests admitted by one script call at most. */
const ADMIT_BATCH = 256;
/** Longest a request waits on a Redis that answers nothing; past it the gateway checks requests against its own share. */
export const REDIS_COMMAND_TIMEOUT_MS = 100;
/** How often a gateway tells Redis it is alive, and after how long without a word it no longer counts. */
const ROSTER_MS = 1_000;
const GATEWAY_STALE_MS = 5_000;
/** While Redis is down: how often the gateway reconnects and asks whether it answers again. */
const RECONNECT_MS = 100;
/** Longest a request waits for its answer while Redis keeps answering the commands ahead of it. */
const ABANDON_MS = 1_000;

class RedisTimeout extends Error {
  constructor(ms: number) {
    super(`no answer for ${ms} ms`);
  }
}
const QUOTA_TTL_SECONDS = 2 * 86_400;
/** Shared counts and buckets remembered for an outage before they are forgotten and seen again. */
const SEEN_KEPT = 200_000;
/**
 * A request is admitted at once, its take sent to Redis in the gateway's next call rather than waited
 * for, while this gateway's requests not yet answered stay within its share (1/n, n the gateways it
 * last saw, at least 2) of what its last answer for the project's bucket showed above (1 − 1/n) of
 * the burst, and of what the answer for the owner's daily quota showed left above a margin of 1 % of
 * the limit and at least AT_ONCE_QUOTA_MIN requests. With every gateway's view as fresh as its last
 * answer, their requests admitted at once together never exceed what is left; only the other
 * gateways' takes since that answer can make a view too high, and the next answer corrects it. Every
 * refusal, and every request near a limit, is Redis's decision.
 */
const AT_ONCE_QUOTA_SHARE = 0.01;
const AT_ONCE_QUOTA_MIN = 1_000;

export type RedisState = 'operational' | 'down';

export interface RedisLimiterOptions {
  logger?: Logger;
  /** Told whenever Redis stops or starts answering this gateway (the status page's component). */
  onState?: (state: RedisState, since: number) => void;
  commandTimeoutMs?: number;
  now?: () => number;
}

interface WaitingAdmit {
  r: AdmitRequest;
  resolve: (verdict: Verdict) => void;
  /** Admitted at once: Redis records the take and answers the counts; nobody waits for it. */
  take: boolean;
}

/**
 * A bucket or a daily quota as this gateway last heard it from Redis, and its requests that Redis
 * has not yet answered: what it admits at once against, and where its share starts should Redis stop.
 */
interface View {
  /** A bucket's whole tokens, or a quota counter's requests counted today (NaN: not heard yet). */
  count: number;
  /** When the count was heard (this gateway's clock). */
  at: number;
  pending: number;
  /** For a quota: the UTC day of the counter. */
  day: number;
}

const admittedAtOnce = (): void => undefined;

/** What this gateway admitted on its own during an outage, per shared counter, until Redis has it. */
interface Replay {
  /** The count this gateway last saw in Redis: the counter's value if Redis lost it. */
  seed: number;
  add: number;
  ttlSeconds: number;
  /** For a balance: its key, added to the dirty set so a flush writes the total. */
  balanceKey: string;
  /** For a quota: its view's key and day, which learn the counter's total once replayed. */
  quota?: { key: string; day: number };
}

/**
 * Limits shared by every gateway process on one Redis. A pay-as-you-go balance's spent counter lives
 * in Redis (seeded from the database's figure); the Lua script that admits a request paid from it
 * also adds the balance to a dirty set, and every gateway's flush writes the totals of the dirty
 * balances to the database, never lowering what it holds. So nothing a gateway spent is lost when it
 * is killed: the counter is in Redis and the next flush of any gateway writes it.
 *
 * Redis may stop answering. No request waits on a silent Redis longer than REDIS_COMMAND_TIMEOUT_MS
 * (no offline queue, no retries): when it is unreachable, or answers nothing for that long, the circuit opens and
 * the gateway checks each request in memory against its own share of every limit: rate, burst and
 * what is left of the daily quota and of a balance, divided by the number of gateways it last saw
 * alive in Redis. It reconnects every RECONNECT_MS; once Redis answers, what it admitted alone is
 * added to the shared counters and the shared limits apply again.
 */
export class RedisLimiter implements Limiter {
  readonly kind = 'redis';
  private readonly redis: Redis;
  private readonly commands: Commands;
  private readonly instance = crypto.randomUUID();
  private readonly logger: Logger | undefined;
  private readonly onState: RedisLimiterOptions['onState'];
  private readonly now: () => number;
  private state: RedisState = 'operational';
  private downSince = 0;
  private lastError = '';
  private lastAnswerAt = 0;
  private readonly timeoutMs: number;
  /** Gateways alive on this Redis when last asked, this one included. */
  private gateways = 1;
  /** The limits this process applies on its own during an outage (fresh for each outage). */
  private alone: MemoryLimiter;
  /** The balances' spent counters as last seen, by their Redis key: where this gateway's share starts. */
  private readonly seenBalances = new Map<string, number>();
  private readonly replays = new Map<string, Replay>();
  /** By bucket key: its tokens as last heard from Redis. By quota key (the owner): the requests counted today. */
  private readonly bucketViews = new Map<string, View>();
  private readonly quotaViews = new Map<string, View>();
  /** Clients banned (by IP, until when on this clock), as heard from Redis: never admitted at once. */
  private readonly banned = new Map<string, number>();
  /** Hears the bans any gateway sets. */
  private readonly bans: Redis;
  /** Requests waiting for the next script call, and whether one is out. */
  private waiting: WaitingAdmit[] = [];
  private admitting = false;
  private readonly started: Promise<void>;
  private ready = false;
  private rosterTimer: NodeJS.Timeout | undefined;
  private probeTimer: NodeJS.Timeout | undefined;
  private probing = false;
  private closing = false;

  constructor(
    url: string,
    private readonly ban: BanPolicy,
    private readonly prefix = 'cairn:',
    options: RedisLimiterOptions = {},
  ) {
    this.logger = options.logger;
    this.onState = options.onState;
    this.now = options.now ?? Date.now;
    this.timeoutMs = options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
    this.redis = new Redis(url, {
      lazyConnect: false,
      enableAutoPipelining: true,
      // A command fails at once while Redis is unreachable, and after the timeout while it hangs.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      commandTimeout: 2 * ABANDON_MS,
      connectTimeout: 1_000,
      retryStrategy: () => RECONNECT_MS,
    });
    // Without a listener ioredis prints every failed reconnect to stderr; the outage is logged once instead.
    this.redis.on('error', (err: Error) => {
      this.lastError = err.message;
    });
    this.redis.on('close', () => {
      if (this.ready) this.open(this.lastError || 'the connection closed');
    });
    this.redis.defineCommand('cairnClean', { numberOfKeys: 1, lua: CLEAN });
    this.redis.defineCommand('cairnReplay', { numberOfKeys: 2, lua: REPLAY });
    this.redis.defineCommand('cairnRoster', { numberOfKeys: 1, lua: ROSTER });
    this.commands = this.redis as unknown as Commands;
    // A second connection, subscribed to the bans: its own reconnects, quietly, and it resubscribes.
    this.bans = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: null, connectTimeout: 1_000, retryStrategy: () => ROSTER_MS });
    this.bans.on('error', () => undefined);
    const banKey = `${prefix}ban:`;
    this.bans.on('message', (_channel: string, key: string) => {
      if (key.startsWith(banKey)) this.banned.set(key.slice(banKey.length), this.now() + this.ban.seconds * 1000);
    });
    this.bans.subscribe(this.banChannel).catch(() => undefined);
    this.alone = new MemoryLimiter(ban);
    this.started = this.start();
  }

  private get banChannel(): string {
    return `${this.prefix}bans`;
  }

  /** Whether Redis answers this gateway, and since when (epoch ms) it has not. */
  get status(): { state: RedisState; since: number; gateways: number } {
    return { state: this.state, since: this.downSince, gateways: this.gateways };
  }

  /** Resolves once Redis has answered, or once it has not within connectTimeout (then the gateway starts in an outage). */
  whenStarted(): Promise<void> {
    return this.started;
  }

  private async start(): Promise<void> {
    try {
      if (this.redis.status !== 'ready') {
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(() => reject(new Error(this.lastError || 'no connection within 1 s')), 1_500);
          this.redis.once('ready', () => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      // Loaded up front, so the first requests do not each wait for Redis to compile the script.
      await this.redis.script('LOAD', ADMIT);
      await this.heartbeat();
      this.ready = true;
      this.onState?.('operational', this.now());
    } catch (err) {
      this.ready = true;
      this.open((err as Error).message);
    }
    this.rosterTimer = setInterval(() => void this.tick(), ROSTER_MS);
    this.rosterTimer.unref();
  }

  async admit(r: AdmitRequest): Promise<Verdict> {
    if (!this.ready) await this.started;
    if (this.state === 'down' || this.redis.status !== 'ready') {
      this.open(this.lastError || `the connection is ${this.redis.status}`);
      return this.admitAlone(r);
    }
    const bucket = this.view(this.bucketViews, r.bucketKey, 0);
    const quota = this.view(this.quotaViews, r.quotaKey, r.day);
    const atOnce = this.admitsAtOnce(r, bucket, quota);
    // Every request sent counts until its answer: one waiting for Redis may take a token too.
    bucket.pending += 1;
    quota.pending += 1;
    if (atOnce) {
      this.waiting.push({ r, resolve: admittedAtOnce, take: true });
      if (!this.admitting) void this.admitWaiting();
      return 'ok';
    }
    return new Promise<Verdict>((resolve) => {
      this.waiting.push({ r, resolve, take: false });
      if (!this.admitting) void this.admitWaiting();
    });
  }

  /** The view of a bucket or a quota (day 0 for a bucket), made when its first request is sent: nothing heard yet. */
  private view(views: Map<string, View>, key: string, day: number): View {
    let view = views.get(key);
    if (view === undefined) {
      view = { count: Number.NaN, at: 0, pending: 0, day };
      views.set(key, view);
    } else if (view.day !== day) {
      // A new day's counter: nothing heard of it yet, and yesterday's requests are no longer counted.
      view.count = Number.NaN;
      view.pending = 0;
      view.day = day;
    }
    return view;
  }

  /**
   * Whether the request is admitted without waiting for Redis: this gateway's requests not yet
   * answered, this one included, stay within its share of what the last answers showed above the
   * floors (a count not yet heard is NaN: never), and its client is not banned.
   */
  private admitsAtOnce(r: AdmitRequest, bucket: View, quota: View): boolean {
    const n = Math.max(2, this.gateways);
    if (!(bucket.pending + 1 <= bucket.count - r.burst * (1 - 1 / n))) return false;
    const margin = Math.max(AT_ONCE_QUOTA_MIN, r.quotaLimit * AT_ONCE_QUOTA_SHARE);
    if (!(quota.pending + 1 <= (r.quotaLimit - quota.count - margin) / n)) return false;
    const bannedUntil = this.banned.get(r.ip);
    if (bannedUntil === undefined) return true;
    if (bannedUntil > this.now()) return false;
    this.banned.delete(r.ip);
    return true;
  }

  /**
   * Admits the requests waiting, up to ADMIT_BATCH, in one script call, then the next batch if more
   * came meanwhile. One call in flight at a time: when requests come faster than Redis answers, they
   * gather while the last call is out and go in the next, so a busy gateway makes one round trip for
   * many requests rather than one each.
   */
  private async admitWaiting(): Promise<void> {
    this.admitting = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.length <= ADMIT_BATCH ? this.waiting : this.waiting.slice(0, ADMIT_BATCH);
        this.waiting = batch === this.waiting ? [] : this.waiting.slice(ADMIT_BATCH);
        if (this.state === 'down' || this.redis.status !== 'ready') {
          this.open(this.lastError || `the connection is ${this.redis.status}`);
          for (const w of batch) this.settleAlone(w);
          continue;
        }
        await this.admitBatch(batch);
      }
    } finally {
      this.admitting = false;
    }
  }

  private async admitBatch(batch: WaitingAdmit[]): Promise<void> {
    const p = this.prefix;
    const keys: string[] = [`${p}ppu-dirty`];
    const args: Array<string | number> = [this.banChannel, QUOTA_TTL_SECONDS, this.ban.threshold, this.ban.windowSeconds, this.ban.seconds];
    for (const { r, take } of batch) {
      const quotaKey = `${p}quota:${r.quotaKey}:${r.day}`;
      if (take) {
        keys.push(`${p}bucket:${r.bucketKey}`, quotaKey);
        args.push(1, r.rate, r.burst, r.quotaBase);
        continue;
      }
      // The balance's spent counter lives as long as Redis keeps it; the database holds the flushed figure.
      keys.push(`${p}ban:${r.ip}`, `${p}rej:${r.ip}`, `${p}bucket:${r.bucketKey}`, quotaKey, `${p}ppu:${r.balanceKey ?? '-'}`);
      args.push(0, r.rate, r.burst, r.quotaLimit, r.quotaBase, r.balanceKey ? (r.balanceCredited ?? 0) : 0, r.balanceSpentBase ?? 0, r.balanceKey ?? '-');
    }
    let answer: number[];
    try {
      answer = await this.answerWithin(this.runAdmit(keys, args));
    } catch (err) {
      this.open((err as Error).message);
      for (const w of batch) this.settleAlone(w);
      return;
    }
    const at = this.now();
    for (let i = 0; i < batch.length; i++) {
      const { r, resolve } = batch[i]!;
      const code = answer[i * 4]!;
      const used = answer[i * 4 + 1]!;
      const spent = answer[i * 4 + 2]!;
      const tokens = answer[i * 4 + 3]!;
      this.settled(r);
      if (used >= 0) this.heard(this.quotaViews, r.quotaKey, used, r.day, at);
      if (r.balanceKey && spent >= 0) this.seenBalances.set(`${p}ppu:${r.balanceKey}`, spent);
      // A banned request's bucket was not read.
      if (code === 3) this.banned.set(r.ip, at + this.ban.seconds * 1000);
      else this.heard(this.bucketViews, r.bucketKey, tokens, 0, at);
      resolve(VERDICTS[code] ?? 'ok');
    }
  }

  /** The ADMIT script's answer (loading the script first should Redis not know it). */
  private async runAdmit(keys: string[], args: Array<string | number>): Promise<number[]> {
    try {
      return (await this.redis.evalsha(ADMIT_SHA, keys.length, ...keys, ...args)) as number[];
    } catch (err) {
      if (!(err as Error).message.includes('NOSCRIPT')) throw err;
      await this.redis.script('LOAD', ADMIT);
      return (await this.redis.evalsha(ADMIT_SHA, keys.length, ...keys, ...args)) as number[];
    }
  }

  /** Redis's answer for a bucket or a quota: the view from now on, less the requests still unanswered. */
  private heard(views: Map<string, View>, key: string, count: number, day: number, at: number): void {
    const view = views.get(key);
    if (view === undefined || view.day !== day) return;
    view.count = count;
    view.at = at;
  }

  /** Today's requests on the quota counter as last heard from Redis, at least the database's figure. */
  private usedSeen(r: AdmitRequest): number {
    const quota = this.quotaViews.get(r.quotaKey);
    return quota !== undefined && quota.day === r.day && quota.count > r.quotaBase ? quota.count : r.quotaBase;
  }

  /** A request was answered (or will never be): no longer pending in the views. */
  private settled(r: AdmitRequest): void {
    const bucket = this.bucketViews.get(r.bucketKey);
    if (bucket !== undefined && bucket.pending > 0) bucket.pending -= 1;
    const quota = this.quotaViews.get(r.quotaKey);
    if (quota !== undefined && quota.day === r.day && quota.pending > 0) quota.pending -= 1;
  }

  /**
   * A waiting request Redis did not answer: checked against this gateway's own share; a take (already
   * admitted) counted on the quota for Redis once it answers again.
   */
  private settleAlone(w: WaitingAdmit): void {
    this.settled(w.r);
    if (!w.take) return w.resolve(this.admitAlone(w.r));
    this.countAlone(`${this.prefix}quota:${w.r.quotaKey}:${w.r.day}`, this.usedSeen(w.r), QUOTA_TTL_SECONDS, '', { key: w.r.quotaKey, day: w.r.day });
  }

  /**
   * The command's answer, or a RedisTimeout once Redis has answered nothing at all for timeoutMs
   * (it hangs or is gone) or this command nothing for ABANDON_MS. While Redis keeps answering the
   * commands sent before this one, the request waits its turn: a busy gateway, whose answers are
   * only read late, must not take its own lag for a slow Redis. The timer's verdict waits for the
   * end of the event loop's turn (setImmediate), after the answers that came in that turn were read.
   */
  private answerWithin<T>(command: Promise<T>): Promise<T> {
    const sent = this.now();
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let timer: NodeJS.Timeout;
      const check = () =>
        setImmediate(() => {
          if (settled) return;
          const now = this.now();
          const quiet = now - Math.max(this.lastAnswerAt, sent);
          if (quiet < this.timeoutMs && now - sent < ABANDON_MS) {
            timer = setTimeout(check, this.timeoutMs - quiet);
            return;
          }
          settled = true;
          reject(new RedisTimeout(now - sent));
        });
      timer = setTimeout(check, this.timeoutMs);
      command.then(
        (v) => {
          this.lastAnswerAt = this.now();
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(v);
        },
        (err: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(err as Error);
        },
      );
    });
  }

  /** This process's share of each limit, in memory, continuing from the shared counts it last saw. */
  private admitAlone(r: AdmitRequest): Verdict {
    const n = Math.max(1, this.gateways);
    const p = this.prefix;
    const quotaKey = `${p}quota:${r.quotaKey}:${r.day}`;
    const used = this.usedSeen(r);
    const share: AdmitRequest = { ...r, rate: r.rate / n, burst: Math.max(1, r.burst / n), quotaBase: used, quotaLimit: used + Math.max(0, r.quotaLimit - used) / n };
    let balanceKey: string | null = null;
    let spent = 0;
    if (r.balanceKey && r.balanceCredited) {
      balanceKey = `${p}ppu:${r.balanceKey}`;
      spent = Math.max(r.balanceSpentBase ?? 0, this.seenBalances.get(balanceKey) ?? 0);
      share.balanceSpentBase = spent;
      share.balanceCredited = spent + Math.max(0, r.balanceCredited - spent) / n;
    }
    // A share continues from the bucket as last heard rather than from a full one.
    const bucket = this.bucketViews.get(r.bucketKey);
    if (bucket !== undefined && !Number.isNaN(bucket.count)) this.alone.seedBucket(r.bucketKey, bucket.count / n, bucket.at);
    const verdict = this.alone.admitNow(share);
    if (verdict === 'ok') {
      // Paid from the balance or counted on the quota: the counter Redis is given once it is back.
      const paid = this.alone.drainBalanceSpends();
      if (balanceKey && paid.has(r.balanceKey!)) this.countAlone(balanceKey, spent, 0, r.balanceKey!);
      else this.countAlone(quotaKey, used, QUOTA_TTL_SECONDS, '', { key: r.quotaKey, day: r.day });
    }
    return verdict;
  }

  private countAlone(key: string, seed: number, ttlSeconds: number, balanceKey: string, quota?: Replay['quota']): void {
    const replay = this.replays.get(key);
    if (replay) replay.add += 1;
    else this.replays.set(key, { seed, add: 1, ttlSeconds, balanceKey, ...(quota ? { quota } : {}) });
  }

  /** Opens the circuit: logged once per outage, with the number of gateways each limit is divided by. */
  private open(reason: string): void {
    if (this.state === 'down' || this.closing) return;
    this.state = 'down';
    this.downSince = this.now();
    void this.alone.close();
    this.alone = new MemoryLimiter({ ...this.ban, threshold: Math.max(1, Math.ceil(this.ban.threshold / Math.max(1, this.gateways))) });
    this.logger?.warn(
      { redis: { state: 'down', reason, gateways: this.gateways } },
      `redis: not answering (${reason}); until it does, this gateway admits 1/${this.gateways} of each shared limit on its own`,
    );
    this.onState?.('down', this.downSince);
    this.probeTimer = setInterval(() => void this.probe(), RECONNECT_MS);
    this.probeTimer.unref();
  }

  /** While down: once Redis answers, hands it what was admitted alone, then closes the circuit. */
  private async probe(): Promise<void> {
    if (this.probing || this.state !== 'down' || this.closing || this.redis.status !== 'ready') return;
    this.probing = true;
    try {
      await this.answerWithin(this.redis.ping());
      await this.replay();
      // A restarted Redis has heard from no other gateway yet: keep the last count until they say so.
      const before = this.gateways;
      await this.heartbeat();
      this.gateways = Math.max(before, this.gateways);
      const at = this.now();
      const outageMs = at - this.downSince;
      this.state = 'operational';
      clearInterval(this.probeTimer);
      this.probeTimer = undefined;
      this.logger?.info(
        { redis: { state: 'operational', outageMs, gateways: this.gateways } },
        `redis: answering again after an outage of ${(outageMs / 1000).toFixed(1)} s; the gateways share their limits again`,
      );
      this.onState?.('operational', at);
    } catch {
      // Still down: the next probe asks again.
    } finally {
      this.probing = false;
    }
  }

  /**
   * Adds the counts admitted alone to the shared counters (a counter Redis lost starts from what was
   * last seen of it), and takes each counter's total as seen: a later outage's share starts from
   * it, not from a count seen before this one's requests (which would admit them a second time).
   */
  private async replay(): Promise<void> {
    const p = this.prefix;
    await Promise.all(
      [...this.replays].map(async ([key, r]) => {
        const add = r.add;
        const total = Number(await this.commands.cairnReplay(key, r.balanceKey ? `${p}ppu-dirty` : key, r.seed, add, r.ttlSeconds, r.balanceKey));
        r.add -= add;
        r.seed += add;
        if (r.add === 0) this.replays.delete(key);
        if (r.balanceKey) this.seenBalances.set(key, Math.max(this.seenBalances.get(key) ?? 0, total));
        else if (r.quota) this.heard(this.quotaViews, r.quota.key, total, r.quota.day, this.now());
      }),
    );
  }

  private async heartbeat(): Promise<void> {
    this.gateways = Math.max(1, await this.answerWithin(this.commands.cairnRoster(`${this.prefix}gateways`, this.instance, GATEWAY_STALE_MS)));
  }

  private async tick(): Promise<void> {
    // What was seen of idle counters and buckets carries no information worth its memory: a view with
    // no request unanswered is forgotten, and the next request of its bucket or quota asks Redis again.
    if (this.seenBalances.size > SEEN_KEPT) this.seenBalances.clear();
    for (const views of [this.bucketViews, this.quotaViews]) {
      if (views.size > SEEN_KEPT) for (const [k, v] of views) if (v.pending === 0) views.delete(k);
    }
    const now = this.now();
    for (const [ip, until] of this.banned) if (until <= now) this.banned.delete(ip);
    if (this.state !== 'operational' || this.closing || this.redis.status !== 'ready') return;
    try {
      await this.heartbeat();
      // Requests checked alone after a slow answer, while the circuit stayed closed.
      if (this.replays.size > 0) await this.replay();
    } catch {
      // A failing request opens the circuit; the heartbeat only keeps the count of gateways.
    }
  }

  async flushBalanceSpends(store: BalanceStore): Promise<void> {
    // During an outage the totals are in Redis (as last written) and in the counts to replay: nothing new to write.
    if (this.state === 'down') return;
    const p = this.prefix;
    const keys = await this.redis.smembers(`${p}ppu-dirty`);
    if (keys.length === 0) return;
    const values = await this.redis.mget(keys.map((k) => `${p}ppu:${k}`));
    const totals = new Map<string, number>();
    keys.forEach((k, i) => {
      const v = values[i];
      if (v !== null && v !== undefined) totals.set(k, Number(v));
    });
    await store.raiseSpent(totals);
    await this.commands.cairnClean(`${p}ppu-dirty`, `${p}ppu:`, ...keys.flatMap((k, i) => [k, values[i] ?? '']));
  }

  async close(): Promise<void> {
    await this.started;
    this.closing = true;
    clearInterval(this.rosterTimer);
    clearInterval(this.probeTimer);
    this.bans.disconnect();
    await this.alone.close();
    // The takes admitted at once that are not yet in Redis go in its last calls (or are counted for a replay).
    for (let waited = 0; (this.admitting || this.waiting.length > 0) && waited < 2 * ABANDON_MS; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    if (this.redis.status === 'ready') {
      // Counts admitted alone that Redis has not yet been given, then this gateway leaves the roster.
      await this.replay().catch(() => undefined);
      await this.redis.zrem(`${this.prefix}gateways`, this.instance).catch(() => undefined);
      await this.redis.quit().catch(() => undefined);
    } else this.redis.disconnect();
  }
}
