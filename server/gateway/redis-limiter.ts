import { Redis } from 'ioredis';
import type { AdmitRequest, BalanceStore, BanPolicy, Limiter, Verdict } from './limiter';

// One atomic round trip per request: ban check, token-bucket refill and take, daily quota check and
// increment, and the flood counter. Redis's own clock (TIME) keeps every gateway process in step.
const ADMIT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 3 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[3], 'tokens', 'at')
local tokens = tonumber(b[1])
local at = tonumber(b[2])
if tokens == nil or at == nil then tokens = burst at = now end
if now > at then tokens = math.min(burst, tokens + (now - at) * rate / 1000) else now = at end
local verdict = 0
if tokens < 1 then
  verdict = 1
else
  redis.call('SET', KEYS[4], ARGV[4], 'NX', 'EX', ARGV[8])
  local used = tonumber(redis.call('GET', KEYS[4]))
  if used + 1 > tonumber(ARGV[3]) then
    verdict = 2
    -- Past the daily quota: the workspace's pay-as-you-go balance pays, never below zero.
    local credited = tonumber(ARGV[9])
    if credited > 0 then
      redis.call('SET', KEYS[5], ARGV[10], 'NX')
      local spent = tonumber(redis.call('GET', KEYS[5]))
      if spent + 1 <= credited then
        redis.call('INCR', KEYS[5])
        -- Marked for the database: any gateway's next flush writes this balance's total.
        redis.call('SADD', KEYS[6], ARGV[11])
        tokens = tokens - 1
        verdict = 4
      end
    end
  else
    redis.call('INCR', KEYS[4])
    tokens = tokens - 1
  end
end
redis.call('HSET', KEYS[3], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[3], math.ceil(burst / rate * 1000) + 60000)
if verdict > 0 and verdict < 4 then
  local n = redis.call('INCR', KEYS[2])
  if n == 1 then redis.call('EXPIRE', KEYS[2], ARGV[6]) end
  if n >= tonumber(ARGV[5]) then
    redis.call('SET', KEYS[1], '1', 'EX', ARGV[7])
    redis.call('DEL', KEYS[2])
  end
end
return verdict
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

type AdmitCommand = (k1: string, k2: string, k3: string, k4: string, k5: string, k6: string, ...args: Array<string | number>) => Promise<number>;
type CleanCommand = (dirty: string, ...args: string[]) => Promise<number>;

/**
 * Limits shared by every gateway process on one Redis. A pay-as-you-go balance's spent counter lives
 * in Redis (seeded from the database's figure); the Lua script that admits a request paid from it
 * also adds the balance to a dirty set, and every gateway's flush writes the totals of the dirty
 * balances to the database, never lowering what it holds. So nothing a gateway spent is lost when it
 * is killed: the counter is in Redis and the next flush of any gateway writes it.
 */
export class RedisLimiter implements Limiter {
  readonly kind = 'redis';
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly ban: BanPolicy,
    private readonly prefix = 'cairn:',
  ) {
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableAutoPipelining: true });
    this.redis.defineCommand('cairnAdmit', { numberOfKeys: 6, lua: ADMIT });
    this.redis.defineCommand('cairnClean', { numberOfKeys: 1, lua: CLEAN });
  }

  async admit(r: AdmitRequest): Promise<Verdict> {
    const p = this.prefix;
    const code = await (this.redis as unknown as { cairnAdmit: AdmitCommand }).cairnAdmit(
      `${p}ban:${r.ip}`,
      `${p}rej:${r.ip}`,
      `${p}bucket:${r.bucketKey}`,
      `${p}quota:${r.quotaKey}:${r.day}`,
      // The balance's spent counter lives as long as Redis keeps it; the database holds the flushed figure.
      `${p}ppu:${r.balanceKey ?? '-'}`,
      `${p}ppu-dirty`,
      r.rate,
      r.burst,
      r.quotaLimit,
      r.quotaBase,
      this.ban.threshold,
      this.ban.windowSeconds,
      this.ban.seconds,
      2 * 86_400,
      r.balanceKey ? (r.balanceCredited ?? 0) : 0,
      r.balanceSpentBase ?? 0,
      r.balanceKey ?? '-',
    );
    return VERDICTS[code] ?? 'ok';
  }

  async flushBalanceSpends(store: BalanceStore): Promise<void> {
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
    await (this.redis as unknown as { cairnClean: CleanCommand }).cairnClean(`${p}ppu-dirty`, `${p}ppu:`, ...keys.flatMap((k, i) => [k, values[i] ?? '']));
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
