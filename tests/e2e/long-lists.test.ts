import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { signInInBrowser, type SignedInBrowser } from '../helpers/browser-sign-in';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { TestDatabase } from '../helpers/db-template';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { makeUser } from '../helpers/workspace-fixture';

const EMAIL = 'many@lists.example';
const PROJECTS = 120;
const WEBHOOKS = 60;
const OTHER_WORKSPACES = 60;

describe.runIf(browserAvailable())('long lists load a page at a time, in Chromium', () => {
  let browser: Browser;
  let app: TestApp & { database: TestDatabase };
  let signed: SignedInBrowser | undefined;

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await signed?.context.close();
    await browser?.close();
    await app?.stop();
    await app?.database.drop();
  });

  /** Seeds the user's first workspace (created at sign-in) and the workspaces they were invited to. */
  async function seed(): Promise<void> {
    const user = (await app.db('users').where({ email: EMAIL }).first('id')) as { id: number };
    await setSubscription(app.db, user.id, 'ENTERPRISE', 'active');
    const ws = ((await app.db('workspace_members').where({ user_id: user.id, role: 'owner' }).first('workspace_id')) as { workspace_id: number }).workspace_id;
    const now = Date.now();
    await app.db('projects').insert(
      Array.from({ length: PROJECTS }, (_, i) => ({
        uuid: crypto.randomUUID(),
        workspace_id: ws,
        name: `Project ${String(i + 1).padStart(3, '0')}`,
        project_id: `mainnet${crypto.randomBytes(16).toString('hex')}`,
        network_id: 0,
        created_at: now,
        updated_at: now,
      })),
    );
    await app.db('webhooks').insert(
      Array.from({ length: WEBHOOKS }, (_, i) => ({
        id: crypto.randomUUID(),
        workspace_id: ws,
        name: `Hook ${String(i + 1).padStart(3, '0')}`,
        network: 0,
        type: 'block',
        target_url: 'https://hooks.example.com/x',
        confirmations: 0,
        status: 'enabled',
        conditions: '[]',
        auth_token: crypto.randomBytes(32).toString('hex'),
        created_at: now + i,
        updated_at: now,
      })),
    );
    const other = await makeUser(app.db, 'team-owner@lists.example', 'ENTERPRISE');
    for (let i = 0; i < OTHER_WORKSPACES; i++) {
      const [row] = await app.db('workspaces').insert({ name: `Team ${String(i + 1).padStart(2, '0')}`, owner_id: other.id, created_at: now, updated_at: now }).returning('id');
      const id = typeof row === 'object' ? (row as { id: number }).id : (row as number);
      await app.db('workspace_members').insert([
        { workspace_id: id, user_id: other.id, role: 'owner', created_at: now },
        { workspace_id: id, user_id: user.id, role: 'collaborator', created_at: now },
      ]);
    }
  }

  const cards = (page: Page, prefix: string) => page.getByRole('link', { name: new RegExp(`^${prefix} \\d{3}`) });
  const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

  for (const width of [375, 1280]) {
    it(`shows projects and webhooks a page at a time with Load more and search at ${width} px`, async () => {
      if (!signed) {
        signed = await signInInBrowser(browser, app, EMAIL, '/dashboard', { viewport: { width, height: 900 } });
        await seed();
      }
      const { page } = signed;
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${app.url}/dashboard`);
      await cards(page, 'Project').first().waitFor();
      expect(await cards(page, 'Project').count()).toBe(50);
      await page.getByText('50 projects shown').waitFor();
      expect(await noSideScroll(page)).toBe(true);
      await page.getByRole('button', { name: 'Load more projects' }).click();
      await page.getByText('100 projects shown').waitFor();
      await page.getByRole('button', { name: 'Load more projects' }).click();
      await cards(page, 'Project').nth(PROJECTS - 1).waitFor();
      expect(await cards(page, 'Project').count()).toBe(PROJECTS);
      expect(await page.getByRole('button', { name: 'Load more projects' }).count()).toBe(0);
      await cards(page, 'Project').last().getByText('Project 120').waitFor();

      await page.getByLabel('Search projects').fill('project 07');
      await page.getByRole('link', { name: /^Project 079/ }).waitFor();
      await expect.poll(() => cards(page, 'Project').count()).toBe(10);
      await page.getByLabel('Search projects').fill('nothing like it');
      await page.getByText('No project name contains “nothing like it”.').waitFor();

      expect(await cards(page, 'Hook').count()).toBe(50);
      await page.getByRole('button', { name: 'Load more webhooks' }).click();
      await cards(page, 'Hook').nth(WEBHOOKS - 1).waitFor();
      expect(await page.getByRole('button', { name: 'Load more webhooks' }).count()).toBe(0);
      expect(await noSideScroll(page)).toBe(true);
    });

    it(`lists the user's workspaces a page at a time at ${width} px`, async () => {
      const { page } = signed!;
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${app.url}/dashboard/workspaces`);
      const manage = page.getByRole('link', { name: /^Manage / });
      await page.getByText('50 workspaces shown').waitFor();
      // Each workspace row has a Manage link.
      expect(await manage.count()).toBe(50);
      expect(await noSideScroll(page)).toBe(true);
      await page.getByRole('button', { name: 'Load more workspaces' }).click();
      await page.getByRole('link', { name: 'Team 60', exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Load more workspaces' }).count()).toBe(0);
      await page.getByLabel('Search workspaces').fill('team 5');
      await page.getByRole('link', { name: 'Team 59', exact: true }).waitFor();
      await expect.poll(() => page.getByRole('link', { name: /^Team 5\d$/ }).count()).toBe(10);
      expect(await noSideScroll(page)).toBe(true);
    });
  }
});
