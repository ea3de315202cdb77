import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { FALLBACK_ADA_EUR_RATE, type PpuOrderDto, type PpuQuoteDto, type PpuSettingsDto } from '../../shared/ppu';

// The ADA/EUR rate source an operator names (PPU_RATE_URL): a local HTTP server answering the
// CoinGecko shape, counted, switched off and on by the test.

interface RateServer {
  url: string;
  host: string;
  hits: number;
  /** What the next answers are: a body with this rate, or this HTTP status with no rate. */
  rate: number;
  down: boolean;
  close(): Promise<void>;
}

async function startRateServer(rate: number): Promise<RateServer> {
  const state = { hits: 0, rate, down: false };
  const server = http.createServer((req, res) => {
    state.hits++;
    expect(req.url).toBe('/api/v3/simple/price?ids=cardano&vs_currencies=eur');
    if (state.down) return res.writeHead(503, { 'content-type': 'application/json' }).end('{"status":{"error_code":503}}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ cardano: { eur: state.rate } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/api/v3/simple/price?ids=cardano&vs_currencies=eur`,
    host: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

const items = (n: number) => ({ items: [{ item_type: 'requests', item_quantity: n }] });

describe('the ADA/EUR rate from a rate source the operator names', () => {
  let rates: RateServer;
  let owner: Client;
  let workspaceId: number;
  // The app's rate source reads this clock: the test moves it past the TTL and the maximum age instead of waiting.
  let clock = Date.now();
  const pass = (ms: number) => void (clock += ms);
  const quote = async () => {
    const res = await owner.post<{ data: PpuQuoteDto }>('/api/ppu/orders/quotes', items(1_000_000));
    expect(res.status).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    rates = await startRateServer(0.5);
  });
  afterAll(async () => {
    await rates?.close();
  });
  const app = useTestApp(() => ({
    env: { PPU_RATE_URL: rates.url, PPU_RATE_TTL_SECONDS: '2', PPU_RATE_MAX_AGE_SECONDS: '5', PPU_RATE_TIMEOUT_MS: '1000' },
    now: () => clock,
  }));
  beforeAll(async () => {
    owner = new Client(app.url);
    await signIn(owner, app.mailer, 'ppu-rate@example.com');
    workspaceId = (await owner.get('/api/workspaces')).body.data[0].id;
  });

  it('prices with the source’s rate, reads it once per TTL for every caller, and reports its age', async () => {
    // The app's clock starts now, not when the file was loaded (starting the app can take seconds on a busy machine).
    clock = Date.now();
    // Five quotes at once: one fetch.
    const first = await Promise.all(Array.from({ length: 5 }, () => quote()));
    expect(rates.hits).toBe(1);
    for (const q of first) {
      expect(q.pricing).toMatchObject({ ada_eur_rate: 0.5, source: 'rate_source', rate_source: rates.host, rate_age_seconds: 0 });
      expect(q.pricing.requests.price_per_unit_eur).toBe(0.0000024);
      // 2.40 EUR at 0.50 EUR per ADA.
      expect(q.total_lovelace).toBe('4800000');
      expect(q.total_eur).toBe(2.4);
    }
    const readAt = first[0]!.pricing.rate_at!;
    expect(Math.abs(readAt - Date.now())).toBeLessThan(5000);

    // The market moves, but within the TTL the reading is reused, older each time.
    rates.rate = 0.6;
    pass(1100);
    const cached = await quote();
    expect(rates.hits).toBe(1);
    expect(cached.pricing.ada_eur_rate).toBe(0.5);
    expect(cached.pricing.rate_at).toBe(readAt);
    expect(cached.pricing.rate_age_seconds).toBeGreaterThanOrEqual(1);
    // The settings the order page reads carry the same reading.
    const settings = (await owner.get<{ data: PpuSettingsDto }>('/api/ppu/settings')).body.data;
    expect(settings.pricing).toMatchObject({ ada_eur_rate: 0.5, source: 'rate_source', rate_at: readAt });

    // Past the TTL the next caller reads it again.
    pass(1000);
    const fresh = await quote();
    expect(rates.hits).toBe(2);
    expect(fresh.pricing).toMatchObject({ ada_eur_rate: 0.6, source: 'rate_source', rate_age_seconds: 0 });
    expect(fresh.total_lovelace).toBe('4000000');

    // An order locks the rate of its moment.
    const order = await owner.post<{ data: PpuOrderDto }>(`/api/workspaces/${workspaceId}/ppu/orders`, items(1_000_000));
    expect(order.status).toBe(201);
    expect([order.body.data.adaEurRate, order.body.data.lovelace]).toEqual([0.6, '4000000']);
    expect(rates.hits).toBe(2);
  });

  it('keeps using the last reading while the source is down, then falls back once it is too old', async () => {
    rates.down = true;
    pass(2100); // past the TTL of the last reading
    const stale = await quote();
    expect(rates.hits).toBe(3); // asked, and it did not answer
    expect(stale.pricing).toMatchObject({ ada_eur_rate: 0.6, source: 'rate_source' });
    expect(stale.pricing.rate_age_seconds).toBeGreaterThanOrEqual(2);
    // A source that is down is not asked again by every quote.
    await quote();
    expect(rates.hits).toBe(3);
    expect(app.logs.filter((l) => String(l.msg).includes('could not be read (it answered HTTP 503)'))).toHaveLength(1);

    // Older than PPU_RATE_MAX_AGE_SECONDS (5): the spec's fallback prices.
    pass(3100);
    const fallback = await quote();
    expect(fallback.pricing).toMatchObject({ source: 'fallback', rate_source: null, rate_at: null, rate_age_seconds: null });
    expect(fallback.pricing.ada_eur_rate).toBeCloseTo(FALLBACK_ADA_EUR_RATE, 12);
    expect(fallback.total_lovelace).toBe('4483900');

    // It answers again: its rate is used again.
    rates.down = false;
    rates.rate = 0.42;
    pass(2100);
    const back = await quote();
    expect(back.pricing).toMatchObject({ ada_eur_rate: 0.42, source: 'rate_source', rate_age_seconds: 0 });
  });
});

describe('a rate source beside PPU_ADA_EUR_RATE', () => {
  it('uses the source when it answers, and the configured rate when it never has', async () => {
    const rates = await startRateServer(0.5);
    const dead = await startRateServer(1);
    const deadUrl = dead.url;
    await dead.close(); // nothing listens there any more
    const app = await startTestApp({ env: { PPU_RATE_URL: rates.url, PPU_ADA_EUR_RATE: '0.4' } });
    const other = await startTestApp({ env: { PPU_RATE_URL: deadUrl, PPU_ADA_EUR_RATE: '0.4', PPU_RATE_TIMEOUT_MS: '1000' } });
    try {
      const a = new Client(app.url);
      await signIn(a, app.mailer, 'ppu-rate-both@example.com');
      const withSource = (await a.post<{ data: PpuQuoteDto }>('/api/ppu/orders/quotes', items(1_000_000))).body.data;
      expect(withSource.pricing).toMatchObject({ ada_eur_rate: 0.5, source: 'rate_source' });

      const b = new Client(other.url);
      await signIn(b, other.mailer, 'ppu-rate-down@example.com');
      const res = await b.post<{ data: PpuQuoteDto }>('/api/ppu/orders/quotes', items(1_000_000));
      expect(res.status).toBe(200);
      expect(res.body.data.pricing).toMatchObject({ ada_eur_rate: 0.4, source: 'configuration', rate_at: null, rate_age_seconds: null });
      expect(res.body.data.total_lovelace).toBe('6000000');
      expect(other.logs.some((l) => /rate source 127\.0\.0\.1:\d+ could not be read .*ECONNREFUSED/.test(String(l.msg)))).toBe(true);
    } finally {
      await app.stop();
      await app.database.drop();
      await other.stop();
      await other.database.drop();
      await rates.close();
    }
  });
});
