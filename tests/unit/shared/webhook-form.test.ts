import { describe, expect, it } from 'vitest';
import { webhookFormSchema, webhookInputSchema, webhookMessages, type WebhookFormValues } from '../../../shared/webhooks';

// The dashboard's webhook form validates with webhookFormSchema, which turns its fields into the API's
// body and ends in the server's own schema: the screen must show the server's messages at the same paths.
const fields = (over: Partial<WebhookFormValues> = {}): WebhookFormValues => ({
  name: 'Chain watcher',
  description: null,
  network: 0,
  project: '',
  status: 'enabled',
  type: 'block',
  target_url: 'https://hooks.example.com/cardano',
  confirmations: 0,
  conditions: [],
  ...over,
});

const messagesByPath = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('webhook form schema', () => {
  it('sends the project of a Cardano devnet webhook, asks for one when none is chosen, and sends none on other networks', () => {
    const uuid = '6f1f2a8e-8a51-4c3e-9d0a-3b2f4c5d6e7f';
    expect(webhookFormSchema.parse(fields({ network: 4, project: uuid })).project).toBe(uuid);
    expect(messagesByPath(webhookFormSchema.safeParse(fields({ network: 4 })))).toEqual({ project: webhookMessages.devnetProject });
    expect('project' in webhookFormSchema.parse(fields({ network: 2, project: uuid }))).toBe(false);
    expect(messagesByPath(webhookInputSchema.safeParse({ ...webhookFormSchema.parse(fields({ network: 2 })), project: uuid }))).toEqual({ project: webhookMessages.projectOnlyOnDevnet });
  });

  it('turns the fields into the body the API takes: no row keys, a query only on JSONPath conditions', () => {
    const body = webhookFormSchema.parse(
      fields({
        name: '  Chain watcher ',
        conditions: [
          { key: 'a', type: 'poolId', operator: '=', value: 'pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdy', selector: '' },
          { key: 'b', type: 'jsonPath', operator: '>=', value: '5', selector: '$.height' },
        ],
      }),
    );
    expect(body).toEqual({
      name: 'Chain watcher',
      description: null,
      network: 0,
      api_version: 1,
      type: 'block',
      confirmations: 0,
      status: 'enabled',
      target_url: 'https://hooks.example.com/cardano',
      conditions: [
        { type: 'poolId', operator: '=', value: 'pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdy' },
        { type: 'jsonPath', operator: '>=', value: '5', selector: '$.height' },
      ],
    });
    expect(webhookInputSchema.safeParse(body).success).toBe(true);
  });

  it("gives the server's messages at the fields' paths", () => {
    const result = webhookFormSchema.safeParse(
      fields({
        name: ' ',
        target_url: 'example.com/hook',
        confirmations: '',
        conditions: [{ key: 'a', type: 'quantity', operator: '>', value: '', selector: '' }],
      }),
    );
    expect(messagesByPath(result)).toEqual({
      name: webhookMessages.required,
      target_url: webhookMessages.invalidUrl,
      confirmations: webhookMessages.confirmations,
      'conditions.0.value': webhookMessages.required,
    });
    const conditions = webhookFormSchema.safeParse(
      fields({
        conditions: [
          { key: 'a', type: 'jsonPath', operator: '=', value: '1', selector: '' },
          { key: 'b', type: 'txCount', operator: '>', value: 'many', selector: '' },
        ],
      }),
    );
    expect(messagesByPath(conditions)).toEqual({ 'conditions.0.selector': webhookMessages.required, 'conditions.1.value': 'Enter a whole number.' });
  });

  it('refuses a network Secure Webhooks does not watch, and more than five conditions', () => {
    const condition = { key: 'k', type: 'txCount' as const, operator: '>' as const, value: '1', selector: '' };
    const result = webhookFormSchema.safeParse(fields({ network: 999, conditions: Array.from({ length: 6 }, () => condition) }));
    expect(messagesByPath(result)).toMatchObject({ network: webhookMessages.unsupportedNetwork, conditions: webhookMessages.tooManyConditions });
  });
});
