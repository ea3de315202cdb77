import { describe, expect, it } from 'vitest';
import { browserAvailable } from '../helpers/browser';
import { useBrowserApp } from '../helpers/browser-app';

const OWNER = 'rotate@webhook-page.example';

describe.runIf(browserAvailable())('rotating a webhook secret on the webhook page, in Chromium', () => {
  const b = useBrowserApp();

  it('issues a new auth token with the overlap picked, and says until when the old one signs', async () => {
    const { page, context } = await b.signIn(OWNER);
    const ownerId = (await b.app.db('users').where({ email: OWNER }).first('id')).id as number;
    const ws = (await b.app.db('workspaces').where({ owner_id: ownerId }).first('id')).id as number;
    const csrf = ((await (await context.request.get(`${b.app.url}/auth/csrf`)).json()) as { data: { csrfToken: string } }).data.csrfToken;
    const created = await context.request.post(`${b.app.url}/api/workspaces/${ws}/webhooks`, {
      headers: { 'x-csrf-token': csrf },
      data: { name: 'Rotating', network: 0, type: 'block', target_url: 'https://hooks.example.com/rotate', confirmations: 0, status: 'enabled', conditions: [] },
    });
    const hook = ((await created.json()) as { data: { id: string; webhook: { auth_token: string } } }).data;

    await page.goto(`${b.app.url}/dashboard/webhooks/${hook.id}`);
    await page.getByRole('heading', { level: 1, name: 'Rotating' }).waitFor();
    expect(await page.getByTestId('secret-overlap').count()).toBe(0);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the auth token?' });
    await dialog.getByRole('radio', { name: '1 hour' }).check();
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('secret-overlap').waitFor();

    const row = await b.app.db('webhooks').where({ id: hook.id }).first();
    expect(row.previous_auth_token).toBe(hook.webhook.auth_token);
    expect(row.auth_token).not.toBe(hook.webhook.auth_token);
    const overlapMs = Number(row.previous_auth_token_expires_at) - Date.now();
    expect(overlapMs).toBeGreaterThan(3_500_000);
    expect(overlapMs).toBeLessThanOrEqual(3_600_000);
    // The page shows the new token.
    expect(await page.getByLabel('Auth token', { exact: true }).inputValue()).toBe(row.auth_token);
  });
});
