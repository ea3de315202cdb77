// `npm run screenshots [folder]`: screenshots of /, /#pricing, /auth/signin, /dashboard and every
// dashboard page (with a sandbox project and its submitted transactions, a webhook and the workspace's audit log) at 375 and 1280 px, for looking at the product the way a
// visitor does. Starts the real app on a free
// loopback port with a temporary data directory and signs in through the embedded dev mailbox.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { CONSENT_COOKIE } from '../../shared/site';
import { networks } from '../../shared/networks';
import { launchBrowser } from '../helpers/browser';
import { startLocalApp } from '../helpers/local-app';

const WEB_DIR = path.resolve(process.env.CAIRN_WEB_DIR ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../../dist/web'));
const WIDTHS = [375, 1280] as const;
const EMAIL = 'screenshots@example.com';

let shotDir = os.tmpdir();

async function signIn(context: BrowserContext, baseUrl: string): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/auth/signin`);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByRole('button', { name: 'Sign in with Email' }).click();
  await page.waitForURL(/\/auth\/verify-request/);
  await page.getByTestId('dev-mailbox-notice').waitFor();
  await page.screenshot({ path: path.join(shotDir, `verify-request-${page.viewportSize()?.width ?? 0}.png`), fullPage: true });
  const res = await context.request.get(`${baseUrl}/dev/mailbox.json`);
  const mails = ((await res.json()) as { data: Array<{ to: string; text: string }> }).data;
  const link = /(http:\/\/127\.0\.0\.1:\d+\/auth\/callback\/email\?\S+)/.exec(mails.find((m) => m.to === EMAIL)?.text ?? '')?.[1];
  if (!link) throw new Error('No sign-in link in the dev mailbox');
  await page.goto(link);
  await page.waitForURL(/\/dashboard/);
  await page.close();
}

async function shoot(page: Page, file: string, fullPage: boolean): Promise<void> {
  await page.screenshot({ path: file, fullPage, animations: 'disabled' });
  console.log(`  ${path.basename(file)}`);
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(WEB_DIR, 'index.html'))) throw new Error(`No web build in ${WEB_DIR}: run \`npm run build:web\` first.`);
  const outDir = process.argv[2] ? path.resolve(process.argv[2]) : fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-screenshots-'));
  fs.mkdirSync(outDir, { recursive: true });
  shotDir = outDir;
  const app = await startLocalApp({
    webDir: WEB_DIR,
    env: {
      STATUS_URL: 'https://status.example.com',
      BLOG_URL: 'https://blog.example.com',
      DOCS_URL: 'https://docs.example.com',
      SUPPORT_EMAIL: 'support@example.com',
      SOCIAL_LINKS: 'GitHub=https://github.com/example,X=https://x.com/example,Discord=https://discord.gg/example',
      COMPANY_ADDRESS: 'Cairn Labs s.r.o.\nExample Street 1\n110 00 Prague, Czech Republic',
    },
  });
  const browser = await launchBrowser();
  try {
    console.log(`Screenshots in ${outDir}`);
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();

      // A first visit, cookie banner included.
      await page.goto(`${app.url}/`);
      await page.getByRole('heading', { name: 'Plans that grow with your project' }).waitFor();
      await shoot(page, path.join(outDir, `landing-${width}.png`), true);
      // The first screen as a visitor sees it: the cookie banner over the hero.
      await shoot(page, path.join(outDir, `landing-first-screen-${width}.png`), false);

      await context.addCookies([{ name: CONSENT_COOKIE, value: '1', url: app.url }]);
      await page.goto('about:blank'); // a fresh load, not a same-document jump to the anchor
      await page.goto(`${app.url}/#pricing`);
      await page.getByRole('heading', { name: 'Plans that grow with your project' }).waitFor();
      await page.waitForFunction(() => (document.getElementById('pricing')?.getBoundingClientRect().top ?? 999) < 100);
      await shoot(page, path.join(outDir, `pricing-${width}.png`), false);

      await page.goto(`${app.url}/auth/signin`);
      await page.getByRole('button', { name: 'Sign in with Email' }).waitFor();
      await shoot(page, path.join(outDir, `signin-${width}.png`), false);

      await signIn(context, app.url);
      await page.goto(`${app.url}/dashboard`);
      await page.getByRole('button', { name: 'Account menu' }).waitFor();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForFunction(() => !document.querySelector('.mantine-Loader-root'));
      await shoot(page, path.join(outDir, `dashboard-${width}.png`), false);
      // The marketing-preferences question comes once per account: answer it on the first pass.
      const save = page.getByRole('button', { name: 'Save Preferences' });
      if (await save.isVisible()) await save.click();

      // Every dashboard page, one of each kind, with a sandbox project to show.
      const csrf = ((await (await context.request.get(`${app.url}/auth/csrf`)).json()) as { data: { csrfToken: string } }).data.csrfToken;
      const workspaceId = ((await (await context.request.get(`${app.url}/api/workspaces`)).json()) as { data: Array<{ id: number }> }).data[0]!.id;
      const preprod = networks.find((n) => n.slug === 'cardano-preprod')!.value;
      // One project for both widths: STARTER allows one.
      const listed = ((await (await context.request.get(`${app.url}/api/workspaces/${workspaceId}/projects`)).json()) as { data: Array<{ uuid: string }> }).data;
      const project =
        listed[0]?.uuid ??
        ((await (await context.request.post(`${app.url}/api/workspaces/${workspaceId}/projects`, { headers: { 'x-csrf-token': csrf }, data: { projectName: 'Screenshots', networkId: preprod } })).json()) as { data: { uuid: string } }).data.uuid;
      // A webhook whose secret was rotated with an overlap (the credentials show it), for both widths.
      const hooks = ((await (await context.request.get(`${app.url}/api/workspaces/${workspaceId}/webhooks`)).json()) as { data: Array<{ id: string }> }).data;
      let hook = hooks[0]?.id;
      if (!hook) {
        const created = await context.request.post(`${app.url}/api/workspaces/${workspaceId}/webhooks`, {
          headers: { 'x-csrf-token': csrf },
          data: { name: 'Screenshots', network: 0, type: 'block', target_url: 'https://hooks.example.com/cairn', confirmations: 0, status: 'enabled', conditions: [] },
        });
        hook = ((await created.json()) as { data: { id: string } }).data.id;
        await context.request.post(`${app.url}/api/workspaces/${workspaceId}/webhooks/${hook}/rotate-secret`, { headers: { 'x-csrf-token': csrf }, data: { overlap_seconds: 86_400 } });
      }
      // More pay-as-you-go orders than a page holds (50), a third of them paid, so the history shows 'Load more'.
      if (!(await app.db('ppu_orders').where({ workspace_id: workspaceId }).first('id'))) {
        const me = ((await (await context.request.get(`${app.url}/api/me`)).json()) as { data: { id: number } }).data.id;
        const now = Date.now();
        await app.db('ppu_orders').insert(
          Array.from({ length: 60 }, (_, i) => ({
            workspace_id: workspaceId,
            user_id: me,
            network: 'cardano-mainnet',
            address: `addr_test1screenshots${i}`,
            requests: 1_000_000 * (1 + (i % 3)),
            price_per_unit_eur: 0.0000015,
            ada_eur_rate: 0.42,
            total_eur: 1.5 * (1 + (i % 3)),
            lovelace: 3_571_429 * (1 + (i % 3)),
            status: i % 3 === 0 ? 'paid' : 'expired',
            received_lovelace: i % 3 === 0 ? 3_571_429 : 0,
            credited_requests: i % 3 === 0 ? 1_000_000 : 0,
            first_payment_height: i % 3 === 0 ? 1000 + i : null,
            created_at: now - (60 - i) * 3_600_000,
            expires_at: now - (60 - i) * 3_600_000 + 3_600_000,
            paid_at: i % 3 === 0 ? now - (60 - i) * 3_600_000 + 600_000 : null,
          })),
        );
      }
      // Transactions the project submitted, one in each state, so the project page lists them.
      const projectId = ((await app.db('projects').where({ uuid: project }).first('id')) as { id: number }).id;
      if (!(await app.db('tracked_txs').where({ project_id: projectId }).first('id'))) {
        const now = Date.now();
        const network = networks.find((n) => n.slug === 'cardano-preprod')!.webhookId!;
        // Heights under the tip the chain follower has reached, so the confirmations read as they would.
        const tip = Number((await app.db('chain_cursors').where({ network, confirmations: 0 }).first('height'))?.height ?? 1000);
        const heights: Record<string, number> = { in_block: tip - 3, confirmed: tip - 40 };
        const states = ['pending', 'in_block', 'confirmed', 'rolled_back', 'expired', 'invalid'] as const;
        await app.db('tracked_txs').insert(
          states.map((state, i) => ({
            project_id: projectId,
            network,
            tx_hash: crypto.createHash('sha256').update(`screenshots ${i}`).digest('hex'),
            state,
            block_height: heights[state] ?? null,
            block_hash: heights[state] === undefined ? null : crypto.createHash('sha256').update(`block ${i}`).digest('hex'),
            confirmations_needed: 10,
            reason: state === 'invalid' ? 'The transaction spends an input the ledger does not know.' : null,
            submitted_at: now - (states.length - i) * 600_000,
            updated_at: now,
          })),
        );
      }
      const pages: Array<[string, string]> = [
        ['webhook', `/dashboard/webhooks/${hook}`],
        ['audit', `/dashboard/workspaces/${workspaceId}/audit`],
        ['project', `/dashboard/project/${project}`],
        ['project-settings', `/dashboard/project/${project}/settings`],
        ['workspaces', '/dashboard/workspaces'],
        ['workspace', `/dashboard/workspaces/${workspaceId}`],
        ['webhook-add', '/dashboard/webhooks/add'],
        ['subscription', '/dashboard/subscription'],
        ['subscription-plans', '/dashboard/subscription/plans'],
        ['subscription-logs', '/dashboard/subscription/logs'],
        ['ppu-order', '/dashboard/subscription/ppu/order'],
        ['ppu-history', '/dashboard/subscription/ppu/history'],
        ['settings', '/dashboard/settings'],
        ['endpoints', '/dashboard/endpoints'],
        ['jsonpath-sandbox', '/dashboard/jsonpath-sandbox'],
      ];
      for (const [name, route] of pages) {
        await page.goto(`${app.url}${route}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForFunction(() => !document.querySelector('.mantine-Loader-root'));
        await shoot(page, path.join(outDir, `${name}-${width}.png`), true);
      }
      // A paid plan (the built-in test billing), once: its logs, and the confirmation of an upgrade with what it charges.
      const billing = (await (await context.request.get(`${app.url}/api/workspaces/${workspaceId}/billing`)).json()) as { data: { plan: string } };
      if (billing.data.plan === 'STARTER') {
        const started = (await (await context.request.post(`${app.url}/api/checkout`, { headers: { 'x-csrf-token': csrf }, data: { priceId: 'cairn_hobby_month', mode: 'subscription' } })).json()) as { data: { url: string } };
        await context.request.post(`${app.url}/api/billing/local/checkout/${started.data.url.split('/').pop()}`, { headers: { 'x-csrf-token': csrf }, data: { outcome: 'paid' } });
      }
      await page.goto(`${app.url}/dashboard/subscription?checkout=success`);
      await page.getByTestId('checkout-success').waitFor();
      await shoot(page, path.join(outDir, `subscription-paid-${width}.png`), true);
      await page.goto(`${app.url}/dashboard/subscription/logs`);
      await page.getByTestId('subscription-status').filter({ visible: true }).first().waitFor();
      await shoot(page, path.join(outDir, `subscription-logs-paid-${width}.png`), true);
      await page.goto(`${app.url}/dashboard/subscription/plans/fixed`);
      await page.getByTestId('upgrade-plan-DEVELOPER').click();
      await page.getByRole('dialog', { name: 'Upgrade the subscription' }).getByTestId('plan-change-now').waitFor();
      await shoot(page, path.join(outDir, `upgrade-confirm-${width}.png`), false);
      await context.close();
    }
    console.log(outDir);
  } finally {
    await browser.close();
    await app.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
