import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { makeUser } from '../helpers/workspace-fixture';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { FAIL_HISTORY_LIMIT } from '../../shared/webhooks';
import { PAGE_DEFAULT_LIMIT, PAGE_MAX_LIMIT } from '../../shared/pagination';
import { DAY_MS } from '../../shared/time';

const app = useTestApp();

const EMAIL = 'pages@example.com';
let client: Client;
let userId: number;
let ws: number;

/** Every item of a paged list, following `next` with the given limit; checks each page's length. */
async function walk<T>(path: string, limit: number): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await client.get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    const body = res.body as { data: T[]; next: string | null };
    expect(body.data.length).toBeLessThanOrEqual(limit);
    out.push(...body.data);
    if (!body.next) return out;
    expect(body.data.length).toBe(limit);
    cursor = body.next;
  }
  throw new Error(`${path} never ended`);
}

beforeAll(async () => {
  client = new Client(app.url);
  await signIn(client, app.mailer, EMAIL);
  userId = (await client.get('/api/me')).body.data.id;
  await setSubscription(app.db, userId, 'ENTERPRISE', 'active');
  ws = (await client.get('/api/workspaces')).body.data[0].id;
  const now = Date.now();
  await app.db('projects').insert(
    Array.from({ length: 120 }, (_, i) => ({
      uuid: crypto.randomUUID(),
      workspace_id: ws,
      name: i % 10 === 3 ? `Wallet_${i}%` : `Project ${i}`,
      project_id: `mainnet${crypto.randomBytes(16).toString('hex')}`,
      network_id: 0,
      created_at: now,
      updated_at: now,
    })),
  );
  // Webhooks created in the same millisecond, so the cursor's tie-break on id is what orders them.
  await app.db('webhooks').insert(
    Array.from({ length: 12 }, (_, i) => ({
      id: crypto.randomUUID(),
      workspace_id: ws,
      name: i < 3 ? `Payments ${i}` : `Hook ${i}`,
      network: 0,
      type: 'block',
      target_url: 'https://hooks.example.com/x',
      confirmations: 0,
      status: 'enabled',
      conditions: '[]',
      auth_token: crypto.randomBytes(32).toString('hex'),
      created_at: i < 6 ? now : now + i,
      updated_at: now,
    })),
  );
  for (let i = 0; i < 9; i++) {
    const m = await makeUser(app.db, `member${i}@pages.example`);
    await app.db('workspace_members').insert({ workspace_id: ws, user_id: m.id, role: 'collaborator', created_at: now + (i % 3) });
  }
  await app.db('workspace_invitations').insert(
    Array.from({ length: 7 }, (_, i) => ({
      id: crypto.randomUUID(),
      workspace_id: ws,
      token_hash: crypto.randomBytes(32).toString('hex'),
      email: `invitee${i}@pages.example`,
      role: 'collaborator',
      invited_by: userId,
      created_at: now - (i % 2),
      expires_at: now + DAY_MS,
    })),
  );
  // Twelve more workspaces the user was invited to.
  const other = await makeUser(app.db, 'other-owner@pages.example');
  for (let i = 0; i < 12; i++) {
    const [row] = await app.db('workspaces').insert({ name: i % 4 === 0 ? `Shared team ${i}` : `Workspace ${i}`, owner_id: other.id, created_at: now, updated_at: now }).returning('id');
    const id = typeof row === 'object' ? (row as { id: number }).id : (row as number);
    await app.db('workspace_members').insert([
      { workspace_id: id, user_id: other.id, role: 'owner', created_at: now },
      { workspace_id: id, user_id: userId, role: 'collaborator', created_at: now },
    ]);
  }
});

