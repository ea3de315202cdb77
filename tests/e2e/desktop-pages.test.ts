// The JSONPath sandbox and the API console in Chromium. The desktop bridge (window.cairn) is built by the
// preload's own createBridge and answered by the test over the same typed contract as the main process:
// arguments checked with main's schemas, keys and names fetched from the server with the page's session, the
// console's requests sent by main's own module to a real gateway. Only the keychain is kept in memory here
// (tests/integration/desktop-keychain.test.ts runs it against a real Secret Service).
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { signInInBrowser } from '../helpers/browser-sign-in';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { startTestGateway } from '../helpers/gateway';
import type { TestDatabase } from '../helpers/db-template';
import type { RunningGateway } from '../../server/gateway-app';
import { createBridge, type BridgeChannel, type BridgeHandlers } from '../../desktop/preload/bridge';
import { bridgeArgSchemas } from '../../desktop/main/bridge-schemas';
import { CairnApi } from '../../desktop/main/cairn-api';
import { keepProjectKey, listKeptKeys } from '../../desktop/main/kept-keys';
import { sendConsoleRequest } from '../../desktop/main/api-console';
import type { KeptKeyRecord } from '../../desktop/main/keychain';
import { stakeAddressOf } from '../../shared/cardano/address';
import { builtInSamples } from '../../shared/webhook-samples';

const SHOTS = process.env.CAIRN_SCREENSHOTS_DIR;

/** The keychain's interface over a Map, for the browser test only. */
function memoryKeychain() {
  const items = new Map<string, KeptKeyRecord>();
  return {
    items,
    keep: async (record: KeptKeyRecord) => void items.set(record.projectUuid, record),
    list: async () => [...items.values()].map(({ key: _key, ...rest }) => rest),
    secretFor: async (uuid: string) => items.get(uuid)?.key ?? null,
    remove: async (uuid: string) => items.delete(uuid),
  };
}

/** window.cairn in `context`, from the preload's createBridge, answered by `handlers` after main's argument checks. */
async function installBridge(context: BrowserContext, handlers: BridgeHandlers): Promise<string[]> {
  const calls: string[] = [];
  await context.exposeFunction('__cairnInvoke', async (channel: BridgeChannel, ...args: unknown[]) => {
    calls.push(channel);
    const parsed = bridgeArgSchemas[channel].parse(args) as unknown[];
    return (handlers[channel] as (...a: unknown[]) => unknown)(...parsed);
  });
  await context.addInitScript({
    content: `window.cairn = (${createBridge.toString()})((channel, ...args) => window.__cairnInvoke(channel, ...args), 'linux');`,
  });
  return calls;
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
}

