import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser';
import { signInInBrowser, type SignedInBrowser } from './browser-sign-in';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app';
import type { TestDatabase } from './db-template';

export interface BrowserApp {
  readonly app: TestApp & { database: TestDatabase };
  readonly browser: Browser;
  /** Signs `email` in (signInInBrowser) in a context of its own, closed in afterAll. */
  signIn(email: string, path?: string): Promise<SignedInBrowser>;
}

/**
 * For a browser test file's describe: starts the app (with `options`) and Chromium in beforeAll, and in
 * afterAll closes every signed-in context, the browser, the app and its database.
 */
export function useBrowserApp(options: TestAppOptions = {}): BrowserApp {
  let app: (TestApp & { database: TestDatabase }) | undefined;
  let browser: Browser | undefined;
  const sessions: SignedInBrowser[] = [];

  beforeAll(async () => {
    app = await startTestApp(options);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const s of sessions) await s.context.close();
    await browser?.close();
    await app?.stop();
    await app?.database.drop();
  });

  return {
    get app() {
      if (!app) throw new Error('the app starts in beforeAll');
      return app;
    },
    get browser() {
      if (!browser) throw new Error('the browser starts in beforeAll');
      return browser;
    },
    async signIn(email, path = '/dashboard') {
      const session = await signInInBrowser(this.browser, this.app, email, path);
      sessions.push(session);
      return session;
    },
  };
}
