// What the landing page costs over the wire: the JavaScript and CSS one cold load of / requests, with
// each response's bytes on the wire (headers and gzip body) as Chromium's DevTools protocol counts them.
// `npm run bench:web` reports it and a browser test of `npm test` holds it to the same budget.
import type { Browser, CDPSession } from 'playwright-core';

/** The landing page's JavaScript and CSS over the wire, gzip. */
export const LANDING_BUDGET_BYTES = 150 * 1000;

export interface Transfer {
  url: string;
  type: string;
  encoding: string;
  bytes: number;
}

/** Records each response's type and its bytes on the wire (headers and encoded body), from CDP. */
async function recordTransfers(cdp: CDPSession): Promise<Transfer[]> {
  const pending = new Map<string, Omit<Transfer, 'bytes'>>();
  const done: Transfer[] = [];
  cdp.on('Network.responseReceived', (e) => {
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    pending.set(e.requestId, { url: e.response.url, type: e.type, encoding: headers['content-encoding'] ?? 'identity' });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const response = pending.get(e.requestId);
    if (response) done.push({ ...response, bytes: e.encodedDataLength });
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  return done;
}

/** Every response of one cold load of the landing page, until the network is idle. */
export async function measureTransfer(browser: Browser, url: string): Promise<Transfer[]> {
  // The budget is stated for gzip; Chromium would negotiate Brotli (smaller) unless told otherwise.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, extraHTTPHeaders: { 'Accept-Encoding': 'gzip' } });
  const page = await context.newPage();
  const transfers = await recordTransfers(await context.newCDPSession(page));
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { level: 1 }).waitFor();
  await context.close();
  return transfers;
}

export interface LandingTransfer {
  /** The scripts and stylesheets, largest first. */
  assets: Transfer[];
  js: number;
  css: number;
}

/** The JavaScript and CSS of one cold load of the landing page at `url`. */
export async function landingTransfer(browser: Browser, url: string): Promise<LandingTransfer> {
  const assets = (await measureTransfer(browser, url)).filter((t) => t.type === 'Script' || t.type === 'Stylesheet').sort((a, b) => b.bytes - a.bytes);
  const sum = (type: string) => assets.filter((t) => t.type === type).reduce((total, t) => total + t.bytes, 0);
  return { assets, js: sum('Script'), css: sum('Stylesheet') };
}
