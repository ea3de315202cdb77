import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { makeProject, makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { messages } from '../../shared/messages';
import { deniedMessages, type Action } from '../../shared/permissions';

type Who = 'owner' | 'administrator' | 'maintainer' | 'collaborator' | 'stranger';
const everyone: Who[] = ['owner', 'administrator', 'maintainer', 'collaborator', 'stranger'];

const app = useTestApp();
const users = {} as Record<Who, { id: number; email: string; client: Client }>;

beforeAll(async () => {
  for (const who of everyone) {
    const email = `${who}@perm.example`;
    // ENTERPRISE everywhere so plan limits never decide a cell: this test is about roles only.
    const user = await makeUser(app.db, email, 'ENTERPRISE');
    const client = new Client(app.url);
    await signIn(client, app.mailer, email);
    users[who] = { ...user, client };
  }
});

interface Cell {
  ws: number;
  project: string;
  invitation: string;
  webhook: string;
  event: string;
}

const hookBody = { name: 'Perm hook', network: 0, type: 'block', target_url: 'https://hooks.example/perm', confirmations: 0, status: 'enabled', conditions: [] };
const BUILDERS: Who[] = ['owner', 'administrator', 'maintainer'];

interface RouteCase {
  name: string;
  call: (c: Client, x: Cell) => Promise<{ status: number; body: any }>;
  expect: Record<Who, number>;
}

const ALL_OK = (ok: number): Record<Who, number> => ({ owner: ok, administrator: ok, maintainer: ok, collaborator: ok, stranger: 404 });
const ONLY = (ok: number, allowed: Who[]): Record<Who, number> =>
  Object.fromEntries(everyone.map((w) => [w, w === 'stranger' ? 404 : allowed.includes(w) ? ok : 403])) as Record<Who, number>;

const routes: RouteCase[] = [
  { name: 'GET /workspaces/:id', call: (c, x) => c.get(`/api/workspaces/${x.ws}`), expect: ALL_OK(200) },
  { name: 'PUT /workspaces/:id', call: (c, x) => c.put(`/api/workspaces/${x.ws}`, { name: 'Renamed' }), expect: ONLY(200, ['owner', 'administrator']) },
  { name: 'DELETE /workspaces/:id', call: (c, x) => c.delete(`/api/workspaces/${x.ws}`), expect: ONLY(200, ['owner']) },
  { name: 'GET /workspaces/:id/transfer/dry', call: (c, x) => c.get(`/api/workspaces/${x.ws}/transfer/dry?newOwnerId=${users.administrator.id}`), expect: ONLY(200, ['owner']) },
  { name: 'POST /workspaces/:id/transfer', call: (c, x) => c.post(`/api/workspaces/${x.ws}/transfer`, { newOwnerId: users.administrator.id }), expect: ONLY(200, ['owner']) },
  { name: 'GET /workspaces/:id/quota', call: (c, x) => c.get(`/api/workspaces/${x.ws}/quota`), expect: ALL_OK(200) },
  { name: 'GET /workspaces/:id/addons', call: (c, x) => c.get(`/api/workspaces/${x.ws}/addons`), expect: ALL_OK(200) },
  { name: 'GET /workspaces/:id/members', call: (c, x) => c.get(`/api/workspaces/${x.ws}/members`), expect: ALL_OK(200) },
  { name: 'PUT /workspaces/:id/members/:userId', call: (c, x) => c.put(`/api/workspaces/${x.ws}/members/${users.collaborator.id}`, { role: 'maintainer' }), expect: ONLY(200, ['owner', 'administrator']) },
  { name: 'DELETE /workspaces/:id/members/:userId', call: (c, x) => c.delete(`/api/workspaces/${x.ws}/members/${users.collaborator.id}`), expect: ONLY(200, ['owner', 'administrator']) },
  { name: 'POST /workspaces/:id/leave', call: (c, x) => c.post(`/api/workspaces/${x.ws}/leave`), expect: ONLY(200, ['administrator', 'maintainer', 'collaborator']) },
  { name: 'GET /workspaces/:id/invitations', call: (c, x) => c.get(`/api/workspaces/${x.ws}/invitations`), expect: ALL_OK(200) },
  // The audit log is not there at all for members without audit.view: 404, not 403.
  { name: 'GET /workspaces/:id/audit', call: (c, x) => c.get(`/api/workspaces/${x.ws}/audit`), expect: { owner: 200, administrator: 200, maintainer: 404, collaborator: 404, stranger: 404 } },
  { name: 'GET /workspaces/:id/audit/export.csv', call: (c, x) => c.get(`/api/workspaces/${x.ws}/audit/export.csv`), expect: { owner: 200, administrator: 200, maintainer: 404, collaborator: 404, stranger: 404 } },
  { name: 'POST /workspaces/:id/webhooks/:webhookId/rotate-secret', call: (c, x) => c.post(`/api/workspaces/${x.ws}/webhooks/${x.webhook}/rotate-secret`, { overlap_seconds: 0 }), expect: ONLY(200, BUILDERS) },
  { name: 'POST /workspaces/:id/invitations', call: (c, x) => c.post(`/api/workspaces/${x.ws}/invitations`, { email: `new-${crypto.randomUUID()}@perm.example`, role: 'collaborator' }), expect: ONLY(201, ['owner', 'administrator']) },
  { name: 'DELETE /workspaces/:id/invitations/:invitationId', call: (c, x) => c.delete(`/api/workspaces/${x.ws}/invitations/${x.invitation}`), expect: ONLY(200, ['owner', 'administrator']) },
  { name: 'GET /workspaces/:id/projects', call: (c, x) => c.get(`/api/workspaces/${x.ws}/projects`), expect: ALL_OK(200) },
  { name: 'POST /workspaces/:id/projects', call: (c, x) => c.post(`/api/workspaces/${x.ws}/projects`, { projectName: 'New', networkId: 0, workspaceId: x.ws }), expect: ONLY(201, ['owner', 'administrator', 'maintainer']) },
  { name: 'GET /workspaces/:id/projects/:projectId', call: (c, x) => c.get(`/api/workspaces/${x.ws}/projects/${x.project}`), expect: ALL_OK(200) },
  { name: 'PUT /workspaces/:id/projects/:projectId', call: (c, x) => c.put(`/api/workspaces/${x.ws}/projects/${x.project}`, { projectName: 'Renamed' }), expect: ONLY(200, ['owner', 'administrator', 'maintainer']) },
  { name: 'DELETE /workspaces/:id/projects/:projectId', call: (c, x) => c.delete(`/api/workspaces/${x.ws}/projects/${x.project}`), expect: ONLY(200, ['owner', 'administrator', 'maintainer']) },
  // Project-addressed routes: the workspace comes from the project.
  { name: 'GET /projects/:projectId', call: (c, x) => c.get(`/api/projects/${x.project}`), expect: ALL_OK(200) },
  { name: 'GET /projects/:projectUuid/history', call: (c, x) => c.get(`/api/projects/${x.project}/history`), expect: ALL_OK(200) },
  { name: 'GET /workspaces/:id/projects/:projectUuid/stats', call: (c, x) => c.get(`/api/workspaces/${x.ws}/projects/${x.project}/stats`), expect: ALL_OK(200) },
  // Webhooks and their delivery history.
  { name: 'GET /workspaces/:id/webhooks', call: (c, x) => c.get(`/api/workspaces/${x.ws}/webhooks`), expect: ALL_OK(200) },
  { name: 'POST /workspaces/:id/webhooks', call: (c, x) => c.post(`/api/workspaces/${x.ws}/webhooks`, hookBody), expect: ONLY(201, BUILDERS) },
  { name: 'GET /workspaces/:id/webhooks/:webhookId', call: (c, x) => c.get(`/api/workspaces/${x.ws}/webhooks/${x.webhook}`), expect: ALL_OK(200) },
  { name: 'PUT /workspaces/:id/webhooks/:webhookId', call: (c, x) => c.put(`/api/workspaces/${x.ws}/webhooks/${x.webhook}`, { ...hookBody, name: 'Renamed' }), expect: ONLY(200, BUILDERS) },
  { name: 'DELETE /workspaces/:id/webhooks/:webhookId', call: (c, x) => c.delete(`/api/workspaces/${x.ws}/webhooks/${x.webhook}`), expect: ONLY(200, BUILDERS) },
  { name: 'GET /workspaces/:id/webhooks/:webhookId/events', call: (c, x) => c.get(`/api/workspaces/${x.ws}/webhooks/${x.webhook}/events`), expect: ALL_OK(200) },
  {
    name: 'POST /workspaces/:id/webhooks/:webhookId/events/:eventId/resend',
    call: (c, x) => c.post(`/api/workspaces/${x.ws}/webhooks/${x.webhook}/events/${x.event}/resend`),
    expect: ONLY(200, BUILDERS),
  },
  { name: 'POST /workspaces/:id/webhooks/:webhookId/test', call: (c, x) => c.post(`/api/workspaces/${x.ws}/webhooks/${x.webhook}/test`), expect: ONLY(201, BUILDERS) },
];

/** The matrix action each route that can answer 403 checks. */
const actionOf: Record<string, Action> = {
  'PUT /workspaces/:id': 'workspace.change_name',
  'POST /workspaces/:id/webhooks/:webhookId/rotate-secret': 'webhooks.update',
  'DELETE /workspaces/:id': 'workspace.delete',
  'GET /workspaces/:id/transfer/dry': 'workspace.transfer',
  'POST /workspaces/:id/transfer': 'workspace.transfer',
  'PUT /workspaces/:id/members/:userId': 'members.update',
  'DELETE /workspaces/:id/members/:userId': 'members.delete',
  'POST /workspaces/:id/leave': 'workspace.leave',
  'POST /workspaces/:id/invitations': 'invites.add',
  'DELETE /workspaces/:id/invitations/:invitationId': 'invites.delete',
  'POST /workspaces/:id/projects': 'projects.add',
  'PUT /workspaces/:id/projects/:projectId': 'projects.update',
  'DELETE /workspaces/:id/projects/:projectId': 'projects.delete',
  'POST /workspaces/:id/webhooks': 'webhooks.add',
  'PUT /workspaces/:id/webhooks/:webhookId': 'webhooks.update',
  'DELETE /workspaces/:id/webhooks/:webhookId': 'webhooks.delete',
  'POST /workspaces/:id/webhooks/:webhookId/events/:eventId/resend': 'webhooks.update',
  'POST /workspaces/:id/webhooks/:webhookId/test': 'webhooks.update',
};

async function freshCell(): Promise<Cell> {
  const ws = await makeWorkspace(app.db, users.owner.id, [
    { userId: users.administrator.id, role: 'administrator' },
    { userId: users.maintainer.id, role: 'maintainer' },
    { userId: users.collaborator.id, role: 'collaborator' },
  ]);
  const project = await makeProject(app.db, ws);
  const invitation = crypto.randomUUID();
  const now = Date.now();
  await app.db('workspace_invitations').insert({
    id: invitation,
    workspace_id: ws,
    token_hash: crypto.randomBytes(32).toString('hex'),
    email: `pending-${invitation}@perm.example`,
    role: 'collaborator',
    invited_by: users.owner.id,
    created_at: now,
    expires_at: now + 86_400_000,
  });
  const webhook = crypto.randomUUID();
  await app.db('webhooks').insert({
    id: webhook,
    workspace_id: ws,
    ...hookBody,
    conditions: '[]',
    auth_token: crypto.randomBytes(32).toString('hex'),
    created_at: now,
    updated_at: now,
  });
  const event = crypto.randomUUID();
  await app.db('webhook_events').insert({
    id: event,
    webhook_id: webhook,
    type: 'block',
    network: 0,
    block_height: 1,
    block_hash: 'ab'.repeat(32),
    body: '{}',
    created: Math.floor(now / 1000),
    status: 'delivered',
    attempts: 1,
    next_attempt_at: now,
    test: false,
    created_at: now,
  });
  return { ws, project, invitation, webhook, event };
}

describe('every workspace route × every role', () => {
  const cells = routes.flatMap((r) => everyone.map((who) => [r.name, who, r.expect[who], r] as const));
  it.each(cells)('%s as %s answers %i', async (_name, who, status, r) => {
    const cell = await freshCell();
    try {
      const res = await r.call(users[who].client, cell);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      if (status === 404) expect(res.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
      if (status === 403) {
        expect(res.body.error.code).toBe('forbidden');
        // The text comes from the matrix module, so the server and the screens say the same.
        expect(res.body.error.message).toBe(deniedMessages[actionOf[r.name]!]);
      }
    } finally {
      await app.db('workspaces').where({ id: cell.ws }).delete();
    }
  });

  it("says 'You don't have permission to create a new project in this workspace.' to a collaborator", async () => {
    const cell = await freshCell();
    const res = await users.collaborator.client.post(`/api/workspaces/${cell.ws}/projects`, { projectName: 'x', networkId: 0 });
    expect(res.body.error.message).toBe(messages.permission.createResource('project'));
    await app.db('workspaces').where({ id: cell.ws }).delete();
  });

  it('answers 401 to a signed-out caller on every route', async () => {
    const cell = await freshCell();
    const anon = new Client(app.url);
    for (const r of routes) expect((await r.call(anon, cell)).status, r.name).toBe(401);
    await app.db('workspaces').where({ id: cell.ws }).delete();
  });
});

describe('webhook auth tokens', () => {
  it('are shown to the roles that may update projects, and to no collaborator', async () => {
    const cell = await freshCell();
    try {
      for (const who of ['owner', 'administrator', 'maintainer', 'collaborator'] as const) {
        const one = await users[who].client.get(`/api/workspaces/${cell.ws}/webhooks/${cell.webhook}`);
        const list = await users[who].client.get(`/api/workspaces/${cell.ws}/webhooks`);
        if (who === 'collaborator') {
          expect(one.body.data.auth_token).toBeNull();
          expect(list.body.data[0].auth_token).toBeNull();
        } else {
          expect(one.body.data.auth_token, who).toMatch(/^[0-9a-f]{64}$/);
          expect(list.body.data[0].auth_token, who).toMatch(/^[0-9a-f]{64}$/);
        }
      }
    } finally {
      await app.db('workspaces').where({ id: cell.ws }).delete();
    }
  });
});

describe("another workspace's resources answer 404", () => {
  it('even to the owner of both workspaces', async () => {
    const a = await freshCell();
    const b = await freshCell();
    const owner = users.owner.client;
    expect((await owner.get(`/api/workspaces/${a.ws}/projects/${b.project}`)).status).toBe(404);
    expect((await owner.put(`/api/workspaces/${a.ws}/projects/${b.project}`, { projectName: 'x' })).status).toBe(404);
    expect((await owner.delete(`/api/workspaces/${a.ws}/projects/${b.project}`)).status).toBe(404);
    expect((await owner.delete(`/api/workspaces/${a.ws}/invitations/${b.invitation}`)).status).toBe(404);
    expect(await app.db('projects').where({ uuid: b.project }).first()).toBeTruthy();
    expect(await app.db('workspace_invitations').where({ id: b.invitation }).first()).toBeTruthy();
    await app.db('workspaces').whereIn('id', [a.ws, b.ws]).delete();
  });

  it('for members of another workspace', async () => {
    const cell = await freshCell();
    const other = await makeWorkspace(app.db, users.stranger.id, [], 'Stranger space');
    await makeProject(app.db, other);
    const stranger = users.stranger.client;
    expect((await stranger.get(`/api/workspaces/${cell.ws}/projects/${cell.project}`)).status).toBe(404);
    expect((await stranger.get(`/api/workspaces/${other}/projects/${cell.project}`)).status).toBe(404);
    expect((await stranger.get(`/api/workspaces/999999`)).status).toBe(404);
    expect((await stranger.get(`/api/workspaces/abc`)).status).toBe(400);
    await app.db('workspaces').whereIn('id', [cell.ws, other]).delete();
  });
});
