import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { makeProject, makeUser, makeWorkspace } from '../helpers/workspace-fixture';

// NUL characters and ids past 32 bits: PostgreSQL refuses both inside a query, so they must be
// answered before one runs, never with a 500 and a stack.
const app = useTestApp();
let owner: Client;
let ws: number;
let project: string;
let ownerId: number;

beforeAll(async () => {
  const user = await makeUser(app.db, 'nul-owner@input.example', 'ENTERPRISE');
  ownerId = user.id;
  owner = new Client(app.url);
  await signIn(owner, app.mailer, 'nul-owner@input.example');
  ws = await makeWorkspace(app.db, user.id, []);
  project = await makeProject(app.db, ws);
});

const NUL = 'a\u0000b';
const webhook = (over: Record<string, unknown>) => ({
  name: 'Hook',
  network: 0,
  type: 'block',
  target_url: 'https://hooks.example/x',
  confirmations: 0,
  status: 'enabled',
  conditions: [],
  ...over,
});

describe('NUL characters', () => {
  it.each([
    ['workspace name', () => owner.post('/api/workspaces', { name: NUL })],
    ['workspace rename', () => owner.put(`/api/workspaces/${ws}`, { name: NUL })],
    ['project name', () => owner.post(`/api/workspaces/${ws}/projects`, { projectName: NUL, networkId: 0 })],
    ['project rename', () => owner.put(`/api/workspaces/${ws}/projects/${project}`, { projectName: NUL })],
    ['webhook name', () => owner.post(`/api/workspaces/${ws}/webhooks`, webhook({ name: NUL }))],
    ['webhook description', () => owner.post(`/api/workspaces/${ws}/webhooks`, webhook({ description: NUL }))],
    ['webhook URL', () => owner.post(`/api/workspaces/${ws}/webhooks`, webhook({ target_url: `https://hooks.example/${NUL}` }))],
    ['invitation e-mail', () => owner.post(`/api/workspaces/${ws}/invitations`, { email: `x${NUL}@input.example`, role: 'collaborator' })],
    ['a key of the body', () => owner.post('/api/workspaces', { name: 'ok', [NUL]: 1 })],
    ['the query string', () => owner.get('/api/webhooks/sample?type=block%00&network=0')],
    ['the path', () => owner.get(`/api/invitations/abcdefghijklmnopq%00`)],
  ])('%s: 400, nothing stored', async (_what, call) => {
    const before = await app.db('workspaces').count({ n: '*' });
    const res = await call();
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('invalid');
    expect(res.text).not.toMatch(/at .*\.ts:\d+/);
    expect(await app.db('workspaces').count({ n: '*' })).toEqual(before);
  });

  it('sign-in e-mail without a session: 400, no mail', async () => {
    const anon = new Client(app.url);
    const mails = app.mailer.captured().length;
    const res = await anon.post('/auth/signin/email', { email: `who${NUL}@input.example` });
    expect(res.status).toBe(400);
    expect(app.mailer.captured().length).toBe(mails);
  });
});

describe('ids', () => {
  it.each(['2147483648', '99999999999999999999', '9e0', '0x9', '%209', '+9', '09', '0', '-1', 'abc'])('workspace id %j: 400', async (id) => {
    const res = await owner.get(`/api/workspaces/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
  });

  it('the largest id is an id (404, not a member)', async () => {
    expect((await owner.get('/api/workspaces/2147483647')).status).toBe(404);
  });

  it.each(['2147483648', '9e0', '0x9'])('member id %j: 400', async (id) => {
    expect((await owner.put(`/api/workspaces/${ws}/members/${id}`, { role: 'maintainer' })).status).toBe(400);
    expect((await owner.delete(`/api/workspaces/${ws}/members/${id}`)).status).toBe(400);
  });

  it.each([2147483648, '2147483648', '9e0', 1.5, -3])('newOwnerId %j: 400', async (id) => {
    expect((await owner.post(`/api/workspaces/${ws}/transfer`, { newOwnerId: id })).status).toBe(400);
    expect((await owner.get(`/api/workspaces/${ws}/transfer/dry?newOwnerId=${encodeURIComponent(String(id))}`)).status).toBe(400);
  });
});

describe('workspace transfer', () => {
  it('to a user who does not exist: 400, nothing changes', async () => {
    const subs = await app.db('subscriptions').count({ n: '*' });
    const res = await owner.post(`/api/workspaces/${ws}/transfer`, { newOwnerId: 2147483000 });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.message).toBe('The new owner must be a member of this workspace.');
    expect(await app.db('subscriptions').count({ n: '*' })).toEqual(subs);
    expect((await app.db('workspaces').where({ id: ws }).first('owner_id')).owner_id).toBe(ownerId);
  });
});
