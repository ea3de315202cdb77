// What stops a new user on the first screens, each checked in the browser, at 375 and 1280 px where
// something could cover something else. DX_SCREENSHOTS=<folder> also saves the screens.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { browserAvailable } from '../helpers/browser';
import { useBrowserApp } from '../helpers/browser-app';
import { framesDrawn, settled } from '../helpers/page-waits';
import { messages } from '../../shared/messages';
import { planLimitMessage } from '../../shared/plans';

const SHOTS = process.env.DX_SCREENSHOTS;
const WIDTHS = [375, 1280] as const;
/** Phones' heights at 375 px, and two desktop windows. */
const SCREENS = [
  [375, 667],
  [375, 812],
  [375, 900],
  [1280, 720],
  [1280, 900],
] as const;

async function shoot(page: Page, name: string, focus?: Locator) {
  if (!SHOTS) return;
  const width = page.viewportSize()?.width ?? 1280;
  await framesDrawn(page);
  await focus?.scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`) });
}

/** Whether two elements' boxes on screen share any area. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) throw new Error('an element is not on screen');
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

describe.runIf(browserAvailable())('the frictions of a new user, in Chromium', () => {
  const suite = useBrowserApp();

  async function signedIn(email: string) {
    const { page, context } = await suite.signIn(email, '/dashboard');
    const workspaceId = ((await (await page.request.get(`${suite.app.url}/api/workspaces`)).json()).data as Array<{ id: number }>)[0]!.id;
    const csrf = (await (await page.request.get(`${suite.app.url}/auth/csrf`)).json()).data.csrfToken as string;
    const addProject = async (projectName: string, networkId: number) => {
      const res = await page.request.post(`${suite.app.url}/api/workspaces/${workspaceId}/projects`, { headers: { 'X-CSRF-Token': csrf }, data: { projectName, networkId } });
      expect(res.status()).toBe(201);
      return (await res.json()).data.uuid as string;
    };
    return { page, context, workspaceId, addProject };
  }

  it('says in view why Add Project is disabled, with a link to the plans', async () => {
    const { page, addProject } = await signedIn('frictions-full@example.com');
    await addProject('The one', 6);
    await page.goto(`${suite.app.url}/dashboard`);
    const button = page.getByRole('button', { name: 'Add Project' });
    await expect.poll(() => button.isDisabled()).toBe(true);
    const why = page.getByTestId('add-project-blocked');
    expect(await why.innerText()).toContain(planLimitMessage('STARTER', 'projectCount'));
    expect(await why.isVisible()).toBe(true);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await shoot(page, 'add-project-blocked');
    }
    await why.getByRole('link', { name: 'See the plans' }).click();
    await page.waitForURL(/\/dashboard\/subscription\/plans$/);
  });

  it("shows the workspace's pay-as-you-go balance on the subscription page", async () => {
    const { page, workspaceId } = await signedIn('frictions-balance@example.com');
    await page.goto(`${suite.app.url}/dashboard/subscription`);
    const balance = page.getByTestId('subscription-ppu-balance');
    await expect.poll(() => balance.innerText()).toBe('Balance of My Workspace: 0 requests');
    await suite.app.db('ppu_balances').insert({ workspace_id: workspaceId, credited: 1_250_000, spent: 250_000, updated_at: Date.now() });
    await page.reload();
    await expect.poll(() => balance.innerText()).toBe('Balance of My Workspace: 1,000,000 requests');
    await page.getByRole('link', { name: 'New order' }).first().waitFor();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await shoot(page, 'subscription-ppu-balance', balance);
    }
  });

  it("says under 'Start Building' on the plans chooser that it opens an order", async () => {
    const { page } = await signedIn('frictions-chooser@example.com');
    await page.goto(`${suite.app.url}/dashboard/subscription/plans`);
    const card = page.getByTestId('crossroad-payg');
    await card.getByRole('link', { name: 'Start Building' }).waitFor();
    expect(await card.getByTestId('crossroad-payg-note').innerText()).toMatch(/^Opens an order for this workspace: .*pay the order in ADA\. Nothing is charged until you pay\.$/);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await shoot(page, 'plans-chooser');
    }
    await card.getByRole('link', { name: 'Start Building' }).click();
    await page.waitForURL(/\/dashboard\/subscription\/ppu\/order$/);
  });

  // One test a screen, each its own user (STARTER allows one project): a project created, its page
  // loaded and measured five times over came near one test's time on a busy machine.
  for (const [width, height] of SCREENS) {
    it(`keeps the 'Project created' toast off the key and its Copy button at ${width}x${height}`, async () => {
      const { page } = await signedIn(`frictions-toast-${width}x${height}@example.com`);
      await page.setViewportSize({ width, height });
      await page.goto(`${suite.app.url}/dashboard`);
      await page.getByRole('button', { name: 'Add Project' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Project' });
      await dialog.getByLabel('Project name').fill(`Toast ${height}`);
      await dialog.getByRole('button', { name: 'Add Project' }).click();
      await page.waitForURL(/\/dashboard\/project\//);
      const toast = page.locator('.mantine-Notification-root').filter({ hasText: `Toast ${height} is ready to use.` });
      await toast.waitFor();
      // The pointer rests on the toast while it is measured: a toast closes itself four seconds after
      // it shows unless hovered, and on a busy machine the waits below can take longer than that. So it
      // is hovered at once; but it slides in, and a pointer put on it while it still moved can be left
      // beside it once it stops (the pause undone): hovered again where it comes to rest.
      await toast.hover();
      await settled(page, toast);
      await toast.hover();
      const key = page.getByTestId('project-id');
      const copy = page.getByTestId('copy-project-id');
      await copy.waitFor();
      await framesDrawn(page);
      // The toast's entrance transition has ended once no animation or transition is running on the page.
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      expect(await overlap(toast, key), `toast over the key at ${width}x${height}`).toBe(false);
      expect(await overlap(toast, copy), `toast over Copy at ${width}x${height}`).toBe(false);
      await shoot(page, `project-created-toast-${height}`);
      // The Copy button takes the click (nothing is over it).
      await copy.click({ trial: true, timeout: 2_000 });
    });
  }

  it("keeps the cookie banner off the hero's code on a first visit", async () => {
    for (const [width, height] of SCREENS) {
      const context = await suite.browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      await page.goto(`${suite.app.url}/`);
      const banner = page.getByTestId('cookie-banner');
      await banner.waitFor();
      const code = page.getByTestId('block-terminal');
      await code.waitFor();
      await framesDrawn(page);
      await shoot(page, `landing-cookie-banner-${height}`);
      expect(await overlap(banner, code), `cookie banner over the hero's code at ${width}x${height}`).toBe(false);
      // Nor once the visitor scrolls down to read it.
      await code.scrollIntoViewIfNeeded();
      await framesDrawn(page);
      expect(await overlap(banner, code), `cookie banner over the hero's code scrolled into view at ${width}x${height}`).toBe(false);
      await context.close();
    }
  });

  it('lines up the faucet dialog’s inputs', async () => {
    const { page, addProject } = await signedIn('frictions-faucet@example.com');
    const uuid = await addProject('Faucet', 6);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${suite.app.url}/dashboard/project/${uuid}`);
      await page.getByRole('button', { name: 'Get test ada' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sandbox faucet' });
      const token = dialog.getByLabel('Test token (optional)');
      const quantity = dialog.getByRole('textbox', { name: 'Quantity' });
      await quantity.waitFor();
      await settled(page, dialog);
      const [t, q] = [(await token.boundingBox())!, (await quantity.boundingBox())!];
      expect(Math.abs(t.y - q.y), `inputs' tops at ${width} px`).toBeLessThan(1);
      expect(Math.abs(t.height - q.height)).toBeLessThan(1);
      const [a, s] = [(await dialog.getByLabel('Address').boundingBox())!, (await dialog.getByRole('textbox', { name: /^Ada/ }).boundingBox())!];
      expect(Math.abs(a.x - s.x)).toBeLessThan(1);
      expect(Math.abs(a.x - t.x)).toBeLessThan(1);
      await shoot(page, 'faucet-dialog');
      await page.keyboard.press('Escape');
    }
  });

  it('wraps the development mailbox at word boundaries and shows the sign-in link as a button', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 375, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${suite.app.url}/auth/signin`);
    await page.getByLabel('Email').fill('frictions-mailbox@example.com');
    await page.getByRole('button', { name: 'Sign in with Email' }).click();
    await page.waitForURL(/\/auth\/verify-request/);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${suite.app.url}/dev/mailbox`);
      const mail = page.locator('article').filter({ hasText: 'frictions-mailbox@example.com' });
      // Every word of the mail's sentences stays whole (a link, one long word, may break anywhere).
      const sentence = mail.locator('pre').first();
      const brokenWords = await sentence.evaluate((el) => {
        const broken: string[] = [];
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (node.parentElement?.closest('a')) continue;
          const text = node.textContent ?? '';
          const range = document.createRange();
          for (const m of text.matchAll(/[A-Za-z]{2,}/g)) {
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            if (range.getClientRects().length > 1) broken.push(m[0]);
          }
        }
        return broken;
      });
      expect(brokenWords, `words broken across lines at ${width} px`).toEqual([]);
      const button = mail.getByRole('link', { name: 'Sign in to Cairn' });
      expect(await button.getAttribute('href')).toMatch(/\/auth\/callback\/email\?token=/);
      expect(await button.getAttribute('class')).toContain('button');
      await shoot(page, 'dev-mailbox');
    }
    await page.getByRole('link', { name: 'Sign in to Cairn' }).first().click();
    await page.waitForURL(/\/dashboard/);
    await context.close();
  });

  it('says on the Milkomeda page that the development chain keeps its state, and why Add to MetaMask is disabled', async () => {
    const { page, addProject } = await signedIn('frictions-milkomeda@example.com');
    const uuid = await addProject('EVM', 3);
    await page.goto(`${suite.app.url}/dashboard/project/${uuid}`);
    const notice = page.getByRole('alert').filter({ hasText: 'local EVM development chain' });
    await notice.waitFor();
    const said = await notice.innerText();
    expect(said).not.toContain('starts empty');
    expect(said).toContain('keeps its accounts, contracts and blocks across restarts');
    const why = page.getByTestId('metamask-missing');
    expect(await why.isVisible()).toBe(true);
    expect(await why.innerText()).toContain('this browser has no MetaMask extension');
    // The spec's tooltip stays.
    await page.getByLabel(`Add to MetaMask: ${messages.metamask.notInstalled}`).waitFor();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await shoot(page, 'milkomeda-no-wallet');
    }
  });
});
