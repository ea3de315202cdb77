import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { signInInBrowser } from '../helpers/browser-sign-in';
import { framesDrawn } from '../helpers/page-waits';
import { ARTIFACTS, type TestDatabase } from '../helpers/db-template';
import { messages } from '../../shared/messages';
import { CONSENT_COOKIE, DEPLOY_POLL_MS } from '../../shared/site';

const SITE_ENV = {
  STATUS_URL: 'https://status.cairn.example',
  BLOG_URL: 'https://blog.cairn.example',
  DOCS_URL: 'https://docs.cairn.example',
  SUPPORT_EMAIL: 'help@cairn.example',
  SOCIAL_LINKS: 'GitHub=https://github.com/cairn-example',
  COMPANY_ADDRESS: 'Cairn Ltd, 1 Stone Row, Edinburgh',
};

const noHorizontalScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe.runIf(browserAvailable())('the public site and the dashboard shell, in Chromium', () => {
  let browser: Browser;
  let app: TestApp & { database: TestDatabase };

  beforeAll(async () => {
    app = await startTestApp({ env: SITE_ENV });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await app?.database.drop();
  });

  const visit = async (p: string, width = 1280) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.addCookies([{ name: CONSENT_COOKIE, value: '1', url: app.url }]);
    const page = await context.newPage();
    await page.goto(app.url + p);
    return { context, page };
  };

  it('rotates the hero words every 3 s and shows the latest block', async () => {
    const { context, page } = await visit('/');
    const word = page.getByTestId('hero-word');
    const first = await word.getAttribute('data-word');
    expect(['Cardano', 'IPFS']).toContain(first);
    const changed = (from: string | null) => page.waitForFunction((w) => document.querySelector('[data-testid="hero-word"]')?.getAttribute('data-word') !== w, from, { timeout: 5000 });
    // Timed from one change to the next: when the first word was read depends on how long the page took to load.
    await changed(first);
    const t = Date.now();
    await changed(await word.getAttribute('data-word'));
    expect(Date.now() - t).toBeGreaterThan(1500);
    // The terminal shows the live block from GET /api/landing (the sandbox chain here), not the built-in sample.
    const live = (await (await fetch(`${app.url}/api/landing`)).json()) as { data: { height: number } };
    await page.waitForFunction((h) => document.querySelector('[data-testid="block-terminal"]')?.textContent?.includes(String(h - 1)) || document.querySelector('[data-testid="block-terminal"]')?.textContent?.includes(String(h)), live.data.height);
    await context.close();
  });

  it('paints the landing page from its HTML before any script, then hydrates it in place without a mismatch', async () => {
    // Without JavaScript at all: the headline, the hero's links and the terminal are in the page the server sends.
    const noScript = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const still = await noScript.newPage();
    await still.goto(app.url + '/');
    expect(await still.getByRole('heading', { level: 1, name: /Instant API access to/ }).isVisible()).toBe(true);
    expect(await still.getByRole('link', { name: 'Start Building' }).getAttribute('href')).toBe('/auth/signin');
    expect(await still.getByTestId('block-terminal').isVisible()).toBe(true);
    await noScript.close();
    // The app's entry is fetched at once but run by a small loader the frame after the first paint, so
    // evaluating its modules never holds back the paint of that HTML (vite.config.ts paintFirst).
    const landingHtml = await (await fetch(app.url + '/', { headers: { accept: 'text/html' } })).text();
    const entry = /<link rel="modulepreload" crossorigin href="(\/assets\/index-[^"]+\.js)">/.exec(landingHtml)?.[1];
    const loader = /<script type="module" crossorigin src="(\/assets\/landing-boot-[^"]+\.js)"><\/script>/.exec(landingHtml)?.[1];
    expect(entry && loader).toBeTruthy();
    expect(landingHtml).not.toContain(`<script type="module" crossorigin src="${entry}">`);
    expect(await (await fetch(app.url + loader!)).text()).toContain(`import('./${entry!.slice('/assets/'.length)}')`);
    // Only / carries it: any other page starts from the empty shell (no landing page flashing before sign-in).
    expect(await (await fetch(app.url + '/auth/signin', { headers: { accept: 'text/html' } })).text()).toContain('<div id="root"></div>');

    // With JavaScript: React adopts those elements instead of replacing them (a hydration mismatch would make it
    // render the page afresh, removing them), with no error, and the rest of the page follows.
    const { context, page } = await visit('/');
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.addInitScript(() => {
      const removed: string[] = [];
      (window as unknown as { removedLandingNodes: string[] }).removedLandingNodes = removed;
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.removedNodes) if (n instanceof Element && (n.matches('h1, header, pre') || n.querySelector('h1, header, pre'))) removed.push(n.tagName);
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(app.url + '/');
    await page.locator('#pricing').waitFor();
    await page.getByRole('navigation', { name: 'Main', exact: true }).getByRole('link', { name: 'Status' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { removedLandingNodes: string[] }).removedLandingNodes)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('toggles fixed plans and Pay As You Go, monthly and yearly, with the right prices and savings', async () => {
    const { context, page } = await visit('/#pricing');
    await page.getByRole('radiogroup', { name: 'Plan type' }).waitFor();
    await page.getByText('New', { exact: true }).first().waitFor();
    expect(await page.getByTestId('price-HOBBY').textContent()).toContain('29');
    await page.getByRole('radio', { name: /Yearly/ }).check({ force: true });
    expect(await page.getByTestId('price-HOBBY').textContent()).toContain('299');
    expect(await page.getByTestId('savings-HOBBY').textContent()).toContain('49');
    expect(await page.getByTestId('savings-DEVELOPER').textContent()).toContain('149');
    await page.getByRole('radio', { name: /Pay As You Go/ }).check({ force: true });
    await page.getByTestId('payg-price-eur').waitFor();
    expect(await page.getByTestId('payg-price-eur').textContent()).toMatch(/0[.,]24/);
    await context.close();
  });

  it.each([375, 1280])('#pay-as-you-go and #pricing land below the sticky header with the tab toggle visible (%i px)', async (width) => {
    const { context, page } = await visit('/#pay-as-you-go', width);
    await page.getByTestId('payg-price-eur').waitFor();
    expect(await page.getByRole('radio', { name: /Pay As You Go/ }).isChecked()).toBe(true);
    // The toggle sits wholly below the header and inside the window, and so does the card's price.
    const toggleVisible = (hash: string) =>
      page.waitForFunction((h) => {
        if (location.hash !== h) return false;
        // Right after the reload the page may not hold them yet: wait rather than throw.
        const header = document.querySelector('header')?.getBoundingClientRect();
        const toggle = document.querySelector('[role="radiogroup"]')?.getBoundingClientRect();
        return !!header && !!toggle && toggle.top >= header.bottom && toggle.bottom <= window.innerHeight;
      }, hash);
    await toggleVisible('#pay-as-you-go');
    expect(await page.getByTestId('payg-price-eur').isVisible()).toBe(true);
    await page.goto(`${page.url().split('#')[0]}#pricing`);
    await page.reload();
    await toggleVisible('#pricing');
    await context.close();
  });

  it('shows the full navigation above 998 px and a toggle menu below', async () => {
    const wide = await visit('/', 1280);
    const main = wide.page.getByRole('navigation', { name: 'Main', exact: true });
    for (const label of ['Home', 'Pricing', 'Status', 'Blog', 'Documentation']) await main.getByRole('link', { name: label }).waitFor();
    expect(await main.getByRole('link', { name: 'Status' }).getAttribute('href')).toBe(SITE_ENV.STATUS_URL);
    expect(await wide.page.getByRole('button', { name: 'Toggle navigation' }).isVisible()).toBe(false);
    await wide.context.close();

    const narrow = await visit('/', 900);
    expect(await narrow.page.getByRole('navigation', { name: 'Main', exact: true }).isVisible()).toBe(false);
    // The landing page is prerendered, so its toggle is on screen before React has adopted it, and a
    // click then does nothing: wait until React has hydrated #root (it marks the container it owns).
    await narrow.page.waitForFunction(() => Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__reactContainer')));
    await narrow.page.getByRole('button', { name: 'Toggle navigation' }).click();
    await narrow.page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Documentation' }).waitFor();
    await narrow.context.close();
  });

  it('sends buttons to sign-in with a redirect when signed out, and straight on when signed in', async () => {
    const out = await visit('/#pricing');
    expect(await out.page.getByTestId('dashboard-button').getAttribute('href')).toBe('/auth/signin');
    expect(await out.page.getByTestId('plan-button-HOBBY').getAttribute('href')).toBe('/auth/signin?redirect=%2Fdashboard%2Fsubscription%3Fplan%3DHOBBY%26period%3Dmonth');
    // The support address arrives with GET /api/site; until then the button points at the contact section.
    await expect.poll(() => out.page.getByTestId('plan-button-ENTERPRISE').getAttribute('href')).toBe('mailto:help@cairn.example');
    await out.page.getByRole('radio', { name: /Pay As You Go/ }).check({ force: true });
    expect(await out.page.getByTestId('payg-button').getAttribute('href')).toBe('/auth/signin?redirect=%2Fdashboard%2Fsubscription%2Fplans');
    await out.page.getByRole('link', { name: 'Get in Touch' }).waitFor();
    expect(await out.page.getByRole('link', { name: 'Get in Touch' }).getAttribute('href')).toBe('mailto:help@cairn.example');
    await out.page.getByText(SITE_ENV.COMPANY_ADDRESS).waitFor();
    await out.context.close();

    const session = await signInInBrowser(browser, app, 'site-user@example.com');
    await session.page.goto(`${app.url}/#pricing`);
    await session.page.waitForFunction(() => document.querySelector('[data-testid="dashboard-button"]')?.getAttribute('href') === '/dashboard');
    expect(await session.page.getByTestId('plan-button-HOBBY').getAttribute('href')).toBe('/dashboard/subscription?plan=HOBBY&period=month');
    await session.page.getByRole('radio', { name: /Pay As You Go/ }).check({ force: true });
    expect(await session.page.getByTestId('payg-button').getAttribute('href')).toBe('/dashboard/subscription/plans');
    await session.context.close();
  });

  it('shows the cookie banner, its Cookie Policy link, until Accept, and never again after', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(app.url + '/');
    const banner = page.getByRole('region', { name: 'Cookie consent' });
    await banner.getByText(messages.cookieBanner).waitFor();
    // 'Cookie Policy' is a link: to the built-in page while COOKIE_POLICY_URL is unset.
    await banner.getByRole('link', { name: 'Cookie Policy' }).click();
    await page.waitForURL(/\/cookie-policy$/);
    await page.getByRole('heading', { name: 'Cookie Policy' }).waitFor();
    expect(await page.getByText('cairn.sid').count()).toBe(1);
    await banner.getByRole('button', { name: 'Accept' }).click();
    await banner.waitFor({ state: 'hidden' });
    expect((await context.cookies()).some((c) => c.name === CONSENT_COOKIE)).toBe(true);
    await page.goto(app.url + '/');
    await page.getByTestId('hero-word').waitFor();
    expect(await page.getByText(messages.cookieBanner).count()).toBe(0);
    await context.close();
  });

  it('has no horizontal scroll at 375, 768, 1280 and 1920 px', async () => {
    const session = await signInInBrowser(browser, app, 'widths@example.com');
    // Each page is loaded once, at the narrowest width, and the window then widened, as a window is resized.
    for (const p of ['/', '/auth/signin', '/dashboard']) {
      const page = p === '/dashboard' ? session.page : (await visit(p, 375)).page;
      if (p === '/dashboard') {
        await page.setViewportSize({ width: 375, height: 900 });
        await page.goto(app.url + p);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
      } else await page.waitForLoadState('networkidle');
      for (const width of [375, 768, 1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await framesDrawn(page);
        expect(await noHorizontalScroll(page), `${p} at ${width}px`).toBe(true);
      }
      if (p !== '/dashboard') await page.context().close();
    }
    await session.context.close();
  });

  // One test a page, each waiting for what its page shows (a polling page never falls quiet on the network):
  // an axe scan of a whole page takes seconds of a busy machine's CPU, and three in one test, a sign-in
  // with them, came near one test's time.
  const axeSeries = [
    { path: '/', shown: (page: Page) => page.getByRole('heading', { level: 1, name: /Instant API access to/ }) },
    { path: '/auth/signin', shown: (page: Page) => page.getByLabel('Email') },
    { path: '/dashboard', shown: (page: Page) => page.getByRole('heading', { level: 1 }).first() },
  ];
  for (const { path: p, shown } of axeSeries) {
    it(`has no serious or critical axe violations on ${p}`, async () => {
      const { context, page } = p === '/dashboard' ? await signInInBrowser(browser, app, 'axe@example.com') : await visit(p);
      await shown(page).waitFor();
      await framesDrawn(page);
      const result = await new AxeBuilder({ page }).analyze();
      const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(" ")} ${n.html.slice(0, 160)} ${n.failureSummary ?? ""}`).join(" | ")}`), p).toEqual([]);
      await context.close();
    });
  }

  it('reaches every landing link by keyboard', async () => {
    const { context, page } = await visit('/');
    await page.keyboard.press('Tab');
    const seen = new Set<string>();
    for (let i = 0; i < 25; i++) {
      seen.add((await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '')) || '');
      await page.keyboard.press('Tab');
    }
    for (const label of ['Pricing', 'Dashboard']) expect([...seen].some((s) => s.includes(label)), label).toBe(true);
    await context.close();
  });
});

