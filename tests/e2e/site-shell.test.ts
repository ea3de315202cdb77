import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { capturedIds, waitForCapturedMail } from '../helpers/browser-sign-in';
import { ARTIFACTS, type TestDatabase } from '../helpers/db-template';
import { messages } from '../../shared/messages';
import { CONSENT_COOKIE } from '../../shared/site';

const CALLBACK_LINK = /(https?:\/\/\S+\/auth\/callback\/email\?\S+)/;
const CONSENT_DIALOG = 'Your communication preferences';

/** Signs a new user in up to the dashboard, leaving the consent modal unanswered. */
async function signInNewUser(browser: Browser, app: TestApp, email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: CONSENT_COOKIE, value: '1', url: app.url }]);
  const page = await context.newPage();
  await page.goto(`${app.url}/dashboard`);
  await page.waitForURL(/\/auth\/signin\?redirect=/);
  const seen = capturedIds(app.mailer);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign in with Email' }).click();
  await page.waitForURL(/\/auth\/verify-request/);
  const mail = await waitForCapturedMail(app.mailer, email, (text) => CALLBACK_LINK.test(text), seen);
  await page.goto(CALLBACK_LINK.exec(mail.text)![1]!);
  await page.waitForURL(`${app.url}/dashboard`);
  await page.getByRole('button', { name: 'Account menu' }).waitFor();
  return { context, page };
}

const storedConsent = (page: Page) =>
  page.evaluate(async () => {
    const res = await fetch('/api/customer/settings', { headers: { Accept: 'application/json' } });
    return ((await res.json()) as { data: { marketing_consent: boolean | null } }).data.marketing_consent;
  });

