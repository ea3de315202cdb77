import { describe, expect, it } from 'vitest';
import { formatEur } from '../../../shared/pricing';
import { plans, yearlySavings } from '../../../shared/plans';

describe('prices in EUR', () => {
  it('formats euro cents, with the yearly savings of spec section 9', () => {
    expect(formatEur(2900)).toBe('€29');
    expect(formatEur(1950)).toBe('€19.50');
    expect(yearlySavings(plans.HOBBY)).toBe(4900);
    expect(yearlySavings(plans.DEVELOPER)).toBe(14900);
    expect(formatEur(yearlySavings(plans.DEVELOPER)!)).toBe('€149');
  });
  it('falls back to a plain amount when currency formatting fails', () => {
    // An invalid locale tag makes Intl throw a RangeError.
    expect(formatEur(2900, 'not a locale!')).toBe('29 EUR');
    expect(formatEur(1950, 'not a locale!')).toBe('19.50 EUR');
  });
});
