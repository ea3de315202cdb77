import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client, linkIn } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { makeProject, makeUser } from '../helpers/workspace-fixture';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { messages } from '../../shared/messages';
import { boosts, planLimitMessage, plans, type PlanName } from '../../shared/plans';

const app = useTestApp();

let n = 0;
/** A new user, signed in, on the given plan; returns the client, the user and their first workspace id. */
async function newUser(plan: PlanName = 'STARTER') {
  const email = `user${++n}-${Date.now()}@ws.example`;
  const client = new Client(app.url);
  await signIn(client, app.mailer, email);
  const me = (await client.get('/api/me')).body.data;
  await setSubscription(app.db, me.id, plan, 'active');
  const first = (await client.get('/api/workspaces')).body.data[0];
  return { client, id: me.id as number, email, ws: first.id as number };
}

describe('workspaces', () => {
  it('gives a new user a first workspace they own', async () => {
    const u = await newUser();
    const list = await u.client.get('/api/workspaces');
    expect(list.body).toEqual({ data: [{ id: u.ws, name: 'My Workspace', role_name: 'owner', is_creator: true, creator_email: u.email }], next: null });
    expect((await u.client.get(`/api/workspaces/${u.ws}`)).body.data.name).toBe('My Workspace');
  });

  it('enforces workspaceCount with a 422 that names the limit', async () => {
    const u = await newUser('STARTER');
    const res = await u.client.post('/api/workspaces', { name: 'Second' });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'plan_limit', details: { limit: 'workspaceCount', plan: 'STARTER', max: plans.STARTER.workspaceCount, used: plans.STARTER.workspaceCount } });
    expect(res.body.error.message).toBe(planLimitMessage('STARTER', 'workspaceCount'));

    await setSubscription(app.db, u.id, 'DEVELOPER', 'active');
    const ok = await u.client.post('/api/workspaces', { name: '  Second  ' });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ name: 'Second', role_name: 'owner', is_creator: true });
  });

  it('trims and limits names, and refuses wrong types without changing anything', async () => {
    const u = await newUser('DEVELOPER');
    for (const [body, message] of [
      [{ name: '   ' }, 'Workspace name is empty'],
      [{ name: 'x'.repeat(101) }, 'Workspace name is longer than 100 characters'],
      [{ name: 42 }, 'Workspace name is empty'],
      [{}, 'Workspace name is empty'],
    ] as const) {
      const res = await u.client.post('/api/workspaces', body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect((await u.client.get('/api/workspaces')).body.data).toHaveLength(1);
    expect((await u.client.put(`/api/workspaces/${u.ws}`, { name: ' Renamed ' })).body.data.name).toBe('Renamed');
  });

  it('deletes a workspace with its projects, memberships and invitations in one go', async () => {
    const owner = await newUser('DEVELOPER');
    const ws = (await owner.client.post('/api/workspaces', { name: 'Doomed' })).body.data.id;
    await owner.client.post(`/api/workspaces/${ws}/projects`, { projectName: 'P', networkId: 0 });
    await owner.client.post(`/api/workspaces/${ws}/invitations`, { email: 'invitee@ws.example', role: 'collaborator' });
    const res = await owner.client.delete(`/api/workspaces/${ws}`);
    expect(res.status).toBe(200);
    for (const table of ['projects', 'workspace_invitations', 'workspace_members']) {
      expect(await app.db(table).where({ workspace_id: ws }).first(), table).toBeUndefined();
    }
    expect((await owner.client.get(`/api/workspaces/${ws}`)).status).toBe(404);
  });
});

