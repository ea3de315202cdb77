import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { Mailer } from '../../server/mail/mailer';
import { CONSENT_COOKIE } from '../../shared/site';

const CALLBACK_LINK = /(https?:\/\/\S+\/auth\/callback\/email\?\S+)/;

/** Ids of the mails the dev mailbox holds now, to wait for a later one. */
export const capturedIds = (mailer: Mailer): Set<number> => new Set(mailer.captured().map((m) => m.id));

/** Waits for a mail to `to` whose text matches, captured by the dev mailbox and not among `seen`. */
export async function waitForCapturedMail(mailer: Mailer, to: string, match: (text: string) => boolean, seen = new Set<number>(), timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const mail = mailer.captured().find((m) => m.to === to && !seen.has(m.id) && match(m.text));
    if (mail) return mail;
    if (Date.now() > end) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface SignedInBrowser {
  context: BrowserContext;
  page: Page;
}

/**
 * Signs a user in the way a person does, in a browser context of their own: opens `path` (a signed-in
 * page), is sent to sign-in, asks for a magic link, reads it from the dev mailbox and opens it, and
 * lands back on `path`.
 */
export async function signInInBrowser(
  browser: Browser,
  app: { url: string; mailer: Mailer },
  email: string,
  path = '/dashboard',
  contextOptions: BrowserContextOptions = {},
  { acceptCookies = true }: { acceptCookies?: boolean } = {},
): Promise<SignedInBrowser> {
  const context = await browser.newContext(contextOptions);
  // The cookie banner would cover the bottom of every page; its own test leaves this off.
  if (acceptCookies) await context.addCookies([{ name: CONSENT_COOKIE, value: '1', url: app.url }]);
  const page = await context.newPage();
  await page.goto(`${app.url}${path}`);
  await page.waitForURL(/\/auth\/signin\?redirect=/);
  const seen = capturedIds(app.mailer);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign in with Email' }).click();
  await page.waitForURL(/\/auth\/verify-request/);
  const mail = await waitForCapturedMail(app.mailer, email, (text) => CALLBACK_LINK.test(text), seen);
  const link = CALLBACK_LINK.exec(mail.text)![1]!;
  await page.goto(link);
  await page.waitForURL(`${app.url}${path}`);
  await page.getByRole('button', { name: 'Account menu' }).waitFor();
  // The marketing question is asked on the dashboard's home alone, never over a page the user came for;
  // a user signing in elsewhere answers it as if they had on the home page, so it never gets in a later step's way.
  if (path === '/dashboard') await answerConsentModal(page);
  else {
    const csrf = ((await (await page.request.get(`${app.url}/auth/csrf`)).json()) as { data: { csrfToken: string } }).data.csrfToken;
    const res = await page.request.put(`${app.url}/api/customer/settings`, { headers: { 'X-CSRF-Token': csrf }, data: { marketing_consent: false } });
    if (!res.ok()) throw new Error(`answering the marketing question failed: ${res.status()}`);
    // The page read the unanswered settings already: load it again with the answer.
    await page.reload();
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
  }
  return { context, page };
}

/** A new user is asked for marketing consent once; answer it as a person would (Save Preferences). */
export async function answerConsentModal(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Your communication preferences' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Save Preferences' }).click();
  await dialog.waitFor({ state: 'hidden' });
}
