import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testGatewayConfig } from '../helpers/gateway';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { signInInBrowser } from '../helpers/browser-sign-in';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { TestDatabase } from '../helpers/db-template';
import { createLogger } from '../../server/logger';
import { startGateway, type RunningGateway } from '../../server/gateway-app';
import { freePort } from '../helpers/server-process';


describe.runIf(browserAvailable())('the built-in API reference at /docs, in Chromium', () => {
  let browser: Browser;
  let app: TestApp & { database: TestDatabase };
  let gateway: RunningGateway;

  beforeAll(async () => {
    const gatewayPort = await freePort();
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    app = await startTestApp({ env: { GATEWAY_PUBLIC_URL: gatewayUrl } });
    const config = testGatewayConfig(app, { GATEWAY_PUBLIC_URL: gatewayUrl });
    gateway = await startGateway({ config, db: app.db, logger: createLogger('silent'), version: 'test', port: gatewayPort, host: '127.0.0.1' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await app?.stop();
    await app?.database.drop();
  });

  it('renders both references, and its try-it calls the sandbox with a real project key', async () => {
    const { page, context } = await signInInBrowser(browser, app, 'docs-reader@example.com', '/dashboard');
    const workspaceId = ((await (await page.request.get(`${app.url}/api/workspaces`)).json()).data as Array<{ id: number }>)[0]!.id;
    const csrf = (await (await page.request.get(`${app.url}/auth/csrf`)).json()).data.csrfToken as string;
    const created = await page.request.post(`${app.url}/api/workspaces/${workspaceId}/projects`, {
      headers: { 'X-CSRF-Token': csrf },
      data: { projectName: 'Docs', networkId: 0 },
    });
    const key = ((await created.json()).data.project.project_id) as string;

    // The top navigation's Documentation link leads here when DOCS_URL is unset.
    await page.goto(`${app.url}/`);
    await page.getByRole('banner').getByRole('link', { name: 'Documentation' }).first().click();
    await page.waitForURL(/\/docs$/);
    await expect.poll(() => page.getByRole('heading', { name: 'Cairn data API (Blockfrost-compatible)' }).count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => page.getByText('sandbox chain').first().isVisible()).toBe(true);
    for (const heading of ['Building on the sandbox chain', 'Webhooks']) await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();

    // Try it: a signed-in visitor finds their own key in the reference's authentication already.
    await expect.poll(() => page.locator('input[id^="scalar-refs"]').first().inputValue(), { timeout: 20_000 }).toBe(key);
    await page.locator('input[id^="scalar-refs"]').first().fill(key);
    await page.goto(`${app.url}/docs#data-api/tag/cardano--blocks/GET/blocks/latest`);
    await page.getByRole('button', { name: /Test Request.*get \/blocks\/latest\)/ }).first().click();
    const dialog = page.getByRole('dialog');
    // The first server is the URL the project page shows: the key picks the network.
    const sent = page.waitForResponse((r) => r.url() === `${gateway.url}/api/v0/blocks/latest` && r.request().method() === 'GET', { timeout: 20_000 });
    await dialog.getByRole('button', { name: /^Send get request/ }).first().click();
    const response = await sent;
    expect(response.status()).toBe(200);
    expect(response.request().headers()['project_id']).toBe(key);
    expect((await response.json()).hash).toMatch(/^[0-9a-f]{64}$/);
    await page.keyboard.press('Escape');

    // The dashboard API, generated from the declared routes.
    await page.getByRole('button', { name: /Data API \(Blockfrost-compatible\)/ }).first().click();
    await page.getByText('Dashboard API', { exact: true }).first().click();
    await expect.poll(() => page.getByRole('heading', { name: 'Cairn dashboard API' }).count(), { timeout: 20_000 }).toBe(1);
    // A sign-in, two full references (one of them the whole Blockfrost API) and a call: on a busy
    // 2-core machine more than the e2e project's default minute.
    await context.close();
  }, 120_000);

  it('loads, with the development mailbox, for a visitor who is not signed in without a failed request or a console error', async () => {
    const context = await browser.newContext();
    const problems: string[] = [];
    for (const [path, heading] of [
      ['/docs', 'Cairn data API (Blockfrost-compatible)'],
      ['/dev/mailbox', 'Development mailbox'],
    ] as const) {
      const page = await context.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`${path} console: ${m.text()} ${m.location().url}`);
      });
      page.on('response', (r) => {
        if (r.status() >= 400) problems.push(`${path}: ${r.status()} ${r.url()}`);
      });
      await page.goto(`${app.url}${path}`);
      await expect.poll(() => page.getByRole('heading', { name: heading }).count(), { timeout: 20_000 }).toBe(1);
      // The browser asks for an icon once the page has loaded: wait until nothing is in flight, so a late request that fails is seen.
      await page.waitForLoadState('networkidle');
      await page.close();
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});
