import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { capturedIds, signInInBrowser, waitForCapturedMail, type SignedInBrowser } from '../helpers/browser-sign-in';
import { CONSENT_COOKIE } from '../../shared/site';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { TestDatabase } from '../helpers/db-template';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { accountMessages } from '../../shared/account';

const EMAIL = 'security@account.example';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

describe.runIf(browserAvailable())('the security section of Settings, in Chromium', () => {
  let browser: Browser;
  let app: TestApp & { database: TestDatabase };
  const contexts: SignedInBrowser[] = [];

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.context.close();
    await browser?.close();
    await app?.stop();
    await app?.database.drop();
  });

  /** The first sign-in answers the consent modal; later ones, in other browsers, are not asked again. */
  const signedIn = async (userAgent?: string) => {
    if (contexts.length === 0) {
      const b = await signInInBrowser(browser, app, EMAIL, '/dashboard/settings', userAgent ? { userAgent } : {});
      contexts.push(b);
      return b;
    }
    const context = await browser.newContext(userAgent ? { userAgent } : {});
    await context.addCookies([{ name: CONSENT_COOKIE, value: '1', url: app.url }]);
    const page = await context.newPage();
    contexts.push({ context, page });
    await page.goto(`${app.url}/auth/signin`);
    const seen = capturedIds(app.mailer);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByRole('button', { name: 'Sign in with Email' }).click();
    await page.waitForURL(/\/auth\/verify-request/);
    const mail = await waitForCapturedMail(app.mailer, EMAIL, (text) => text.includes('/auth/callback/email'), seen);
    await page.goto(/(https?:\/\/\S+\/auth\/callback\/email\?\S+)/.exec(mail.text)![1]!);
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    return { context, page };
  };

  it('lists the sessions, signs one out and every other, downloads the data, and deletes the account once nothing blocks it', async () => {
    const laptop = await signedIn();
    const p = laptop.page;
    const sessions = p.getByRole('list', { name: 'Sessions' });
    await sessions.locator('li').first().waitFor();
    expect(await sessions.locator('li').count()).toBe(1);
    const current = sessions.locator('li:has([data-current])');
    await current.getByText('This device').waitFor();
    expect(await current.getByRole('button', { name: /^Sign out/ }).count()).toBe(0);
    expect(await p.getByRole('button', { name: 'Sign out everywhere else' }).isDisabled()).toBe(true);

    // A second browser signs in: listed after a reload, and signed out from here.
    const other = await signedIn(FIREFOX_WINDOWS);
    await p.reload();
    await sessions.locator('li:has([data-session="Firefox 133 on Windows"])').waitFor();
    await current.getByText(/IP .*127\.0\.0\.1 · Signed in .* · Last seen/).waitFor();
    await p.getByRole('button', { name: 'Sign out Firefox 133 on Windows' }).click();
    await p.getByText('Firefox 133 on Windows has been signed out.').waitFor();
    await sessions.locator('li:has([data-session="Firefox 133 on Windows"])').waitFor({ state: 'detached' });
    await other.page.reload();
    await other.page.waitForURL(/\/auth\/signin\?redirect=/);

    // Two more, then everywhere else at once.
    await signedIn(FIREFOX_WINDOWS);
    await signedIn(FIREFOX_WINDOWS);
    await p.reload();
    await sessions.locator('li').nth(2).waitFor();
    await p.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await p.getByText(accountMessages.signedOutOthers(2)).waitFor();
    await sessions.locator('li').nth(1).waitFor({ state: 'detached' });
    expect(await sessions.locator('li').count()).toBe(1);

    // The data download: a JSON file of their own.
    const [download] = await Promise.all([p.waitForEvent('download'), p.getByRole('link', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^cairn-account-\d{4}-\d{2}-\d{2}\.json$/);
    const file = await download.path();
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { profile: { email: string }; sessions: unknown[] };
    expect(data.profile.email).toBe(EMAIL);
    expect(data.sessions).toHaveLength(1);

    // Owning a workspace with another member blocks deleting the account, with the reason and a link to it.
    const userId = (await app.db('users').where({ email: EMAIL }).first('id')).id as number;
    const member = await makeUser(app.db, 'member@account.example');
    await setSubscription(app.db, userId, 'DEVELOPER', 'active');
    const shared = await makeWorkspace(app.db, userId, [{ userId: member.id, role: 'collaborator' }], 'Shared Space');
    await p.reload();
    const blocked = p.getByRole('alert').filter({ hasText: 'Your account cannot be deleted yet' });
    await blocked.getByText(accountMessages.blocked(['Shared Space'])).waitFor();
    await blocked.getByRole('link', { name: 'Shared Space' }).waitFor();
    expect(await p.getByRole('button', { name: 'Delete account' }).count()).toBe(0);

    // Once the member is gone, the type-to-confirm popup deletes it.
    await app.db('workspace_members').where({ workspace_id: shared, user_id: member.id }).delete();
    await p.reload();
    await p.getByText('Shared Space (0 projects)').waitFor();
    await p.getByText('Your DEVELOPER subscription is cancelled at once; nothing more is charged.').waitFor();
    await p.getByRole('button', { name: 'Delete account' }).click();
    const dialog = p.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByText(accountMessages.deleteWarning).waitFor();
    await dialog.getByLabel('Confirmation').fill('not-me@account.example');
    // The button stays disabled until the text matches; Enter in the field says why.
    expect(await dialog.getByRole('button', { name: 'Delete permanently' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Confirmation').press('Enter');
    await dialog.getByText('The text you typed does not match.').waitFor();
    await dialog.getByLabel('Confirmation').fill(EMAIL);
    await dialog.getByRole('button', { name: 'Delete permanently' }).click();
    await p.waitForURL(/\/auth\/signin$/);
    expect(await app.db('users').where({ email: EMAIL }).first()).toBeUndefined();
    expect(await app.db('workspaces').where({ id: shared }).first()).toBeUndefined();
    await p.goto(`${app.url}/dashboard/settings`);
    await p.waitForURL(/\/auth\/signin\?redirect=/);
    // Four browsers sign in by e-mail link and the page reloads a dozen times: on a busy 2-core
    // machine that alone takes most of the project's default minute.
  }, 180_000);
});
