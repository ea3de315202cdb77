// What a new user met on a first run of the dashboard and site, each checked in the browser.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable } from '../helpers/browser';
import { useBrowserApp } from '../helpers/browser-app';
import { planLookupKey } from '../../shared/billing';
import { webhookMessages } from '../../shared/webhooks';

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function api(page: Page, base: string) {
  const csrf = ((await (await page.request.get(`${base}/auth/csrf`)).json()) as { data: { csrfToken: string } }).data.csrfToken;
  const workspaceId = ((await (await page.request.get(`${base}/api/workspaces`)).json()) as { data: Array<{ id: number }> }).data[0]!.id;
  const post = async (path: string, data: unknown) => {
    const res = await page.request.post(`${base}${path}`, { headers: { 'X-CSRF-Token': csrf }, data });
    expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
    return ((await res.json()) as { data: Record<string, unknown> }).data;
  };
  return { workspaceId, post };
}

describe.runIf(browserAvailable())('first-run rough edges, in Chromium', () => {
  const suite = useBrowserApp({ env: { WEBHOOK_ALLOWLIST: '127.0.0.1/32' } });

  it("keeps the cookie banner off the hero's text on wide screens", async () => {
    for (const [width, height] of [
      [1280, 720],
      [1280, 900],
      [992, 700],
    ] as const) {
      const context = await suite.browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      await page.goto(`${suite.app.url}/`);
      const banner = page.getByTestId('cookie-banner');
      await banner.waitFor();
      const bannerBox = (await banner.boundingBox())!;
      const copy = page.locator('#hero-title, #introduction p, #introduction a, #introduction li');
      expect(await copy.count()).toBeGreaterThan(5);
      for (const box of await copy.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number }))) {
        expect(overlaps(bannerBox, box), `${width}x${height}: banner ${JSON.stringify(bannerBox)} over ${JSON.stringify(box)}`).toBe(false);
      }
      await context.close();
    }
  });

  it("says on 'Check your email' where the development mailbox is", async () => {
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${suite.app.url}/auth/signin`);
    await page.getByLabel('Email').fill('mailbox@example.com');
    await page.getByRole('button', { name: 'Sign in with Email' }).click();
    await page.waitForURL(/\/auth\/verify-request/);
    const notice = page.getByTestId('dev-mailbox-notice');
    const link = notice.getByRole('link', { name: `${suite.app.url}/dev/mailbox` });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`${suite.app.url}/dev/mailbox`);
    await context.close();
  });

  it("does not call STARTER's one project 'Quota nearly exhausted'", async () => {
    const { page } = await suite.signIn('one-project@example.com');
    const { workspaceId, post } = await api(page, suite.app.url);
    await post(`/api/workspaces/${workspaceId}/projects`, { projectName: 'Only', networkId: 0 });
    await page.goto(`${suite.app.url}/dashboard`);
    await page.getByText('1 of 1 projects used on the STARTER plan, across all the workspaces you own').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('banner-quota').count()).toBe(0);
  });

  it('says beside the field why a pay-as-you-go quantity cannot be ordered', async () => {
    const { page } = await suite.signIn('ppu-range@example.com', '/dashboard/subscription/ppu/order');
    await page.getByText('Other', { exact: true }).click();
    const field = page.getByLabel('Number of requests');
    const order = page.getByRole('button', { name: /^Order/ });
    await field.fill('100000');
    await page.getByText(/^Order at least [\d,]+ requests: an order must come to at least 1 ADA/).waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await order.isDisabled()).toBe(true);
    await field.fill('2000000000');
    await page.getByText('One order buys at most 1,000,000,000 requests.').waitFor();
    await field.fill('1000000');
    await page.getByTestId('ppu-quote').waitFor();
    expect(await field.getAttribute('aria-invalid')).not.toBe('true');
    expect(await order.isEnabled()).toBe(true);
  });

  it("warns about a private webhook endpoint only when WEBHOOK_ALLOWLIST does not allow it", async () => {
    const { page } = await suite.signIn('hook-warning@example.com', '/dashboard/webhooks/add');
    const url = page.getByLabel('Endpoint URL');
    await url.fill('http://10.0.0.1/hook');
    await page.getByText(webhookMessages.privateEndpoint).waitFor();
    const allowed = page.waitForResponse((r) => r.url().includes('/api/webhooks/endpoint-warning') && r.url().includes('127.0.0.1'));
    await url.fill('http://127.0.0.1:9/hook');
    await allowed;
    await page.getByText(webhookMessages.privateEndpoint).waitFor({ state: 'hidden' });
  });

  it('shows subscription status badges whole at 375 px', async () => {
    const { page } = await suite.signIn('badges@example.com');
    const { post } = await api(page, suite.app.url);
    const checkout = await post('/api/checkout', { priceId: planLookupKey('HOBBY', 'month'), mode: 'subscription' });
    await post(`/api/billing/local/checkout/${String(checkout.url).split('/').pop()}`, { outcome: 'paid' });
    await page.setViewportSize({ width: 375, height: 800 });
    for (const path of ['/dashboard/subscription/logs', '/dashboard/subscription']) {
      await page.goto(`${suite.app.url}${path}`);
      const badge = page.getByTestId('subscription-status').filter({ visible: true }).first();
      await badge.waitFor();
      const cut = await page.getByTestId('subscription-status').evaluateAll((els) =>
        els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => {
          const label = e.querySelector('.mantine-Badge-label') as HTMLElement;
          return { text: label.textContent, cut: label.scrollWidth > label.clientWidth || e.scrollWidth > e.clientWidth };
        }),
      );
      expect(cut.length, path).toBeGreaterThan(0);
      for (const c of cut) expect(c, path).toEqual({ text: 'active', cut: false });
    }
  });
});
