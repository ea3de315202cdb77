import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { signInInBrowser, type SignedInBrowser } from '../helpers/browser-sign-in';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { TestDatabase } from '../helpers/db-template';

// The order page names where its ADA/EUR rate comes from and how old the reading is.
describe.runIf(browserAvailable())('the rate source on the order page, in Chromium', () => {
  let browser: Browser;
  let app: TestApp & { database: TestDatabase };
  let session: SignedInBrowser;
  let rates: http.Server;
  let host: string;

  beforeAll(async () => {
    rates = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ada_eur":"0.5"}'));
    await new Promise<void>((resolve) => rates.listen(0, '127.0.0.1', resolve));
    host = `127.0.0.1:${(rates.address() as AddressInfo).port}`;
    app = await startTestApp({ env: { PPU_RATE_URL: `http://${host}/ada-eur` } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await session?.context.close();
    await browser?.close();
    await app?.stop();
    await app?.database.drop();
    rates?.closeAllConnections();
    rates?.close();
  });

  it("shows the source's rate with its age, and prices with it", async () => {
    session = await signInInBrowser(browser, app, 'ppu-rate-browser@example.com', '/dashboard/subscription/ppu/order');
    const { page } = session;
    const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-ppu-rate-shots-'));
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByTestId('ppu-unit-price').filter({ hasText: `0.24 EUR per 100,000 requests · 1 ADA = 0.50 EUR (${host}, rate as of less than a minute ago)` }).waitFor();
      // 2.40 EUR at 0.50 EUR per ADA.
      await page.getByTestId('ppu-quote').filter({ hasText: '4.8 ADA' }).waitFor();
      await page.screenshot({ path: path.join(shots, `order-form-rate-${width}.png`), fullPage: true });
    }
    console.log(`rate source screenshots in ${shots}`);
  });
});
