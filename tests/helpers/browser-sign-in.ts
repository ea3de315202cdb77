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
 * Signs a user in, in a browser context of their own, and opens `path` (a signed-in page). The magic
 * link goes through the context's own HTTP client (its cookies are the browser's): asks for the link as
 * the sign-in form does, reads it from the dev mailbox and follows it, so the browser loads one page
 * rather than four. The form itself, the verify page and the redirect after the link are what
 * tests/e2e/sign-in.test.ts and the desktop sign-in tests walk in the browser.
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
  const csrfToken = async () => ((await (await context.request.get(`${app.url}/auth/csrf`)).json()) as { data: { csrfToken: string } }).data.csrfToken;
  const seen = capturedIds(app.mailer);
  const asked = await context.request.post(`${app.url}/auth/signin/email`, {
    headers: { 'X-CSRF-Token': await csrfToken() },
    data: { email, captchaToken: null, callbackUrl: path },
  });
  if (!asked.ok()) throw new Error(`asking for a sign-in link failed: ${asked.status()} ${await asked.text()}`);
  const mail = await waitForCapturedMail(app.mailer, email, (text) => CALLBACK_LINK.test(text), seen);
  const followed = await context.request.get(CALLBACK_LINK.exec(mail.text)![1]!);
  if (!followed.ok()) throw new Error(`following the sign-in link failed: ${followed.status()}`);
  // The marketing question is asked on the dashboard's home alone, never over a page the user came for;
  // a user signing in elsewhere answers it as if they had on the home page, so it never gets in a later step's way.
  if (path !== '/dashboard') {
    const res = await context.request.put(`${app.url}/api/customer/settings`, { headers: { 'X-CSRF-Token': await csrfToken() }, data: { marketing_consent: false } });
    if (!res.ok()) throw new Error(`answering the marketing question failed: ${res.status()}`);
  }
  const page = await context.newPage();
  await page.goto(`${app.url}${path}`);
  await page.waitForURL(`${app.url}${path}`);
  await page.getByRole('button', { name: 'Account menu' }).waitFor();
  if (path === '/dashboard') await answerConsentModal(page);
  return { context, page };
}

/** A new user is asked for marketing consent once; answer it as a person would (Save Preferences). */
export async function answerConsentModal(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Your communication preferences' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Save Preferences' }).click();
  try {
    await dialog.waitFor({ state: 'hidden' });
  } catch (err) {
    // Still open: say what the page showed (a notification of a failed save, the button's state), not only that it waited.
    const shown = await page.locator('.mantine-Notification-root').allInnerTexts().catch(() => []);
    const button = await dialog.getByRole('button', { name: 'Save Preferences' }).evaluate((b) => ({ disabled: (b as HTMLButtonElement).disabled, loading: b.hasAttribute('data-loading') })).catch(() => null);
    throw new Error(`the consent dialog stayed open after Save Preferences (notifications: ${JSON.stringify(shown)}; button: ${JSON.stringify(button)})`, { cause: err });
  }
}
