/** What the gateway records when the client's IP has no known country. */
export const UNKNOWN_COUNTRY = 'unknown';

const ALPHA2 = /^[A-Z]{2}$/;
const REGIONAL_INDICATOR_A = 0x1f1e6;

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  } catch {
    return null;
  }
})();

const normalise = (code: string) => code.trim().toUpperCase();

/** True for a two-letter country code (the flag and the map know it), false for 'unknown' and anything else. */
export const isCountryCode = (code: string): boolean => ALPHA2.test(normalise(code));

/** The flag emoji of an ISO 3166-1 alpha-2 code (two regional indicator symbols), null when it has none. */
export function flagEmoji(code: string): string | null {
  const upper = normalise(code);
  if (!ALPHA2.test(upper)) return null;
  return String.fromCodePoint(...[...upper].map((c) => REGIONAL_INDICATOR_A + c.charCodeAt(0) - 65));
}

/** The English name of a country code ('DE' → 'Germany'); the code itself when the browser does not know it. */
export function countryName(code: string): string {
  if (code.toLowerCase() === UNKNOWN_COUNTRY) return 'Unknown';
  const upper = normalise(code);
  if (!ALPHA2.test(upper)) return code;
  try {
    return regionNames?.of(upper) ?? upper;
  } catch {
    return upper;
  }
}
