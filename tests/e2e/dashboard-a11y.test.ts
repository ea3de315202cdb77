// axe-core injected into every dashboard page (each route of shared/routes.ts under /dashboard, with
// real ids), with the account menu open too: no serious or critical violation anywhere.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable } from '../helpers/browser';
import { useBrowserApp } from '../helpers/browser-app';
import { inFlight, navigateInApp } from '../helpers/page-waits';
import { appRoutes, isDashboardPath } from '../../shared/routes';
import { planLookupKey } from '../../shared/billing';

// Evaluated through the browser's protocol: the dashboard's Content-Security-Policy refuses inline scripts.
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const EMAIL = 'a11y@example.com';

interface AxeResult {
  violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: string[]; html: string; failureSummary?: string }> }>;
}

async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(() => (window as unknown as { axe: { run: (ctx: Document) => Promise<unknown> } }).axe.run(document))) as AxeResult;
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)} ${n.failureSummary ?? ''}`).join(' | ')}`);
}

/** A menu fades in: colours are measured once it is fully opaque. */
const menuOpened = (page: Page) =>
  page.waitForFunction(() => [...document.querySelectorAll('[role="menu"]')].every((m) => getComputedStyle(m).opacity === '1'));

describe.runIf(browserAvailable())('accessibility of every dashboard page, in Chromium', () => {
  const suite = useBrowserApp({ env: { OPERATOR_EMAILS: EMAIL } });

  it('finds no serious or critical axe violation on any dashboard page', async () => {
    const { page } = await suite.signIn(EMAIL);
    const api = suite.app.url;
    const csrf = ((await (await page.request.get(`${api}/auth/csrf`)).json()) as { data: { csrfToken: string } }).data.csrfToken;
    const post = async (path: string, data: unknown) => {
      const res = await page.request.post(`${api}${path}`, { headers: { 'X-CSRF-Token': csrf }, data });
      expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
      return ((await res.json()) as { data: Record<string, unknown> }).data;
    };
    const workspaceId = ((await (await page.request.get(`${api}/api/workspaces`)).json()) as { data: Array<{ id: number }> }).data[0]!.id;
    // A paid plan (with a log entry), a project, a webhook and a pay-as-you-go order: every page has something to show.
    const checkout = await post('/api/checkout', { priceId: planLookupKey('HOBBY', 'month'), mode: 'subscription' });
    await post(`/api/billing/local/checkout/${String(checkout.url).split('/').pop()}`, { outcome: 'paid' });
    const project = await post(`/api/workspaces/${workspaceId}/projects`, { projectName: 'Accessible', networkId: 0 });
    const webhook = await post(`/api/workspaces/${workspaceId}/webhooks`, {
      name: 'Blocks',
      description: '',
      network: 0,
      type: 'block',
      target_url: 'https://hooks.example.com/cairn',
      confirmations: 0,
      status: 'enabled',
      conditions: [],
      api_version: 1,
    });
    const order = await post(`/api/workspaces/${workspaceId}/ppu/orders`, { items: [{ item_type: 'requests', item_quantity: 1_000_000 }] });

    const ids: Record<string, string> = {
      '/dashboard/project/:id': String(project.uuid),
      '/dashboard/webhooks/:id': String(webhook.id),
      '/dashboard/subscription/ppu/order/:id': String(order.id),
    };
    const fill = (route: string) =>
      route.replace(/:orderId/, String(order.id)).replace(/:id/, Object.entries(ids).find(([r]) => route.startsWith(r))?.[1] ?? String(workspaceId));
    const routes = appRoutes.filter((r) => isDashboardPath(r)).map(fill);
    expect(routes.length).toBeGreaterThan(20);

    const failures: Record<string, string[]> = {};
    // The pages are reached as the dashboard's links reach them, in the page already loaded: a full
    // load per route cost the browser ten times the CPU, and users move through the app this way.
    const pending = inFlight(page);
    for (const route of routes) {
      if (process.env.A11Y_TRACE) console.log(route);
      await navigateInApp(page, route, pending);
      const found = await seriousViolations(page);
      if (found.length) failures[route] = found;
    }
    // The account menu, open.
    await navigateInApp(page, '/dashboard', pending);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).waitFor();
    await menuOpened(page);
    const menu = await seriousViolations(page);
    if (menu.length) failures['account menu'] = menu;
    // The workspace picker, open.
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /^Workspace:/ }).click();
    await page.getByRole('menu').waitFor();
    await menuOpened(page);
    const picker = await seriousViolations(page);
    if (picker.length) failures['workspace picker'] = picker;
    expect(failures).toEqual({});
  }, 300_000);

  it('names every button, icon-only ones included, at 375 px', async () => {
    const { page } = await suite.signIn('a11y-narrow@example.com');
    await page.setViewportSize({ width: 375, height: 800 });
    const pending = inFlight(page);
    for (const route of ['/dashboard', '/dashboard/subscription', '/dashboard/workspaces', '/dashboard/settings']) {
      await navigateInApp(page, route, pending);
      const unnamed = await page.evaluate(() =>
        [...document.querySelectorAll('button, [role="button"], a[href]')]
          .filter((el) => (el as HTMLElement).offsetParent !== null)
          .filter((el) => !(el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.getAttribute('title') || (el.textContent ?? '').trim()))
          .map((el) => el.outerHTML.slice(0, 160)),
      );
      expect(unnamed, route).toEqual([]);
    }
    const menu = page.getByRole('button', { name: 'Account menu' });
    expect(await menu.isVisible()).toBe(true);
  });
});
