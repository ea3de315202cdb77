// More of what a new user trips over, each checked in the browser.
// DX_SCREENSHOTS=<folder> also saves the screens at 375 and 1280 px.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { browserAvailable } from '../helpers/browser';
import { useBrowserApp } from '../helpers/browser-app';
import { framesDrawn } from '../helpers/page-waits';
import type { NetworkOptionDto } from '../../shared/networks';
import { PRIVATE_NETWORK_LABEL } from '../../shared/ip';
import { dayStartOf } from '../../shared/time';

const SHOTS = process.env.DX_SCREENSHOTS;

async function shoot(page: Page, name: string, focus?: Locator) {
  if (!SHOTS) return;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await framesDrawn(page);
    await focus?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: false });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe.runIf(browserAvailable())('developer experience rough edges, in Chromium', () => {
  const suite = useBrowserApp();

  async function signedIn(email: string) {
    const { page } = await suite.signIn(email, '/dashboard');
    const workspaceId = ((await (await page.request.get(`${suite.app.url}/api/workspaces`)).json()).data as Array<{ id: number }>)[0]!.id;
    const csrf = (await (await page.request.get(`${suite.app.url}/auth/csrf`)).json()).data.csrfToken as string;
    const userId = (await suite.app.db('users').where({ email }).first('id')).id as number;
    return { page, workspaceId, csrf, userId };
  }

  it('selects a newly created workspace', async () => {
    const { page, userId } = await signedIn('dx-creator@example.com');
    await suite.app.db('subscriptions').where({ user_id: userId }).update({ plan: 'DEVELOPER' }); // two workspaces
    await page.goto(`${suite.app.url}/dashboard/workspaces`);
    await page.getByRole('button', { name: 'Workspace: My Workspace' }).waitFor();
    await page.getByRole('button', { name: 'Create Workspace' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Workspace name').fill('Second Space');
    await dialog.getByRole('button', { name: 'Create Workspace' }).click();
    await page.waitForURL(/\/dashboard\/workspaces\/\d+$/);
    await page.getByRole('button', { name: 'Workspace: Second Space' }).waitFor();
    // And it stays selected on the projects page, after a reload.
    await page.goto(`${suite.app.url}/dashboard`);
    await page.getByRole('button', { name: 'Workspace: Second Space' }).waitFor();
  });

  it("says 'Your current plan' on the pricing card of the plan the signed-in user has", async () => {
    const { page } = await signedIn('dx-pricing@example.com');
    await page.goto(`${suite.app.url}/#pricing`);
    const starter = page.getByTestId('plan-button-STARTER');
    await expect.poll(() => starter.innerText()).toBe('Your current plan');
    expect(await starter.getAttribute('href')).toBe('/dashboard/subscription');
    await page.getByTestId('current-plan-STARTER').waitFor();
    expect(await page.getByTestId('plan-button-HOBBY').innerText()).toBe('Select plan');
    expect(await page.getByText('Get Started', { exact: true }).count()).toBe(0);
    await shoot(page, 'pricing-current-plan', page.locator('[data-plan="STARTER"]'));
  });

  it("explains a collaborator's usage as the owner's pooled plan", async () => {
    const owner = await signedIn('dx-owner@example.com');
    const collaborator = await signedIn('dx-collaborator@example.com');
    await suite.app.db('workspace_members').insert({ workspace_id: owner.workspaceId, user_id: collaborator.userId, role: 'collaborator', created_at: Date.now() });
    const { page } = collaborator;
    await page.evaluate((id) => localStorage.setItem('cairn.workspace', String(id)), owner.workspaceId);
    await page.goto(`${suite.app.url}/dashboard`);
    const usage = page.getByTestId('workspace-usage');
    await expect.poll(() => usage.innerText()).toContain("Runs on the STARTER plan of its owner, dx-owner@example.com, shared by all of the owner's workspaces");
    expect(await usage.innerText()).toMatch(/0 of 1 projects and 0 of [\d,]+ requests today used across them\.$/);
    await page.getByText("0 of 1 webhooks used across the owner's workspaces on their STARTER plan").waitFor();
    await shoot(page, 'collaborator-usage');
    // The owner keeps the short line.
    await owner.page.goto(`${suite.app.url}/dashboard`);
    await expect.poll(() => owner.page.getByTestId('workspace-usage').innerText()).toBe('0 of 1 projects used on the STARTER plan, across all the workspaces you own');
  });

  it("shows private and loopback clients as 'Private network' in the country card and the map", async () => {
    const { page, workspaceId, csrf } = await signedIn('dx-private@example.com');
    const created = await page.request.post(`${suite.app.url}/api/workspaces/${workspaceId}/projects`, {
      headers: { 'X-CSRF-Token': csrf },
      data: { projectName: 'Local', networkId: 0 },
    });
    const { uuid } = (await created.json()).data as { uuid: string };
    const id = (await suite.app.db('projects').where({ uuid }).first('id')).id as number;
    const day = dayStartOf(Date.now());
    await suite.app.db('usage_rollups').insert({ granularity: 'd', bucket_ms: day, project_id: id, requests: 20 });
    const dim = (dimension: string, value: string, requests: number) => ({ project_id: id, dimension, day_ms: day, value, requests });
    const rows = [
      dim('country', 'unknown', 17),
      dim('country', 'DE', 3),
      dim('ip', '127.0.0.1', 10),
      dim('ip', '::ffff:192.168.1.4', 4),
      dim('ip', '5.9.0.1', 3),
      dim('ip', '203.0.113.9', 3), // a public address geolocation could not place: stays 'Unknown'
      dim('private', '*', 14), // the flush's count of the private ones among them
    ];
    // Per day, and in the 30-day window the metering flush keeps beside them.
    await suite.app.db('usage_dimensions').insert(rows);
    await suite.app.db('usage_window').insert(rows.map(({ day_ms: _day, ...r }) => r));
    await page.goto(`${suite.app.url}/dashboard/project/${uuid}`);
    // STARTER hides the IP card; the server's count still tells which requests were private.
    const legend = page.getByRole('list', { name: 'Top countries by requests' });
    await legend.getByText(PRIVATE_NETWORK_LABEL).waitFor();
    const items = (await legend.locator('li').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(items).toEqual([`${PRIVATE_NETWORK_LABEL} 14 (70%)`, '🇩🇪 Germany 3 (15%)', 'Unknown 3 (15%)']);
    const countries = page.getByRole('table', { name: 'Countries, TOP 10 by requests' });
    await countries.getByText(PRIVATE_NETWORK_LABEL).waitFor();
    await shoot(page, 'private-network', legend);
    await shoot(page, 'private-network-card', countries);
  });

  it('lists in Add Project only the networks this server serves, the test networks a developer builds on first', async () => {
    const { page } = await signedIn('dx-networks@example.com');
    const options = (await (await page.request.get(`${suite.app.url}/api/networks`)).json()).data as NetworkOptionDto[];
    expect(options.find((n) => n.label === 'Cardano testnet')?.available).toBe(false); // disabled
    expect(options.find((n) => n.label === 'Cardano preprod')?.available).toBe(true); // the sandbox chain
    expect(options.find((n) => n.label === 'Milkomeda mainnet')?.available).toBe(true); // the EVM development chain
    await page.goto(`${suite.app.url}/dashboard`);
    await page.getByRole('button', { name: 'Add Project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Project' });
    const select = dialog.getByLabel('Network');
    await expect.poll(() => select.isEnabled()).toBe(true);
    const listed = (await select.locator('option').allInnerTexts()).map((t) => t.trim());
    expect(listed).toEqual(['Cardano preprod', 'Cardano preview', 'Cardano devnet', 'Cardano mainnet', 'IPFS', 'Milkomeda mainnet']);
    expect(await select.inputValue()).toBe('6');
    await shoot(page, 'add-project-networks');
  });
});
