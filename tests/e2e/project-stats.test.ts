import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserAvailable } from '../helpers/browser';
import { useBrowserApp } from '../helpers/browser-app';
import { waitForWithClock } from '../helpers/page-waits';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { WINDOW_DIMENSIONS } from '../../server/features/stats/usage';
import { messages } from '../../shared/messages';
import { DAY_MS } from '../../shared/time';

const dayStart = (ms: number) => ms - (ms % DAY_MS);

const COLUMNS: Array<[card: string, column: string]> = [
  ['Countries', 'Country'],
  ['IP addresses', 'IP address'],
  ['Requests by endpoint', 'Endpoint'],
  ['Browsers', 'Browser'],
];
const DETAILED = ['IP addresses', 'Requests by endpoint', 'Browsers'];

// Stats refresh every 15.6 s and the history every 15 s: one jump of the page's clock past both makes
// them refetch now (and passes any retry back-off of a failed fetch).
const REFRESH_STEP_MS = 16_000;

describe.runIf(browserAvailable())('project statistics on the project page, in Chromium', () => {
  const suite = useBrowserApp();

  /** Signs in, optionally sets the owner's plan, and creates a Cardano mainnet project through the API. */
  async function projectOf(email: string, plan?: 'DEVELOPER') {
    const { context, page } = await suite.signIn(email, '/dashboard');
    // The page's own clock, so its refreshes can be jumped to rather than waited for; the tests open
    // the project page after this.
    await context.clock.install();
    const userId = (await suite.app.db('users').where({ email }).first('id')).id as number;
    if (plan) await setSubscription(suite.app.db, userId, plan, 'active');
    const workspaces = (await (await page.request.get(`${suite.app.url}/api/workspaces`)).json()).data as Array<{ id: number }>;
    const workspaceId = workspaces[0]!.id;
    const csrf = (await (await page.request.get(`${suite.app.url}/auth/csrf`)).json()).data.csrfToken as string;
    const created = await page.request.post(`${suite.app.url}/api/workspaces/${workspaceId}/projects`, {
      headers: { 'X-CSRF-Token': csrf },
      data: { projectName: 'Stats API', networkId: 0 },
    });
    expect(created.status()).toBe(201);
    const { uuid, project } = (await created.json()).data as { uuid: string; project: { project_id: string } };
    const id = (await suite.app.db('projects').where({ uuid }).first('id')).id as number;
    return { page, uuid, id, key: project.project_id };
  }

  /** Writes what the gateway's metering flush would: a day rollup, its dimensions, and the same added to the 30-day window. */
  async function recordUsage(projectId: number, day: number, requests: number, dimensions: Record<string, Record<string, number>>) {
    await suite.app.db('usage_rollups').insert({ granularity: 'd', bucket_ms: day, project_id: projectId, requests });
    const rows = Object.entries(dimensions).flatMap(([dimension, values]) =>
      Object.entries(values).map(([value, n]) => ({ project_id: projectId, dimension, day_ms: day, value, requests: n })),
    );
    await suite.app.db('usage_dimensions').insert(rows);
    for (const r of rows.filter((r) => (WINDOW_DIMENSIONS as readonly string[]).includes(r.dimension))) {
      await suite.app
        .db('usage_window')
        .insert({ project_id: r.project_id, dimension: r.dimension, value: r.value, requests: r.requests })
        .onConflict(['project_id', 'dimension', 'value'])
        .merge({ requests: suite.app.db.raw('usage_window.requests + excluded.requests') });
    }
  }

  const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

  it('waits for the first request, then shows rows, bars, flags, the map and the graph as requests arrive', async () => {
    const { page, uuid, id, key } = await projectOf('stats-dev@example.com', 'DEVELOPER');
    await page.goto(`${suite.app.url}/dashboard/project/${uuid}`);
    await page.getByRole('heading', { level: 1, name: 'Stats API' }).waitFor();

    // Before any request: every card titled TOP 10 with its column labels, and the waiting text.
    for (const [name, column] of COLUMNS) {
      const c = card(page, name);
      await c.getByRole('heading', { name: 'TOP 10', exact: true }).waitFor();
      await c.getByRole('columnheader', { name: column, exact: true }).waitFor();
      await c.getByRole('columnheader', { name: 'Count', exact: true }).waitFor();
      await c.getByText(messages.stats.waiting).waitFor();
    }
    await card(page, 'Locations').getByRole('heading', { name: 'TOP 10', exact: true }).waitFor();
    const chart = page.getByTestId('requests-chart');
    await chart.and(page.locator('[data-state="empty"]')).waitFor();
    await chart.getByText(messages.stats.waiting).waitFor();

    // The API examples carry the real key and this gateway's base path.
    const curl = page.getByTestId('api-example-curl');
    expect(await curl.textContent()).toContain(`project_id: ${key}`);
    expect(await curl.textContent()).toMatch(/\/api\/v0\/blocks\/latest/);
    await page.getByRole('tab', { name: 'blockfrost-js' }).click();
    const js = await page.getByTestId('api-example-blockfrost-js').textContent();
    expect(js).toContain(`projectId: '${key}'`);
    expect(js).toContain('await api.blocksLatest()');
    // Mesh's custom URL sends no header: its example carries the key in the URL's path.
    await page.getByRole('tab', { name: 'Mesh' }).click();
    expect(await page.getByTestId('api-example-mesh').textContent()).toContain(`/${key}/api/v0')`);
    await page.getByRole('tab', { name: 'Lucid Evolution' }).click();
    expect(await page.getByTestId('api-example-lucid').textContent()).toContain(`'${key}'`);

    // Requests arrive: the page picks them up on its own refresh, without a reload.
    const today = dayStart(Date.now());
    await recordUsage(id, today, 1000, {
      country: { DE: 600, US: 300, unknown: 100 },
      ip: { '203.0.113.7': 700, '198.51.100.23': 300 },
      endpoint: { '/blocks/latest': 800, '/addresses/{address}': 200 },
      browser: { Chrome: 900, Firefox: 100 },
    });

    const countries = card(page, 'Countries');
    const germany = countries.getByRole('row').filter({ hasText: 'Germany' });
    await waitForWithClock(page, germany, REFRESH_STEP_MS);
    expect(await germany.textContent()).toContain('🇩🇪');
    expect(await germany.getByRole('cell').last().textContent()).toBe('600');
    // The bar is requests ÷ total: 600 of 1000.
    expect(await germany.locator('[aria-valuenow]').getAttribute('aria-valuenow')).toBe('60');
    await countries.getByRole('row').filter({ hasText: 'United States' }).waitFor();
    await countries.getByRole('row').filter({ hasText: 'Unknown' }).waitFor();
    await card(page, 'IP addresses').getByRole('row').filter({ hasText: '203.0.113.7' }).waitFor();
    await card(page, 'Requests by endpoint').getByRole('row').filter({ hasText: '/blocks/latest' }).waitFor();
    await card(page, 'Browsers').getByRole('row').filter({ hasText: 'Chrome' }).waitFor();
    for (const name of DETAILED) expect(await card(page, name).getByText('See more detailed stats').count()).toBe(0);

    // The map shades the countries and names them in its accessible label.
    const map = page.getByRole('img', { name: /World map of requests by country/ });
    await map.and(page.getByRole('img', { name: /Germany 600 requests/ })).waitFor();
    expect(await page.locator('[data-testid="locations-map"] path[data-country="DE"]').getAttribute('fill')).toMatch(/indigo/);
    expect(await page.locator('[data-testid="locations-map"] path[data-country="FR"]').getAttribute('fill')).toMatch(/gray/);

    await waitForWithClock(page, chart.and(page.locator('[data-state="ready"]')), REFRESH_STEP_MS);
    await chart.locator('svg.recharts-surface').waitFor();
    await page.getByText(/1,000 requests · busiest day/).waitFor();
    // The Details card's count for today follows the same refresh, without a reload.
    await waitForWithClock(page, page.locator('dl > div').filter({ hasText: 'Requests today' }).and(page.locator('div:has(> dd:text-is("1,000"))')), REFRESH_STEP_MS);

    // No horizontal scroll on a 375 px wide phone.
    await page.setViewportSize({ width: 375, height: 800 });
    await card(page, 'Countries').getByRole('row').filter({ hasText: 'Germany' }).waitFor();
    // The chart and the map take their new width from a ResizeObserver callback, which a busy
    // machine may run a few frames after the resize.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 10_000 }).toBeLessThanOrEqual(375);
  });

  it('locks the detailed cards on STARTER and draws the daily limit once the busiest day passes 90 % of it', async () => {
    const { page, uuid, id } = await projectOf('stats-starter@example.com');
    const yesterday = dayStart(Date.now()) - DAY_MS;
    // STARTER allows 50,000 requests a day; 46,000 is past 90 %.
    await recordUsage(id, yesterday, 46_000, {
      country: { JP: 40_000, BR: 6_000 },
      ip: { '192.0.2.1': 46_000 },
      endpoint: { '/blocks/latest': 46_000 },
      browser: { Safari: 46_000 },
    });
    await page.goto(`${suite.app.url}/dashboard/project/${uuid}`);
    await page.getByRole('heading', { level: 1, name: 'Stats API' }).waitFor();

    await card(page, 'Countries').getByRole('row').filter({ hasText: 'Japan' }).waitFor();
    for (const name of DETAILED) {
      const c = card(page, name);
      await c.getByText('See more detailed stats').waitFor();
      const upgrade = c.getByRole('link', { name: 'Upgrade to DEVELOPER Plan' });
      expect(await upgrade.getAttribute('href')).toBe('/dashboard/subscription');
      expect(await c.getByText('192.0.2.1').count()).toBe(0);
    }

    const chart = page.getByTestId('requests-chart');
    await chart.and(page.locator('[data-state="ready"]')).waitFor();
    await chart.getByText('Daily limit 50,000').waitFor();

    // The upgrade link works from the keyboard.
    await card(page, 'IP addresses').getByRole('link', { name: 'Upgrade to DEVELOPER Plan' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${suite.app.url}/dashboard/subscription`);
  });

  it('says so when the graph data cannot be fetched', async () => {
    const { page, uuid } = await projectOf('stats-error@example.com');
    await page.route('**/api/projects/*/history', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'Boom' } }) }),
    );
    await page.goto(`${suite.app.url}/dashboard/project/${uuid}`);
    const chart = page.getByTestId('requests-chart');
    await waitForWithClock(page, chart.and(page.locator('[data-state="error"]')), REFRESH_STEP_MS);
    await chart.getByRole('alert').filter({ hasText: messages.stats.graphError }).waitFor();
  });
});
