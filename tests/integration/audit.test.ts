import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client, linkIn } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { makeUser } from '../helpers/workspace-fixture';
import { enqueueBlockEvent } from '../helpers/webhook-events';
import { startReceiver } from '../helpers/receiver';
import { Dispatcher } from '../../server/features/webhooks/dispatcher';
import { parseAllowlist } from '../../server/features/webhooks/ssrf';
import { applySubscription, grantBoost } from '../../server/features/billing/index';
import { creditConfirmed } from '../../server/features/ppu/ppu';
import { recordAudit } from '../../server/features/audit/index';
import { pruneOnce } from '../../server/features/stats/retention';
import { createLogger } from '../../server/logger';
import { auditActions, type AuditEntryDto, type AuditPageDto } from '../../shared/audit';
import { AUTO_DISABLE_AFTER_MS } from '../../shared/webhooks';
import { DAY_MS } from '../../shared/time';

const UA = { owner: 'AuditTest/1.0 (owner)', admin: 'AuditTest/1.0 (admin)', collaborator: 'AuditTest/1.0 (collaborator)', operator: 'AuditTest/1.0 (operator)' };

const app = useTestApp({ env: { OPERATOR_EMAILS: 'operator@audit.example' } });

interface Person {
  client: Client;
  id: number;
  email: string;
}
let owner: Person;
let admin: Person;
let collaborator: Person;
let maintainer: Person;
let stranger: Person;
let operator: Person;
let ws: number;
/** Every secret the scenario handled: none may appear in any entry. */
const secrets = new Set<string>();

async function person(email: string, ua: string): Promise<Person> {
  const client = new Client(app.url, { 'user-agent': ua });
  await signIn(client, app.mailer, email);
  const id = (await client.get('/api/me')).body.data.id as number;
  for (const v of client.cookies.values()) secrets.add(v);
  return { client, id, email };
}

async function invite(email: string, role: string): Promise<string> {
  const res = await owner.client.post(`/api/workspaces/${ws}/invitations`, { email, role });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const token = new URL(linkIn(app.mailer.captured()[0]!.text)).pathname.split('/').pop()!;
  secrets.add(token);
  return token;
}

async function join(p: Person, role: string) {
  const token = await invite(p.email, role);
  const accepted = await p.client.post(`/api/invitations/${token}/accept`);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
}

async function allEntries(client = owner.client, query = ''): Promise<AuditEntryDto[]> {
  const out: AuditEntryDto[] = [];
  let before = '';
  for (;;) {
    const res = await client.get<{ data: AuditPageDto }>(`/api/workspaces/${ws}/audit?limit=100${query}${before ? `&before=${before}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.data.entries);
    if (!res.body.data.next) return out;
    before = res.body.data.next;
  }
}

beforeAll(async () => {
  await makeUser(app.db, 'owner@audit.example', 'ENTERPRISE');
  owner = await person('owner@audit.example', UA.owner);
  ws = (await owner.client.get('/api/workspaces')).body.data[0].id;
  // ENTERPRISE so the transfer to the administrator is not blocked by a plan limit.
  await makeUser(app.db, 'admin@audit.example', 'ENTERPRISE');
  admin = await person('admin@audit.example', UA.admin);
  collaborator = await person('collab@audit.example', UA.collaborator);
  maintainer = await person('maint@audit.example', UA.collaborator);
  stranger = await person('stranger@audit.example', UA.collaborator);
  operator = await person('operator@audit.example', UA.operator);
  await join(admin, 'administrator');
  await join(collaborator, 'collaborator');
  await join(maintainer, 'maintainer');
});

