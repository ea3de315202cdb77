import { monthlyRequests, storageInMb, type Plan } from './plans';

// Pay-as-you-go display constants (spec section 9): the request price used when no live quote is at
// hand, shown per 100,000 requests.
export const PAYG_FALLBACK_EUR_PER_REQUEST = 0.0000024;
export const PAYG_FALLBACK_ADA_PER_REQUEST = 0.0000044839;
const PAYG_DISPLAY_UNIT = 100_000;

/** The five pay-as-you-go features of spec section 2, in its order. */
export const paygFeatures = [
  'No commitment',
  'Usage-based pricing',
  'Resources never expire',
  'Full feature access',
  'Pay with ADA',
] as const;

/** Price of PAYG_DISPLAY_UNIT requests, rounded to whole micro-units so 0.0000024 × 100,000 reads 0.24. */
export const pricePerDisplayUnit = (perRequest: number): number => Math.round(perRequest * PAYG_DISPLAY_UNIT * 1e6) / 1e6;

/**
 * Euro amount for display, from cents. Intl gives "€29"; where currency formatting is unavailable or
 * refuses the locale (spec section 8) it falls back to a plain "29 EUR".
 */
export function formatEur(cents: number, locale: string | undefined = 'en-US'): string {
  const amount = cents / 100;
  const fractionDigits = Number.isInteger(amount) ? 0 : 2;
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: 'EUR',
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    }).format(amount);
  } catch {
    return `${amount.toFixed(fractionDigits)} EUR`;
  }
}

/** A small euro amount (a request price), with as many decimals as it needs, up to six. */
export function formatEurAmount(amount: number, locale: string | undefined = 'en-US'): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR', minimumFractionDigits: 2, maximumFractionDigits: 6 }).format(amount);
  } catch {
    return `${amount} EUR`;
  }
}

export const formatCount = (n: number): string => n.toLocaleString('en-US');

/** "1,500,000": monthly requests are 30 × the daily limit (spec section 9). */
export const monthlyRequestsText = (plan: Plan): string => formatCount(monthlyRequests(plan));

/**
 * A size below 1 MB, where MB would read '0 MB' for what counts: bytes, or KB (1 KB = 1,000 bytes).
 * Null for nothing and from 1 MB on, which are shown in MB.
 */
export function smallSizeText(bytes: number): string | null {
  if (!(bytes > 0) || bytes >= 1_000_000) return null;
  if (bytes < 1000) return `${Math.round(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const kb = bytes / 1000;
  return `${kb.toLocaleString('en-US', { maximumFractionDigits: kb < 100 ? 2 : 0 })} KB`;
}

/** "100 MB": storage in MB is bytes / 1,000,000 (spec section 9); below 1 MB in KB or bytes (smallSizeText). */
export const storageText = (bytes: number): string => smallSizeText(bytes) ?? `${formatCount(storageInMb(bytes))} MB`;
