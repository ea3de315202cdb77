import { describe, expect, it } from 'vitest';
import { FALLBACK_ADA_EUR_RATE, FALLBACK_PRICE_PER_REQUEST_EUR, MAX_ORDER_REQUESTS, MIN_ORDER_LOVELACE, lovelaceFor, minOrderRequests, orderQuantityError } from '../../../shared/ppu';

const fallback = { requests: { price_per_unit_eur: FALLBACK_PRICE_PER_REQUEST_EUR }, ada_eur_rate: FALLBACK_ADA_EUR_RATE };

describe('order quantity', () => {
  it('finds the fewest requests that come to a Cardano payment minimum', () => {
    const min = minOrderRequests(fallback);
    expect(lovelaceFor(min, FALLBACK_PRICE_PER_REQUEST_EUR, FALLBACK_ADA_EUR_RATE) >= BigInt(MIN_ORDER_LOVELACE)).toBe(true);
    expect(lovelaceFor(min - 1, FALLBACK_PRICE_PER_REQUEST_EUR, FALLBACK_ADA_EUR_RATE) < BigInt(MIN_ORDER_LOVELACE)).toBe(true);
    // 0.0000044839 ADA a request: about 223,021 requests make 1 ADA.
    expect(min).toBeGreaterThan(220_000);
    expect(min).toBeLessThan(225_000);
  });

  it('says what is wrong with a quantity out of range, in words for beside the field', () => {
    const min = minOrderRequests(fallback);
    expect(orderQuantityError(1_000_000, fallback)).toBeNull();
    expect(orderQuantityError(min, fallback)).toBeNull();
    expect(orderQuantityError(MAX_ORDER_REQUESTS, fallback)).toBeNull();
    expect(orderQuantityError(100_000, fallback)).toBe(`Order at least ${min.toLocaleString('en-US')} requests: an order must come to at least 1 ADA (a Cardano payment's minimum) at the current price.`);
    expect(orderQuantityError(MAX_ORDER_REQUESTS + 1, fallback)).toBe('One order buys at most 1,000,000,000 requests.');
    expect(orderQuantityError('', fallback)).toMatch(/^Enter the number of requests to buy, from [\d,]+ to 1,000,000,000\.$/);
    expect(orderQuantityError(1.5, fallback)).toMatch(/^Enter a whole number of requests/);
    expect(orderQuantityError(0, fallback)).toMatch(/^Order at least/);
  });
});
