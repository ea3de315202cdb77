import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { capturedIds, signInInBrowser, waitForCapturedMail, type SignedInBrowser } from '../helpers/browser-sign-in';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { TestDatabase } from '../helpers/db-template';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { messages } from '../../shared/messages';

const OWNER = 'owner@team.example';
const COLLABORATOR = 'collab@team.example';
const INVITE_LINK = /(https?:\/\/\S+\/workspace-invite\/[\w-]+)/;

describe.runIf(browserAvailable())('workspaces and projects, in Chromium', () => {
  let browser: Browser;
  let app: TestApp & { database: TestDatabase };
  let owner: SignedInBrowser;
  let collaborator: SignedInBrowser;

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await owner?.context.close();
    await collaborator?.context.close();
    await browser?.close();
    await app?.stop();
    await app?.database.drop();
  });

  const projectCard = (page: Page, name: string) => page.getByRole('link', { name: new RegExp(`^${name}`) });

  async function addProject(page: Page, name: string) {
    await page.getByRole('button', { name: 'Add Project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Project' });
    await dialog.getByLabel('Project name').fill(name);
    await dialog.getByRole('button', { name: 'Add Project' }).click();
    await page.waitForURL(/\/dashboard\/project\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { level: 1, name }).waitFor();
  }

  it('lets an owner invite a collaborator who sees the projects read-only, then builds as maintainer', async () => {
    owner = await signInInBrowser(browser, app, OWNER, '/dashboard', { permissions: ['clipboard-read', 'clipboard-write'] });
    const ownerId = (await app.db('users').where({ email: OWNER }).first('id')).id as number;
    // Members are a paid feature: STARTER allows one member per workspace.
    await setSubscription(app.db, ownerId, 'DEVELOPER', 'active');
    const o = owner.page;

    // The owner's first workspace is selected and empty.
    await o.getByRole('heading', { level: 2, name: 'My Workspace' }).waitFor();
    await o.getByText('No projects yet').waitFor();

    // The Add Project form checks the name on the client and offers only enabled networks.
    await o.getByRole('button', { name: 'Add Project' }).click();
    const dialog = o.getByRole('dialog', { name: 'Add Project' });
    await dialog.getByRole('button', { name: 'Add Project' }).click();
    await dialog.getByText(messages.project.nameEmpty).waitFor();
    // The networks that can be chosen (which of the others this server serves is in dx-rough-edges.test.ts).
    const networks = await dialog.getByLabel('Network').locator('option:not([disabled])').allTextContents();
    expect(networks).toEqual(expect.arrayContaining(['Cardano mainnet', 'Milkomeda mainnet', 'Cardano preview', 'Cardano preprod']));
    // The first network offered (a test network, where this server serves one) is the default.
    const first = await dialog.getByLabel('Network').locator('option:not([disabled])').first().getAttribute('value');
    expect(await dialog.getByLabel('Network').inputValue()).toBe(first);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await addProject(o, 'Owner API');

    // Invite from the workspace page, reached through the picker's manage link.
    await o.getByRole('button', { name: 'Workspace: My Workspace' }).click();
    await o.getByRole('menuitem', { name: 'Manage My Workspace' }).click();
    await o.waitForURL(/\/dashboard\/workspaces\/\d+$/);
    const workspaceUrl = o.url();
    await o.getByLabel('Workspace name').fill('  Team Space ');
    await o.getByRole('button', { name: 'Save' }).click();
    await o.getByRole('heading', { level: 1, name: 'Team Space' }).waitFor();
    await o.getByRole('button', { name: 'Workspace: Team Space' }).waitFor();
    const seen = capturedIds(app.mailer);
    await o.getByRole('button', { name: 'Invite Member' }).click();
    const invite = o.getByRole('dialog', { name: 'Invite Member' });
    await invite.getByLabel('Email').fill(COLLABORATOR);
    expect(await invite.getByLabel('Role').inputValue()).toBe('collaborator');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await o.getByRole('list', { name: 'Pending invitations' }).getByText(COLLABORATOR).waitFor();

    // The collaborator opens the link from the mail, signs in on the way, and accepts.
    const mail = await waitForCapturedMail(app.mailer, COLLABORATOR, (text) => INVITE_LINK.test(text), seen);
    const invitePath = new URL(INVITE_LINK.exec(mail.text)![1]!).pathname;
    collaborator = await signInInBrowser(browser, app, COLLABORATOR, invitePath);
    const c = collaborator.page;
    await c.getByRole('heading', { name: 'Join Team Space' }).waitFor();
    await c.getByText(OWNER).first().waitFor();
    await c.getByRole('button', { name: 'Accept invitation' }).click();
    await c.waitForURL(`${app.url}/dashboard`);

    // The owner's workspace is now selected: its projects, read-only, with the reason in the tooltip.
    await c.getByRole('button', { name: 'Workspace: Team Space' }).waitFor();
    await projectCard(c, 'Owner API').waitFor();
    const addButton = c.getByRole('button', { name: 'Add Project' });
    expect(await addButton.isDisabled()).toBe(true);
    const denied = messages.permission.createResource('project');
    expect(denied).toBe("You don't have permission to create a new project in this workspace.");
    await c.getByLabel(denied).hover();
    await c.getByRole('tooltip').filter({ hasText: denied }).waitFor();
    // The collaborator's own first workspace is still there, in the picker.
    await c.getByRole('button', { name: 'Workspace: Team Space' }).click();
    await c.getByRole('menuitem', { name: 'Manage Team Space' }).waitFor();
    await c.getByRole('menuitem', { name: 'Manage My Workspace' }).waitFor();
    await c.keyboard.press('Escape');

    // The owner sees the new member and makes them a maintainer.
    await o.goto(workspaceUrl);
    const role = o.getByLabel(`Role of ${COLLABORATOR}`);
    await role.waitFor();
    expect(await role.inputValue()).toBe('collaborator');
    expect(await o.getByRole('list', { name: 'Pending invitations' }).count()).toBe(0);
    // The owner's row has a role badge, never a role select or a remove button.
    expect(await o.getByLabel(`Role of ${OWNER}`).count()).toBe(0);
    expect(await o.getByRole('button', { name: `Remove ${OWNER}` }).count()).toBe(0);
    await role.selectOption('maintainer');
    await o.getByText(`${COLLABORATOR} is now maintainer.`).waitFor();

    // The maintainer can now add a project.
    await c.reload();
    await projectCard(c, 'Owner API').waitFor();
    await expect.poll(() => c.getByRole('button', { name: 'Add Project' }).isEnabled()).toBe(true);
    await addProject(c, 'Maintainer API');

    // And the owner sees it in their list.
    await o.goto(`${app.url}/dashboard`);
    await projectCard(o, 'Maintainer API').waitFor();
    await projectCard(o, 'Owner API').waitFor();
  });

  it('copies the project id and confirms for half a second', async () => {
    const o = owner.page;
    await projectCard(o, 'Owner API').click();
    await o.getByRole('heading', { level: 1, name: 'Owner API' }).waitFor();
    const key = (await o.getByTestId('project-id').textContent()) ?? '';
    // The prefix is the network of the project (the default one is a test network).
    expect(key).toMatch(/^(mainnet|preprod|preview)[A-Za-z0-9]{32}$/);

    // The project id card's own button (the API examples have copy buttons too).
    const copy = o.getByTestId('copy-project-id');
    // How long 'Copied' is on screen, timed in the page as the button's text changes: Playwright's
    // click answers, and its polls see the text, late on a busy machine.
    await copy.evaluate((button) => {
      const shown: { from?: number; to?: number } = {};
      (window as unknown as { copiedShown: typeof shown }).copiedShown = shown;
      new MutationObserver(() => {
        if (button.textContent === 'Copied') shown.from ??= performance.now();
        else if (shown.from !== undefined) shown.to ??= performance.now();
      }).observe(button, { subtree: true, childList: true, characterData: true });
    });
    await copy.click();
    await o.getByTestId('copy-project-id').filter({ hasText: 'Copied' }).waitFor();
    expect(await o.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await o.getByTestId('copy-project-id').filter({ hasText: /^Copy$/ }).waitFor();
    const shown = await o.evaluate(() => (window as unknown as { copiedShown: { from?: number; to?: number } }).copiedShown);
    const shownFor = shown.to! - shown.from!;
    // Half a second: a timer fires no earlier than asked, and a busy machine may render it late.
    expect(shownFor).toBeGreaterThanOrEqual(450);
    expect(shownFor).toBeLessThan(2_000);
  });

  it('deletes a project only through the type-to-confirm popup', async () => {
    const o = owner.page;
    await o.goto(`${app.url}/dashboard`);
    await projectCard(o, 'Maintainer API').click();
    await o.getByRole('heading', { level: 1, name: 'Maintainer API' }).waitFor();
    await o.getByRole('link', { name: 'Settings' }).click();
    await o.getByRole('heading', { level: 1, name: 'Project settings' }).waitFor();

    await o.getByRole('button', { name: 'Delete project' }).click();
    const popup = o.getByRole('dialog', { name: 'Delete Maintainer API?' });
    await popup.getByText(messages.deletePopup.warning).waitFor();
    const confirm = popup.getByRole('button', { name: messages.deletePopup.button });

    // Disabled until the text matches; Enter in the field still says what is missing.
    expect(await confirm.isDisabled()).toBe(true);
    await popup.getByLabel('Confirmation').press('Enter');
    await popup.getByText(messages.deletePopup.inputEmpty).waitFor();

    await popup.getByLabel('Confirmation').fill('Maintainer');
    expect(await confirm.isDisabled()).toBe(true);
    await popup.getByLabel('Confirmation').press('Enter');
    await popup.getByText('The text you typed does not match.').waitFor();
    expect(await app.db('projects').where({ name: 'Maintainer API' }).first('id')).toBeTruthy();

    // Compared after trimming.
    await popup.getByLabel('Confirmation').fill('  Maintainer API ');
    expect(await confirm.isEnabled()).toBe(true);
    await confirm.click();
    await o.waitForURL(`${app.url}/dashboard`);
    await projectCard(o, 'Owner API').waitFor();
    // The list re-fetches after the deletion.
    await projectCard(o, 'Maintainer API').waitFor({ state: 'detached' });
    expect(await app.db('projects').where({ name: 'Maintainer API' }).first('id')).toBeUndefined();
  });

  it('falls back to the first workspace when the selected one is left', async () => {
    const c = collaborator.page;
    await c.goto(`${app.url}/dashboard/workspaces`);
    // The owner's workspace is the selected one; leave it from its page.
    await c.getByRole('link', { name: 'Manage Team Space' }).click();
    await c.getByRole('heading', { level: 1, name: 'Team Space' }).waitFor();
    const left = c.url();
    await c.getByRole('button', { name: 'Leave workspace' }).click();
    await c.getByRole('dialog').getByRole('button', { name: 'Leave workspace' }).click();
    await c.waitForURL(`${app.url}/dashboard/workspaces`);

    await c.goto(`${app.url}/dashboard`);
    await c.getByRole('button', { name: 'Workspace: My Workspace' }).waitFor();
    await c.getByText('No projects yet').waitFor();
    expect(await projectCard(c, 'Owner API').count()).toBe(0);
    // The left workspace's page is now a 404 for them.
    await c.goto(left);
    await c.getByText('Workspace not found.').waitFor();
  });
});
