// The desktop app's sign-in through the system browser, end to end over HTTP: the test plays the app with the
// app's own module (desktop/main/sign-in.ts) and Chromium plays the system browser.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { startLocalGitHub, type LocalGitHub } from '../helpers/oauth';
import type { TestDatabase } from '../helpers/db-template';
import { capturedIds, waitForCapturedMail } from '../helpers/browser-sign-in';
import { Client } from '../helpers/http-client';
import { DesktopSignIn, createPkcePair, createState, deviceName, startUrl, type SessionCookie } from '../../desktop/main/sign-in';
import { APP_ICON } from '../../shared/site';
import { DESKTOP_CALLBACK_URI, desktopSignInMessages } from '../../shared/desktop-auth';

const CALLBACK_LINK = /(https?:\/\/\S+\/auth\/callback\/email\?\S+)/;

interface Attacker {
  /** The attacker's page, on another site than the app (localhost, while the app is on 127.0.0.1). */
  pageUrl: string;
  /** Where the attacker's listener waits for the browser to bring a code. */
  redirectUri: string;
  /** Every callback the listener received. */
  received: URLSearchParams[];
  close(): Promise<void>;
}

/**
 * Someone else's program on the user's machine: it listens on a loopback port and serves a page that sends a
 * visiting browser to /auth/desktop/start with its own PKCE challenge and that port as the redirect; /post
 * submits the consent form cross-site, as a drive-by page would.
 */
