import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLimiter, type AdmitRequest } from '../../../../server/gateway/limiter';

let t = 1_000_000;
const limiters: MemoryLimiter[] = [];
const make = (threshold = 1000) => {
  const l = new MemoryLimiter({ threshold, windowSeconds: 60, seconds: 600 }, () => t);
  limiters.push(l);
  return l;
};
afterEach(async () => {
  for (const l of limiters.splice(0)) await l.close();
});

const req = (over: Partial<AdmitRequest> = {}): AdmitRequest => ({
  ip: '127.0.0.1',
  bucketKey: 'k',
  rate: 10,
  burst: 500,
  quotaKey: 'owner',
  day: 1,
  quotaLimit: 1_000_000,
  quotaBase: 0,
  ...over,
});

const drain = (l: MemoryLimiter, n: number, r = req()) => Array.from({ length: n }, () => l.admitNow(r));

describe('token bucket (10 per second, burst 500)', () => {
  it('admits a full burst of 500, then refuses', () => {
    const l = make();
    expect(drain(l, 500).every((v) => v === 'ok')).toBe(true);
    expect(l.admitNow(req())).toBe('rate_limited');
  });

  it('lets 30 requests through 3 s after emptying it', () => {
    const l = make();
    drain(l, 501);
    t += 3000;
    const verdicts = drain(l, 40);
    expect(verdicts.filter((v) => v === 'ok')).toHaveLength(30);
  });

  it('is full again after 50 s, and never above the burst', () => {
    const l = make();
    drain(l, 500);
    t += 3_600_000;
    expect(drain(l, 501).filter((v) => v === 'ok')).toHaveLength(500);
  });

  it('keeps projects apart', () => {
    const l = make();
    drain(l, 500, req({ bucketKey: 'a' }));
    expect(l.admitNow(req({ bucketKey: 'b' }))).toBe('ok');
  });
});

describe('daily quota', () => {
  it('starts from what was already used today and never overshoots', () => {
    const l = make();
    const r = req({ quotaLimit: 100, quotaBase: 95, burst: 1000 });
    const verdicts = drain(l, 10, r);
    expect(verdicts.filter((v) => v === 'ok')).toHaveLength(5);
    expect(verdicts.slice(5).every((v) => v === 'over_quota')).toBe(true);
  });

  it('resets on the next UTC day', () => {
    const l = make();
    drain(l, 3, req({ quotaLimit: 2 }));
    expect(l.admitNow(req({ quotaLimit: 2 }))).toBe('over_quota');
    expect(l.admitNow(req({ quotaLimit: 2, day: 2 }))).toBe('ok');
  });

  it('does not spend a token on a request refused for quota', () => {
    const l = make();
    drain(l, 5, req({ quotaLimit: 0, burst: 5 }));
    expect(l.admitNow(req({ quotaLimit: 10, quotaKey: 'other', burst: 5 }))).toBe('ok');
  });
});

describe('flood ban', () => {
  it('bans an IP after too many refusals, for that IP only, for a while', () => {
    const l = make(10);
    drain(l, 500);
    const v = drain(l, 10);
    expect(v.every((x) => x === 'rate_limited')).toBe(true);
    expect(l.admitNow(req({ bucketKey: 'fresh' }))).toBe('banned');
    expect(l.admitNow(req({ bucketKey: 'fresh', ip: '127.0.0.2' }))).toBe('ok');
    t += 601_000;
    expect(l.admitNow(req({ bucketKey: 'fresh2' }))).toBe('ok');
  });
});
