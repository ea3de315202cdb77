// The desktop app's sign-in through the system browser, end to end over HTTP: the test plays the app with the
// app's own module (desktop/main/sign-in.ts) and Chromium plays the system browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { startLocalGitHub, type LocalGitHub } from '../helpers/oauth';
import type { TestDatabase } from '../helpers/db-template';
import { capturedIds, waitForCapturedMail } from '../helpers/browser-sign-in';
import { Client } from '../helpers/http-client';
import { DesktopSignIn, createPkcePair, createState, startUrl, type SessionCookie } from '../../desktop/main/sign-in';
import { DESKTOP_CALLBACK_URI, desktopSignInMessages } from '../../shared/desktop-auth';

const CALLBACK_LINK = /(https?:\/\/\S+\/auth\/callback\/email\?\S+)/;

describe.runIf(browserAvailable())('desktop sign-in through the system browser (PKCE)', () => {
  let browser: Browser;
  let github: LocalGitHub;
  let app: TestApp & { database: TestDatabase };

  beforeAll(async () => {
    github = await startLocalGitHub({ id: 91, login: 'deskoct', emails: [{ email: 'deskoct@example.com', primary: true, verified: true }] });
    app = await startTestApp({ env: { ...github.env } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await app?.database.drop();
    await github?.close();
  });

  /** The app's own client: only the session cookie the exchange handed over. */
  const appClient = (cookie: SessionCookie): Client => {
    const client = new Client(app.url);
    client.cookies.set(cookie.name, cookie.value);
    return client;
  };

  /** Reads the cairn:// link the finish page offers, as the OS would hand it to the app. */
  const deepLinkOn = async (page: Page): Promise<string> => {
    await page.getByRole('heading', { name: 'Return to the Cairn app' }).waitFor();
    const href = await page.getByRole('link', { name: 'Open the Cairn app' }).getAttribute('href');
    expect(href?.startsWith(`${DESKTOP_CALLBACK_URI}?`)).toBe(true);
    return href!;
  };

  it('signs in by e-mail link in the browser, comes back by cairn://, and the code works once with its verifier only', async () => {
    const context: BrowserContext = await browser.newContext();
    const page = await context.newPage();
    const seen = capturedIds(app.mailer);
    const flow = new DesktopSignIn({
      cairnOrigin: app.url,
      deepLinksDelivered: () => true,
      openExternal: async (url) => {
        await page.goto(url);
      },
    });
    const signedIn = flow.signIn();
    // The normal sign-in page, remembering where to go afterwards.
    await page.waitForURL(/\/auth\/signin\?redirect=%2Fauth%2Fdesktop%2Ffinish$/);
    await page.getByLabel('Email').fill('desk@example.com');
    await page.getByRole('button', { name: 'Sign in with Email' }).click();
    await page.waitForURL(/\/auth\/verify-request/);
    const mail = await waitForCapturedMail(app.mailer, 'desk@example.com', (text) => CALLBACK_LINK.test(text), seen);
    await page.goto(CALLBACK_LINK.exec(mail.text)![1]!);
    const link = await deepLinkOn(page);
    // A link with another state (another sign-in, or someone else's) is not taken.
    expect(flow.handleCallback(link.replace(/state=[^&]+/, 'state=' + 'x'.repeat(32)))).toBe(false);
    expect(flow.handleCallback(link)).toBe(true);
    const { cookie, email } = await signedIn;
    expect(email).toBe('desk@example.com');
    expect(cookie).toMatchObject({ name: 'cairn.sid', httpOnly: true, path: '/' });

    // The app has a session of its own.
    const client = appClient(cookie);
    const me = await client.request('GET', '/api/me');
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe('desk@example.com');

    // The same code again is refused, even with the right verifier.
    const code = new URL(link).searchParams.get('code')!;
    const replay = await new Client(app.url).request('POST', '/auth/desktop/token', { body: { code, code_verifier: 'v'.repeat(43) } });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toEqual({ code: 'invalid_grant', message: desktopSignInMessages.invalidCode });

    // Signing out in the app ends that session on the server.
    const out = await client.request('POST', '/auth/signout');
    expect(out.status).toBe(200);
    const after = await appClient(cookie).request('GET', '/api/me');
    expect(after.status).toBe(401);
    await context.close();
  });

  it('refuses a code with the wrong verifier, and that code is spent afterwards', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const { verifier, challenge } = createPkcePair();
    const state = createState();
    await page.goto(startUrl(app.url, challenge, state, DESKTOP_CALLBACK_URI));
    await page.waitForURL(/\/auth\/signin\?redirect=/);
    // Any sign-in method: GitHub (a local OAuth2 server) this time.
    await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
    const link = new URL(await deepLinkOn(page));
    expect(link.searchParams.get('state')).toBe(state);
    const code = link.searchParams.get('code')!;

    const wrong = await new Client(app.url).request('POST', '/auth/desktop/token', { body: { code, code_verifier: createPkcePair().verifier } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('invalid_grant');
    expect(wrong.headers.getSetCookie().some((c) => c.startsWith('cairn.sid='))).toBe(false);
    const right = await new Client(app.url).request('POST', '/auth/desktop/token', { body: { code, code_verifier: verifier } });
    expect(right.status).toBe(400);
    await context.close();
  });

  it('comes back to a loopback port on 127.0.0.1 where cairn:// links are not delivered; an already signed-in browser goes straight back', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // Signed in in this browser already (the magic link of the first test's user).
    const seen = capturedIds(app.mailer);
    await page.goto(`${app.url}/auth/signin`);
    await page.getByLabel('Email').fill('loop@example.com');
    await page.getByRole('button', { name: 'Sign in with Email' }).click();
    const mail = await waitForCapturedMail(app.mailer, 'loop@example.com', (text) => CALLBACK_LINK.test(text), seen);
    await page.goto(CALLBACK_LINK.exec(mail.text)![1]!);
    await page.waitForURL(/\/dashboard/);

    const opened: string[] = [];
    const flow = new DesktopSignIn({
      cairnOrigin: app.url,
      deepLinksDelivered: () => false,
      openExternal: async (url) => {
        opened.push(url);
        await page.goto(url);
      },
    });
    const { email } = await flow.signIn();
    expect(email).toBe('loop@example.com');
    expect(new URL(opened[0]!).searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    await page.getByRole('heading', { name: 'You can return to the Cairn app' }).waitFor();
    expect(page.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
    await context.close();
  });

  it('refuses a start with a foreign redirect or no S256 challenge, and a finish from a browser that did not start', async () => {
    const client = new Client(app.url);
    const { challenge } = createPkcePair();
    const evilUrl = new URL(startUrl(app.url, challenge, createState(), 'https://evil.example/callback'));
    const evil = await client.request('GET', evilUrl.pathname + evilUrl.search);
    expect(evil.status).toBe(400);
    expect(evil.text).toContain(desktopSignInMessages.badRedirect.replace(/</g, '&lt;').replace(/>/g, '&gt;'));
    const plain = await client.request('GET', `/auth/desktop/start?code_challenge=${challenge}&code_challenge_method=plain&state=${createState()}&redirect_uri=${encodeURIComponent(DESKTOP_CALLBACK_URI)}`);
    expect(plain.status).toBe(400);
    const stored = await app.db('desktop_sign_ins').where({ redirect_uri: 'https://evil.example/callback' }).count({ n: '*' });
    expect(Number(stored[0]?.n)).toBe(0);

    // Signed in, but this browser never started a desktop sign-in: no code.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/auth/signin`);
    await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
    await page.waitForURL(/\/dashboard/);
    await page.goto(`${app.url}/auth/desktop/finish`);
    await page.getByRole('heading', { name: 'Could not finish signing in to the app' }).waitFor();
    await context.close();
  });
});
