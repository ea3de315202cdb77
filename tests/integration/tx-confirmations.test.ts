// The confirmations that settle a project's submitted transactions, as the project settings screen
// sets them: a builder's change is kept, shown by the project's submissions and written to the
// workspace audit log; a value out of range, a viewer's change and another workspace's project are refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import type { AuditPageDto } from '../../shared/audit';
import { DEFAULT_TX_CONFIRMATIONS, MAX_TX_CONFIRMATIONS } from '../../shared/txs';

const app = useTestApp();
let owner: Client;
let collaborator: Client;
let stranger: Client;
let ws: number;
let uuid: string;

const put = (confirmations: unknown, client = owner) => client.put(`/api/projects/${uuid}/tx-confirmations`, { confirmations });
const shown = async () => (await owner.get(`/api/projects/${uuid}/txs`)).body.data.confirmations as number;
const audited = async () =>
  ((await app.db('audit_entries').where({ workspace_id: ws, action: 'project.tx_confirmations_changed' }).orderBy('id')) as Array<{ target_id: string; target_label: string; details: string }>).map((e) => ({
    target: [e.target_id, e.target_label],
    details: JSON.parse(e.details) as unknown,
  }));

beforeAll(async () => {
  owner = new Client(app.url);
  await signIn(owner, app.mailer, 'depth-owner@example.com');
  await setSubscription(app.db, (await owner.get('/api/me')).body.data.id, 'DEVELOPER', 'active');
  ws = (await owner.get('/api/workspaces')).body.data[0].id;
  uuid = (await owner.post(`/api/workspaces/${ws}/projects`, { projectName: 'deep dapp', networkId: 6 })).body.data.uuid;

  collaborator = new Client(app.url);
  await signIn(collaborator, app.mailer, 'depth-collaborator@example.com');
  const collaboratorId = (await collaborator.get('/api/me')).body.data.id;
  await app.db('workspace_members').insert({ workspace_id: ws, user_id: collaboratorId, role: 'collaborator', created_at: Date.now() });

  stranger = new Client(app.url);
  await signIn(stranger, app.mailer, 'depth-stranger@example.com');
});

describe('PUT /api/projects/:uuid/tx-confirmations', () => {
  it('keeps the value, shows it with the submissions and audits each change once', async () => {
    expect(await shown()).toBe(DEFAULT_TX_CONFIRMATIONS);
    const set = await put(25);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toEqual({ confirmations: 25 });
    expect(await shown()).toBe(25);
    // The same value again changes nothing and records nothing.
    expect((await put(25)).status).toBe(200);
    expect((await put(MAX_TX_CONFIRMATIONS)).status).toBe(200);
    expect(await shown()).toBe(MAX_TX_CONFIRMATIONS);
    expect(await audited()).toEqual([
      { target: [uuid, 'deep dapp'], details: { from: DEFAULT_TX_CONFIRMATIONS, to: 25 } },
      { target: [uuid, 'deep dapp'], details: { from: 25, to: MAX_TX_CONFIRMATIONS } },
    ]);
    const page = (await owner.get(`/api/workspaces/${ws}/audit?action=project.tx_confirmations_changed`)).body.data as AuditPageDto;
    expect(page.entries[0]).toMatchObject({ action: 'project.tx_confirmations_changed', target: { type: 'project', id: uuid } });
  });

  it.each([
    [0, 'Confirmations must be at least 1 block.'],
    [MAX_TX_CONFIRMATIONS + 1, `Confirmations must be at most ${MAX_TX_CONFIRMATIONS} blocks.`],
    [2.5, 'Confirmations must be a whole number of blocks.'],
    ['12', 'Confirmations must be a whole number of blocks.'],
    [null, 'Confirmations must be a whole number of blocks.'],
  ])('refuses %j with a 400 that says why, and keeps the value', async (value, message) => {
    const before = await shown();
    const res = await put(value);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(message);
    expect(await shown()).toBe(before);
  });

  it('refuses a collaborator (403) and another workspace (404), and keeps the value', async () => {
    const before = await shown();
    const entries = (await audited()).length;
    const denied = await put(3, collaborator);
    expect(denied.status).toBe(403);
    expect((await put(3, stranger)).status).toBe(404);
    expect(await shown()).toBe(before);
    expect(await audited()).toHaveLength(entries);
  });
});
