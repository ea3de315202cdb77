import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserAvailable } from '../helpers/browser';
import { useBrowserApp } from '../helpers/browser-app';
import { framesDrawn } from '../helpers/page-waits';

describe.runIf(browserAvailable())("'Roll key' and the allow-lists on a project's page, in Chromium", () => {
  const suite = useBrowserApp();

  it('rolls the key keeping the old one for the grace chosen, and saves allow-lists, saying why a bad entry is refused', async () => {
    const { page } = await suite.signIn('keys@example.com', '/dashboard');
    const workspaceId = ((await (await page.request.get(`${suite.app.url}/api/workspaces`)).json()).data as Array<{ id: number }>)[0]!.id;
    const csrf = (await (await page.request.get(`${suite.app.url}/auth/csrf`)).json()).data.csrfToken as string;
    const created = await page.request.post(`${suite.app.url}/api/workspaces/${workspaceId}/projects`, { headers: { 'X-CSRF-Token': csrf }, data: { projectName: 'Rolling dApp', networkId: 6 } });
    expect(created.status()).toBe(201);
    const { uuid, project } = (await created.json()).data as { uuid: string; project: { project_id: string } };

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${suite.app.url}/dashboard/project/${uuid}`);
    await page.getByRole('button', { name: 'Roll key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Roll the project key' });
    await dialog.getByRole('radio', { name: '1 hour' }).check();
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    await page.getByTestId('previous-project-id').waitFor();
    expect(await page.getByTestId('previous-project-id').textContent()).toBe(project.project_id);
    const fresh = (await page.getByTestId('project-id').textContent())!;
    expect(fresh).toMatch(/^preprod[A-Za-z0-9]{32}$/);
    expect(fresh).not.toBe(project.project_id);
    expect(await page.getByTestId('previous-key-expiry').textContent()).toMatch(/^Works until /);

    const card = page.getByRole('region', { name: 'Allow-lists' });
    await card.getByLabel('IP addresses and CIDR ranges').fill('203.0.113.0/24\n10.0.0.1/8');
    await card.getByRole('button', { name: 'Save allow-lists' }).click();
    await card.getByText('did you mean 10.0.0.0/8?').waitFor();
    await card.getByLabel('IP addresses and CIDR ranges').fill('203.0.113.0/24\n2001:db8::/32');
    await card.getByLabel('Browser origins').fill('https://App.example.com/\n*.dapp.io');
    await card.getByRole('button', { name: 'Save allow-lists' }).click();
    await page.getByText('Allow-lists saved').waitFor();
    const saved = (await (await page.request.get(`${suite.app.url}/api/projects/${uuid}`)).json()).data;
    expect(saved.allow_lists).toEqual({ origins: ['https://app.example.com', '*.dapp.io'], ips: ['203.0.113.0/24', '2001:db8::/32'], methods: [] });
    // The field shows what the server stored (canonical form).
    await expect.poll(() => card.getByLabel('Browser origins').inputValue()).toBe('https://app.example.com\n*.dapp.io');

    const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-keys-shots-'));
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await page.getByTestId('previous-project-id').waitFor();
      await framesDrawn(page);
      // Nothing on the page is wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: path.join(shots, `project-keys-${width}.png`), fullPage: true });
      await page.getByRole('button', { name: 'Roll key' }).click();
      await page.getByRole('dialog', { name: 'Roll the project key' }).waitFor();
      await framesDrawn(page);
      await page.screenshot({ path: path.join(shots, `roll-key-${width}.png`) });
      await page.keyboard.press('Escape');
    }
    console.log(`project keys screenshots in ${shots}`);
  });
});
