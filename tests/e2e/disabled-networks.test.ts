// Networks the operator turned off (DISABLED_NETWORKS) are left out of Add Project and of the
// status page.
// DX_SCREENSHOTS=<folder> also saves the form at 375 and 1280 px.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserAvailable } from '../helpers/browser';
import { useBrowserApp } from '../helpers/browser-app';
import type { SignedInBrowser } from '../helpers/browser-sign-in';
import { framesDrawn } from '../helpers/page-waits';

const SHOTS = process.env.DX_SCREENSHOTS;

describe.runIf(browserAvailable())('networks turned off by the operator, in Chromium', () => {
  const suite = useBrowserApp({ env: { DISABLED_NETWORKS: 'cardano-mainnet,ipfs' } });
  let session: SignedInBrowser | undefined;

  it('leaves them out of Add Project and picks an available one', async () => {
    session = await suite.signIn('turned-off@example.com', '/dashboard');
    const { page } = session;
    await page.goto(`${suite.app.url}/dashboard`);
    await page.getByRole('button', { name: 'Add Project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Project' });
    const select = dialog.getByLabel('Network');
    await expect.poll(() => select.isEnabled()).toBe(true);
    // Only what this server serves, the test networks first: the turned-off mainnet and IPFS are not there.
    const listed = (await select.locator('option').allInnerTexts()).map((t) => t.trim());
    expect(listed).toEqual(['Cardano preprod', 'Cardano preview', 'Cardano devnet', 'Milkomeda mainnet']);
    expect(await select.inputValue()).toBe('6');
    if (SHOTS) {
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await framesDrawn(page);
        await page.screenshot({ path: path.join(SHOTS, `disabled-networks-${width}.png`) });
      }
    }
    // A project on an offered network is made as usual.
    await dialog.getByLabel('Project name').fill('Preprod app');
    await select.selectOption('5');
    await select.selectOption('6');
    await dialog.getByRole('button', { name: 'Add Project' }).click();
    await page.waitForURL(/\/dashboard\/project\//);
    await page.getByText('Preprod app').first().waitFor();
  });

  it('leaves them off the status page', async () => {
    const page = session!.page;
    await page.goto(`${suite.app.url}/status`);
    await page.getByTestId('network-cardano-preprod').waitFor();
    expect(await page.getByTestId('network-cardano-mainnet').count()).toBe(0);
    expect(await page.getByTestId('network-ipfs').count()).toBe(0);
    expect(await page.getByTestId('network-milkomeda-mainnet').count()).toBe(1);
  });
});
