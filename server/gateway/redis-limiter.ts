import { Redis } from 'ioredis';
import { BalanceSpends, type AdmitRequest, type BanPolicy, type Limiter, type Verdict } from './limiter';

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

// 4: admitted, paid from the pay-as-you-go balance.
const VERDICTS: Verdict[] = ['ok', 'rate_limited', 'over_quota', 'banned', 'ok'];

type AdmitCommand = (k1: string, k2: string, k3: string, k4: string, k5: string, ...args: Array<string | number>) => Promise<number>;

/** Limits shared by every gateway process on one Redis. */
export class RedisLimiter implements Limiter {
  readonly kind = 'redis';
  private readonly redis: Redis;
  private readonly spends = new BalanceSpends();

  constructor(
    url: string,
    private readonly ban: BanPolicy,
    private readonly prefix = 'cairn:',
  ) {
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, enableAutoPipelining: true });
    this.redis.defineCommand('cairnAdmit', { numberOfKeys: 5, lua: ADMIT });
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
    );
    if (code === 4) this.spends.add(r.balanceKey!);
    return VERDICTS[code] ?? 'ok';
  }

  drainBalanceSpends(): Map<string, number> {
    return this.spends.drain();
  }

  requeueBalanceSpends(key: string, n: number): void {
    this.spends.add(key, n);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
