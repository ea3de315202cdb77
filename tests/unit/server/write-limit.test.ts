import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../../server/http/write-limit';

describe('TokenBuckets', () => {
  it('lets a burst through, then one per refill interval, per key, and says how long to wait', () => {
    let now = 1_000_000;
    const b = new TokenBuckets(3, 60, () => now);
    expect([b.take('u1'), b.take('u1'), b.take('u1')]).toEqual([0, 0, 0]);
    expect(b.take('u1')).toBe(1000);
    expect(b.take('u2')).toBe(0);
    now += 400;
    expect(b.take('u1')).toBe(600);
    now += 600;
    expect(b.take('u1')).toBe(0);
    expect(b.take('u1')).toBe(1000);
    // A long pause refills to the burst, never past it.
    now += 3_600_000;
    expect([b.take('u1'), b.take('u1'), b.take('u1'), b.take('u1')]).toEqual([0, 0, 0, 1000]);
  });
});
