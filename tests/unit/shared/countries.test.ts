import { describe, expect, it } from 'vitest';
import { countries, countryOptions } from '../../../shared/countries';

describe('country list', () => {
  it('names every country in the given language and sorts by that name', () => {
    const en = countryOptions('en');
    expect(en).toHaveLength(countries.length);
    const labels = en.map((o) => o.label);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(en[0]?.value).toBe('AF');
    // Åland sorts with the A's in English, not after Z or at the head of the list.
    const aland = labels.findIndex((l) => l.includes('land Islands'));
    expect(labels[aland - 1]! < 'B' && labels[aland + 1]! < 'B').toBe(true);

    const de = countryOptions('de');
    expect(de.find((o) => o.value === 'DE')?.label).toBe('Deutschland');
    const deLabels = de.map((o) => o.label);
    expect(deLabels).toEqual([...deLabels].sort((a, b) => a.localeCompare(b, 'de', { sensitivity: 'base' })));
    // Germany sorts under D in German (Deutschland), under G in English.
    expect(deLabels.indexOf('Deutschland')).toBeLessThan(deLabels.indexOf('Frankreich'));
    expect(labels.indexOf('Germany')).toBeGreaterThan(labels.indexOf('France'));
  });

  it('falls back to English for a language the runtime does not know', () => {
    const opts = countryOptions('xx-unknown');
    expect(opts).toHaveLength(countries.length);
    expect(opts.find((o) => o.value === 'DE')?.label).toBe('Germany');
  });
});
