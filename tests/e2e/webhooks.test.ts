import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserAvailable, launchBrowser } from '../helpers/browser';
import { signInInBrowser, type SignedInBrowser } from '../helpers/browser-sign-in';
import { waitForWithClock } from '../helpers/page-waits';
import { startReceiver } from '../helpers/receiver';
import { startTestApp, type TestApp } from '../helpers/test-app';
import type { TestDatabase } from '../helpers/db-template';
import { Dispatcher } from '../../server/features/webhooks/dispatcher';
import { parseAllowlist } from '../../server/features/webhooks/ssrf';
import { createLogger } from '../../server/logger';
import { messages } from '../../shared/messages';
import { CONSENT_COOKIE } from '../../shared/site';
import { MAX_CONDITIONS, webhookMessages } from '../../shared/webhooks';

const OWNER = 'hooks-owner@example.com';
// How often the events list refetches while one is pending.
const PENDING_POLL_MS = 3_000;
const logger = createLogger('silent');

describe.runIf(browserAvailable())('Secure Webhooks screens, in Chromium', () => {
  let browser: Browser;
  let app: TestApp & { database: TestDatabase };
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let owner: SignedInBrowser;
  let webhookUrl = '';

  beforeAll(async () => {
    receiver = await startReceiver();
    app = await startTestApp({ env: { WEBHOOK_ALLOWLIST: '127.0.0.1' } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await owner?.context.close();
    await browser?.close();
    await app?.stop();
    await app?.database.drop();
    await receiver?.close();
  });

  // The test app runs no webhook worker: deliver what is due, the way the worker would.
  const deliver = () =>
    new Dispatcher(app.db, logger, app.mailer, {
      allowlist: parseAllowlist('127.0.0.1'),
      timeoutMs: 5000,
      retrySchedule: [0, 1000],
      publicUrl: app.url,
    }).runOnce();

  const conditionGroups = (page: Page) => page.getByRole('group', { name: /^Condition \d+$/ });
  const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

  it('validates the form, limits and clears conditions, and previews a JSONPath query on a real sample', async () => {
    owner = await signInInBrowser(browser, app, OWNER, '/dashboard/webhooks/add', { permissions: ['clipboard-read', 'clipboard-write'] });
    const p = owner.page;
    // Cookies accepted, so the consent banner does not cover the form's buttons.
    await owner.context.addCookies([{ name: CONSENT_COOKIE, value: '1', url: app.url }]);
    await p.reload();
    await p.getByRole('heading', { level: 1, name: 'Add webhook' }).waitFor();
    const save = p.getByRole('button', { name: 'Save Webhook' });
    expect(await save.isDisabled()).toBe(true);

    // Networks with a webhook id only (testnet hidden), the first by default; the workspace is read-only.
    expect(await p.getByLabel('Network').locator('option').allTextContents()).toEqual(['Cardano mainnet', 'Cardano preview', 'Cardano preprod', 'Cardano devnet']);
    expect(await p.getByLabel('Network').inputValue()).toBe('0');
    expect(await p.getByLabel('Workspace').inputValue()).toBe('My Workspace');
    expect(await p.getByLabel('Workspace').getAttribute('readonly')).not.toBeNull();
    expect(await p.getByRole('switch', { name: 'Enabled' }).isChecked()).toBe(true);

    // Validation texts, shown once a field is left.
    await p.getByLabel('Webhook name').focus();
    await p.getByLabel('Webhook name').blur();
    await p.getByText(webhookMessages.required).waitFor();
    await p.getByLabel('Endpoint URL').fill('example.com/hook');
    await p.getByLabel('Endpoint URL').blur();
    await p.getByText(webhookMessages.invalidUrl).waitFor();
    await p.getByLabel('Required confirmations').fill('6');
    await p.getByLabel('Required confirmations').blur();
    await p.getByText(webhookMessages.confirmations).waitFor();
    expect(await save.isDisabled()).toBe(true);
    // A transaction's status is sent as it changes: no confirmations to ask for, and none left wrong.
    await p.getByLabel('Trigger', { exact: true }).selectOption('tx_status');
    await expect.poll(() => p.getByLabel('Required confirmations').count()).toBe(0);
    await p.getByLabel('Trigger', { exact: true }).selectOption('transaction');
    expect(await p.getByLabel('Required confirmations').inputValue()).toBe('0');
    await p.getByLabel('Required confirmations').fill('6');
    await p.getByLabel('Required confirmations').blur();
    await p.getByText(webhookMessages.confirmations).waitFor();

    // At most five conditions: the add button disables at five.
    const add = p.getByRole('button', { name: 'Add condition' });
    for (let i = 0; i < MAX_CONDITIONS; i++) await add.click();
    await expect.poll(() => conditionGroups(p).count()).toBe(MAX_CONDITIONS);
    expect(await add.isDisabled()).toBe(true);
    // Operators follow the condition type (spec section 5).
    const first = p.getByRole('group', { name: 'Condition 1', exact: true });
    expect(await first.getByLabel('Operator').locator('option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual(['=', '!=']);
    await first.getByLabel('Condition type').selectOption('quantity');
    expect(await first.getByLabel('Operator').locator('option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual([
      '=',
      '!=',
      '<=',
      '<',
      '>=',
      '>',
    ]);
    // A condition value is required.
    await first.getByLabel('Value').focus();
    await first.getByLabel('Value').blur();
    await first.getByText(webhookMessages.required).waitFor();

    // Changing the trigger clears every condition.
    await p.getByLabel('Trigger', { exact: true }).selectOption('block');
    await expect.poll(() => conditionGroups(p).count()).toBe(0);
    expect(await add.isEnabled()).toBe(true);

    // A JSONPath condition: the editor is prefilled with a real block and previews the extracted value.
    await add.click();
    const condition = p.getByRole('group', { name: 'Condition 1', exact: true });
    await condition.getByLabel('Condition type').selectOption('jsonPath');
    const query = condition.getByLabel('JSONPath query');
    await query.focus();
    await query.blur();
    await condition.getByText(webhookMessages.required).first().waitFor();
    const sample = condition.getByLabel('Sample JSON');
    await expect.poll(async () => (await sample.inputValue()).length, { timeout: 15_000 }).toBeGreaterThan(10);
    const block = JSON.parse(await sample.inputValue()) as { height: number; hash: string };
    expect(block.hash).toMatch(/^[0-9a-f]{64}$/);
    await query.fill('$.height');
    const preview = condition.getByTestId('jsonpath-preview');
    await expect.poll(() => preview.textContent()).toBe(String(block.height));
    await condition.getByLabel('Operator').selectOption('>=');
    await condition.getByLabel('Value').fill(String(block.height));
    await condition.getByText('Condition matches').waitFor();
    await condition.getByLabel('Value').fill(String(block.height + 1));
    await condition.getByText('Condition does not match').waitFor();
    // Script expressions are refused, not run: the error shows inline.
    await query.fill('$[?(@.height > 0)]');
    await condition.getByText(/The query cannot be evaluated/).waitFor();
    await query.fill('$.height');

    // Invalid sample JSON: the parser's own message, as one toast after the typing stops.
    const broken = '{"height": 5,';
    const parserMessage = await p.evaluate((text) => {
      try {
        JSON.parse(text);
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    }, broken);
    expect(parserMessage).not.toBe('');
    await sample.fill('');
    await sample.pressSequentially(broken, { delay: 15 });
    await toast(p, parserMessage).waitFor();
    await sample.blur();
    expect(await toast(p, 'The sample JSON is not valid').count()).toBe(1);
    await condition.getByRole('button', { name: 'Restore the chain sample' }).click();
    await expect.poll(() => preview.textContent()).toBe(String(block.height));
  });

  it('creates the webhook, shows its identifier and auth token, and updates it', async () => {
    const p = owner.page;
    await p.getByLabel('Webhook name').fill('Chain watcher');
    await p.getByLabel('Endpoint URL').fill(receiver.url);
    await p.getByLabel('Required confirmations').fill('0');
    const save = p.getByRole('button', { name: 'Save Webhook' });
    await expect.poll(() => save.isEnabled()).toBe(true);
    await save.click();
    await toast(p, webhookMessages.created).waitFor();
    await p.waitForURL(/\/dashboard\/webhooks\/[0-9a-f-]{36}$/);
    webhookUrl = p.url();
    const id = webhookUrl.split('/').pop()!;

    const row = await app.db('webhooks').where({ id }).first();
    expect(row).toMatchObject({ name: 'Chain watcher', type: 'block', network: 0, target_url: receiver.url, confirmations: 0, status: 'enabled' });
    expect(JSON.parse(row.conditions)).toEqual([{ type: 'jsonPath', operator: '>=', value: expect.any(String), selector: '$.height' }]);

    await p.getByRole('heading', { level: 1, name: 'Chain watcher' }).waitFor();
    expect(await p.getByLabel('Identifier', { exact: true }).inputValue()).toBe(id);
    expect(await p.getByLabel('Auth token', { exact: true }).inputValue()).toBe(row.auth_token);
    await p.getByText(webhookMessages.verifyWarning).waitFor();
    await p.getByText('How to verify the signature').waitFor();
    await p.getByRole('button', { name: 'Copy auth token' }).click();
    await p.getByRole('button', { name: 'Auth token copied' }).waitFor();
    expect(await p.evaluate(() => navigator.clipboard.readText())).toBe(row.auth_token);

    // The saved conditions come back into the form.
    const condition = p.getByRole('group', { name: 'Condition 1', exact: true });
    expect(await condition.getByLabel('JSONPath query').inputValue()).toBe('$.height');

    await p.getByLabel('Webhook name').fill('Block watcher');
    await p.getByRole('button', { name: 'Save Webhook' }).click();
    await toast(p, webhookMessages.updated).waitFor();
    await p.getByRole('heading', { level: 1, name: 'Block watcher' }).waitFor();
    expect((await app.db('webhooks').where({ id }).first('name')).name).toBe('Block watcher');

    // A reload finds the webhook's workspace from the id in the URL alone.
    await p.reload();
    await p.getByRole('heading', { level: 1, name: 'Block watcher' }).waitFor();
  });

  it('sends a test event, shows its attempts, and resends it', async () => {
    const p = owner.page;
    // The page's own clock, so its poll while an event is pending can be jumped to rather than waited for.
    await owner.context.clock.install();
    await p.reload();
    await p.getByText('No events yet', { exact: false }).waitFor();
    await p.getByRole('button', { name: 'Send test event' }).click();
    const events = p.getByRole('list', { name: 'Events' });
    const event = events.getByRole('listitem').first();
    await event.getByText('Pending').waitFor();
    await event.getByText('Test', { exact: true }).waitFor();
    expect(await event.getByRole('button', { name: 'Resend' }).isDisabled()).toBe(true);

    expect(await deliver()).toBeGreaterThan(0);
    await receiver.waitFor((r) => r.length === 1);
    const eventId = receiver.received[0]!.body.id as string;
    // The page polls while an event is pending, so the result shows without a reload.
    await waitForWithClock(p, event.getByText('Delivered'), PENDING_POLL_MS);
    await event.getByRole('button', { name: /Block/ }).click();
    const attempts = event.getByRole('list', { name: 'Delivery attempts' });
    await attempts.getByText('HTTP 200', { exact: true }).waitFor();
    await attempts.getByText('ok thanks').waitFor();
    await event.getByText(eventId, { exact: true }).waitFor();
    // The exact body that was sent, as the receiver got it.
    expect(JSON.parse(await event.getByTestId('event-body').innerText())).toEqual(receiver.received[0]!.body);
    expect(await event.getByTestId('next-attempt').count()).toBe(0); // delivered: nothing more is due

    await event.getByRole('button', { name: 'Resend' }).click();
    await toast(p, 'Event queued again').waitFor();
    await event.getByText('Pending').waitFor();
    // While pending, the history says when the next attempt is due.
    await expect.poll(() => event.getByTestId('next-attempt').innerText()).toMatch(/^(First attempt|Next retry) (due now|at .+)$/);
    await deliver();
    await receiver.waitFor((r) => r.length === 2);
    expect(receiver.received[1]!.body.id).toBe(eventId);
    await waitForWithClock(p, event.getByText('Delivered'), PENDING_POLL_MS);
    await expect.poll(() => attempts.getByText('HTTP 200', { exact: true }).count()).toBe(2);
  });

  it('deletes the webhook only through the delete endpoint popup', async () => {
    const p = owner.page;
    const id = webhookUrl.split('/').pop()!;
    await p.getByRole('button', { name: 'Delete', exact: true }).click();
    const popup = p.getByRole('dialog', { name: 'Delete this webhook?' });
    await popup.getByRole('button', { name: messages.deleteEndpoint.cancel }).click();
    await popup.waitFor({ state: 'hidden' });
    expect(await app.db('webhooks').where({ id }).first('id')).toBeTruthy();

    await p.getByRole('button', { name: 'Delete', exact: true }).click();
    await popup.getByRole('button', { name: messages.deleteEndpoint.confirm }).click();
    await p.waitForURL(`${app.url}/dashboard`);
    expect(await app.db('webhooks').where({ id }).first('id')).toBeUndefined();

    await p.goto(webhookUrl);
    await p.getByText('Webhook not found.').waitFor();
  });
});
