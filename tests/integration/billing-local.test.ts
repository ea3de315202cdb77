import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { makeProject, makeWorkspace } from '../helpers/workspace-fixture';
import { expireIncompleteSubscriptions } from '../../server/features/billing/billing';
import { messages } from '../../shared/messages';
import { deniedMessages } from '../../shared/permissions';
import { runOperatorCommand } from '../../server/cli/operator';
import { INCOMPLETE_EXPIRY_MS, boostLookupKey, planLookupKey } from '../../shared/billing';

// The built-in test billing end to end over HTTP: checkout, the state machine, the spec's rules,
// boosts, logs, the link targets and the operator's calls.

const app = useTestApp({ env: { OPERATOR_EMAILS: 'Op@Billing.example' } });

let n = 0;
async function newUser(email = `billing${++n}-${Date.now()}@billing.example`) {
  const client = new Client(app.url);
  await signIn(client, app.mailer, email);
  const me = (await client.get('/api/me')).body.data;
  const ws = (await client.get('/api/workspaces')).body.data[0].id as number;
  return { client, id: me.id as number, email, ws };
}

async function buy(u: Awaited<ReturnType<typeof newUser>>, priceId: string, outcome: 'paid' | 'failed' | 'canceled', extra: Record<string, unknown> = {}) {
  const res = await u.client.post('/api/checkout', { priceId, mode: 'subscription', ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const url = res.body.data.url as string;
  expect(url).toMatch(/^\/billing\/checkout\/lcs_[0-9a-f]{32}$/);
  const id = url.split('/').pop()!;
  const done = await u.client.post(`/api/billing/local/checkout/${id}`, { outcome });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return { id, redirect: done.body.data.redirect as string };
}

const quota = async (u: Awaited<ReturnType<typeof newUser>>) => (await u.client.get(`/api/workspaces/${u.ws}/quota`)).body.data;
const logTypes = async (u: Awaited<ReturnType<typeof newUser>>) => (await u.client.get('/api/logs')).body.data.map((l: { type: string }) => l.type);

describe('built-in test billing', () => {
  it('lists the plans with their local price ids and says it is test billing', async () => {
    const res = await new Client(app.url).get('/api/billing/plans');
    expect(res.status).toBe(200);
    expect(res.body.data.provider).toBe('local');
    expect(res.body.data.testBilling).toBe(true);
    const hobby = res.body.data.plans.find((p: { name: string }) => p.name === 'HOBBY');
    expect(hobby.stripePriceId.month).toEqual({ id: 'cairn_hobby_month', price: 2900, price_currency: 'eur' });
    expect(hobby.purchasable).toBe(true);
    expect(res.body.data.plans.find((p: { name: string }) => p.name === 'ENTERPRISE').purchasable).toBe(false);
  });

  it('pays a checkout: HOBBY active, quota raised, checkout logged; paying twice is refused', async () => {
    const u = await newUser();
    const { id, redirect } = await buy(u, planLookupKey('HOBBY', 'month'), 'paid', { successCallbackPath: '/dashboard/subscription?welcome=1' });
    expect(redirect).toBe('/dashboard/subscription?welcome=1');
    const q = await quota(u);
    expect(q.subscription).toEqual({ status: 'active', currentPlan: { name: 'HOBBY' } });
    expect(q.quota.requestLimit).toBe(300_000);
    expect(await logTypes(u)).toEqual(['checkout']);
    expect((await u.client.post(`/api/billing/local/checkout/${id}`, { outcome: 'paid' })).status).toBe(409);
    // A second checkout while paid: change the plan instead.
    expect((await u.client.post('/api/checkout', { priceId: planLookupKey('DEVELOPER', 'month'), mode: 'subscription' })).status).toBe(409);
  });

  it('refuses callback paths that leave the site and prices it does not sell', async () => {
    const u = await newUser();
    for (const bad of ['https://evil.example/x', '//evil.example', '/\\evil.example']) {
      const res = await u.client.post('/api/checkout', { priceId: planLookupKey('HOBBY', 'month'), successCallbackPath: bad });
      expect(res.status, bad).toBe(400);
    }
    expect((await u.client.post('/api/checkout', { priceId: 'price_nope' })).status).toBe(400);
    expect((await u.client.post('/api/checkout', { priceId: 'price\u0000' })).status).toBe(400);
    expect((await u.client.post('/api/checkout', { priceId: boostLookupKey('REQUESTS_BOOST_1M'), mode: 'payment', onBehalfWorkspaceId: 2 ** 40 })).status).toBe(400);
    expect((await u.client.post('/api/checkout', { priceId: planLookupKey('HOBBY', 'month'), country: 'DE', taxId: 'DE\u0000123' })).status).toBe(400);
    expect((await u.client.post('/api/checkout', { priceId: planLookupKey('HOBBY', 'month'), mode: 'payment' })).status).toBe(400);
    const tax = await u.client.post('/api/checkout', { priceId: planLookupKey('HOBBY', 'month'), country: 'DE', taxId: '12345' });
    expect(tax.status).toBe(400);
    expect(tax.body.error.message).toContain('eu_vat');
    expect((await u.client.get('/api/logs')).body.data).toEqual([]);
  });

  it('a failed first payment is incomplete (no new projects), then incomplete_expired after 23 hours, then paid again', async () => {
    const u = await newUser();
    await buy(u, planLookupKey('DEVELOPER', 'year'), 'failed', { country: 'DE', taxId: 'DE 123456789' });
    expect((await quota(u)).subscription.status).toBe('incomplete');
    const billing = (await u.client.get(`/api/workspaces/${u.ws}/billing`)).body.data;
    expect(billing.incomplete_expires_at).toBeGreaterThan(Date.now());
    const add = await u.client.post(`/api/workspaces/${u.ws}/projects`, { projectName: 'x', networkId: 0 });
    expect(add.status).toBe(422);
    expect(await expireIncompleteSubscriptions(app.db, Date.now() + INCOMPLETE_EXPIRY_MS + 1000)).toBeGreaterThanOrEqual(1);
    expect((await quota(u)).subscription.status).toBe('incomplete_expired');
    // Paying the open invoice in the portal brings it back.
    const pay = await u.client.post('/api/billing/local/portal', { action: 'pay_invoice' });
    expect(pay.status, JSON.stringify(pay.body)).toBe(200);
    expect((await quota(u)).subscription).toEqual({ status: 'active', currentPlan: { name: 'DEVELOPER' } });
    expect(await logTypes(u)).toEqual(['payment', 'expired', 'failed_payment']);
    const customer = (await u.client.get('/api/stripe/get_customer')).body.data;
    expect(customer.tax_id).toEqual({ type: 'eu_vat', value: 'DE123456789' });
    expect(customer.delinquent).toBe(false);
    expect((await u.client.get('/api/stripe/get_customer_subscriptions')).body.data).toEqual(customer.subscriptions.data);
    expect(customer.subscriptions.data[0]).toMatchObject({ status: 'active', plan: 'DEVELOPER', period: 'year' });
  });

  it('previews an upgrade: the prorated amount now and the new price from the next period; nothing changes', async () => {
    const u = await newUser();
    await buy(u, planLookupKey('HOBBY', 'month'), 'paid');
    const res = await u.client.post('/api/stripe/preview_subscription_change', { newPriceId: planLookupKey('DEVELOPER', 'month') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Just bought: nearly all of HOBBY's month is unused and credited.
    expect(res.body.data).toMatchObject({ plan: 'DEVELOPER', period: 'month', direction: 'upgrade', next_amount: 7900, currency: 'eur' });
    expect(Math.abs(res.body.data.amount_now - (7900 - 2900))).toBeLessThanOrEqual(1);
    expect(res.body.data.next_period_start).toBeGreaterThan(Date.now());
    const starter = await u.client.post('/api/stripe/preview_subscription_change', { newPriceId: null });
    expect(starter.body.data).toMatchObject({ plan: 'STARTER', direction: 'downgrade', amount_now: 0, next_amount: 0 });
    expect((await quota(u)).subscription.currentPlan.name).toBe('HOBBY');
    expect(await logTypes(u)).toEqual(['checkout']);
    const fresh = await newUser();
    const none = await fresh.client.post('/api/stripe/preview_subscription_change', { newPriceId: planLookupKey('DEVELOPER', 'month') });
    expect(none.status).toBe(409);
  });

  it('upgrades and downgrades at once; the counts rule and an unpaid invoice refuse with the spec words', async () => {
    const u = await newUser();
    await buy(u, planLookupKey('HOBBY', 'month'), 'paid');
    const up = await u.client.post('/api/stripe/update_subscription', { newPriceId: planLookupKey('DEVELOPER', 'month') });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect((await quota(u)).subscription.currentPlan.name).toBe('DEVELOPER');
    for (let i = 0; i < 4; i++) await makeProject(app.db, u.ws, `p${i}`);
    await makeWorkspace(app.db, u.id, [], 'second');
    const down = await u.client.post('/api/stripe/update_subscription', { newPriceId: planLookupKey('HOBBY', 'month') });
    expect(down.status).toBe(422);
    expect(down.body.error.message).toBe('Please remove 1 project and 1 workspace to match the HOBBY plan');
    const preview = await u.client.post('/api/stripe/preview_subscription_change', { newPriceId: planLookupKey('HOBBY', 'month') });
    expect(preview.status).toBe(422);
    expect(preview.body.error.message).toBe(messages.billing.removeToMatch(1, 0, 1, 'HOBBY'));
    // A failed renewal leaves an unpaid invoice: no change, no cancellation until it is paid.
    expect((await u.client.post('/api/billing/local/portal', { action: 'renew_failed' })).status).toBe(200);
    expect((await quota(u)).subscription.status).toBe('past_due');
    const blocked = await u.client.post('/api/stripe/update_subscription', { newPriceId: planLookupKey('DEVELOPER', 'year') });
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.message).toBe(messages.billing.unpaidInvoice);
    await u.client.fetchCsrf();
    const cancel = await u.client.request('GET', '/api/stripe/cancel_subscription', { headers: { 'x-csrf-token': u.client.csrfToken! } });
    expect(cancel.body.error.message).toBe(messages.billing.unpaidInvoice);
    expect((await u.client.post('/api/billing/local/portal', { action: 'pay_invoice' })).status).toBe(200);
    expect((await u.client.post('/api/billing/local/portal', { action: 'renew_paid' })).status).toBe(200);
    expect(await logTypes(u)).toEqual(['renewal', 'payment', 'failed_payment', 'upgrade', 'checkout']);
  });

  it("an administrator's portal of the owner's account pays the open invoice but cannot renew or cancel the owner's subscription", async () => {
    const owner = await newUser();
    await buy(owner, planLookupKey('HOBBY', 'month'), 'paid');
    const admin = await newUser();
    await app.db('workspace_members').insert({ workspace_id: owner.ws, user_id: admin.id, role: 'administrator', created_at: Date.now() });
    const view = await admin.client.get(`/api/billing/local/portal?workspace=${owner.ws}`);
    expect(view.status).toBe(200);
    expect(view.body.data).toMatchObject({ owner_email: owner.email, scope: 'invoices' });
    const logsBefore = await logTypes(owner);
    for (const action of ['renew_paid', 'renew_failed', 'cancel']) {
      const refused = await admin.client.post('/api/billing/local/portal', { action, workspace: owner.ws });
      expect(refused.status, action).toBe(403);
      expect(refused.body.error.message).toBe(deniedMessages['billing.subscription']);
    }
    expect((await quota(owner)).subscription).toEqual({ status: 'active', currentPlan: { name: 'HOBBY' } });
    expect(await logTypes(owner)).toEqual(logsBefore);
    // The same refusal as choosing a plan for the workspace.
    const choose = await admin.client.post('/api/checkout', { priceId: planLookupKey('DEVELOPER', 'month'), mode: 'subscription', onBehalfWorkspaceId: owner.ws });
    expect(choose.status).toBe(403);
    expect(choose.body.error.message).toBe(deniedMessages['billing.subscription']);
    // An open invoice of the owner's is billing: the administrator may pay it.
    expect((await owner.client.post('/api/billing/local/portal', { action: 'renew_failed' })).status).toBe(200);
    expect((await quota(owner)).subscription.status).toBe('past_due');
    const pay = await admin.client.post('/api/billing/local/portal', { action: 'pay_invoice', workspace: owner.ws });
    expect(pay.status, JSON.stringify(pay.body)).toBe(200);
    expect((await quota(owner)).subscription.status).toBe('active');
    // The owner's own portal, with or without the workspace, offers everything.
    expect((await owner.client.get(`/api/billing/local/portal?workspace=${owner.ws}`)).body.data.scope).toBe('full');
    expect((await owner.client.get('/api/billing/local/portal')).body.data.scope).toBe('full');
    expect((await owner.client.post('/api/billing/local/portal', { action: 'renew_paid', workspace: owner.ws })).status).toBe(200);
  });

  it('cancels only with the CSRF token, back to STARTER', async () => {
    const u = await newUser();
    await buy(u, planLookupKey('HOBBY', 'year'), 'paid');
    expect((await u.client.get('/api/stripe/cancel_subscription')).status).toBe(403);
    await u.client.fetchCsrf();
    const res = await u.client.request('GET', '/api/stripe/cancel_subscription', { headers: { 'x-csrf-token': u.client.csrfToken! } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await quota(u)).subscription).toEqual({ status: 'canceled', currentPlan: { name: 'STARTER' } });
    expect((await logTypes(u))[0]).toBe('cancellation');
  });

  it('sells boosts to owners and administrators only; a boost raises the quota and is logged', async () => {
    const owner = await newUser();
    const member = await newUser();
    await app.db('workspace_members').insert({ workspace_id: owner.ws, user_id: member.id, role: 'maintainer', created_at: Date.now() });
    const denied = await member.client.post('/api/checkout', { priceId: boostLookupKey('REQUESTS_BOOST_1M'), mode: 'payment', onBehalfWorkspaceId: owner.ws });
    expect(denied.status).toBe(403);
    const stranger = await newUser();
    expect((await stranger.client.post('/api/checkout', { priceId: boostLookupKey('REQUESTS_BOOST_1M'), mode: 'payment', onBehalfWorkspaceId: owner.ws })).status).toBe(404);
    const res = await owner.client.post('/api/checkout', { priceId: boostLookupKey('REQUESTS_BOOST_1M'), mode: 'payment', onBehalfWorkspaceId: owner.ws });
    expect(res.status).toBe(200);
    const id = (res.body.data.url as string).split('/').pop();
    expect((await owner.client.post(`/api/billing/local/checkout/${id}`, { outcome: 'paid' })).status).toBe(200);
    expect((await quota(owner)).quota.requestLimit).toBe(1_050_000);
    const addons = (await member.client.get(`/api/workspaces/${owner.ws}/addons`)).body.data;
    expect(addons).toHaveLength(1);
    expect(addons[0].type).toBe('REQUESTS_BOOST_1M');
    const logs = (await owner.client.get('/api/logs')).body.data;
    expect(logs[0]).toMatchObject({ type: 'boost', boost: 'REQUESTS_BOOST_1M', amount: 4900, workspace_id: owner.ws });
    const dl = await owner.client.get(`/api/logs/${logs[0].id}/download`);
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-disposition')).toContain('attachment');
    expect(dl.text).toContain('REQUESTS_BOOST_1M');
    // Someone else's entry: back to the logs page with a message, never a JSON page.
    const other = await stranger.client.get(`/api/logs/${logs[0].id}/download`);
    expect(other.status).toBe(303);
    expect(other.headers.get('location')).toMatch(/^\/dashboard\/subscription\/logs\?billing_error=/);
  });

  it('Manage Billing redirects to the portal, signed out to sign-in, and members without billing rights back with a message', async () => {
    const u = await newUser();
    const portal = await u.client.get(`/api/workspaces/${u.ws}/billing-portal`);
    expect(portal.status).toBe(303);
    expect(portal.headers.get('location')).toBe(`/billing/portal?workspace=${u.ws}`);
    expect((await u.client.get('/api/customer-portal')).headers.get('location')).toBe('/billing/portal');
    const anon = await new Client(app.url).get(`/api/workspaces/${u.ws}/billing-portal`);
    expect(anon.status).toBe(303);
    expect(anon.headers.get('location')).toBe(`/auth/signin?redirect=${encodeURIComponent(`/api/workspaces/${u.ws}/billing-portal`)}`);
    const m = await newUser();
    await app.db('workspace_members').insert({ workspace_id: u.ws, user_id: m.id, role: 'collaborator', created_at: Date.now() });
    const refused = await m.client.get(`/api/workspaces/${u.ws}/billing-portal`);
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toMatch(/^\/dashboard\/subscription\?billing_error=/);
    // Administrators manage billing too; any member reads the owner's billing state; strangers get 404.
    const admin = await newUser();
    await app.db('workspace_members').insert({ workspace_id: u.ws, user_id: admin.id, role: 'administrator', created_at: Date.now() });
    expect((await admin.client.get(`/api/workspaces/${u.ws}/billing-portal`)).headers.get('location')).toBe(`/billing/portal?workspace=${u.ws}`);
    const seen = await m.client.get(`/api/workspaces/${u.ws}/billing`);
    expect(seen.body.data).toMatchObject({ provider: 'local', testBilling: true, owner_email: u.email, plan: 'STARTER', status: 'active', delinquent: false });
    const stranger = await newUser();
    expect((await stranger.client.get(`/api/workspaces/${u.ws}/billing`)).status).toBe(404);
    expect((await stranger.client.get(`/api/workspaces/${u.ws}/addons`)).status).toBe(404);
  });

  it('operators set plans and grant boosts; everyone else gets 404', async () => {
    const u = await newUser();
    expect((await u.client.get('/api/operator/users')).status).toBe(404);
    const op = await newUser('op@billing.example');
    expect((await op.client.get('/api/me')).body.data.is_operator).toBe(true);
    const list = await op.client.get(`/api/operator/users?search=${encodeURIComponent(u.email)}`);
    expect(list.body.data).toHaveLength(1);
    const set = await op.client.put(`/api/operator/users/${u.id}/plan`, { plan: 'DEVELOPER' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toMatchObject({ plan: 'DEVELOPER', status: 'active' });
    expect((await op.client.put(`/api/operator/users/${u.id}/plan`, { plan: 'GOLD' })).status).toBe(400);
    expect((await op.client.put('/api/operator/users/999999/plan', { plan: 'HOBBY' })).status).toBe(404);
    expect((await op.client.put('/api/operator/users/99999999999/plan', { plan: 'HOBBY' })).status).toBe(400);
    expect((await op.client.get('/api/operator/users?search=a%00b')).status).toBe(400);
    expect((await op.client.post(`/api/operator/users/${u.id}/boosts`, { type: 'REQUESTS_BOOST_1M', workspaceId: 2 ** 40 })).status).toBe(400);
    const boost = await op.client.post(`/api/operator/users/${u.id}/boosts`, { type: 'REQUESTS_BOOST_300K', days: 7 });
    expect(boost.status).toBe(201);
    expect((await quota(u)).quota.requestLimit).toBe(1_300_000);
    expect(await logTypes(u)).toEqual(['boost', 'operator']);
  });

  it('npm run operator sets a plan and grants a boost from the shell, and refuses bad input', async () => {
    const u = await newUser();
    const lines: string[] = [];
    const out = (l: string) => lines.push(l);
    expect(await runOperatorCommand(['set-plan', u.email, 'DEVELOPER'], { db: app.db, out })).toBe(0);
    expect(lines.pop()).toBe(`${u.email} is now on DEVELOPER (active).`);
    expect(await runOperatorCommand(['grant-boost', String(u.id), 'REQUESTS_BOOST_1M', '3'], { db: app.db, out })).toBe(0);
    expect((await quota(u)).quota.requestLimit).toBe(2_000_000);
    expect(await runOperatorCommand(['list', u.email], { db: app.db, out })).toBe(0);
    expect(lines.pop()).toBe(`${u.id}\t${u.email}\tDEVELOPER\tactive\tMy Workspace (#${u.ws}, 0 projects, 1 members, REQUESTS_BOOST_1M)`);
    expect(await runOperatorCommand(['set-plan', u.email, 'GOLD'], { db: app.db, out })).toBe(2);
    expect(await runOperatorCommand(['set-plan', 'nobody@billing.example', 'HOBBY'], { db: app.db, out })).toBe(1);
    expect(lines.pop()).toBe('Not done: There is no user nobody@billing.example.');
    expect((await quota(u)).subscription.currentPlan.name).toBe('DEVELOPER');
  });
});

describe('no billing at all (BILLING_PROVIDER=none)', () => {
  it('sells nothing, says so, and leaves plans to the operator', async () => {
    const none = await startTestApp({ env: { BILLING_PROVIDER: 'none' } });
    try {
      const c = new Client(none.url);
      await signIn(c, none.mailer, 'nobilling@billing.example');
      const info = (await c.get('/api/billing/plans')).body.data;
      expect(info).toMatchObject({ provider: 'none', testBilling: false });
      expect(info.plans.every((p: { purchasable: boolean }) => !p.purchasable)).toBe(true);
      const res = await c.post('/api/checkout', { priceId: planLookupKey('HOBBY', 'month') });
      expect(res.status).toBe(409);
      expect(res.body.error.message).toMatch(/^Billing is not set up on this Cairn/);
      const portal = await c.get('/api/customer-portal');
      expect(portal.status).toBe(303);
      expect(portal.headers.get('location')).toMatch(/^\/dashboard\/subscription\?billing_error=Billing%20is%20not%20set%20up/);
      expect((await c.post('/api/billing/local/portal', { action: 'renew_paid' })).status).toBe(404);
    } finally {
      await none.stop();
      await none.database.drop();
    }
  });
});