describe.runIf(browserAvailable())('desktop pages in Chromium', () => {
  let browser: Browser;
  let app: TestApp & { database: TestDatabase };
  let gateway: RunningGateway;

  beforeAll(async () => {
    app = await startTestApp();
    gateway = await startTestGateway(app);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
    await app?.stop();
    await app?.database.drop();
  });

  it('JSONPath sandbox: extracts, says whether the event fires by the matcher, and works with no server', async () => {
    const { context, page } = await signInInBrowser(browser, app, 'sandbox@example.com', '/dashboard/jsonpath-sandbox');
    await page.getByRole('heading', { name: 'JSONPath sandbox' }).waitFor();
    // The built-in transaction sample, with the starting condition $.tx.fees > 100000.
    await page.getByText('This event would fire').waitFor();
    await expect.poll(() => page.getByLabel('Extracted by condition 1').textContent()).toContain('"175753"');
    const condition = page.getByRole('group', { name: 'Condition 1' });
    await condition.getByLabel('Value').fill('200000');
    await page.getByText('This event would not fire').waitFor();
    await condition.getByText('does not match').waitFor();

    // A typed condition, evaluated by the matcher: the sample's sender by its stake address (matching every
    // address of that stake key), then someone else's.
    const sender = (builtInSamples.transaction as Array<{ inputs: Array<{ address: string }> }>)[0]!.inputs[0]!.address;
    await condition.getByLabel('Condition type').selectOption('sender');
    await condition.getByLabel('Operator').selectOption('=');
    await condition.getByLabel('Value').fill(stakeAddressOf(sender)!);
    await page.getByText('This event would fire').waitFor();
    await condition.getByText('matches', { exact: true }).waitFor();
    await condition.getByLabel('Value').fill(sender.replace(/.$/, (c) => (c === 'q' ? 'p' : 'q')));
    await page.getByText('This event would not fire').waitFor();

    // Another trigger clears the conditions and loads its sample; a broken payload says why.
    await page.getByLabel('Trigger').selectOption('block');
    await page.getByText('Without conditions every block event fires.').waitFor();
    await page.getByText('This event would fire').waitFor();
    await page.getByLabel('Payload (JSON)').fill('{"height": ');
    await page.getByText(/Not valid JSON/).waitFor();
    await page.getByLabel('Payload (JSON)').fill('[1, 2]');
    await page.getByText("A block event's payload is the block object").waitFor();
    await page.getByRole('button', { name: 'Built-in sample' }).click();
    await page.getByRole('button', { name: 'Add condition' }).click();
    const blockCondition = page.getByRole('group', { name: 'Condition 1' });
    await blockCondition.getByLabel('Condition type').selectOption('jsonPath');
    await blockCondition.getByLabel('JSONPath query').fill('$.tx_count');
    await blockCondition.getByLabel('Operator').selectOption('>=');
    await blockCondition.getByLabel('Value').fill('0');
    await page.getByText('This event would fire').waitFor();
    await shoot(page, 'jsonpath-sandbox');

    // The standalone page (the desktop app's window of its own) with every /api request failing.
    const offline = await browser.newContext();
    const standalone = await offline.newPage();
    await offline.route('**/api/**', (route) => route.abort());
    await standalone.goto(`${app.url}/jsonpath-sandbox`);
    await standalone.getByRole('heading', { name: 'JSONPath sandbox' }).waitFor();
    await standalone.getByText('This event would fire').waitFor();
    await offline.close();
    await context.close();
  });

  it('the web dashboard shows event-stream notices as toasts that lead to the delivery history', async () => {
    const { context, page } = await signInInBrowser(browser, app, 'toasts@example.com', '/dashboard');
    const workspaceId = ((await (await page.request.get(`${app.url}/api/workspaces`)).json()).data as Array<{ id: number }>)[0]!.id;
    const webhookId = crypto.randomUUID();
    const now = Date.now();
    await app.db('webhooks').insert({
      id: webhookId,
      workspace_id: workspaceId,
      name: 'Toasted hook',
      network: 0,
      type: 'block',
      target_url: 'https://example.com/hook',
      confirmations: 0,
      status: 'enabled',
      conditions: '[]',
      auth_token: 'ab'.repeat(32),
      created_at: now,
      updated_at: now,
    });
    // Once the dashboard's stream is open (its response headers arrived), a notice as the worker writes it.
    const streamOpen = page.waitForResponse((r) => r.url().endsWith('/api/events') && r.status() === 200);
    await page.reload();
    await streamOpen;
    await app.db('webhook_notices').insert({
      workspace_id: workspaceId,
      webhook_id: webhookId,
      kind: 'warning',
      source: `test:${webhookId}`,
      data: JSON.stringify({ webhookName: 'Toasted hook', at: now, eventId: crypto.randomUUID(), statusCode: 503, error: null }),
      created_at: now,
    });
    await page.getByText('Problems detected with Toasted hook').waitFor();
    await page.getByText(/HTTP 503.*Repeated failure may disable the webhook automatically/).waitFor();
    await page.getByRole('link', { name: 'Open the delivery history' }).click();
    await page.waitForURL(`${app.url}/dashboard/webhooks/${webhookId}`);
    await context.close();
  });

  it('API console: keeps a project key via the bridge, lists it, sends a request from main, flags a deleted project', async () => {
    const keychain = memoryKeychain();
    const context = await browser.newContext();
    const cookie = async () => {
      const jar = await context.cookies(app.url);
      const sid = jar.find((c) => c.name === 'cairn.sid');
      return sid ? `cairn.sid=${sid.value}` : null;
    };
    const api = new CairnApi(app.url, cookie);
    const refuse = () => {
      throw new Error('not part of this test');
    };
    const handlers: BridgeHandlers = {
      'app:version': () => '0.1.0',
      'auth:sign-in': refuse,
      'keychain:keep': (uuid) => keepProjectKey(api, keychain, uuid),
      'keychain:list': () => listKeptKeys(api, keychain),
      'keychain:remove': (uuid) => keychain.remove(uuid),
      'console:send': (request) => sendConsoleRequest(request, { keychain, gatewayUrl: async () => gateway.url }),
      'sandbox:open': () => undefined,
    };
    const calls = await installBridge(context, handlers);
    const signed = await signInInBrowser(browser, app, 'console@example.com', '/dashboard', {}, {});
    // The signed-in session, moved into the context that has the bridge.
    await context.addCookies(await signed.context.cookies());
    await signed.context.close();
    const page = await context.newPage();

    const workspaces = (await (await page.request.get(`${app.url}/api/workspaces`)).json()).data as Array<{ id: number }>;
    const csrf = (await (await page.request.get(`${app.url}/auth/csrf`)).json()).data.csrfToken as string;
    const created = await page.request.post(`${app.url}/api/workspaces/${workspaces[0]!.id}/projects`, { headers: { 'X-CSRF-Token': csrf }, data: { projectName: 'Console project', networkId: 6 } });
    expect(created.status()).toBe(201);
    const { uuid, project } = (await created.json()).data as { uuid: string; project: { project_id: string } };

    await page.goto(`${app.url}/dashboard/project/${uuid}`);
    await page.getByRole('button', { name: 'Keep key in keychain' }).click();
    await page.getByRole('link', { name: 'In your keychain: open the API console' }).click();
    await page.waitForURL(/\/dashboard\/api-console$/);
    const table = page.getByRole('table', { name: 'Keys in your keychain' });
    await table.getByRole('cell', { name: 'Console project', exact: true }).waitFor();
    await table.getByRole('cell', { name: 'Cardano preprod', exact: true }).waitFor();
    await table.getByText('Active').waitFor();

    await page.getByLabel('Endpoint').selectOption({ label: 'GET Latest block' });
    await expect.poll(() => page.getByLabel('GET path').inputValue()).toBe('/blocks/latest');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText(/^200 OK$/).waitFor();
    expect(await page.getByTestId('console-response-body').textContent()).toContain('"hash"');
    await page.getByText(/\d+(\.\d+)? ms/).first().waitFor();
    expect(await page.getByText(`${gateway.url}/cardano-preprod/api/v0/blocks/latest`).count()).toBe(1);
    // The key went out from "main"; the page never held it.
    expect(await page.content()).not.toContain(project.project_id);
    await shoot(page, 'api-console');

    // A gateway error comes back as it is, in the Blockfrost shape.
    await page.getByLabel('GET path').fill('/txs/not-a-hash');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText(/^(400|404) /).waitFor();
    expect(await page.getByTestId('console-response-body').textContent()).toContain('status_code');

    // The project is deleted: its kept key is flagged, and can be removed.
    const del = await page.request.delete(`${app.url}/api/workspaces/${workspaces[0]!.id}/projects/${uuid}`, { headers: { 'X-CSRF-Token': csrf } });
    expect(del.status()).toBe(200);
    await page.reload();
    await table.getByText('Project deleted').waitFor();
    await page.getByRole('button', { name: 'Remove the key of Console project' }).click();
    await page.getByText("No keys yet. Open a project and choose 'Keep key in keychain'.").waitFor();
    expect(keychain.items.size).toBe(0);
    expect(new Set(calls)).toEqual(new Set(['keychain:list', 'keychain:keep', 'console:send', 'keychain:remove']));
    await context.close();
  });
});
