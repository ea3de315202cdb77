import type { Logger } from '../../logger';

// The ADA/EUR rate of pay as you go, read from a URL the operator names (PPU_RATE_URL). The answer
// is JSON in one of two shapes:
//
//   {"cardano": {"eur": 0.42}}   CoinGecko's simple price, e.g.
//                                https://api.coingecko.com/api/v3/simple/price?ids=cardano&vs_currencies=eur
//   {"ada_eur": 0.42}            the simplest shape, for an operator's own price service
//
// (EUR per ADA: a positive number, or a string holding one). A reading is reused for the TTL; after
// that the next caller fetches again (callers at the same moment share one fetch). When the source
// does not answer (error, timeout, another status than 200, or a body of neither shape) the last
// reading is still used until it is older than the maximum age, and the source is asked again at
// most once per TTL (at least every 30 s), so a source that is down does not slow every quote.
//
// The URL is the operator's configuration, as the upstreams' are, so it is fetched directly: it is
// not the webhooks' SSRF guard's business (that guards addresses customers type in).

export interface RateReading {
  /** EUR per ADA. */
  rate: number;
  /** When it was read (ms since the epoch). */
  at: number;
}

export interface RateSourceOptions {
  url: string;
  ttlMs: number;
  maxAgeMs: number;
  timeoutMs: number;
  logger?: Logger;
  now?: () => number;
}

/** Bodies beyond this are not a rate. */
const MAX_BODY_BYTES = 64 * 1024;

const positive = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(v) ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** EUR per ADA from a rate source's JSON ({"cardano":{"eur":…}} or {"ada_eur":…}), or null when it holds none. */
export function parseRate(body: unknown): number | null {
  if (!isObject(body)) return null;
  if ('ada_eur' in body) return positive(body.ada_eur);
  if (isObject(body.cardano)) return positive(body.cardano.eur);
  return null;
}

export class RateSource {
  private last: RateReading | null = null;
  private inflight: Promise<void> | null = null;
  private failedAt = -Infinity;
  private failing = false;
  readonly host: string;
  private readonly now: () => number;

  constructor(private readonly opts: RateSourceOptions) {
    this.host = new URL(opts.url).host;
    this.now = opts.now ?? Date.now;
  }

  /** The rate to use now: fresh, or the last reading while it is younger than the maximum age; null when there is none. */
  async current(): Promise<RateReading | null> {
    const now = this.now();
    if (this.last && now - this.last.at < this.opts.ttlMs) return this.last;
    if (now - this.failedAt >= Math.min(this.opts.ttlMs, 30_000)) {
      this.inflight ??= this.refresh().finally(() => {
        this.inflight = null;
      });
      await this.inflight;
    }
    const reading = this.last;
    return reading && this.now() - reading.at <= this.opts.maxAgeMs ? reading : null;
  }

  private async refresh(): Promise<void> {
    try {
      const res = await fetch(this.opts.url, { headers: { accept: 'application/json' }, redirect: 'follow', signal: AbortSignal.timeout(this.opts.timeoutMs) });
      if (res.status !== 200) throw new Error(`it answered HTTP ${res.status}`);
      const text = await res.text();
      if (text.length > MAX_BODY_BYTES) throw new Error('its answer is too large to be a rate');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new Error('its answer is not JSON');
      }
      const rate = parseRate(body);
      if (rate === null) throw new Error('its answer holds no rate: expected {"cardano":{"eur":<number>}} or {"ada_eur":<number>}');
      this.last = { rate, at: this.now() };
      if (this.failing) this.opts.logger?.info({ host: this.host, rate }, 'pay as you go: the ADA/EUR rate source answers again');
      this.failing = false;
    } catch (err) {
      this.failedAt = this.now();
      // One warning per outage, not one per quote.
      if (!this.failing) {
        const e = err as Error;
        const cause = (e.cause as { code?: string } | undefined)?.code;
        const reason = e.name === 'TimeoutError' ? `no answer within ${this.opts.timeoutMs} ms` : cause ? `${e.message}: ${cause}` : e.message;
        this.opts.logger?.warn({ host: this.host }, `pay as you go: the ADA/EUR rate source ${this.host} could not be read (${reason}); using ${this.last ? 'its last rate while it is young enough' : 'the configured or default rate'}`);
      }
      this.failing = true;
    }
  }
}
