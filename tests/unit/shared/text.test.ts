import { describe, expect, it } from 'vitest';
import { MAX_DB_ID, parseDbId } from '../../../shared/text';
import { workspaceNameSchema, projectNameSchema, inviteSchema } from '../../../shared/workspaces';
import { emailSchema } from '../../../shared/auth';
import { webhookInputSchema } from '../../../shared/webhooks';

describe('parseDbId', () => {
  it.each(['1', '42', String(MAX_DB_ID), 7])('takes %j', (v) => expect(parseDbId(v)).toBe(Number(v)));
  it.each(['0', '-1', '0x9', ' 9', '9 ', '9e0', '+9', '09', '1.0', String(MAX_DB_ID + 1), '', 'abc', 1.5, 0, MAX_DB_ID + 1, null, undefined, [9]])(
    'refuses %j',
    (v) => expect(parseDbId(v)).toBeNull(),
  );
});

describe('shared text schemas refuse NUL', () => {
  it.each([
    ['workspace name', () => workspaceNameSchema.safeParse('a\u0000b')],
    ['project name', () => projectNameSchema.safeParse('a\u0000b')],
    ['e-mail', () => emailSchema.safeParse('a\u0000@b.example')],
    ['invitation', () => inviteSchema.safeParse({ email: 'a\u0000@b.example', role: 'collaborator' })],
    [
      'webhook description',
      () =>
        webhookInputSchema.safeParse({ name: 'x', description: '\u0000', network: 0, type: 'block', target_url: 'https://a.example', confirmations: 0, status: 'enabled' }),
    ],
  ])('%s', (_what, parse) => {
    const r = parse();
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain('NUL');
  });
});
