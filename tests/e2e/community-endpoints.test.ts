// The submit-endpoint form and the operator's review in Chromium: the spec's messages, a real check
// of a local Blockfrost-compatible backend, and enabling it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { signInInBrowser, type SignedInBrowser } from '../helpers/browser-sign-in';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { TestDatabase } from '../helpers/db-template';
import { createSandboxChain, sandboxRouter } from '../../server/sandbox/chain/index';
import { enterpriseAddress } from '../../shared/cardano/address';
import { messages } from '../../shared/messages';

const M = messages.submitEndpoint;

describe.runIf(browserAvailable())('submit-endpoint form and operator review, in Chromium', () => {
  let browser: Browser;
  let app: TestApp & { database: TestDatabase };
  let session: SignedInBrowser;
  let backend: http.Server;
  let backendUrl: string;
  const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-endpoints-'));

  beforeAll(async () => {
    const b = express();
    b.use(sandboxRouter(createSandboxChain({ network: 'preview', blockIntervalMs: 20_000 })));
    backend = http.createServer(b);
    await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
    backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
    app = await startTestApp({ env: { OPERATOR_EMAILS: 'ops@example.com', WEBHOOK_ALLOWLIST: '127.0.0.1/32' } });
    browser = await launchBrowser();
    session = await signInInBrowser(browser, app, 'ops@example.com', '/dashboard/endpoints');
  });
  afterAll(async () => {
    await session?.context.close();
    await browser?.close();
    await app?.stop();
    await app?.database.drop();
    backend?.closeAllConnections();
    backend?.close();
  });

  it('shows the messages, submits a checked endpoint, and lets the operator enable it', async () => {
    const { page } = session;
    await page.getByRole('heading', { level: 1, name: 'Submit an endpoint' }).waitFor();
    const submit = page.getByRole('button', { name: 'Submit endpoint' });
    await submit.click();
    await page.getByText(M.endpointEmpty).waitFor();
    await page.getByText(M.addressEmpty).waitFor();
    await page.getByLabel('Endpoint', { exact: true }).fill('not a url');
    await page.getByLabel('Payment address').fill('addr1nonsense');
    await submit.click();
    await page.getByText(M.urlInvalid).waitFor();
    await page.getByText(M.addressInvalid).waitFor();

    await page.getByLabel('Endpoint', { exact: true }).fill(backendUrl);
    await page.getByLabel('Payment address').fill(enterpriseAddress('preview', crypto.randomBytes(28)));
    await submit.click();
    await page.getByRole('cell', { name: backendUrl }).waitFor();
    await page.getByRole('cell', { name: 'Cardano preview' }).waitFor();
    await page.getByText('pending', { exact: true }).waitFor();
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: path.join(shots, `endpoints-${width}.png`), fullPage: true });
    }

    await page.getByRole('link', { name: 'Review submitted endpoints' }).click();
    await page.getByRole('heading', { level: 1, name: 'Submitted endpoints' }).waitFor();
    await page.getByRole('cell', { name: 'ops@example.com' }).waitFor();
    await page.getByRole('button', { name: `Enable ${backendUrl}` }).click();
    await page.getByText('enabled #1', { exact: true }).waitFor();
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: path.join(shots, `operator-${width}.png`), fullPage: true });
    }
    console.log(`endpoint page screenshots in ${shots}`);
  });
});
