import { isPrivateIp, PRIVATE_NETWORK_LABEL } from '../../../../../shared/ip';
import type { ProjectStats } from '../../../../../shared/usage';

/** What the gateway records when the client's IP has no known country. */
const UNKNOWN_COUNTRY = 'unknown';
/** The row the dashboard makes of the 'unknown' requests that came from private or loopback addresses. */
export const PRIVATE_NETWORK = 'private';

/**
 * Geolocation cannot place a private or loopback address, so the gateway counts those requests under
 * 'unknown'. Shows that part as 'Private network': the server's count when it sends one, else what the
 * IP rows show (their top 10 only). What remains stays 'Unknown'; the rows are sorted again.
 */
export function withPrivateNetwork(stats: ProjectStats): ProjectStats {
  const unknown = stats.countries.find((c) => c.user_country.toLowerCase() === UNKNOWN_COUNTRY);
  if (!unknown) return stats;
  const fromIps = stats.ips.reduce((sum, r) => (isPrivateIp(r.ip) ? sum + r.requests : sum), 0);
  const privateRequests = Math.min(unknown.requests, Math.max(stats.privateNetworkRequests ?? 0, fromIps));
  if (privateRequests <= 0) return stats;
  const rest = unknown.requests - privateRequests;
  const countries = [
    ...stats.countries.filter((c) => c !== unknown),
    { user_country: PRIVATE_NETWORK, requests: privateRequests },
    ...(rest > 0 ? [{ user_country: UNKNOWN_COUNTRY, requests: rest }] : []),
  ].sort((a, b) => b.requests - a.requests);
  return { ...stats, countries };
}

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
  if (code === PRIVATE_NETWORK) return PRIVATE_NETWORK_LABEL;
  const upper = normalise(code);
  if (!ALPHA2.test(upper)) return code;
  try {
    return regionNames?.of(upper) ?? upper;
  } catch {
    return upper;
  }
}
