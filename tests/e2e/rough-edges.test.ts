// What a new user trips over on a first run, each checked in the browser.
import { describe, expect, it } from 'vitest';
import { browserAvailable } from '../helpers/browser';
import { useBrowserApp } from '../helpers/browser-app';
import { framesDrawn, inFlight } from '../helpers/page-waits';
import { messages } from '../../shared/messages';
import { CONSENT_COOKIE } from '../../shared/site';
import { dayStartOf } from '../../shared/time';

describe.runIf(browserAvailable())('rough edges of a first run, in Chromium', () => {
  const suite = useBrowserApp();

  async function signedIn(email: string) {
    const { page } = await suite.signIn(email, '/dashboard');
    const workspaceId = ((await (await page.request.get(`${suite.app.url}/api/workspaces`)).json()).data as Array<{ id: number }>)[0]!.id;
    const csrf = (await (await page.request.get(`${suite.app.url}/auth/csrf`)).json()).data.csrfToken as string;
    return { page, workspaceId, csrf };
  }

  it("shows someone else's or a missing project, webhook and workspace as 'not found' with a way back", async () => {
    const owner = await signedIn('edges-owner@example.com');
    const created = await owner.page.request.post(`${suite.app.url}/api/workspaces/${owner.workspaceId}/projects`, {
      headers: { 'X-CSRF-Token': owner.csrf },
      data: { projectName: 'Private', networkId: 0 },
    });
    const { uuid } = (await created.json()).data as { uuid: string };

    const other = await signedIn('edges-other@example.com');
    for (const path of [`/dashboard/project/${uuid}`, '/dashboard/webhooks/999999', `/dashboard/workspaces/${owner.workspaceId}`]) {
      await other.page.goto(suite.app.url + path);
      const alert = other.page.getByRole('alert').filter({ hasText: messages.errorView.notFoundTitle });
      await alert.waitFor();
      expect(await other.page.getByText(messages.errorView.title).count()).toBe(0);
      await alert.getByRole('link', { name: 'Back to the dashboard' }).click();
      await other.page.waitForURL(/\/dashboard$/);
    }
  });

  it('says a sign-in error once, beside the field it concerns, not also in a toast', async () => {
    const context = await suite.browser.newContext();
    await context.addCookies([{ name: CONSENT_COOKIE, value: '1', url: suite.app.url }]);
    const page = await context.newPage();
    // The server refuses the address (as it would one the browser's check lets through).
    await page.route('**/auth/signin/email', (route) =>
      route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: { code: 'invalid', message: messages.signIn.emailInvalid } }) }),
    );
    await page.goto(`${suite.app.url}/auth/signin`);
    await page.getByLabel('Email').fill('someone@example.com');
    const pending = inFlight(page);
    await page.getByRole('button', { name: 'Sign in with Email' }).click();
    await page.getByText(messages.signIn.emailInvalid).waitFor();
    // A toast would be set off with the field's message: its container is fetched on first use (asked
    // for by the time a frame has passed) and drawn in a frame once it has arrived.
    await framesDrawn(page);
    await expect.poll(pending).toBe(0);
    await framesDrawn(page);
    expect(await page.getByText(messages.signIn.emailInvalid).count()).toBe(1);
    await context.close();
  });

  it("reads 'Requests: 0' in the chart's tooltip", async () => {
    const { page, workspaceId, csrf } = await signedIn('edges-chart@example.com');
    const created = await page.request.post(`${suite.app.url}/api/workspaces/${workspaceId}/projects`, {
      headers: { 'X-CSRF-Token': csrf },
      data: { projectName: 'Chart', networkId: 0 },
    });
    const { uuid } = (await created.json()).data as { uuid: string };
    const id = (await suite.app.db('projects').where({ uuid }).first('id')).id as number;
    const today = dayStartOf(Date.now());
    await suite.app.db('usage_rollups').insert({ granularity: 'd', bucket_ms: today, project_id: id, requests: 7 });
    await page.goto(`${suite.app.url}/dashboard/project/${uuid}`);
    const chart = page.getByTestId('requests-chart');
    await chart.locator('.recharts-bar-rectangle').first().waitFor();
    const box = (await chart.locator('.recharts-cartesian-grid').boundingBox())!;
    await page.mouse.move(box.x + 8, box.y + box.height / 2); // the first day: no requests
    const tooltip = chart.locator('.recharts-tooltip-wrapper');
    await expect.poll(() => tooltip.innerText()).toMatch(/Requests: 0$/);
  });
});
