import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAUCET_FORM_MESSAGES } from '../../shared/sandbox-faucet';
import { browserAvailable } from '../helpers/browser';
import { useBrowserApp } from '../helpers/browser-app';

describe.runIf(browserAvailable())("the sandbox faucet button on a sandbox project's page, in Chromium", () => {
  const suite = useBrowserApp();

  it('sends test ada and a test token to an address, and says which transaction carries them', async () => {
    const { page } = await suite.signIn('faucet@example.com', '/dashboard');
    const workspaceId = ((await (await page.request.get(`${suite.app.url}/api/workspaces`)).json()).data as Array<{ id: number }>)[0]!.id;
    const csrf = (await (await page.request.get(`${suite.app.url}/auth/csrf`)).json()).data.csrfToken as string;
    const created = await page.request.post(`${suite.app.url}/api/workspaces/${workspaceId}/projects`, { headers: { 'X-CSRF-Token': csrf }, data: { projectName: 'Faucet dApp', networkId: 6 } });
    expect(created.status()).toBe(201);
    const { uuid } = (await created.json()).data as { uuid: string };
    const recipient = ((await (await page.request.get(`${suite.app.url}/dev/wallets`)).json()).data as Array<{ network: string; wallets: Array<{ address: string }> }>)
      .find((n) => n.network === 'cardano-preprod')!.wallets[2]!.address;

    const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-faucet-shots-'));
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${suite.app.url}/dashboard/project/${uuid}`);
      await page.getByRole('button', { name: 'Get test ada' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sandbox faucet' });
      await dialog.getByLabel('Address').fill(recipient);
      await dialog.getByRole('textbox', { name: /^Ada/ }).fill('25');
      await dialog.getByLabel('Test token (optional)').fill('PEBBLE');
      await dialog.getByRole('button', { name: 'Send' }).click();
      const status = dialog.getByRole('status');
      await status.waitFor();
      expect(await status.textContent()).toMatch(/^Sent 25 ada and the test token in block \d+: transaction [0-9a-f]{64}$/);
      await page.screenshot({ path: path.join(shots, `faucet-${width}.png`) });
      await page.keyboard.press('Escape');
    }
    console.log(`faucet screenshots in ${shots}`);

    // A bad address is refused with the server's reason, in the dialog.
    await page.getByRole('button', { name: 'Get test ada' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sandbox faucet' });
    await dialog.getByLabel('Address').fill('addr_test1nonsense');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'address must be a Shelley address of preprod' }).waitFor();

    // What the form can check itself it says on the field, before sending anything.
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await dialog.getByRole('textbox', { name: /^Ada/ }).fill('0');
      await dialog.getByLabel('Test token (optional)').fill('PEBBLE');
      await dialog.getByRole('textbox', { name: 'Quantity' }).fill('');
      await dialog.getByRole('button', { name: 'Send' }).click();
      await dialog.getByText(FAUCET_FORM_MESSAGES.ada).waitFor();
      await page.screenshot({ path: path.join(shots, `faucet-invalid-${width}.png`) });
    }
  });
});