describe.runIf(browserAvailable())('maintenance mode and the deploy checker, in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('replaces the dashboard with the maintenance page', async () => {
    const app = await startTestApp({ env: { MAINTENANCE_MODE: 'true', MAINTENANCE_ETA: '2026-12-01T18:00:00Z', STATUS_URL: 'https://status.cairn.example', SUPPORT_EMAIL: 'help@cairn.example' } });
    try {
      const context = await browser.newContext();
      await context.addCookies([{ name: CONSENT_COOKIE, value: '1', url: app.url }]);
      const page = await context.newPage();
      await page.goto(`${app.url}/dashboard`);
      await page.getByLabel('Email').fill('maint@example.com');
      await page.getByRole('button', { name: 'Sign in with Email' }).click();
      await page.waitForURL(/verify-request/);
      const link = /(http:\/\/\S+\/auth\/callback\/email\?\S+)/.exec(app.mailer.captured()[0]!.text)![1]!;
      await page.goto(link);
      await page.getByRole('heading', { name: 'Maintenance Mode' }).waitFor();
      await page.getByText(/temporarily unavailable during scheduled maintenance/).waitFor();
      expect(await page.getByRole('link', { name: /status/i }).first().getAttribute('href')).toBe('https://status.cairn.example');
      expect(await page.getByRole('link', { name: /support/i }).first().getAttribute('href')).toBe('mailto:help@cairn.example');
      await context.close();
    } finally {
      await app.stop();
      await app.database.drop();
    }
  });

  it('shows the new-version toast when a new build replaced the old one under the page, and the reload runs the new build', async () => {
    const webDir = path.join(ARTIFACTS, `web-redeploy-${process.pid}`);
    fs.cpSync(path.resolve(import.meta.dirname, '../../dist/web'), webDir, { recursive: true });
    const app = await startTestApp({ webDir });
    try {
      const session = await signInInBrowser(browser, app, 'redeploy@example.com');
      // A browser whose cache holds only what the dashboard itself loads (signing in showed toasts, whose
      // container would otherwise come from the cache after the deploy removed it).
      const context = await browser.newContext();
      await context.addCookies(await session.context.cookies());
      await session.context.close();
      await context.clock.install();
      const page = await context.newPage();
      const firstCheck = page.waitForResponse((r) => r.url().endsWith('/api/has-new-deploy'));
      await page.goto(`${app.url}/dashboard`);
      await firstCheck;
      await page.getByRole('button', { name: 'Account menu' }).waitFor();
      const oldScripts = await page.evaluate(() => [...document.scripts].map((s) => s.src).filter(Boolean));
      // The deploy: every hashed file under a new name, the old ones gone, and a new build id.
      const newId = replaceBuild(webDir);
      const missing: string[] = [];
      page.on('response', (r) => (r.status() === 404 && r.url().includes('/assets/') ? missing.push(r.url()) : undefined));
      await page.clock.fastForward(DEPLOY_POLL_MS + 1000);
      await page.getByText(messages.deploy.newVersion).waitFor({ timeout: 10_000 });
      const shots = path.join(ARTIFACTS, 'screenshots');
      fs.mkdirSync(shots, { recursive: true });
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 800 });
        expect(await noHorizontalScroll(page)).toBe(true);
        await page.screenshot({ path: path.join(shots, `new-version-toast-${width}.png`) });
      }
      const reloaded = page.waitForEvent('load');
      await page.getByText(messages.deploy.newVersion).click();
      await reloaded;
      await page.getByRole('button', { name: 'Account menu' }).waitFor();
      const newScripts = await page.evaluate(() => [...document.scripts].map((s) => s.src).filter(Boolean));
      expect(newScripts.some((src) => oldScripts.includes(src))).toBe(false);
      // The page now runs the new build: its next check finds nothing newer.
      expect(await (await page.request.get(`${app.url}/api/has-new-deploy`)).json()).toEqual({ data: { version: newId } });
      const nextCheck = page.waitForResponse((r) => r.url().endsWith('/api/has-new-deploy'));
      await page.clock.fastForward(DEPLOY_POLL_MS + 1000);
      await nextCheck;
      expect(await page.getByText(messages.deploy.newVersion).count()).toBe(0);
      expect(missing.filter((u) => newScripts.some((s) => s === u))).toEqual([]);
      await context.close();
    } finally {
      await app.stop();
      await app.database.drop();
      fs.rmSync(webDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('shows the persistent new-version toast after a deploy, and reloads on click', async () => {
    const webDir = path.join(ARTIFACTS, `web-deploy-${process.pid}`);
    fs.cpSync(path.resolve(import.meta.dirname, '../../dist/web'), webDir, { recursive: true });
    const app = await startTestApp({ webDir });
    try {
      const session = await signInInBrowser(browser, app, 'deploy@example.com');
      const page = session.page;
      // The page's own clock, so its 30 s poll can be jumped to rather than waited for.
      await session.context.clock.install();
      const firstCheck = page.waitForResponse((r) => r.url().endsWith('/api/has-new-deploy'));
      await page.reload();
      await firstCheck;
      // A new build id on disk is what a deploy looks like.
      fs.writeFileSync(path.join(webDir, 'version.json'), JSON.stringify({ version: 'a-newer-build' }));
      const later = new Date(Date.now() + 10_000);
      fs.utimesSync(path.join(webDir, 'version.json'), later, later);
      // Nothing before the poll is due: the toast waits for the next check, not for the page load.
      await page.clock.fastForward(DEPLOY_POLL_MS / 2);
      expect(await page.getByText(messages.deploy.newVersion).count()).toBe(0);
      await page.clock.fastForward(DEPLOY_POLL_MS / 2 + 1000);
      await page.getByText(messages.deploy.newVersion).waitFor({ timeout: 10_000 });
      const reloaded = page.waitForEvent('load');
      await page.getByText(messages.deploy.newVersion).click();
      await reloaded;
      await session.context.close();
    } finally {
      await app.stop();
      await app.database.drop();
      fs.rmSync(webDir, { recursive: true, force: true });
    }
  }, 90_000);
});