describe('recording', () => {
  it('records every action with its actor, target, time, IP and user agent, and never a secret', async () => {
    // Members sign in again now that they belong to the workspace.
    await signIn(admin.client, app.mailer, admin.email);
    const revoked = await invite('nobody@audit.example', 'maintainer');
    const pending = (await owner.client.get(`/api/workspaces/${ws}/invitations`)).body.data.find((i: { email: string }) => i.email === 'nobody@audit.example');
    expect((await owner.client.delete(`/api/workspaces/${ws}/invitations/${pending.id}`)).status).toBe(200);
    expect(revoked).toBeTruthy();
    expect((await admin.client.put(`/api/workspaces/${ws}/members/${collaborator.id}`, { role: 'maintainer' })).status).toBe(200);
    expect((await owner.client.put(`/api/workspaces/${ws}`, { name: 'Audited workspace' })).status).toBe(200);

    const created = await admin.client.post(`/api/workspaces/${ws}/projects`, { projectName: 'Audit project', networkId: 0 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const projectUuid = created.body.data.uuid as string;
    secrets.add(created.body.data.project.project_id);
    expect((await admin.client.put(`/api/workspaces/${ws}/projects/${projectUuid}`, { projectName: 'Audit project renamed' })).status).toBe(200);
    expect((await admin.client.delete(`/api/workspaces/${ws}/projects/${projectUuid}`)).status).toBe(200);

    const hook = { name: 'Audit hook', network: 0, type: 'block', target_url: 'https://hooks.example/audit', confirmations: 0, status: 'enabled', conditions: [] };
    const wh = await owner.client.post(`/api/workspaces/${ws}/webhooks`, hook);
    expect(wh.status, JSON.stringify(wh.body)).toBe(201);
    const hookId = wh.body.data.id as string;
    secrets.add(wh.body.data.webhook.auth_token);
    expect((await owner.client.put(`/api/workspaces/${ws}/webhooks/${hookId}`, { ...hook, target_url: 'https://hooks.example/audit2' })).status).toBe(200);
    const rotated = await owner.client.post(`/api/workspaces/${ws}/webhooks/${hookId}/rotate-secret`, { overlap_seconds: 3600 });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    secrets.add(rotated.body.data.auth_token);
    const tested = await owner.client.post(`/api/workspaces/${ws}/webhooks/${hookId}/test`);
    expect(tested.status, JSON.stringify(tested.body)).toBe(201);
    await app.db('webhook_events').where({ id: tested.body.data.id }).update({ status: 'failed' });
    const resent = await owner.client.post(`/api/workspaces/${ws}/webhooks/${hookId}/events/${tested.body.data.id}/resend`);
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect((await owner.client.put(`/api/workspaces/${ws}/webhooks/${hookId}`, { ...hook, target_url: 'https://hooks.example/audit2', status: 'disabled' })).status).toBe(200);
    expect((await owner.client.delete(`/api/workspaces/${ws}/webhooks/${hookId}`)).status).toBe(200);

    // A webhook whose deliveries failed for five days is disabled by Cairn itself.
    const receiver = await startReceiver();
    try {
      const failing = await owner.client.post(`/api/workspaces/${ws}/webhooks`, { ...hook, name: 'Failing hook', target_url: receiver.url });
      const failingId = failing.body.data.id as string;
      secrets.add(failing.body.data.webhook.auth_token);
      const now = Date.now();
      await app.db('webhooks').where({ id: failingId }).update({ failing_since: now - AUTO_DISABLE_AFTER_MS - 1000 });
      await enqueueBlockEvent(app.db, failingId, now);
      receiver.state.respond = () => 500;
      const d = new Dispatcher(app.db, createLogger('silent'), app.mailer, { allowlist: parseAllowlist('127.0.0.1'), timeoutMs: 1000, retrySchedule: [0, 5000], publicUrl: app.url, now: () => now });
      await d.runOnce();
      await d.stop();
      expect((await app.db('webhooks').where({ id: failingId }).first()).status).toBe('disabled');
    } finally {
      await receiver.close();
    }

    // Purchases complete on the payment provider's word; the pay-as-you-go order on the chain's.
    await applySubscription(app.db, owner.id, { plan: 'ENTERPRISE', status: 'active', period: 'month' }, 'local', { type: 'checkout', amount: 9900, reference: 'lcs_plan_audit' });
    await grantBoost(app.db, { workspaceId: ws, type: 'REQUESTS_BOOST_300K', reference: 'lcs_boost_audit', amount: 1900, provider: 'local' });
    const now = Date.now();
    const [order] = await app
      .db('ppu_orders')
      .insert({ workspace_id: ws, user_id: admin.id, network: 'preprod', address: 'addr_test_audit', requests: 1000, price_per_unit_eur: 0.0000024, ada_eur_rate: 0.5, total_eur: 0.0024, lovelace: 4800, status: 'confirming', received_lovelace: 4800, first_payment_height: 10, created_at: now, expires_at: now + DAY_MS })
      .returning('id');
    expect(await creditConfirmed(app.db, 'preprod', 20, 1)).toBe(1);

    // The owner in the built-in billing portal: a failed renewal, its invoice paid, a renewal, a cancellation.
    for (const action of ['renew_failed', 'pay_invoice', 'renew_paid', 'cancel']) {
      const acted = await owner.client.post('/api/billing/local/portal', { action });
      expect(acted.status, `${action}: ${JSON.stringify(acted.body)}`).toBe(200);
    }
    // A member takes their account's data.
    expect((await collaborator.client.get('/api/account/export')).status).toBe(200);

    // The operator, from the operator page.
    expect((await operator.client.put(`/api/operator/users/${owner.id}/plan`, { plan: 'ENTERPRISE', status: 'active' })).status).toBe(200);
    expect((await operator.client.post(`/api/operator/users/${owner.id}/boosts`, { type: 'REQUESTS_BOOST_1M', workspaceId: ws })).status).toBe(201);

    // Ownership moves last: the owner becomes an administrator and can still read the log.
    expect((await owner.client.post(`/api/workspaces/${ws}/transfer`, { newOwnerId: admin.id })).status).toBe(200);
    expect((await maintainer.client.post(`/api/workspaces/${ws}/leave`)).status).toBe(200);
    expect((await collaborator.client.post('/auth/signout')).status).toBe(200);
    expect((await admin.client.delete(`/api/workspaces/${ws}/members/${owner.id}`)).status).toBe(200);
    await signIn(owner.client, app.mailer, owner.email); // no longer a member: nothing recorded for ws

    // The workspace is this file's own: its log holds this scenario and the joins before it.
    const entries = await allEntries(admin.client);
    const by = (action: string) => entries.filter((e) => e.action === action);
    const one = (action: string, targetId?: string) => {
      const found = by(action).filter((e) => targetId === undefined || e.target.id === targetId);
      expect(found.length, `${action}: ${JSON.stringify(entries.map((e) => e.action))}`).toBeGreaterThanOrEqual(1);
      return found[0]!;
    };

    expect(one('member.signed_in')).toMatchObject({ actor: { kind: 'user', userId: admin.id, label: admin.email }, target: { type: 'member', label: admin.email }, userAgent: UA.admin });
    expect(one('member.signed_out')).toMatchObject({ actor: { userId: collaborator.id }, userAgent: UA.collaborator });
    expect(one('invitation.sent')).toMatchObject({ actor: { userId: owner.id }, target: { type: 'invitation', label: 'nobody@audit.example' }, details: { role: 'maintainer' } });
    expect(one('invitation.revoked')).toMatchObject({ actor: { userId: owner.id }, target: { label: 'nobody@audit.example' } });
    expect(one('member.role_changed')).toMatchObject({ actor: { userId: admin.id }, target: { id: String(collaborator.id), label: collaborator.email }, details: { from: 'collaborator', to: 'maintainer' } });
    expect(one('workspace.renamed')).toMatchObject({ details: { to: 'Audited workspace' } });
    expect(one('project.created')).toMatchObject({ actor: { userId: admin.id }, target: { type: 'project', id: projectUuid, label: 'Audit project' } });
    expect(one('project.renamed')).toMatchObject({ details: { from: 'Audit project', to: 'Audit project renamed' } });
    expect(one('project.deleted')).toMatchObject({ target: { id: projectUuid, label: 'Audit project renamed' } });
    expect(one('webhook.created', hookId)).toMatchObject({ target: { type: 'webhook', id: hookId, label: 'Audit hook' } });
    expect(one('webhook.updated')).toMatchObject({ target: { id: hookId }, details: { changed: 'target_url' } });
    expect(one('webhook.secret_rotated')).toMatchObject({ target: { id: hookId }, details: { overlap_seconds: 3600 } });
    expect(one('webhook.test_sent')).toMatchObject({ actor: { userId: owner.id }, target: { type: 'webhook', id: hookId }, details: { event_id: tested.body.data.id } });
    expect(one('webhook.event_resent')).toMatchObject({ actor: { userId: owner.id }, target: { type: 'webhook', id: hookId }, details: { event_id: tested.body.data.id } });
    expect(one('billing.renewal_failed')).toMatchObject({ actor: { userId: owner.id }, target: { type: 'subscription', id: String(owner.id) }, details: { status: 'past_due' } });
    expect(one('billing.invoice_paid')).toMatchObject({ actor: { userId: owner.id }, details: { status: 'active' } });
    expect(one('billing.renewed')).toMatchObject({ actor: { userId: owner.id }, target: { label: 'ENTERPRISE (month)' }, details: { status: 'active' } });
    expect(one('billing.canceled')).toMatchObject({ actor: { userId: owner.id }, userAgent: UA.owner });
    expect(one('member.data_exported')).toMatchObject({ actor: { userId: collaborator.id }, target: { type: 'member', label: collaborator.email }, userAgent: UA.collaborator });
    expect(one('webhook.disabled')).toMatchObject({ target: { id: hookId } });
    expect(one('webhook.deleted')).toMatchObject({ target: { id: hookId } });
    expect(one('webhook.auto_disabled')).toMatchObject({ actor: { kind: 'system', label: 'Cairn' }, target: { label: 'Failing hook' }, ip: null, userAgent: null });
    expect(one('billing.plan_purchased')).toMatchObject({ actor: { userId: owner.id }, target: { type: 'subscription' }, details: { plan: 'ENTERPRISE', period: 'month', amount_cents: 9900 } });
    expect(one('billing.boost_purchased')).toMatchObject({ actor: { userId: owner.id }, target: { type: 'boost', id: 'lcs_boost_audit' }, details: { boost: 'REQUESTS_BOOST_300K' } });
    expect(one('ppu.order_paid')).toMatchObject({ actor: { userId: admin.id }, target: { type: 'order', id: String(typeof order === 'object' ? order.id : order) }, details: { status: 'paid', requests: 1000 } });
    expect(one('operator.plan_set')).toMatchObject({ actor: { kind: 'operator', label: operator.email }, userAgent: UA.operator, details: { plan: 'ENTERPRISE' } });
    expect(one('operator.boost_granted')).toMatchObject({ actor: { kind: 'operator', label: operator.email }, userAgent: UA.operator, details: { boost: 'REQUESTS_BOOST_1M' } });
    expect(one('workspace.ownership_transferred')).toMatchObject({ actor: { userId: owner.id }, details: { from: owner.email, to: admin.email } });
    expect(one('member.left')).toMatchObject({ actor: { userId: maintainer.id } });
    expect(one('member.removed')).toMatchObject({ actor: { userId: admin.id }, target: { label: owner.email } });
    expect(by('invitation.accepted').find((e) => e.actor.userId === admin.id)).toMatchObject({ actor: { userId: admin.id }, target: { type: 'invitation', label: admin.email }, details: { role: 'administrator' } });

    // Every action but those the key, allow-list, transaction-confirmations, resubmission and devnet
    // features record (their own tests check them: devnets.test.ts each steering call's) was seen here.
    const seen = new Set(entries.map((e) => e.action));
    expect(auditActions.filter((a) => !seen.has(a))).toEqual(['project.key_rolled', 'project.allowlist_changed', 'project.tx_confirmations_changed', 'project.tx_resubmit_changed', ...auditActions.filter((a) => a.startsWith('devnet.'))]);

    // A request behind every entry but the ones Cairn, a payment provider or the chain completes.
    const noRequest = new Set(['webhook.auto_disabled', 'billing.plan_purchased', 'billing.boost_purchased', 'ppu.order_paid']);
    for (const e of entries) {
      expect(e.actor.label, e.action).toBeTruthy();
      expect(Date.parse(e.at)).toBeLessThanOrEqual(Date.now());
      if (!noRequest.has(e.action)) {
        expect(e.ip, e.action).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
        expect(e.userAgent, e.action).toMatch(/^AuditTest\/1\.0/);
      }
    }
    // The removed owner's fresh sign-in is not recorded in a workspace they left.
    expect(entries.filter((e) => e.action === 'member.signed_in' && e.actor.userId === owner.id && Date.parse(e.at) > Date.parse(one('member.removed').at))).toEqual([]);

    const everything = JSON.stringify(await app.db('audit_entries').select());
    for (const s of secrets) expect(everything.includes(s), `a secret is in the log: ${s.slice(0, 6)}…`).toBe(false);
    const hookRow = JSON.stringify(await app.db('webhooks').select('auth_token', 'previous_auth_token'));
    for (const t of hookRow.match(/[0-9a-f]{64}/g) ?? []) expect(everything.includes(t)).toBe(false);
  });

  it('refuses a detail that could hold a secret', async () => {
    await expect(
      recordAudit(app.db, { workspaceId: ws, actor: { system: true }, action: 'webhook.updated', target: { type: 'webhook', id: 'x', label: 'x' }, ip: null, userAgent: null, details: { auth_token: 'abc' } }),
    ).rejects.toThrow(/may hold a secret/);
  });
});

describe('reading', () => {
  it('answers 404 to strangers and to members without the role, and 200 to administrators', async () => {
    // After the transfer above: admin owns ws, collaborator (now maintainer) is a member, owner was removed.
    collaborator.client.csrfToken = null; // signed out above: its session, and the token with it, are gone
    await signIn(collaborator.client, app.mailer, collaborator.email);
    for (const p of [stranger, collaborator, owner]) {
      const res = await p.client.get(`/api/workspaces/${ws}/audit`);
      expect(res.status, p.email).toBe(404);
      expect(res.text).not.toMatch(/audit/i);
      expect((await p.client.get(`/api/workspaces/${ws}/audit/export.csv`)).status).toBe(404);
    }
    expect((await stranger.client.get(`/api/workspaces/999999/audit`)).status).toBe(404);
    expect((await admin.client.get(`/api/workspaces/${ws}/audit`)).status).toBe(200);
  });

  it('refuses bad filters with 400 and changes nothing', async () => {
    const before = Number((await app.db('audit_entries').count({ n: '*' }))[0]!.n);
    for (const q of ['action=nope', 'actor=bob', 'from=yesterday', 'to=2026-13-45', 'limit=7', 'before=abc', 'from=2026-11-20&to=2026-11-10']) {
      const res = await admin.client.get(`/api/workspaces/${ws}/audit?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('invalid');
    }
    expect((await admin.client.get(`/api/workspaces/${ws}/audit/export.csv?action=nope`)).status).toBe(400);
    expect(Number((await app.db('audit_entries').count({ n: '*' }))[0]!.n)).toBe(before);
  });

  it('filters by action, actor and date range, and pages by cursor without gaps or repeats', async () => {
    const all = await allEntries(admin.client);
    const onlyRenames = await allEntries(admin.client, '&action=project.renamed');
    expect(onlyRenames.length).toBeGreaterThan(0);
    expect(onlyRenames.every((e) => e.action === 'project.renamed')).toBe(true);
    const byAdmin = await allEntries(admin.client, `&actor=user:${admin.id}`);
    expect(byAdmin.length).toBe(all.filter((e) => e.actor.userId === admin.id).length);
    expect((await allEntries(admin.client, '&actor=operator')).map((e) => e.action).sort()).toEqual(['operator.boost_granted', 'operator.plan_set']);
    expect((await allEntries(admin.client, '&actor=system')).map((e) => e.action)).toEqual(['webhook.auto_disabled']);

    // Entries spread over days: a date range keeps exactly those in it.
    const day = Date.UTC(2026, 0, 10);
    for (let i = 0; i < 5; i++) {
      await recordAudit(app.db, { workspaceId: ws, actor: { system: true }, action: 'webhook.auto_disabled', target: { type: 'webhook', id: `old-${i}`, label: `old ${i}` }, ip: null, userAgent: null, at: day + i * DAY_MS + 3600_000 });
    }
    const ranged = await allEntries(admin.client, '&from=2026-01-11&to=2026-01-13');
    expect(ranged.map((e) => e.target.id)).toEqual(['old-3', 'old-2', 'old-1']);
    const timed = await allEntries(admin.client, '&from=2026-01-11T00:00:00Z&to=2026-01-13T00:00:00Z');
    expect(timed.map((e) => e.target.id)).toEqual(['old-2', 'old-1']);

    // Pages of 25 add up to the whole log, newest first.
    const paged: AuditEntryDto[] = [];
    let next: string | null = null;
    do {
      const res: { body: { data: AuditPageDto } } = await admin.client.get(`/api/workspaces/${ws}/audit?limit=25${next ? `&before=${next}` : ''}`);
      expect(res.body.data.entries.length).toBeLessThanOrEqual(25);
      paged.push(...res.body.data.entries);
      next = res.body.data.next;
    } while (next);
    const full = await allEntries(admin.client);
    expect(paged.map((e) => e.id)).toEqual(full.map((e) => e.id));
    expect(new Set(paged.map((e) => e.id)).size).toBe(paged.length);
    const times = paged.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('exports the filtered entries as CSV, escaped and safe to open in a spreadsheet', async () => {
    const hostile = '=HYPERLINK("https://evil.example","click"), with "quotes"\nand a line';
    await recordAudit(app.db, { workspaceId: ws, actor: { userId: admin.id, email: admin.email }, action: 'project.renamed', target: { type: 'project', id: 'p-hostile', label: hostile }, ip: '127.0.0.1', userAgent: '+cmd|calc', details: { from: '@SUM(A1)', to: '-2+3' } });
    const res = await admin.client.get(`/api/workspaces/${ws}/audit/export.csv?action=project.renamed`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="cairn-audit-workspace-\d+\.csv"$/);
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe('time,actor,actor_type,action,action_label,target_type,target_id,target,ip,user_agent,details');
    expect(lines[1]).toContain(`"'=HYPERLINK(""https://evil.example"",""click""), with ""quotes""\nand a line"`);
    expect(lines[1]).toContain(",'+cmd|calc,");
    expect(res.text.split('\r\n').slice(1).every((l) => l === '' || l.includes('project.renamed'))).toBe(true);
    // The record count: header + one line per renamed entry (the hostile label holds one LF, inside quotes).
    const json = await allEntries(admin.client, '&action=project.renamed');
    expect(res.text.match(/\r\n/g)!.length).toBe(json.length + 1);
  });
});

describe('retention', () => {
  it('deletes entries older than AUDIT_RETENTION_DAYS and keeps the rest', async () => {
    const now = Date.now();
    const add = (id: string, age: number) =>
      recordAudit(app.db, { workspaceId: ws, actor: { system: true }, action: 'webhook.auto_disabled', target: { type: 'webhook', id, label: id }, ip: null, userAgent: null, at: now - age });
    await add('keep-399', 399 * DAY_MS);
    await add('drop-401', 401 * DAY_MS);
    await add('keep-9', 9 * DAY_MS);
    const ids = async () => (await app.db('audit_entries').whereIn('target_id', ['keep-399', 'drop-401', 'keep-9']).pluck('target_id')).sort();
    const report = await pruneOnce(app.db, now);
    expect(report.audit_entries).toBeGreaterThanOrEqual(1);
    expect(await ids()).toEqual(['keep-399', 'keep-9']);
    await pruneOnce(app.db, now, { auditRetentionDays: 10 });
    expect(await ids()).toEqual(['keep-9']);
  });
});
