import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserAvailable } from '../helpers/browser';
import { useBrowserApp } from '../helpers/browser-app';

describe.runIf(browserAvailable())('pay as you go in Chromium', () => {
  const suite = useBrowserApp({ env: { SANDBOX_BLOCK_INTERVAL_MS: '500', PPU_CONFIRMATIONS: '2' }, ppuWatcher: true });

  it('orders 1,000,000 requests, simulates the payment, and sees the order paid and the balance appear', async () => {
    const { page } = await suite.signIn('ppu-browser@example.com', '/dashboard/subscription/plans');
    const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-ppu-shots-'));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByTestId('crossroad-payg').getByRole('link', { name: 'Start Building' }).click();
    await page.waitForURL('**/dashboard/subscription/ppu/order');
    await page.getByTestId('ppu-unit-price').filter({ hasText: '0.24 EUR per 100,000 requests' }).waitFor();
    await page.getByTestId('ppu-quote').filter({ hasText: '4.4839 ADA' }).waitFor();
    await page.screenshot({ path: path.join(shots, 'order-form-1280.png'), fullPage: true });
    await page.getByRole('button', { name: 'Order 1,000,000 requests' }).click();
    await page.waitForURL(/\/dashboard\/subscription\/ppu\/order\/\d+$/);
    expect(await page.getByTestId('order-status').textContent()).toBe('Awaiting payment');
    expect(await page.getByTestId('order-amount').textContent()).toBe('4.4839 ADA');
    expect(await page.getByTestId('order-address').textContent()).toMatch(/^addr1q[0-9a-z]+$/);
    await page.getByTestId('order-time-left').filter({ hasText: /Price locked: (59|60):\d\d left/ }).waitFor();
    await page.getByRole('img', { name: 'QR code of the payment address and amount' }).waitFor();
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: path.join(shots, `order-${width}.png`), fullPage: true });
    }

    await page.getByRole('button', { name: 'Simulate payment' }).click();
    await page.getByTestId('order-status').filter({ hasText: 'Paid' }).waitFor({ timeout: 20_000 });
    await page.getByTestId('order-credited').filter({ hasText: '1,000,000 requests credited' }).waitFor();
    await page.getByTestId('ppu-balance').filter({ hasText: '1,000,000 requests' }).waitFor({ timeout: 10_000 });
    await page.screenshot({ path: path.join(shots, 'order-paid-375.png'), fullPage: true });

    await page.goto(`${suite.app.url}/dashboard/subscription/ppu/history`);
    const row = page.getByRole('row').filter({ hasText: '1,000,000' });
    await row.getByTestId('order-status').filter({ hasText: 'Paid' }).waitFor();
    expect(await row.textContent()).toMatch(/[0-9a-f]{64}/);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: path.join(shots, 'history-1280.png'), fullPage: true });

    // Below the low-balance threshold, the dashboard's banner links to a new order for the workspace.
    await suite.app.db('ppu_balances').update({ spent: 950_000 });
    await page.goto(`${suite.app.url}/dashboard`);
    const banner = page.getByTestId('banner-ppu-low');
    await banner.filter({ hasText: '50,000 pay-as-you-go requests left' }).waitFor();
    await banner.getByRole('link', { name: 'New order' }).click();
    await page.waitForURL(/\/dashboard\/workspaces\/\d+\/order$/);
    await page.getByRole('button', { name: 'Order 1,000,000 requests' }).waitFor();
    await page.setViewportSize({ width: 375, height: 900 });
    await page.screenshot({ path: path.join(shots, 'workspace-order-375.png'), fullPage: true });
    console.log(`pay-as-you-go screenshots in ${shots}`);
  });
});
