// Request insight on the project page, in Chromium: real requests through the
// gateway (a local upstream that answers fast, slowly, 404 and falls over), flushed by metering,
// shown as latency percentiles, status classes, today's hourly chart and the failed-request log.
// INSIGHT_SCREENSHOTS=<folder> also saves the page at 375 and 1280 px.
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { signInInBrowser, type SignedInBrowser } from '../helpers/browser-sign-in';
import { waitForWithClock } from '../helpers/page-waits';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { call, startTestGateway } from '../helpers/gateway';
import type { TestDatabase } from '../helpers/db-template';
import type { RunningGateway } from '../../server/gateway-app';
import { messages } from '../../shared/messages';

const SHOTS = process.env.INSIGHT_SCREENSHOTS;
const SLOW_MS = 60;
// The insight refreshes with the statistics, every 15.6 s: a jump of the page's clock past that makes it refetch now.
const REFRESH_STEP_MS = 16_000;

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId('insight-hourly-chart').getByRole('application', { name: 'Today by the hour (UTC)' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
    // The section itself, scrolled to just below the sticky header.
    await page.getByTestId('request-insight').evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 72));
    await page.screenshot({ path: path.join(SHOTS, `${name}-section-${width}.png`), fullPage: false });
    await page.getByRole('region', { name: 'Recent failed requests' }).evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 72));
    await page.screenshot({ path: path.join(SHOTS, `${name}-failures-${width}.png`), fullPage: false });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe.runIf(browserAvailable())('request insight on the project page, in Chromium', () => {
  let browser: Browser;
  let app: TestApp & { database: TestDatabase };
  let gateway: RunningGateway;
  let upstream: http.Server;
  let session: SignedInBrowser | undefined;

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      const url = req.url ?? '';
      if (url.endsWith('/blocks/latest')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"height":1}');
      if (url.endsWith('/epochs/latest')) return void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"epoch":1}'), SLOW_MS);
      if (url.includes('/assets/')) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"status_code":404,"error":"Not Found","message":"The requested component has not been found."}');
      res.writeHead(503).end('down');
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    app = await startTestApp();
    gateway = await startTestGateway(app, { UPSTREAM_CARDANO_PREPROD_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api/v0` });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await session?.context.close();
    await browser?.close();
    await gateway?.close();
    upstream?.closeAllConnections();
    upstream?.close();
    await app?.stop();
    await app?.database.drop();
  });

  it('shows empty figures first, then percentiles, error rate, classes, the hourly chart and the failures of real requests', async () => {
    session = await signInInBrowser(browser, app, 'insight-viewer@example.com', '/dashboard');
    const { page } = session;
    const workspaceId = ((await (await page.request.get(`${app.url}/api/workspaces`)).json()).data as Array<{ id: number }>)[0]!.id;
    const csrf = (await (await page.request.get(`${app.url}/auth/csrf`)).json()).data.csrfToken as string;
    const created = await page.request.post(`${app.url}/api/workspaces/${workspaceId}/projects`, {
      headers: { 'X-CSRF-Token': csrf },
      data: { projectName: 'Insight', networkId: 6 },
    });
    expect(created.status()).toBe(201);
    const { uuid, project } = (await created.json()).data as { uuid: string; project: { project_id: string } };

    // The page's own clock, so its refresh can be jumped to rather than waited for.
    await session.context.clock.install();
    await page.goto(`${app.url}/dashboard/project/${uuid}`);
    const section = page.getByRole('region', { name: 'Request insight', exact: true });
    await section.waitFor();
    // Before any request: no figures, the chart waits, the log is empty.
    await page.getByTestId('insight-hourly-chart').and(page.locator('[data-state="empty"]')).waitFor();
    await section.getByText(messages.stats.waiting).waitFor();
    await section.getByText('No failed requests in the last 30 days.').waitFor();
    expect(await page.getByTestId('insight-p95').textContent()).toBe('–');

    // Real requests through the gateway, once its key cache knows the new key.
    await expect.poll(async () => (await call(`${gateway.url}/api/v0/blocks/latest`, project.project_id)).status, { timeout: 5_000 }).toBe(200);
    const send = async (p: string, times: number, status: number) => {
      for (let i = 0; i < times; i++) expect((await call(`${gateway.url}/api/v0${p}`, project.project_id)).status).toBe(status);
    };
    await send('/blocks/latest', 39, 200);
    await send('/epochs/latest', 8, 200);
    await send('/assets/asset1abc', 6, 404);
    await send('/network', 2, 500);
    await gateway.meter.flush();
    // 56 requests (the call that found the key included), 8 of them errors.

    await waitForWithClock(page, page.getByTestId('insight-error-rate').and(page.getByText(/^14[.,]29\s?%$/)), REFRESH_STEP_MS);
    for (const id of ['insight-p50', 'insight-p95', 'insight-p99']) expect(await page.getByTestId(id).textContent()).toMatch(/^\d+([.,]\d+)? (ms|s)$/);
    // p95 and p99 fall among the answers that waited for the slow backend.
    const p99 = await page.getByTestId('insight-p99').textContent();
    expect(Number.parseFloat(p99!.replace(',', '.')) * (p99!.endsWith(' s') ? 1000 : 1)).toBeGreaterThanOrEqual(SLOW_MS * 0.95);
    await section.getByText('8 of 56 answers were 4xx or 5xx').waitFor();
    expect(await page.getByTestId('insight-class-2xx').textContent()).toMatch(/48 · 85[.,]71\s?%/);
    expect(await page.getByTestId('insight-class-4xx').textContent()).toMatch(/6 · 10[.,]71\s?%/);
    expect(await page.getByTestId('insight-class-5xx').textContent()).toMatch(/2 · 3[.,]57\s?%/);

    const chart = page.getByTestId('insight-hourly-chart');
    await chart.and(page.locator('[data-state="ready"]')).waitFor();
    await chart.getByRole('application', { name: 'Today by the hour (UTC)' }).waitFor();
    for (const name of ['Requests', 'Errors', 'p95 latency']) await chart.getByRole('img', { name: `${name} legend icon` }).waitFor();
    await section.getByText('56 requests · 8 errors').waitFor();

    const rows = page.getByTestId('failed-request');
    expect(await rows.count()).toBe(8);
    const first = await rows.first().textContent();
    expect(first).toContain('/network');
    expect(first).toContain('500');
    expect(first).toMatch(/127\.0\.0\.1/);
    expect(await rows.last().textContent()).toContain('/assets/{asset}');
    // Each failure says why: the error message its answer gave.
    expect(await page.getByTestId('failed-request-message').first().textContent()).toMatch(/\w{3,}/);

    // No horizontal scroll on a 375 px wide phone, where each failure is a two-line item.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByTestId('insight-p50').waitFor();
    await page.getByTestId('failed-request-compact').first().waitFor();
    expect(await page.getByTestId('failed-request-compact').count()).toBe(8);
    expect(await page.getByTestId('failed-request').first().isVisible()).toBe(false);
    expect(await page.getByTestId('failed-request-compact').first().textContent()).toMatch(/500\/network.*127\.0\.0\.1/);
    // The hourly chart takes its new width from a ResizeObserver callback, which a busy machine may
    // run a few frames after the resize.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 10_000 }).toBeLessThanOrEqual(375);
    await shoot(page, 'project-insight');
  });
});
