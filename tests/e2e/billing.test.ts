import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { signInInBrowser, type SignedInBrowser } from '../helpers/browser-sign-in';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { TestDatabase } from '../helpers/db-template';
import { makeProject } from '../helpers/workspace-fixture';
import { messages } from '../../shared/messages';
import { formatEur } from '../../shared/pricing';

const EMAIL = 'buyer@billing.example';
// Screenshots at 375 and 1280 px for a person to look at (SCREENSHOT_DIR to keep them).
const shots = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-billing-'));

describe.runIf(browserAvailable())('billing on the built-in provider, in Chromium', () => {
  let browser: Browser;
  let app: TestApp & { database: TestDatabase };
  let user: SignedInBrowser;

  beforeAll(async () => {
    app = await startTestApp({ env: { OPERATOR_EMAILS: EMAIL } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await user?.context.close();
    await browser?.close();
    await app?.stop();
    await app?.database.drop();
  });

  async function shoot(page: Page, name: string) {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: path.join(shots, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  async function payOnBuiltInCheckout(page: Page) {
    await page.waitForURL(/\/billing\/checkout\/lcs_[0-9a-f]{32}$/);
    await page.getByTestId('test-billing-banner').waitFor();
    await page.getByTestId('local-pay').click();
    await page.waitForURL(/\/dashboard\/subscription\?checkout=success$/);
  }

  // One long walk through six screens and two checkouts: some 15 s alone on a 2-core VM, over a
  // minute there beside two other browser files, as the other long walks are given two minutes.
  it('landing → pricing → Select plan → checkout → plan active → downgrade refused by the counts rule → a boost in the quota', async () => {
    user = await signInInBrowser(browser, app, EMAIL);
    const page = user.page;
    await page.setViewportSize({ width: 1280, height: 900 });

    // The pricing section of the landing page.
    await page.goto(`${app.url}/`);
    await page.getByRole('link', { name: 'Pricing' }).first().click();
    const hobby = page.getByTestId('plan-button-HOBBY');
    await hobby.waitFor();
    expect(await hobby.textContent()).toBe('Select plan');
    await hobby.click();

    // The subscription page (as the spec says) opens the checkout of the plan chosen: country and tax id first.
    await page.waitForURL(/\/dashboard\/subscription\?plan=HOBBY&period=month$/);
    const dialog = page.getByRole('dialog', { name: 'Checkout' });
    await dialog.waitFor();
    // Sorted by the country's name in the browser's language (English here): Afghanistan, Åland Islands, Albania…
    const names = await dialog.getByLabel('Country').locator('option').allTextContents();
    expect(names.slice(0, 4)).toEqual(['Choose a country', 'Afghanistan', 'Åland Islands', 'Albania']);
    await dialog.getByLabel('Country').selectOption('DE');
    await dialog.getByLabel('Tax id (eu_vat, optional)').fill('DE12');
    await dialog.getByRole('button', { name: 'Continue to checkout' }).click();
    await dialog.getByText('The tax id does not look like a eu_vat').waitFor();
    await dialog.getByLabel('Tax id (eu_vat, optional)').fill('DE123456789');
    await shoot(page, 'checkout-dialog');
    await dialog.getByRole('button', { name: 'Continue to checkout' }).click();
    await page.waitForURL(/\/billing\/checkout\//);
    await page.getByTestId('checkout-item').getByText('HOBBY plan, billed every month').waitFor();
    await shoot(page, 'built-in-checkout');
    await payOnBuiltInCheckout(page);
    await page.getByTestId('checkout-success').waitFor();

    // The subscription page: HOBBY, active.
    await expect.poll(() => page.getByTestId('current-plan').textContent()).toBe('HOBBY');
    expect(await page.getByTestId('subscription-status').first().textContent()).toBe('active');
    await page.getByTestId('usage-requests-today').getByText('0 of 300,000 per day').waitFor();

    // Two projects: more than STARTER allows, so the downgrade is refused with the spec's words.
    const ws = (await app.db('workspaces').join('users', 'users.id', 'workspaces.owner_id').where('users.email', EMAIL).first('workspaces.id')).id as number;
    await makeProject(app.db, ws, 'one');
    await makeProject(app.db, ws, 'two');
    await page.goto(`${app.url}/dashboard/subscription/plans/fixed`);
    await page.getByTestId('plan-selected-HOBBY').waitFor();
    await page.getByTestId('upgrade-plan-DEVELOPER').waitFor();
    await shoot(page, 'fixed-plans');
    // Refused before any confirmation, in plain English.
    await page.getByTestId('downgrade-plan-STARTER').click();
    await page.getByTestId('plan-change-error').getByText('Please remove 1 project to match the STARTER plan').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByTestId('plan-selected-HOBBY').waitFor();
    // An upgrade asks first, with what is charged now (DEVELOPER less the unused HOBBY month) and from the next period.
    await page.getByTestId('upgrade-plan-DEVELOPER').click();
    const upgrade = page.getByRole('dialog', { name: 'Upgrade the subscription' });
    await upgrade.getByText(messages.billing.upgradeText('DEVELOPER')).waitFor();
    expect(await upgrade.getByTestId('plan-change-now').textContent()).toBe(formatEur(7900 - 2900));
    expect(await upgrade.getByTestId('plan-change-next').textContent()).toBe(`${formatEur(7900)} / month`);
    await shoot(page, 'upgrade-confirm');
    await upgrade.getByRole('button', { name: messages.billing.downgradeCancel }).click();
    await upgrade.waitFor({ state: 'hidden' });
    await page.getByTestId('plan-selected-HOBBY').waitFor();

    // A boost: bought on the subscription page, paid on the built-in checkout, counted in the quota.
    await page.goto(`${app.url}/dashboard/subscription`);
    await page.getByRole('button', { name: /Buy 300K boost/ }).click();
    // The country and tax id of the last purchase are offered again.
    const boostDialog = page.getByRole('dialog', { name: 'Checkout' });
    await expect.poll(() => boostDialog.getByLabel('Country').inputValue()).toBe('DE');
    expect(await boostDialog.getByLabel('Tax id (eu_vat, optional)').inputValue()).toBe('DE123456789');
    await boostDialog.getByRole('button', { name: 'Continue to checkout' }).click();
    await payOnBuiltInCheckout(page);
    await page.getByTestId('active-boosts').getByText('REQUESTS_BOOST_300K').waitFor();
    await page.getByTestId('usage-requests-today').getByText('0 of 600,000 per day').waitFor();
    await shoot(page, 'subscription');

    // Every event is in the logs, each downloadable.
    await page.goto(`${app.url}/dashboard/subscription/logs`);
    const logs = page.getByTestId('subscription-logs');
    await logs.getByText('Checkout').waitFor();
    await logs.getByText('Boost (REQUESTS_BOOST_300K)').waitFor();
    const download = page.waitForEvent('download');
    await logs.getByRole('link', { name: /^Download log entry/ }).first().click();
    expect((await download).suggestedFilename()).toMatch(/^cairn-subscription-log-\d+\.txt$/);
    await shoot(page, 'logs');

    // A renewal that fails in the built-in portal: the unpaid-invoice banner, until the invoice is paid.
    await page.goto(`${app.url}/dashboard/subscription`);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Manage Billing' }).click();
    await page.waitForURL(/\/billing\/portal\?workspace=\d+$/);
    await page.getByRole('button', { name: 'Renew now (payment fails)' }).click();
    await page.getByTestId('banner-unpaid-own').waitFor();
    await shoot(page, 'portal-unpaid');
    await page.getByRole('button', { name: 'Pay the open invoice' }).click();
    await page.getByTestId('banner-unpaid-own').waitFor({ state: 'hidden' });

    // The crossroad (fixed plans, and pay as you go) and the operator page.
    await page.goto(`${app.url}/dashboard/subscription/plans`);
    await page.getByTestId('crossroad-fixed').waitFor();
    await page.getByTestId('crossroad-payg').waitFor();
    await shoot(page, 'crossroad');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Operator' }).click();
    await page.getByTestId(/^operator-user-/).first().getByText(EMAIL).waitFor();
    await shoot(page, 'operator');
  }, 120_000);
});
