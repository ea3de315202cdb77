import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { TestDatabase } from '../helpers/db-template';
import { createLogger } from '../../server/logger';
import { startHeartbeat } from '../../server/features/status/heartbeats';
import { STATUS_REFRESH_MS, STATUS_CACHE_MS } from '../../shared/status';

describe.runIf(browserAvailable())('the public status page, in Chromium', () => {
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

  it('shows every part and network to a signed-out visitor, and follows a change without a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    // The page's own clock, so its refresh can be jumped to rather than waited for.
    await context.clock.install();
    const page = await context.newPage();
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error') failed.push(m.text());
    });
    await page.goto(`${app.url}/`);
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('link', { name: 'Status' }).first().click();
    await page.waitForURL(/\/status$/);
    await page.getByRole('heading', { name: 'Status' }).waitFor();
    const gateway = page.getByTestId('service-Gateway');
    await expect.poll(() => gateway.innerText()).toContain('Not answering');
    expect(await page.getByTestId('service-Database').innerText()).toContain('Operational');
    expect(await page.getByTestId('network-cardano-mainnet').innerText()).toMatch(/Sandbox chain \(simulated data\)[\s\S]*Operational[\s\S]*Latest block \d+ s ago/);
    // Milkomeda's EVM development chain and the IPFS store run inside the gateway: down with it.
    expect(await page.getByTestId('network-milkomeda-mainnet').innerText()).toMatch(/Development chain \(local EVM, a block per transaction\)[\s\S]*Not answering/);
    expect(await page.getByTestId('network-ipfs').innerText()).toMatch(/Built-in store[\s\S]*Not answering/);
    expect(await page.getByText('Some parts are not answering').count()).toBe(1);

    // Each look first jumps the page to its next refresh; the server reuses a check for STATUS_CACHE_MS
    // of real time, so a change shows within that.
    const refreshed = async <T>(read: () => Promise<T>): Promise<T> => {
      await page.clock.fastForward(STATUS_REFRESH_MS);
      return read();
    };
    const beat = startHeartbeat(app.db, 'gateway', createLogger('silent'));
    await expect.poll(() => refreshed(() => gateway.innerText()), { timeout: STATUS_CACHE_MS + 10_000 }).toContain('Operational');
    expect(await page.getByTestId('network-ipfs').innerText()).toContain('Operational');

    // The payment watcher of a running worker that cannot read the payment chain: listed, with since when.
    const worker = startHeartbeat(app.db, 'worker', createLogger('silent'));
    const since = Date.now() - 60_000;
    await app.db('component_states').insert({ name: 'Payment watcher', state: 'down', since, updated_at: Date.now() });
    const watcher = page.getByTestId('service-Payment watcher');
    await expect.poll(() => refreshed(async () => ((await watcher.count()) > 0 ? watcher.innerText() : '')), { timeout: STATUS_CACHE_MS + 10_000 }).toMatch(/Payment watcher[\s\S]*since[\s\S]*Not answering/);
    await app.db('component_states').delete();
    await worker.stop();
    await beat.stop();
    expect(failed).toEqual([]);
    await context.close();
  });
});
