import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseRate, RateSource } from '../../../../../server/features/ppu/rate-source';
import { rateAgeText } from '../../../../../shared/ppu';

describe('parseRate', () => {
  it('reads CoinGecko’s simple price and the plain shape', () => {
    expect(parseRate({ cardano: { eur: 0.4213 } })).toBe(0.4213);
    expect(parseRate({ ada_eur: 0.39 })).toBe(0.39);
    expect(parseRate({ ada_eur: '0.39' })).toBe(0.39);
    expect(parseRate({ cardano: { eur: 0.5, usd: 0.55 }, bitcoin: { eur: 90000 } })).toBe(0.5);
  });

  it('finds no rate in anything else', () => {
    for (const body of [null, 1, 'x', [], {}, { cardano: { usd: 0.5 } }, { cardano: 0.5 }, { ada_eur: 0 }, { ada_eur: -1 }, { ada_eur: 'NaN' }, { ada_eur: '1e400' }, { ada_eur: null }, { ada_eur: Infinity }, { ADA_EUR: 0.4 }]) {
      expect(parseRate(body), JSON.stringify(body)).toBeNull();
    }
  });
});

describe('rateAgeText', () => {
  it('says how old the reading is', () => {
    expect(rateAgeText(20_000)).toBe('rate as of less than a minute ago');
    expect(rateAgeText(60_000)).toBe('rate as of 1 minute ago');
    expect(rateAgeText(3 * 60_000 + 59_000)).toBe('rate as of 3 minutes ago');
    expect(rateAgeText(5 * 3_600_000)).toBe('rate as of 5 hours ago');
  });
});

describe('RateSource', () => {
  it('gives up on a source slower than its timeout and answers no rate', async () => {
    let hits = 0;
    const server = http.createServer(() => void hits++); // never answers
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const source = new RateSource({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rate`, ttlMs: 60_000, maxAgeMs: 60_000, timeoutMs: 200 });
      const t = Date.now();
      expect(await source.current()).toBeNull();
      expect(Date.now() - t).toBeLessThan(2000);
      // Asked once, not again: on a busy machine the request may not even have been read by then.
      expect(hits).toBeLessThanOrEqual(1);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