async function startAttacker(appUrl: string, challenge: string): Promise<Attacker> {
  const received: URLSearchParams[] = [];
  let redirectUri = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/callback') {
      received.push(url.searchParams);
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>got it</title><h1>Got it</h1>');
      return;
    }
    const start = startUrl(appUrl, challenge, createState(), redirectUri);
    const body =
      url.pathname === '/post'
        ? `<form method="post" action="${appUrl}/auth/desktop/finish"><input name="decision" value="approve"></form><script>document.forms[0].submit()</script>`
        : `<script>location.href = ${JSON.stringify(start)}</script>`;
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Free stuff</title>${body}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  redirectUri = `http://127.0.0.1:${port}/callback`;
  return {
    pageUrl: `http://localhost:${port}/`,
    redirectUri,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

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

  /** The user reads the consent page and clicks 'Sign in to the desktop app'. */
  const consent = async (page: Page): Promise<void> => {
    await page.getByRole('heading', { name: 'Sign in to the Cairn desktop app?' }).waitFor();
    await page.getByRole('button', { name: 'Sign in to the desktop app' }).click();
  };

  /** Consents, then reads the cairn:// link the finish page offers, as the OS would hand it to the app. */
  const deepLinkOn = async (page: Page): Promise<string> => {
    await consent(page);
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

  it('comes back to a loopback port on 127.0.0.1 where cairn:// links are not delivered; an already signed-in browser goes straight to the consent page', async () => {
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
    const signingIn = flow.signIn();
    await consent(page);
    const { email } = await signingIn;
    expect(email).toBe('loop@example.com');
    expect(new URL(opened[0]!).searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    await page.getByRole('heading', { name: 'You can return to the Cairn app' }).waitFor();
    expect(page.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
    await context.close();
  });

  /** A browser context signed in to Cairn with GitHub. */
  const signedInContext = async (options: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    await page.goto(`${app.url}/auth/signin`);
    await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
    await page.waitForURL(/\/dashboard/);
    return { context, page };
  };

  it("a signed-in browser that visits an attacker's page stops at the consent page: no code reaches the attacker's loopback listener", async () => {
    const { verifier, challenge } = createPkcePair();
    const attacker = await startAttacker(app.url, challenge);
    const { context, page } = await signedInContext();
    try {
      await page.goto(attacker.pageUrl);
      // The browser comes to rest either on Cairn's consent page or at the attacker's listener.
      await page.waitForURL((url) => url.pathname === '/auth/desktop/finish' || url.pathname === '/callback');
      await page.waitForLoadState();
      // Had a code arrived, the attacker's verifier would trade it for the user's session.
      const stolen = attacker.received.find((q) => q.has('code'))?.get('code');
      const exchange = stolen ? await new Client(app.url).request('POST', '/auth/desktop/token', { body: { code: stolen, code_verifier: verifier } }) : null;
      expect(exchange?.body).toBeUndefined();
      await page.getByRole('heading', { name: 'Sign in to the Cairn desktop app?' }).waitFor();

      // The finish URL alone, fetched again, still only asks.
      const again = await page.goto(`${app.url}/auth/desktop/finish`);
      expect(again?.status()).toBe(200);
      // The consent page cannot be framed by another site to trick a click.
      expect(again?.headers()['x-frame-options']).toBe('SAMEORIGIN');
      await page.getByRole('button', { name: 'Sign in to the desktop app' }).waitFor();

      // A cross-site form that "clicks" Sign in for the user has no CSRF token: refused, no code.
      const posted = page.waitForResponse((r) => r.url() === `${app.url}/auth/desktop/finish` && r.request().method() === 'POST');
      await page.goto(`${attacker.pageUrl}post`);
      expect((await posted).status()).toBe(403);
      expect(attacker.received).toEqual([]);

      // Cancel: nothing is issued, and the sign-in is over.
      await page.goto(`${app.url}/auth/desktop/finish`);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('heading', { name: 'Desktop sign-in cancelled' }).waitFor();
      expect(attacker.received.some((q) => q.has('code'))).toBe(false);
      await page.goto(`${app.url}/auth/desktop/finish`);
      await page.getByRole('heading', { name: 'Could not finish signing in to the app' }).waitFor();
      const rows = await app.db('desktop_sign_ins').where({ redirect_uri: attacker.redirectUri }).whereNotNull('code_hash').count({ n: '*' });
      expect(Number(rows[0]?.n)).toBe(0);
    } finally {
      await context.close();
      await attacker.close();
    }
  });

  it('the consent page names the app, the device, the browser and the loopback port the code goes to, at phone and desktop widths', async () => {
    const windowsChrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    const { context, page } = await signedInContext({ userAgent: windowsChrome, viewport: { width: 375, height: 800 } });
    try {
      const opened: string[] = [];
      const flow = new DesktopSignIn({
        cairnOrigin: app.url,
        deepLinksDelivered: () => false,
        deviceName: deviceName('janes-laptop.local', 'win32'),
        openExternal: async (url) => {
          opened.push(url);
          await page.goto(url);
        },
      });
      const signingIn = flow.signIn();
      await page.getByRole('heading', { name: 'Sign in to the Cairn desktop app?' }).waitFor();
      const port = new URL(new URL(opened[0]!).searchParams.get('redirect_uri')!).port;
      const facts = await page.locator('dl').evaluate((dl) =>
        Object.fromEntries([...dl.querySelectorAll('dt')].map((dt) => [dt.textContent, (dt.nextElementSibling as HTMLElement).innerText])),
      );
      expect(facts['App']).toBe('Cairn desktop app');
      expect(facts['Device']).toContain('janes-laptop (Windows)');
      expect(facts['Started in']).toBe('Chrome on Windows');
      expect(facts['Returns to']).toContain(`http://127.0.0.1:${port}/callback`);
      expect(facts['Returns to']).toContain(`port ${port}`);
      await page.getByText('deskoct@example.com').waitFor();
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe(APP_ICON);
      // Nothing runs off the side of a phone, nor of a desktop window, the buttons included.
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        for (const name of ['Sign in to the desktop app', 'Cancel']) {
          const box = (await page.getByRole('button', { name }).boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(width);
        }
      }
      await page.getByRole('button', { name: 'Sign in to the desktop app' }).click();
      expect((await signingIn).email).toBe('deskoct@example.com');
    } finally {
      await context.close();
    }
  });

  it('refuses a consent without the CSRF token, for another sign-in or with no decision, and a device name with markup; nothing is issued', async () => {
    const { context, page } = await signedInContext();
    try {
      const { challenge } = createPkcePair();
      const bad = await page.goto(startUrl(app.url, challenge, createState(), DESKTOP_CALLBACK_URI, '<script>x</script>'));
      expect(bad?.status()).toBe(400);
      await page.getByText(desktopSignInMessages.badDevice).waitFor();

      await page.goto(startUrl(app.url, challenge, createState(), DESKTOP_CALLBACK_URI, 'work box'));
      await page.getByRole('heading', { name: 'Sign in to the Cairn desktop app?' }).waitFor();
      const form = Object.fromEntries(await page.locator('form input[type=hidden]').evaluateAll((inputs) => inputs.map((i) => [(i as HTMLInputElement).name, (i as HTMLInputElement).value])));
      const finish = `${app.url}/auth/desktop/finish`;
      const noToken = await page.request.post(finish, { form: { decision: 'approve', sign_in: form['sign_in']! }, maxRedirects: 0 });
      expect(noToken.status()).toBe(403);
      const wrongToken = await page.request.post(finish, { form: { ...form, csrf_token: 'x'.repeat(43), decision: 'approve' }, maxRedirects: 0 });
      expect(wrongToken.status()).toBe(403);
      const other = await page.request.post(finish, { form: { ...form, sign_in: 'a'.repeat(64), decision: 'approve' }, maxRedirects: 0 });
      expect(other.status()).toBe(409);
      expect(await other.text()).toContain(desktopSignInMessages.badConsent);
      const undecided = await page.request.post(finish, { form, maxRedirects: 0 });
      expect(undecided.status()).toBe(400);
      expect(await undecided.text()).toContain('decision must be approve or cancel.');
      const issued = await app.db('desktop_sign_ins').where({ device_name: 'work box' }).whereNotNull('code_hash').count({ n: '*' });
      expect(Number(issued[0]?.n)).toBe(0);
      // The sign-in still waits for the user's own click.
      await page.reload();
      await deepLinkOn(page);
    } finally {
      await context.close();
    }
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
