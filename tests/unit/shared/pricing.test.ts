import { describe, expect, it } from 'vitest';
import { formatEur, smallSizeText, storageText } from '../../../shared/pricing';
import { mbText } from '../../../shared/ipfs';
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

describe('sizes below 1 MB', () => {
  it('read in KB or bytes, never 0 MB, and from 1 MB on in MB', () => {
    expect([mbText(0), mbText(1), mbText(12), mbText(4_200), mbText(500_000), mbText(999_999), mbText(1_000_000), mbText(12_345_678)]).toEqual([
      '0 MB', '1 byte', '12 bytes', '4.2 KB', '500 KB', '1,000 KB', '1 MB', '12.35 MB',
    ]);
    expect([storageText(0), storageText(25), storageText(2_000_000), storageText(100_000_000)]).toEqual(['0 MB', '25 bytes', '2 MB', '100 MB']);
    expect(smallSizeText(Number.NaN)).toBeNull();
  });
});