describe.runIf(browserAvailable())('the marketing consent modal, the deploy checker and anchors in a reused tab, in Chromium', () => {
  let browser: Browser;
  let app: TestApp & { database: TestDatabase };
  let webDir: string;

  beforeAll(async () => {
    // A build without version.json: the deploy check answers 'unknown', which must stay silent.
    webDir = path.join(ARTIFACTS, `web-unknown-version-${process.pid}`);
    fs.cpSync(path.resolve(import.meta.dirname, '../../dist/web'), webDir, { recursive: true });
    fs.rmSync(path.join(webDir, 'version.json'), { force: true });
    app = await startTestApp({ webDir, env: { SUPPORT_EMAIL: 'help@cairn.example', CHAT_URL: 'https://chat.cairn.example/start' } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await app?.database.drop();
    if (webDir) fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('asks a new user once; Save Preferences stores the choice, says so and closes', async () => {
    const { context, page } = await signInNewUser(browser, app, 'consent-yes@example.com');
    const dialog = page.getByRole('dialog', { name: CONSENT_DIALOG });
    await dialog.waitFor();
    expect(await storedConsent(page)).toBe(null);

    await dialog.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Save Preferences' }).click();
    await page.getByText(messages.preferences.saved).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(await storedConsent(page)).toBe(true);

    await page.reload();
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('dialog', { name: CONSENT_DIALOG }).count()).toBe(0);
    await context.close();
  });

  it('can be answered later: it closes, stays away this session, never covers the page the user came for, and asks again after the next sign-in', async () => {
    const { context, page } = await signInNewUser(browser, app, 'consent-later@example.com');
    const dialog = page.getByRole('dialog', { name: CONSENT_DIALOG });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Answer later' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await storedConsent(page)).toBe(null);
    await page.reload();
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await dialog.count()).toBe(0);

    // Signed out and in again: asked again, and Escape answers later too.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL(/\/auth\/signin/);
    await context.close();
    const again = await signInNewUser(browser, app, 'consent-later@example.com');
    const asked = again.page.getByRole('dialog', { name: CONSENT_DIALOG });
    await asked.waitFor();
    await again.page.keyboard.press('Escape');
    await asked.waitFor({ state: 'hidden' });
    await again.context.close();

    // A deep link the user came for (an invitation, the subscription) is never covered by the question.
    const fresh = await signInNewUser(browser, app, 'consent-deep@example.com');
    await fresh.page.getByRole('dialog', { name: CONSENT_DIALOG }).waitFor();
    await fresh.page.evaluate(() => window.sessionStorage.clear());
    for (const deep of ['/workspace-invite/0f1e2d3c-not-a-real-token', '/dashboard/subscription']) {
      await fresh.page.goto(`${app.url}${deep}`);
      await fresh.page.getByRole('heading', { level: 1 }).first().waitFor();
      await fresh.page.waitForLoadState('networkidle');
      expect(await fresh.page.getByRole('dialog', { name: CONSENT_DIALOG }).count(), deep).toBe(0);
    }
    await fresh.context.close();
  });

  it('stores a refusal too, and keeps the modal open with the failure toast when saving fails', async () => {
    const { context, page } = await signInNewUser(browser, app, 'consent-no@example.com');
    const dialog = page.getByRole('dialog', { name: CONSENT_DIALOG });
    await dialog.waitFor();

    // The server refuses the first save (as an outage would); the user is told and can try again.
    let refused = false;
    await page.route('**/api/customer/settings', async (route) => {
      if (route.request().method() === 'PUT' && !refused) {
        refused = true;
        await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'Down for a moment.' } }) });
      } else await route.fallback();
    });
    await dialog.getByRole('button', { name: 'Save Preferences' }).click();
    await page.getByText(messages.preferences.failed).waitFor();
    expect(await dialog.isVisible()).toBe(true);
    expect(await storedConsent(page)).toBe(null);

    await dialog.getByRole('button', { name: 'Save Preferences' }).click();
    await page.getByText(messages.preferences.saved).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(await storedConsent(page)).toBe(false);
    await context.close();
  });

  it('scrolls to #pricing on a fresh load in a tab that showed / before', async () => {
    // The router remembers /'s position under the same name as every first page; restoring it would scroll back there.
    const context = await browser.newContext({ viewport: { width: 375, height: 900 } });
    await context.addCookies([{ name: CONSENT_COOKIE, value: '1', url: app.url }]);
    const page = await context.newPage();
    await page.goto(`${app.url}/`);
    await page.getByRole('heading', { name: 'Plans that grow with your project' }).waitFor();
    await page.goto('about:blank');
    await page.goto(`${app.url}/#pricing`);
    const pricingTop = () => page.evaluate(() => document.getElementById('pricing')?.getBoundingClientRect().top ?? Infinity);
    await expect.poll(pricingTop).toBeLessThan(100);
    await page.waitForLoadState('networkidle');
    expect(Math.abs(await pricingTop())).toBeLessThan(100);
    await context.close();
  });

  it('opens the configured live chat in a new window from the Enterprise plan', async () => {
    const context = await browser.newContext();
    await context.addCookies([{ name: CONSENT_COOKIE, value: '1', url: app.url }]);
    const page = await context.newPage();
    await page.goto(`${app.url}/#pricing`);
    const enterprise = page.getByTestId('plan-button-ENTERPRISE');
    await expect.poll(() => enterprise.getAttribute('href')).toBe('https://chat.cairn.example/start');
    expect(await enterprise.getAttribute('target')).toBe('_blank');
    expect(await enterprise.getAttribute('rel')).toContain('noopener');
    await context.close();
  });

  it('says nothing when the deployed version cannot be read', async () => {
    const { context, page } = await signInNewUser(browser, app, 'deploy-unknown@example.com');
    expect(await (await fetch(`${app.url}/api/has-new-deploy`)).json()).toEqual({ data: { version: 'unknown' } });
    const checked = page.waitForResponse((res) => res.url().endsWith('/api/has-new-deploy'));
    await page.reload();
    await checked;
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByText(messages.deploy.newVersion).count()).toBe(0);
    await context.close();
  });
});
