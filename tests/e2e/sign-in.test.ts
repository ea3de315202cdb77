import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { startSmtpServer } from '../helpers/smtp';
import { startLocalGitHub, type LocalGitHub } from '../helpers/oauth';
import type { TestDatabase } from '../helpers/db-template';
import { messages } from '../../shared/messages';
import { answerConsentModal } from '../helpers/browser-sign-in';

describe.runIf(browserAvailable())('signing in, in Chromium', () => {
  let browser: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let github: LocalGitHub;
  let app: TestApp & { database: TestDatabase };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    github = await startLocalGitHub({ id: 77, login: 'octo', emails: [{ email: 'octo@example.com', primary: true, verified: true }] });
    app = await startTestApp({ env: { SMTP_URL: smtp.url, ...github.env } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await app?.database.drop();
    await smtp?.close();
    await github?.close();
  });

  it('signs in with a magic link read from the mail, landing back on the page first asked for', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/dashboard/settings`);
    await page.waitForURL(/\/auth\/signin\?redirect=%2Fdashboard%2Fsettings$/);

    // Validation texts from the spec, before anything is sent.
    await page.getByRole('button', { name: 'Sign in with Email' }).click();
    await expect.poll(() => page.getByText(messages.signIn.emailEmpty).isVisible()).toBe(true);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Sign in with Email' }).click();
    await expect.poll(() => page.getByText(messages.signIn.emailInvalid).isVisible()).toBe(true);

    await page.getByLabel('Email').fill('browser@example.com');
    await page.getByRole('button', { name: 'Sign in with Email' }).click();
    await page.waitForURL(/\/auth\/verify-request/);
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();

    const mail = await smtp.waitForMail('browser@example.com');
    const link = /(http:\/\/127\.0\.0\.1:\d+\/auth\/callback\/email\?[^\s"<]+)/.exec(mail.text)?.[1];
    expect(link).toBeTruthy();
    await page.goto(link!.replace(/&amp;/g, '&'));
    await page.waitForURL(`${app.url}/dashboard/settings`);
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    expect(await page.getByRole('button', { name: 'Account menu' }).textContent()).toContain('browser@example.com');
    // A new user is asked for marketing consent on the dashboard's home, not over the page they came for.
    expect(await page.getByRole('dialog', { name: 'Your communication preferences' }).count()).toBe(0);
    await page.getByRole('link', { name: 'Cairn dashboard' }).click();
    await page.waitForURL(`${app.url}/dashboard`);
    await answerConsentModal(page);
    await page.getByText(messages.preferences.saved).waitFor();
    await page.getByRole('button', { name: 'Accept' }).click();

    // The session survives a reload; signing out returns to sign-in and ends it.
    await page.reload();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await page.waitForURL(/\/auth\/signin/);
    await page.goto(`${app.url}/dashboard`);
    await page.waitForURL(/\/auth\/signin\?redirect=%2Fdashboard$/);
    await page.close();
  });

  it('shows a readable reason when a link is used twice', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/auth/signin`);
    await page.getByLabel('Email').fill('twice@example.com');
    await page.getByRole('button', { name: 'Sign in with Email' }).click();
    await page.waitForURL(/\/auth\/verify-request/);
    const mail = await smtp.waitForMail('twice@example.com');
    const link = /(http:\/\/127\.0\.0\.1:\d+\/auth\/callback\/email\?[^\s"<]+)/.exec(mail.text)![1]!.replace(/&amp;/g, '&');
    await page.goto(link);
    await page.waitForURL(/\/dashboard$/);
    const other = await browser.newContext();
    const second = await other.newPage();
    await second.goto(link);
    await second.waitForURL(/\/auth\/error\?error=Verification/);
    await second.getByRole('heading', { name: 'Sign-in error' }).waitFor();
    await second.getByText('no longer valid').first().waitFor();
    await other.close();
    await page.close();
  });

  it('signs in with GitHub against a local OAuth2 server, through the real passport strategy', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/dashboard/workspaces`);
    await page.waitForURL(/\/auth\/signin\?redirect=/);
    await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
    await page.waitForURL(`${app.url}/dashboard/workspaces`);
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    await page.goto(`${app.url}/dashboard`);
    await answerConsentModal(page);
    expect(await page.getByRole('button', { name: 'Account menu' }).textContent()).toContain('octo@example.com');
    await context.close();
  });

  it('does not offer providers that are not configured', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/auth/signin`);
    await page.getByRole('link', { name: 'Sign in with GitHub' }).waitFor();
    expect(await page.getByRole('link', { name: 'Sign in with Google' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Sign in with GitLab' }).count()).toBe(0);
    await page.close();
  });
});
