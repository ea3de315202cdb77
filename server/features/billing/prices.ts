import { sellablePrices, type PriceTarget } from '../../../shared/billing';
import { DAY_MS } from '../../../shared/time';

/** Price ids by lookup key and back, for one provider. */
export class PriceBook {
  private readonly byKey = new Map<string, string>();
  private readonly byId = new Map<string, PriceTarget>();

  set(lookupKey: string, priceId: string): void {
    const sellable = sellablePrices().find((p) => p.lookupKey === lookupKey);
    if (!sellable) return;
    this.byKey.set(lookupKey, priceId);
    this.byId.set(priceId, sellable.target);
  }

  priceId(lookupKey: string): string | null {
    return this.byKey.get(lookupKey) ?? null;
  }

  targetOf(priceId: string): PriceTarget | null {
    return this.byId.get(priceId) ?? null;
  }
}

export const periodMs = (period: 'month' | 'year') => (period === 'year' ? 365 : 30) * DAY_MS;