/**
 * Turns the build in `webDir` into what the next deploy leaves there: each hashed asset renamed (the old
 * names answer 404), every reference to it rewritten, and a new build id in version.json and the bundle.
 */
function replaceBuild(webDir: string): string {
  const oldId = (JSON.parse(fs.readFileSync(path.join(webDir, 'version.json'), 'utf8')) as { version: string }).version;
  const newId = `${oldId}-next`;
  const assets = path.join(webDir, 'assets');
  const renames = new Map(fs.readdirSync(assets).map((f) => [f, f.replace(/(\.[a-z0-9]+)$/i, '-next$1')]));
  for (const [from, to] of renames) fs.renameSync(path.join(assets, from), path.join(assets, to));
  // Longest names first, so no name is rewritten inside a longer one.
  const ordered = [...renames].sort((a, b) => b[0].length - a[0].length);
  const texts = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? texts(path.join(dir, e.name)) : /\.(js|css|html|json)$/.test(e.name) ? [path.join(dir, e.name)] : []));
  for (const file of texts(webDir)) {
    const before = fs.readFileSync(file, 'utf8');
    let after = before.split(oldId).join(newId);
    for (const [from, to] of ordered) after = after.split(from).join(to);
    if (after !== before) fs.writeFileSync(file, after);
  }
  return newId;
}
