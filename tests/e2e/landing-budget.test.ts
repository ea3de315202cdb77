import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { TestDatabase } from '../helpers/db-template';
import { LANDING_BUDGET_BYTES, landingTransfer } from '../bench/lib/landing-transfer';

// The landing page's JavaScript and CSS over the wire (gzip) stay within budget, measured on the web
// build `npm test` makes, the way `npm run bench:web` measures it.
describe.runIf(browserAvailable())('the landing page over the wire, in Chromium', () => {
  let browser: Browser;
  let app: TestApp & { database: TestDatabase };

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await app?.database.drop();
  });

  it(`requests at most ${LANDING_BUDGET_BYTES / 1000} KB of JavaScript and CSS, gzip`, async () => {
    const { assets, js, css } = await landingTransfer(browser, `${app.url}/`);
    const listing = assets.map((t) => `${(t.bytes / 1000).toFixed(1).padStart(6)} KB ${t.encoding} ${new URL(t.url).pathname}`).join('\n');
    expect(assets.length).toBeGreaterThan(0);
    expect(assets.filter((t) => t.encoding !== 'gzip' && t.bytes > 1000), listing).toEqual([]);
    expect(js + css, `JS ${js} B + CSS ${css} B:\n${listing}`).toBeLessThanOrEqual(LANDING_BUDGET_BYTES);
  });
});
