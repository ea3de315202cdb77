import { z } from 'zod';

// Pay as you go (spec sections 2, 3, 7, 9): requests bought with ADA, a balance that never expires.
// The rules shared by the server and the screens.

/** Spec section 9: the fallback prices when no price and no rate are configured. */
export const FALLBACK_PRICE_PER_REQUEST_EUR = 0.0000024;
const FALLBACK_ADA_PER_REQUEST = 0.0000044839;
/** The ADA/EUR rate the two fallbacks imply (EUR per ADA). */
export const FALLBACK_ADA_EUR_RATE = FALLBACK_PRICE_PER_REQUEST_EUR / FALLBACK_ADA_PER_REQUEST;

/** Prices show per 100k requests. */
export const PRICE_DISPLAY_UNIT = 100_000;
/** One order buys at most this many requests (a bound against absurd quantities). */
export const MAX_ORDER_REQUESTS = 1_000_000_000;
/** A Cardano output must hold about 1 ADA, so an order asks for at least this much. */
export const MIN_ORDER_LOVELACE = 1_000_000;
/** Below this many requests the dashboard shows the low-balance banner. */
export const LOW_BALANCE_REQUESTS = 100_000;
/** Order quantities the order page offers. */
export const ORDER_PRESETS = [1_000_000, 5_000_000, 10_000_000, 50_000_000] as const;

const ppuItemSchema = z.object({
  item_type: z.literal('requests', { error: 'item_type must be requests' }),
  item_quantity: z
    .number({ error: 'item_quantity must be a number' })
    .int('item_quantity must be a whole number')
    .positive('item_quantity must be a positive whole number')
    .max(MAX_ORDER_REQUESTS, `item_quantity must be at most ${MAX_ORDER_REQUESTS.toLocaleString('en-US')}`),
});
export const ppuQuoteSchema = z.object({ items: z.array(ppuItemSchema).length(1, 'items must hold exactly one item') });
export const ppuOrderSchema = ppuQuoteSchema;

export interface PpuPricing {
  requests: { price_per_unit_eur: number };
  /** EUR per ADA. */
  ada_eur_rate: number;
  /**
   * Where the ADA/EUR rate comes from: 'rate_source' (PPU_RATE_URL answered, now or within its maximum
   * age), 'configuration' (PPU_ADA_EUR_RATE or PPU_PRICE_PER_REQUEST_EUR) or 'fallback' (the spec's prices).
   */
  source: PpuRateOrigin;
  /** The rate source's host (never its full URL, which may carry a key); null when it is not the source. */
  rate_source: string | null;
  /** When the rate source's reading was taken (ms); null for configured or fallback values. */
  rate_at: number | null;
  /** How old that reading was when this answer was made, in whole seconds; null for configured or fallback values. */
  rate_age_seconds: number | null;
}

type PpuRateOrigin = 'rate_source' | 'configuration' | 'fallback';

/** 'rate as of 3 minutes ago' for a reading `ageMs` old. */
export function rateAgeText(ageMs: number): string {
  const minutes = Math.floor(Math.max(0, ageMs) / 60_000);
  if (minutes < 1) return 'rate as of less than a minute ago';
  if (minutes < 120) return `rate as of ${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.floor(minutes / 60);
  return `rate as of ${hours} hours ago`;
}

export interface PpuQuoteDto {
  pricing: PpuPricing;
  items: Array<{ item_type: 'requests'; item_quantity: number }>;
  total_eur: number;
  /** Lovelace as a decimal string (exact). */
  total_lovelace: string;
}

export type PpuOrderStatus = 'awaiting_payment' | 'confirming' | 'paid' | 'underpaid' | 'expired';
export const ppuOrderStatusLabels: Record<PpuOrderStatus, string> = {
  awaiting_payment: 'Awaiting payment',
  confirming: 'Confirming',
  paid: 'Paid',
  underpaid: 'Underpaid',
  expired: 'Expired',
};
export const isOpenOrder = (s: PpuOrderStatus) => s === 'awaiting_payment' || s === 'confirming';

export interface PpuOrderDto {
  id: number;
  workspaceId: number;
  workspaceName: string;
  network: string;
  address: string;
  requests: number;
  pricePerUnitEur: number;
  adaEurRate: number;
  totalEur: number;
  lovelace: string;
  status: PpuOrderStatus;
  createdAt: number;
  expiresAt: number;
  /** Lovelace received at the address so far. */
  receivedLovelace: string;
  creditedRequests: number;
  txHashes: string[];
  confirmations: number;
  requiredConfirmations: number;
  paidAt: number | null;
  /** 'Simulate payment' is offered (development, sandbox chain). */
  canSimulate: boolean;
}

/** Lovelace for `requests` at a price (EUR per request) and a rate (EUR per ADA), rounded to the lovelace. */
export function lovelaceFor(requests: number, pricePerRequestEur: number, adaEurRate: number): bigint {
  // Integer micro-euro arithmetic would lose the fallback's 0.0000024; doubles are exact enough here
  // (at most 1e9 requests), and rounding to the nearest lovelace removes the last bit of noise.
  return BigInt(Math.round((requests * pricePerRequestEur * 1_000_000) / adaEurRate));
}

export const formatAda = (lovelace: string | bigint): string => {
  const l = BigInt(lovelace);
  const whole = l / 1_000_000n;
  const frac = (l % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${whole.toLocaleString('en-US')}${frac ? `.${frac}` : ''} ADA`;
};

export const formatRequests = (n: number) => n.toLocaleString('en-US');

export interface PpuSettingsDto {
  enabled: boolean;
  network: string;
  /** Orders are paid to the development account (test keys). */
  devAccount: boolean;
  confirmations: number;
  orderTtlMs: number;
  pricing: PpuPricing;
  canSimulate: boolean;
}

/** The fewest requests an order may buy at these prices: they must come to at least MIN_ORDER_LOVELACE. */
export function minOrderRequests(pricing: Pick<PpuPricing, 'requests' | 'ada_eur_rate'>): number {
  const price = pricing.requests.price_per_unit_eur;
  const rate = pricing.ada_eur_rate;
  const enough = (n: number) => lovelaceFor(n, price, rate) >= BigInt(MIN_ORDER_LOVELACE);
  let n = Math.max(1, Math.ceil((MIN_ORDER_LOVELACE * rate) / (price * 1_000_000)));
  while (n > 1 && enough(n - 1)) n--;
  while (!enough(n)) n++;
  return n;
}

/** What is wrong with an order's quantity, in words for beside the field; null when it can be ordered. */
export function orderQuantityError(value: number | string, pricing: Pick<PpuPricing, 'requests' | 'ada_eur_rate'>): string | null {
  const min = minOrderRequests(pricing);
  const range = `from ${formatRequests(min)} to ${formatRequests(MAX_ORDER_REQUESTS)}`;
  if (value === '' || value === null) return `Enter the number of requests to buy, ${range}.`;
  const n = Number(value);
  if (!Number.isFinite(n) || !Number.isInteger(n)) return `Enter a whole number of requests, ${range}.`;
  if (n < min) return `Order at least ${formatRequests(min)} requests: an order must come to at least ${formatAda(BigInt(MIN_ORDER_LOVELACE))} (a Cardano payment's minimum) at the current price.`;
  if (n > MAX_ORDER_REQUESTS) return `One order buys at most ${formatRequests(MAX_ORDER_REQUESTS)} requests.`;
  return null;
}