describe('paged lists', () => {
  it('answers projects a default page at a time, data still the array, next the cursor', async () => {
    const first = await client.get(`/api/workspaces/${ws}/projects`);
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(PAGE_DEFAULT_LIMIT);
    expect(typeof first.body.next).toBe('string');
    expect(first.body.data[0].project_name).toBe('Project 0');
    const all = await walk<{ id: number; project_name: string; requests_today: number }>(`/api/workspaces/${ws}/projects`, 7);
    expect(all).toHaveLength(120);
    expect(new Set(all.map((p) => p.id)).size).toBe(120);
    expect(all.map((p) => p.id)).toEqual([...all.map((p) => p.id)].sort((a, b) => a - b));
    expect(all.every((p) => p.requests_today === 0)).toBe(true);
    const max = await client.get(`/api/workspaces/${ws}/projects?limit=${PAGE_MAX_LIMIT}`);
    expect(max.body.data).toHaveLength(PAGE_MAX_LIMIT);
  });

  it('searches project names case-insensitively, % and _ taken literally', async () => {
    const found = await walk<{ project_name: string }>(`/api/workspaces/${ws}/projects?q=${encodeURIComponent('wallet_')}`, 5);
    expect(found.map((p) => p.project_name)).toEqual(Array.from({ length: 12 }, (_, i) => `Wallet_${i * 10 + 3}%`));
    expect((await client.get(`/api/workspaces/${ws}/projects?q=${encodeURIComponent('3%')}`)).body.data).toHaveLength(12);
    expect((await client.get(`/api/workspaces/${ws}/projects?q=Proj_ct`)).body.data).toHaveLength(0);
    expect((await client.get(`/api/workspaces/${ws}/projects?q=PROJECT%2011`)).body.data.map((p: { project_name: string }) => p.project_name)).toEqual(['Project 11', 'Project 110', 'Project 111', 'Project 112', 'Project 114', 'Project 115', 'Project 116', 'Project 117', 'Project 118', 'Project 119']);
  });

  it('walks webhooks in creation order, ties broken by id, and searches their names', async () => {
    const all = await walk<{ id: string; name: string }>(`/api/workspaces/${ws}/webhooks`, 4);
    expect(all).toHaveLength(12);
    expect(new Set(all.map((h) => h.id)).size).toBe(12);
    const sameMs = all.slice(0, 6).map((h) => h.id);
    expect(sameMs).toEqual([...sameMs].sort());
    expect(all.slice(6).map((h) => h.name)).toEqual(['Hook 6', 'Hook 7', 'Hook 8', 'Hook 9', 'Hook 10', 'Hook 11']);
    expect((await walk<{ name: string }>(`/api/workspaces/${ws}/webhooks?q=payments`, 2)).map((h) => h.name).sort()).toEqual(['Payments 0', 'Payments 1', 'Payments 2']);
  });

  it('walks members owner first, then by joining, and searches their addresses', async () => {
    const all = await walk<{ user_id: number; email: string; role_name: string }>(`/api/workspaces/${ws}/members`, 2);
    expect(all).toHaveLength(10);
    expect(all[0]).toMatchObject({ user_id: userId, role_name: 'owner' });
    expect(new Set(all.map((m) => m.user_id)).size).toBe(10);
    const found = await walk<{ email: string }>(`/api/workspaces/${ws}/members?q=MEMBER1`, 2);
    expect(found.map((m) => m.email)).toEqual(['member1@pages.example']);
  });

  it('walks pending invitations and the user\'s workspaces', async () => {
    const invitations = await walk<{ id: string; email: string }>(`/api/workspaces/${ws}/invitations`, 3);
    expect(invitations.map((i) => i.email).sort()).toEqual(Array.from({ length: 7 }, (_, i) => `invitee${i}@pages.example`));
    const workspaces = await walk<{ id: number; name: string }>('/api/workspaces', 5);
    expect(workspaces).toHaveLength(13);
    expect(workspaces[0]!.id).toBe(ws);
    expect(workspaces.map((w) => w.id)).toEqual([...workspaces.map((w) => w.id)].sort((a, b) => a - b));
    expect((await walk<{ name: string }>('/api/workspaces?q=shared', 2)).map((w) => w.name)).toEqual(['Shared team 0', 'Shared team 4', 'Shared team 8']);
  });

  it('walks the subscription log newest first', async () => {
    const before = (await walk<{ id: number }>('/api/logs', 100)).length;
    const now = Date.now();
    await app.db('subscription_logs').insert(Array.from({ length: 23 }, (_, i) => ({ user_id: userId, type: 'boost', plan: 'ENTERPRISE', status: 'paid', provider: 'local', created_at: now + i })));
    const all = await walk<{ id: number }>('/api/logs', 4);
    expect(all).toHaveLength(before + 23);
    expect(all.map((l) => l.id)).toEqual([...all.map((l) => l.id)].sort((a, b) => b - a));
    expect((await client.get('/api/logs?cursor=x!')).status).toBe(400);
    expect((await client.get('/api/logs?limit=101')).status).toBe(400);
  });

  it('refuses a bad limit or cursor with 400, never 500', async () => {
    const base = `/api/workspaces/${ws}/projects`;
    const other = (await client.get(`/api/workspaces/${ws}/webhooks?limit=1`)).body.next as string;
    const bad = [
      'limit=0',
      `limit=${PAGE_MAX_LIMIT + 1}`,
      'limit=abc',
      'limit=2.5',
      'cursor=',
      'cursor=not%20base64!',
      `cursor=${Buffer.from('not json').toString('base64url')}`,
      `cursor=${Buffer.from('{"id":1}').toString('base64url')}`,
      `cursor=${Buffer.from('["1"]').toString('base64url')}`,
      `cursor=${encodeURIComponent(other)}`,
      `cursor=${'A'.repeat(401)}`,
      `q=${'x'.repeat(101)}`,
    ];
    for (const q of bad) {
      const res = await client.get(`${base}?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code, q).toBe('invalid');
    }
    for (const path of ['/api/workspaces', `/api/workspaces/${ws}/members`, `/api/workspaces/${ws}/invitations`, `/api/workspaces/${ws}/webhooks`]) {
      expect((await client.get(`${path}?cursor=${Buffer.from('[true]').toString('base64url')}`)).status, path).toBe(400);
      expect((await client.get(`${path}?limit=-1`)).status, path).toBe(400);
    }
  });

  it('publishes limit, cursor, q and next in the OpenAPI document', async () => {
    const doc = (await new Client(app.url).get('/api/openapi.json')).body;
    for (const p of ['/api/workspaces', '/api/workspaces/{id}/projects', '/api/workspaces/{id}/webhooks', '/api/workspaces/{id}/members', '/api/workspaces/{id}/invitations']) {
      const op = doc.paths[p].get;
      expect(op.parameters.map((x: { name: string }) => x.name), p).toEqual(expect.arrayContaining(['limit', 'cursor', 'q']));
      expect(op.responses['200'].content['application/json'].schema.required, p).toEqual(['data', 'next']);
    }
    for (const p of ['/api/logs', '/api/ppu/orders', '/api/workspaces/{id}/ppu/orders', '/api/account/sessions']) {
      const op = doc.paths[p].get;
      expect(op.parameters.filter((x: { in: string }) => x.in === 'query').map((x: { name: string }) => x.name), p).toEqual(['limit', 'cursor']);
      expect(op.responses['200'].content['application/json'].schema.required, p).toEqual(['data', 'next']);
    }
  });

  it("keeps a webhook's fail history to its latest events, the warning still shown when they fail", async () => {
    const hookId = crypto.randomUUID();
    const now = Date.now();
    await app.db('webhooks').insert({ id: hookId, workspace_id: ws, name: 'Busy', network: 0, type: 'block', target_url: 'https://hooks.example.com/busy', confirmations: 0, status: 'enabled', conditions: '[]', auth_token: crypto.randomBytes(32).toString('hex'), created_at: now + 1000, updated_at: now });
    const count = FAIL_HISTORY_LIMIT + 30;
    const events = Array.from({ length: count }, (_, i) => ({
      id: crypto.randomUUID(),
      webhook_id: hookId,
      type: 'block',
      network: 0,
      body: '{}',
      created: Math.floor((now - (count - i) * 60_000) / 1000),
      // The newest event failed; the rest were delivered.
      status: i === count - 1 ? 'failed' : 'delivered',
      attempts: 1,
      next_attempt_at: now,
      test: false,
      created_at: now - (count - i) * 60_000,
    }));
    for (let i = 0; i < events.length; i += 40) await app.db('webhook_events').insert(events.slice(i, i + 40));
    for (let i = 0; i < events.length; i += 40) {
      await app.db('webhook_attempts').insert(events.slice(i, i + 40).map((e) => ({ event_id: e.id, attempted_at: e.created_at + 10, status_code: 200, duration_ms: 5, success: e.status === 'delivered' })));
    }
    const hook = (await walk<{ id: string; fail_history: Array<{ fired_at: number; success: boolean }> }>(`/api/workspaces/${ws}/webhooks?q=busy`, 10))[0]!;
    expect(hook.id).toBe(hookId);
    expect(hook.fail_history).toHaveLength(FAIL_HISTORY_LIMIT);
    expect(hook.fail_history.at(-1)).toEqual({ fired_at: Math.floor((events.at(-1)!.created_at + 10) / 1000), success: false });
    expect(hook.fail_history[0]!.fired_at).toBe(Math.floor((events[count - FAIL_HISTORY_LIMIT]!.created_at + 10) / 1000));
    expect((await client.get(`/api/workspaces/${ws}/webhooks/${hookId}`)).body.data.fail_history).toHaveLength(FAIL_HISTORY_LIMIT);
  });
});

describe('pay-as-you-go orders a page at a time', () => {
  let shared: number;
  let strangersWs: number;
  const ordered: number[] = [];

  /** Orders straight in the database: `count` of them in the workspace, ids rising. */
  async function addOrders(workspaceId: number, count: number): Promise<number[]> {
    const now = Date.now();
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const [row] = await app
        .db('ppu_orders')
        .insert({ workspace_id: workspaceId, user_id: userId, network: 'cardano-mainnet', address: `addr_test_pages_${workspaceId}_${i}_${crypto.randomUUID()}`, requests: 1_000_000, price_per_unit_eur: 0.0000015, ada_eur_rate: 0.42, total_eur: 1.5, lovelace: 3_571_429, status: i % 3 === 0 ? 'paid' : 'expired', created_at: now + i, expires_at: now + i + 3_600_000 })
        .returning('id');
      ids.push(Number(typeof row === 'object' ? (row as { id: number }).id : row));
    }
    return ids;
  }

  beforeAll(async () => {
    shared = (await walk<{ id: number }>('/api/workspaces', 100)).find((w) => w.id !== ws)!.id;
    const stranger = await makeUser(app.db, 'order-stranger@pages.example');
    strangersWs = (await app.db('workspaces').insert({ name: 'Stranger orders', owner_id: stranger.id, created_at: Date.now(), updated_at: Date.now() }).returning('id')).map((r) => Number(typeof r === 'object' ? (r as { id: number }).id : r))[0]!;
    await app.db('workspace_members').insert({ workspace_id: strangersWs, user_id: stranger.id, role: 'owner', created_at: Date.now() });
    // Interleaved, so the user-wide list mixes both workspaces, and the stranger's in between.
    for (let round = 0; round < 3; round++) {
      ordered.push(...(await addOrders(ws, 10)));
      await addOrders(strangersWs, 2);
      ordered.push(...(await addOrders(shared, 3)));
    }
    ordered.reverse();
    // Two payments to the newest order, one to the next: their transactions, in block order.
    await app.db('ppu_payments').insert([
      { tx_hash: 'b'.repeat(64), output_index: 0, order_id: ordered[0], lovelace: 1_000_000, height: 12, block_hash: '1'.repeat(64), seen_at: Date.now() },
      { tx_hash: 'a'.repeat(64), output_index: 0, order_id: ordered[0], lovelace: 2_571_429, height: 10, block_hash: '2'.repeat(64), seen_at: Date.now() },
      { tx_hash: 'c'.repeat(64), output_index: 1, order_id: ordered[1], lovelace: 3_571_429, height: 11, block_hash: '3'.repeat(64), seen_at: Date.now() },
    ]);
  });

  it("walks the orders of the user's workspaces newest first, by cursor to the last page, never another's", async () => {
    const first = await client.get('/api/ppu/orders?limit=8');
    expect(first.status).toBe(200);
    expect(first.body.data.map((o: { id: number }) => o.id)).toEqual(ordered.slice(0, 8));
    expect(first.body.data[0]).toMatchObject({ workspaceId: shared, txHashes: ['a'.repeat(64), 'b'.repeat(64)] });
    expect(first.body.data[1].txHashes).toEqual(['c'.repeat(64)]);
    expect(first.body.data[2].txHashes).toEqual([]);
    const second = await client.get(`/api/ppu/orders?limit=8&cursor=${encodeURIComponent(first.body.next)}`);
    expect(second.body.data.map((o: { id: number }) => o.id)).toEqual(ordered.slice(8, 16));
    const all = await walk<{ id: number; workspaceId: number }>('/api/ppu/orders', 8);
    expect(all.map((o) => o.id)).toEqual(ordered);
    expect(all.some((o) => o.workspaceId === strangersWs)).toBe(false);
    // The last page: what is left, and no next.
    const last = await client.get('/api/ppu/orders?limit=13&cursor=' + encodeURIComponent((await client.get('/api/ppu/orders?limit=26')).body.next));
    expect(last.body).toMatchObject({ next: null });
    expect(last.body.data.map((o: { id: number }) => o.id)).toEqual(ordered.slice(26));
    // 39 orders: one default page, no next.
    const whole = await client.get('/api/ppu/orders');
    expect(whole.body.data).toHaveLength(39);
    expect(whole.body.next).toBeNull();
  });

  it("walks one workspace's orders; another's workspace answers 404", async () => {
    const own = await walk<{ id: number; workspaceId: number }>(`/api/workspaces/${ws}/ppu/orders`, 7);
    expect(own).toHaveLength(30);
    expect(own.every((o) => o.workspaceId === ws)).toBe(true);
    expect(own.map((o) => o.id)).toEqual([...own.map((o) => o.id)].sort((a, b) => b - a));
    expect((await walk<{ id: number }>(`/api/workspaces/${shared}/ppu/orders`, 4)).map((o) => o.id)).toEqual(ordered.filter((id) => !own.some((o) => o.id === id)));
    const foreign = await client.get(`/api/workspaces/${strangersWs}/ppu/orders`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.data).toBeUndefined();
  });

  it('refuses a bad limit or cursor with 400 and a clear message', async () => {
    const webhookCursor = (await client.get(`/api/workspaces/${ws}/webhooks?limit=1`)).body.next as string;
    for (const path of ['/api/ppu/orders', `/api/workspaces/${ws}/ppu/orders`]) {
      for (const q of ['limit=0', `limit=${PAGE_MAX_LIMIT + 1}`, 'limit=abc', 'limit=2.5']) {
        const res = await client.get(`${path}?${q}`);
        expect(res.status, `${path}?${q}`).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'invalid', message: `limit must be a whole number from 1 to ${PAGE_MAX_LIMIT}.` });
      }
      for (const cursor of ['', 'not%20base64!', Buffer.from('not json').toString('base64url'), Buffer.from('["1"]').toString('base64url'), Buffer.from('[1.5]').toString('base64url'), encodeURIComponent(webhookCursor), 'A'.repeat(401)]) {
        const res = await client.get(`${path}?cursor=${cursor}`);
        expect(res.status, `${path}?cursor=${cursor}`).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'invalid', message: 'cursor must be the next of a previous page.' });
      }
    }
  });
});