describe('projects', () => {
  it('creates a project with a key of network prefix + 32 random characters', async () => {
    const u = await newUser('DEVELOPER');
    const res = await u.client.post(`/api/workspaces/${u.ws}/projects`, { projectName: '  My dApp ', networkId: 6, workspaceId: u.ws });
    expect(res.status).toBe(201);
    expect(res.body.data.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const list = (await u.client.get(`/api/workspaces/${u.ws}/projects`)).body.data;
    expect(list).toEqual([
      {
        id: expect.any(Number),
        uuid: res.body.data.uuid,
        project_name: 'My dApp',
        project_id: expect.stringMatching(/^preprod[A-Za-z0-9]{32}$/),
        network_id: 6,
        workspace_id: u.ws,
        created_at: expect.any(Number),
        requests_today: 0,
        sandbox: true,
        previous_key: null,
        allow_lists: { origins: [], ips: [], methods: [] },
      },
    ]);
  });

  it('draws distinct keys', async () => {
    const u = await newUser('DEVELOPER');
    const keys = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const r = await u.client.post(`/api/workspaces/${u.ws}/projects`, { projectName: `p${i}`, networkId: 0 });
      keys.add(r.body.data.project.project_id);
    }
    expect(keys.size).toBe(10);
  });

  it.each([
    [{ projectName: '', networkId: 0 }, messages.project.nameEmpty],
    [{ projectName: '   ', networkId: 0 }, messages.project.nameEmpty],
    [{ networkId: 0 }, messages.project.nameEmpty],
    [{ projectName: 'x'.repeat(101), networkId: 0 }, 'Project name is longer than 100 characters'],
    [{ projectName: 'ok', networkId: 1 }, 'This network is not available. Choose one of the networks offered.'],
    [{ projectName: 'ok', networkId: 7 }, 'This network is not available. Choose one of the networks offered.'],
    [{ projectName: 'ok', networkId: 99 }, 'This network is not available. Choose one of the networks offered.'],
    [{ projectName: 'ok', networkId: '0' }, 'Network is required'],
    [{ projectName: 'ok' }, 'Network is required'],
  ])('refuses %j with 400 and creates nothing', async (body, message) => {
    const u = await newUser('DEVELOPER');
    const res = await u.client.post(`/api/workspaces/${u.ws}/projects`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(message);
    expect(await app.db('projects').where({ workspace_id: u.ws }).first()).toBeUndefined();
  });

  it('pools projectCount across every workspace the owner owns', async () => {
    const u = await newUser('HOBBY');
    await setSubscription(app.db, u.id, 'DEVELOPER', 'active');
    const second = (await u.client.post('/api/workspaces', { name: 'Second' })).body.data.id;
    for (let i = 0; i < plans.DEVELOPER.projectCount - 1; i++) await makeProject(app.db, u.ws);
    expect((await u.client.post(`/api/workspaces/${second}/projects`, { projectName: 'the last', networkId: 0 })).status).toBe(201);
    const res = await u.client.post(`/api/workspaces/${second}/projects`, { projectName: 'one too many', networkId: 0 });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual({ limit: 'projectCount', plan: 'DEVELOPER', max: plans.DEVELOPER.projectCount, used: plans.DEVELOPER.projectCount });
    expect(res.body.error.message).toBe(planLimitMessage('DEVELOPER', 'projectCount'));
  });

  it("tells a member who is not the owner that the limit is the owner's plan", async () => {
    const owner = await newUser('STARTER');
    const admin = await newUser('DEVELOPER');
    await app.db('workspace_members').insert({ workspace_id: owner.ws, user_id: admin.id, role: 'administrator', created_at: Date.now() });
    await makeProject(app.db, owner.ws);
    const res = await admin.client.post(`/api/workspaces/${owner.ws}/projects`, { projectName: 'second', networkId: 0 });
    expect(res.status).toBe(422);
    expect(res.body.error.message).toBe(planLimitMessage('STARTER', 'projectCount', 'owner'));
    const own = await owner.client.post(`/api/workspaces/${owner.ws}/projects`, { projectName: 'second', networkId: 0 });
    expect(own.body.error.message).toBe(planLimitMessage('STARTER', 'projectCount'));
  });

  it('lets only one of several concurrent creations at the limit succeed', async () => {
    const u = await newUser('STARTER');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => u.client.post(`/api/workspaces/${u.ws}/projects`, { projectName: `race${i}`, networkId: 0 })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
    expect(await app.db('projects').where({ workspace_id: u.ws }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });

  it.each(['incomplete', 'incomplete_expired'] as const)('blocks adding projects while the subscription is %s, saying why', async (status) => {
    const u = await newUser('HOBBY');
    await setSubscription(app.db, u.id, 'HOBBY', status);
    const res = await u.client.post(`/api/workspaces/${u.ws}/projects`, { projectName: 'p', networkId: 0 });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual({ limit: 'subscriptionStatus', status });
    expect(res.body.error.message).toMatch(status === 'incomplete' ? /first payment .* not complete/ : /failed and it expired/);
    const quota = (await u.client.get(`/api/workspaces/${u.ws}/quota`)).body.data;
    expect(quota.subscription.status).toBe(status);
  });

  it('renames and deletes a project', async () => {
    const u = await newUser('DEVELOPER');
    const { uuid } = (await u.client.post(`/api/workspaces/${u.ws}/projects`, { projectName: 'Old', networkId: 0 })).body.data;
    expect((await u.client.put(`/api/workspaces/${u.ws}/projects/${uuid}`, { projectName: ' New ' })).body.data.project_name).toBe('New');
    expect((await u.client.put(`/api/workspaces/${u.ws}/projects/${uuid}`, { projectName: '' })).body.error.message).toBe(messages.project.nameEmpty);
    expect((await u.client.delete(`/api/workspaces/${u.ws}/projects/${uuid}`)).status).toBe(200);
    expect((await u.client.get(`/api/workspaces/${u.ws}/projects/${uuid}`)).status).toBe(404);
    expect((await u.client.delete(`/api/workspaces/${u.ws}/projects/${uuid}`)).status).toBe(404);
    expect((await u.client.delete(`/api/workspaces/${u.ws}/projects/not-a-uuid`)).status).toBe(400);
  });
});

describe('quota', () => {
  it('answers the spec shape with the plan and pooled usage', async () => {
    const u = await newUser('HOBBY');
    await makeProject(app.db, u.ws);
    const now = Date.now();
    await app.db('addons').insert([
      { workspace_id: u.ws, type: 'REQUESTS_BOOST_300K', expires_at: now + 86_400_000, created_at: now },
      { workspace_id: u.ws, type: 'REQUESTS_BOOST_1M', expires_at: now - 1000, created_at: now - 100_000 },
    ]);
    const res = await u.client.get(`/api/workspaces/${u.ws}/quota`);
    expect(res.body).toEqual({
      data: {
        quota: { projectCount: plans.HOBBY.projectCount, requestLimit: plans.HOBBY.requestLimit + boosts.REQUESTS_BOOST_300K.requests, storageLimit: plans.HOBBY.storageLimit, webhookCount: plans.HOBBY.webhookCount },
        used: { subscription: { projectCount: 1, webhookCount: 0, requests: 0, storage: 0 } },
        subscription: { status: 'active', currentPlan: { name: 'HOBBY' } },
        ppu: { active: false, balance: { requests: 0 } },
      },
    });
    expect((await u.client.get(`/api/workspaces/${u.ws}/addons`)).body.data).toEqual([{ type: 'REQUESTS_BOOST_300K', expires_at: now + 86_400_000 }]);
  });
});

describe('members and invitations', () => {
  it('invites by e-mail, and the invitee accepts once', async () => {
    const owner = await newUser('DEVELOPER');
    const inviteeEmail = `invitee-${Date.now()}@ws.example`;
    const res = await owner.client.post(`/api/workspaces/${owner.ws}/invitations`, { email: inviteeEmail.toUpperCase(), role: 'maintainer' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ email: inviteeEmail, role_name: 'maintainer', invited_by_email: owner.email });
    const mail = app.mailer.captured()[0]!;
    expect(mail.to).toBe(inviteeEmail);
    const link = new URL(linkIn(mail.text));
    expect(link.pathname).toMatch(/^\/workspace-invite\/[\w-]+$/);
    const token = link.pathname.split('/').pop()!;
    expect(JSON.stringify(await app.db('workspace_invitations').select())).not.toContain(token);

    const listed = (await owner.client.get(`/api/workspaces/${owner.ws}/invitations`)).body.data;
    expect(listed).toHaveLength(1);

    // Someone else signed in cannot take it.
    const other = await newUser();
    const wrong = await other.client.post(`/api/invitations/${token}/accept`);
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.message).toBe(`This invitation was sent to ${inviteeEmail}. Sign in with that e-mail to accept it.`);

    const invitee = new Client(app.url);
    await signIn(invitee, app.mailer, inviteeEmail);
    expect((await invitee.get(`/api/invitations/${token}`)).body.data).toMatchObject({ workspace_name: 'My Workspace', role_name: 'maintainer', status: 'pending' });
    const accepted = await invitee.post(`/api/invitations/${token}/accept`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toEqual({ workspaceId: owner.ws });
    const ws = (await invitee.get('/api/workspaces')).body.data.find((w: { id: number }) => w.id === owner.ws);
    expect(ws).toEqual({ id: owner.ws, name: 'My Workspace', role_name: 'maintainer', is_creator: false, creator_email: owner.email });

    const again = await invitee.post(`/api/invitations/${token}/accept`);
    expect(again.status).toBe(409);
    expect((await invitee.get(`/api/invitations/${token}`)).body.data.status).toBe('accepted');
    expect((await owner.client.get(`/api/workspaces/${owner.ws}/invitations`)).body.data).toHaveLength(0);
  });

  it('refuses an expired or revoked invitation clearly', async () => {
    const owner = await newUser('DEVELOPER');
    const email1 = `late-${Date.now()}@ws.example`;
    await owner.client.post(`/api/workspaces/${owner.ws}/invitations`, { email: email1, role: 'collaborator' });
    const token1 = linkIn(app.mailer.captured()[0]!.text).split('/').pop()!;
    await app.db('workspace_invitations').where({ email: email1 }).update({ expires_at: Date.now() - 1 });
    const invitee = new Client(app.url);
    await signIn(invitee, app.mailer, email1);
    const expired = await invitee.post(`/api/invitations/${token1}/accept`);
    expect(expired.status).toBe(409);
    expect(expired.body.error.message).toBe('This invitation has expired. Ask for a new one.');

    const email2 = `revoked-${Date.now()}@ws.example`;
    const inv = (await owner.client.post(`/api/workspaces/${owner.ws}/invitations`, { email: email2, role: 'collaborator' })).body.data;
    const token2 = linkIn(app.mailer.captured()[0]!.text).split('/').pop()!;
    expect((await owner.client.delete(`/api/workspaces/${owner.ws}/invitations/${inv.id}`)).status).toBe(200);
    const revokedUser = new Client(app.url);
    await signIn(revokedUser, app.mailer, email2);
    expect((await revokedUser.post(`/api/invitations/${token2}/accept`)).status).toBe(404);
  });

  it('expires invitations after 7 days', async () => {
    const owner = await newUser('DEVELOPER');
    const before = Date.now();
    const inv = (await owner.client.post(`/api/workspaces/${owner.ws}/invitations`, { email: `ttl-${before}@ws.example`, role: 'collaborator' })).body.data;
    expect(inv.expires_at - inv.created_at).toBe(7 * 24 * 3600 * 1000);
  });

  it('enforces workspaceMembers, counting pending invitations', async () => {
    const starter = await newUser('STARTER');
    const res = await starter.client.post(`/api/workspaces/${starter.ws}/invitations`, { email: 'x@ws.example', role: 'collaborator' });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toMatchObject({ limit: 'workspaceMembers', max: 1 });

    const dev = await newUser('DEVELOPER'); // 5 members
    for (let i = 0; i < 4; i++) {
      expect((await dev.client.post(`/api/workspaces/${dev.ws}/invitations`, { email: `m${i}-${Date.now()}@ws.example`, role: 'collaborator' })).status).toBe(201);
    }
    const full = await dev.client.post(`/api/workspaces/${dev.ws}/invitations`, { email: 'sixth@ws.example', role: 'collaborator' });
    expect(full.status).toBe(422);
    expect(full.body.error.message).toBe(planLimitMessage('DEVELOPER', 'workspaceMembers'));
  });

  it('refuses inviting a member twice or with a bad role', async () => {
    const owner = await newUser('DEVELOPER');
    expect((await owner.client.post(`/api/workspaces/${owner.ws}/invitations`, { email: owner.email, role: 'collaborator' })).status).toBe(409);
    expect((await owner.client.post(`/api/workspaces/${owner.ws}/invitations`, { email: 'dup@ws.example', role: 'collaborator' })).status).toBe(201);
    expect((await owner.client.post(`/api/workspaces/${owner.ws}/invitations`, { email: 'dup@ws.example', role: 'collaborator' })).status).toBe(409);
    const bad = await owner.client.post(`/api/workspaces/${owner.ws}/invitations`, { email: 'r@ws.example', role: 'owner' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Role must be administrator, maintainer or collaborator');
  });

  it('lists members with roles, changes a role, removes a member, and lets a member leave', async () => {
    const owner = await newUser('DEVELOPER');
    const a = await makeUser(app.db, `a-${Date.now()}@ws.example`);
    const b = await makeUser(app.db, `b-${Date.now()}@ws.example`);
    await app.db('workspace_members').insert([
      { workspace_id: owner.ws, user_id: a.id, role: 'collaborator', created_at: Date.now() },
      { workspace_id: owner.ws, user_id: b.id, role: 'collaborator', created_at: Date.now() + 1 },
    ]);
    const members = (await owner.client.get(`/api/workspaces/${owner.ws}/members`)).body.data;
    expect(members.map((m: { email: string; role_name: string; is_creator: boolean }) => [m.email, m.role_name, m.is_creator])).toEqual([
      [owner.email, 'owner', true],
      [a.email, 'collaborator', false],
      [b.email, 'collaborator', false],
    ]);
    const changed = await owner.client.put(`/api/workspaces/${owner.ws}/members/${a.id}`, { role: 'administrator' });
    expect(changed.body.data[1].role_name).toBe('administrator');
    expect((await owner.client.put(`/api/workspaces/${owner.ws}/members/${owner.id}`, { role: 'collaborator' })).status).toBe(403);
    expect((await owner.client.delete(`/api/workspaces/${owner.ws}/members/${owner.id}`)).status).toBe(403);
    expect((await owner.client.delete(`/api/workspaces/${owner.ws}/members/${b.id}`)).status).toBe(200);
    expect((await owner.client.delete(`/api/workspaces/${owner.ws}/members/${b.id}`)).status).toBe(404);

    const aClient = new Client(app.url);
    await signIn(aClient, app.mailer, a.email);
    expect((await aClient.post(`/api/workspaces/${owner.ws}/leave`)).status).toBe(200);
    expect((await aClient.get(`/api/workspaces/${owner.ws}`)).status).toBe(404);
    expect((await owner.client.post(`/api/workspaces/${owner.ws}/leave`)).status).toBe(403);
  });
});

describe('transfer', () => {
  it('shows what would change and what blocks it, then transfers', async () => {
    const owner = await newUser('DEVELOPER');
    const target = await newUser('STARTER');
    await app.db('workspace_members').insert({ workspace_id: owner.ws, user_id: target.id, role: 'collaborator', created_at: Date.now() });
    await makeProject(app.db, owner.ws);
    await makeProject(app.db, owner.ws);

    const dry = await owner.client.get(`/api/workspaces/${owner.ws}/transfer/dry?newOwnerId=${target.id}`);
    expect(dry.status).toBe(200);
    expect(dry.body.data.allowed).toBe(false);
    expect(dry.body.data.blockers.map((b: { limit: string }) => b.limit).sort()).toEqual(['projectCount', 'workspaceCount', 'workspaceMembers']);
    const refused = await owner.client.post(`/api/workspaces/${owner.ws}/transfer`, { newOwnerId: target.id });
    expect(refused.status).toBe(422);

    await setSubscription(app.db, target.id, 'DEVELOPER', 'active');
    const ok = await owner.client.get(`/api/workspaces/${owner.ws}/transfer/dry?newOwnerId=${target.id}`);
    expect(ok.body.data).toMatchObject({ allowed: true, blockers: [], changes: { newOwnerRole: 'owner', previousOwnerRole: 'administrator', plan: 'DEVELOPER', projectsMoving: 2 } });
    const done = await owner.client.post(`/api/workspaces/${owner.ws}/transfer`, { newOwnerId: target.id });
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ role_name: 'administrator', is_creator: false, creator_email: target.email });
    expect((await target.client.get(`/api/workspaces/${owner.ws}`)).body.data).toMatchObject({ role_name: 'owner', is_creator: true });
  });

  it('refuses a non-member, the owner, and a bad id', async () => {
    const owner = await newUser('DEVELOPER');
    const outsider = await newUser('DEVELOPER');
    expect((await owner.client.get(`/api/workspaces/${owner.ws}/transfer/dry?newOwnerId=${outsider.id}`)).body.error.message).toBe(
      'The new owner must be a member of this workspace.',
    );
    expect((await owner.client.post(`/api/workspaces/${owner.ws}/transfer`, { newOwnerId: owner.id })).status).toBe(400);
    expect((await owner.client.post(`/api/workspaces/${owner.ws}/transfer`, { newOwnerId: 'abc' })).status).toBe(400);
    expect((await owner.client.get(`/api/workspaces/${owner.ws}/transfer/dry`)).status).toBe(400);
  });
});

describe('customer settings', () => {
  it('starts unset, stores a boolean, and refuses anything else', async () => {
    const u = await newUser();
    expect((await u.client.get('/api/customer/settings')).body).toEqual({ data: { marketing_consent: null } });
    expect((await u.client.put('/api/customer/settings', { marketing_consent: true })).body).toEqual({ data: { marketing_consent: true } });
    expect((await u.client.put('/api/customer/settings', { marketing_consent: 'yes' })).status).toBe(400);
    expect((await u.client.put('/api/customer/settings', { marketing_consent: false })).body.data.marketing_consent).toBe(false);
    expect((await u.client.get('/api/customer/settings')).body.data.marketing_consent).toBe(false);
  });
});

describe('GET /api/projects/:uuid', () => {
  it('answers members with the project and their role, and 404 to anyone else', async () => {
    const owner = await newUser('DEVELOPER');
    const { uuid } = (await owner.client.post(`/api/workspaces/${owner.ws}/projects`, { projectName: 'Mine', networkId: 0 })).body.data;
    const res = await owner.client.get(`/api/projects/${uuid}`);
    expect(res.body.data).toMatchObject({ uuid, project_name: 'Mine', workspace_id: owner.ws, role_name: 'owner' });
    const stranger = await newUser();
    expect((await stranger.client.get(`/api/projects/${uuid}`)).status).toBe(404);
    expect((await stranger.client.get(`/api/projects/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });
});
