import { describe, expect, it } from 'vitest';
import { DEFAULT_TX_CONFIRMATIONS, MAX_TX_CONFIRMATIONS } from '../../shared/txs';
import { browserAvailable } from '../helpers/browser';
import { useBrowserApp } from '../helpers/browser-app';

describe.runIf(browserAvailable())("the confirmations of a sandbox project's transactions on its settings screen, in Chromium", () => {
  const suite = useBrowserApp();

  it('saves a value and shows it after a reload; refuses one out of range on the field, saving nothing', async () => {
    const { page } = await suite.signIn('depth@example.com', '/dashboard');
    const workspaceId = ((await (await page.request.get(`${suite.app.url}/api/workspaces`)).json()).data as Array<{ id: number }>)[0]!.id;
    const csrf = (await (await page.request.get(`${suite.app.url}/auth/csrf`)).json()).data.csrfToken as string;
    const created = await page.request.post(`${suite.app.url}/api/workspaces/${workspaceId}/projects`, { headers: { 'X-CSRF-Token': csrf }, data: { projectName: 'Deep dApp', networkId: 6 } });
    expect(created.status()).toBe(201);
    const { uuid } = (await created.json()).data as { uuid: string };
    const stored = async () => ((await (await page.request.get(`${suite.app.url}/api/projects/${uuid}/txs`)).json()).data as { confirmations: number }).confirmations;

    await page.goto(`${suite.app.url}/dashboard/project/${uuid}/settings`);
    const field = page.getByRole('textbox', { name: 'Confirmations for a submitted transaction' });
    const save = page.getByRole('button', { name: 'Save confirmations' });
    await field.waitFor();
    expect(await field.inputValue()).toBe(String(DEFAULT_TX_CONFIRMATIONS));

    await field.fill('25');
    await save.click();
    await page.getByText('Confirmations saved').waitFor();
    expect(await stored()).toBe(25);
    await page.reload();
    await field.waitFor();
    await expect.poll(() => field.inputValue()).toBe('25');

    for (const [value, message] of [
      [String(MAX_TX_CONFIRMATIONS + 1), `Confirmations must be at most ${MAX_TX_CONFIRMATIONS} blocks.`],
      ['0', 'Confirmations must be at least 1 block.'],
    ] as const) {
      await field.fill(value);
      await save.click();
      await page.getByText(message).waitFor();
      expect(await field.getAttribute('aria-invalid')).toBe('true');
    }
    expect(await stored()).toBe(25);
    await page.reload();
    await field.waitFor();
    await expect.poll(() => field.inputValue()).toBe('25');

    // Resubmission on rollback: off by default, saved as soon as it is switched, and still on after a reload.
    const resubmit = page.getByRole('switch', { name: 'Resubmit on rollback' });
    const storedResubmit = async () => ((await (await page.request.get(`${suite.app.url}/api/projects/${uuid}/txs`)).json()).data as { resubmit: boolean }).resubmit;
    expect(await resubmit.isChecked()).toBe(false);
    await resubmit.click({ force: true });
    await page.getByText('Resubmission saved').waitFor();
    await expect.poll(storedResubmit).toBe(true);
    await page.reload();
    await expect.poll(() => resubmit.isChecked()).toBe(true);

    // The project page's card says the new depth.
    await page.goto(`${suite.app.url}/dashboard/project/${uuid}`);
    await page.getByText('confirmed at 25 blocks', { exact: false }).waitFor();
  });
});
