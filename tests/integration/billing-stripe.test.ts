import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deniedMessages } from '../../shared/permissions';
import { startTestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe';
import { messages } from '../../shared/messages';

// The Stripe provider through the real `stripe` SDK against a Stripe-compatible server of the tests'
// own: every state transition, replayed, stale and out-of-order events, bad signatures, and a payment
// whose webhook never came, brought back by the reconciliation on start.

let stripe: FakeStripe;
let env: Record<string, string>;
beforeAll(async () => {
  stripe = await startFakeStripe();
  env = { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_URL: stripe.url };
});
afterAll(async () => {
  await stripe?.close();
});
const app = useTestApp(() => ({ env }));

let n = 0;
async function newUser() {
  const email = `stripe${++n}-${Date.now()}@billing.example`;
  const client = new Client(app.url);
  await signIn(client, app.mailer, email);
  const me = (await client.get('/api/me')).body.data;
  const ws = (await client.get('/api/workspaces')).body.data[0].id as number;
  return { client, id: me.id as number, email, ws };
}
type User = Awaited<ReturnType<typeof newUser>>;

const priceId = async (lookupKey: string) => (await app.db('billing_prices').where({ provider: 'stripe', lookup_key: lookupKey }).first('price_id')).price_id as string;
const send = (e: { body: string; signature: string }, target = app) =>
  new Client(target.url).request('POST', '/api/stripe/webhook', { rawBody: e.body, headers: { 'stripe-signature': e.signature, 'content-type': 'application/json' }, csrf: false });
const status = async (u: User) => (await u.client.get(`/api/workspaces/${u.ws}/quota`)).body.data.subscription;
const logTypes = async (u: User) => (await u.client.get('/api/logs')).body.data.map((l: { type: string }) => l.type);

async function checkout(u: User, lookupKey: string, body: Record<string, unknown> = {}) {
  const res = await u.client.post('/api/checkout', { priceId: await priceId(lookupKey), mode: 'subscription', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const sessionId = (res.body.data.url as string).split('/').pop()!;
  expect(stripe.sessions.get(sessionId)).toBeDefined();
  return sessionId;
}

describe('Stripe provider', () => {
  it('creates the plans and boosts as prices with lookup keys once, and reuses them on the next start', async () => {
    expect(stripe.prices.size).toBe(6);
    expect([...stripe.prices.values()].find((p) => p.lookup_key === 'cairn_hobby_year')).toMatchObject({ unit_amount: 29900, currency: 'eur', recurring: { interval: 'year' } });
    const plans = (await new Client(app.url).get('/api/billing/plans')).body.data;
    expect(plans.provider).toBe('stripe');
    expect(plans.plans.find((p: { name: string }) => p.name === 'DEVELOPER').stripePriceId.month.id).toBe(await priceId('cairn_developer_month'));
    const again = await startTestApp({ env, database: app.database });
    await again.stop();
    expect(stripe.prices.size).toBe(6);
  });

  it('checkout with a tax id creates the customer, then the webhook makes the plan active; a replay changes nothing', async () => {
    const u = await newUser();
    const sessionId = await checkout(u, 'cairn_hobby_month', { country: 'GB', taxId: 'GB123456789', successCallbackPath: '/dashboard/subscription' });
    const session = stripe.sessions.get(sessionId)!;
    expect(session.success_url).toBe(`${app.url}/dashboard/subscription?checkout=success&session_id={CHECKOUT_SESSION_ID}`);
    expect(stripe.customers.get(session.customer)).toMatchObject({ email: u.email, address: { country: 'GB' }, tax_ids: [{ type: 'gb_vat', value: 'GB123456789' }] });
    expect(await status(u)).toEqual({ status: 'active', currentPlan: { name: 'STARTER' } });
    stripe.completeCheckout(sessionId, 'paid');
    const event = stripe.event('checkout.session.completed', stripe.sessions.get(sessionId)!);
    const first = await send(event);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ received: true, duplicate: false });
    expect(await status(u)).toEqual({ status: 'active', currentPlan: { name: 'HOBBY' } });
    expect(await logTypes(u)).toEqual(['checkout']);
    const replay = await send(event);
    expect(replay.body).toEqual({ received: true, duplicate: true });
    expect(await logTypes(u)).toEqual(['checkout']);
    // The portal is Stripe's: Manage Billing redirects there.
    const portal = await u.client.get(`/api/workspaces/${u.ws}/billing-portal`);
    expect(portal.status).toBe(303);
    expect(portal.headers.get('location')).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//);
    const sessionOf = (url: string | null) => [...stripe.portal.values()].find((p) => p.url === url)!;
    expect(sessionOf(portal.headers.get('location')).configuration).toBeNull();
    // An administrator's portal of the owner's account shows the invoices alone: the subscription is the owner's.
    const admin = await newUser();
    await app.db('workspace_members').insert({ workspace_id: u.ws, user_id: admin.id, role: 'administrator', created_at: Date.now() });
    const adminPortal = await admin.client.get(`/api/workspaces/${u.ws}/billing-portal`);
    expect(adminPortal.status).toBe(303);
    const adminSession = sessionOf(adminPortal.headers.get('location'));
    expect(adminSession.customer).toBe(session.customer);
    expect(stripe.portalConfigurations.get(adminSession.configuration)?.features).toEqual({
      invoice_history: { enabled: 'true' },
      payment_method_update: { enabled: 'false' },
      subscription_cancel: { enabled: 'false' },
      subscription_update: { enabled: 'false' },
      customer_update: { enabled: 'false' },
    });
    // Choosing a plan for the workspace is refused with the same words.
    const choose = await admin.client.post('/api/checkout', { priceId: await priceId('cairn_developer_month'), mode: 'subscription', onBehalfWorkspaceId: u.ws });
    expect(choose.status).toBe(403);
    expect(choose.body.error.message).toBe(deniedMessages['billing.subscription']);
  });

  it('refuses a bad or stale signature with 400 and changes nothing', async () => {
    const u = await newUser();
    const sessionId = await checkout(u, 'cairn_developer_month');
    stripe.completeCheckout(sessionId, 'paid');
    const object = stripe.sessions.get(sessionId)!;
    const forged = stripe.event('checkout.session.completed', object, { secret: 'whsec_someone_else' });
    expect((await send(forged)).status).toBe(400);
    const stale = stripe.event('checkout.session.completed', object, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await send(stale)).status).toBe(400);
    const tampered = stripe.event('checkout.session.completed', object);
    expect((await send({ body: tampered.body.replace('"checkout.session.completed"', '"checkout.session.expired"'), signature: tampered.signature })).status).toBe(400);
    expect((await send({ body: tampered.body, signature: '' })).status).toBe(400);
    expect(await status(u)).toEqual({ status: 'active', currentPlan: { name: 'STARTER' } });
    expect(await app.db('billing_events').where({ event_id: forged.id }).first()).toBeUndefined();
  });

  it('follows Stripe through a failed first payment, incomplete_expired, renewal, past_due, unpaid and back, whatever the order of events', async () => {
    const u = await newUser();
    const sessionId = await checkout(u, 'cairn_hobby_month');
    const { subscription } = stripe.completeCheckout(sessionId, 'failed');
    await send(stripe.event('checkout.session.completed', stripe.sessions.get(sessionId)!));
    expect(await status(u)).toEqual({ status: 'incomplete', currentPlan: { name: 'HOBBY' } });
    expect((await u.client.post(`/api/workspaces/${u.ws}/projects`, { projectName: 'blocked', networkId: 0 })).status).toBe(422);
    // Stripe expires it after 23 hours.
    const staleSnapshot = structuredClone(subscription!);
    subscription!.status = 'incomplete_expired';
    await send(stripe.event('customer.subscription.updated', subscription!));
    expect((await status(u)).status).toBe('incomplete_expired');
    // A late event carrying the old 'incomplete' snapshot: the handler re-reads, nothing moves back.
    await send(stripe.event('customer.subscription.updated', staleSnapshot));
    expect((await status(u)).status).toBe('incomplete_expired');
    expect(await logTypes(u)).toEqual(['expired', 'failed_payment']);

    // A new checkout, paid, then renewals.
    const second = await checkout(u, 'cairn_developer_year');
    const paid = stripe.completeCheckout(second, 'paid');
    await send(stripe.event('checkout.session.completed', stripe.sessions.get(second)!));
    expect(await status(u)).toEqual({ status: 'active', currentPlan: { name: 'DEVELOPER' } });
    const sub = paid.subscription!;
    const before = structuredClone(sub);
    const renewal = stripe.renew(sub.id, true);
    await send(stripe.event('invoice.paid', renewal));
    const failed = stripe.renew(sub.id, false);
    const failedEvent = stripe.event('invoice.payment_failed', failed);
    const oldUpdate = stripe.event('customer.subscription.updated', before);
    await send(failedEvent);
    expect((await status(u)).status).toBe('past_due');
    await send(oldUpdate); // older than the failure, delivered after it
    expect((await status(u)).status).toBe('past_due');
    expect((await u.client.get(`/api/workspaces/${u.ws}/billing`)).body.data.delinquent).toBe(true);
    const change = await u.client.post('/api/stripe/update_subscription', { newPriceId: await priceId('cairn_hobby_year') });
    expect(change.status).toBe(409);
    expect(change.body.error.message).toBe(messages.billing.unpaidInvoice);
    sub.status = 'unpaid';
    await send(stripe.event('customer.subscription.updated', sub));
    expect((await status(u)).status).toBe('unpaid');
    // Paid at last.
    failed.status = 'paid';
    failed.amount_paid = failed.amount_due;
    failed.attempt_count = 2;
    sub.status = 'active';
    stripe.customers.get(sub.customer)!.delinquent = false;
    await send(stripe.event('invoice.paid', failed));
    expect(await status(u)).toEqual({ status: 'active', currentPlan: { name: 'DEVELOPER' } });
    expect(await logTypes(u)).toEqual(['payment', 'failed_payment', 'renewal', 'checkout', 'expired', 'failed_payment']);
  });

  it('changes the plan at once through the SDK, refuses what the counts rule forbids, and cancels back to STARTER', async () => {
    const u = await newUser();
    const sessionId = await checkout(u, 'cairn_developer_month');
    const { subscription } = stripe.completeCheckout(sessionId, 'paid');
    await send(stripe.event('checkout.session.completed', stripe.sessions.get(sessionId)!));
    const up = await u.client.post('/api/stripe/update_subscription', { newPriceId: await priceId('cairn_developer_year') });
    expect(up.status, up.text).toBe(200);
    expect(subscription!.items.data[0].price.lookup_key).toBe('cairn_developer_year');
    expect(stripe.calls).toContain(`POST /v1/subscriptions/${subscription!.id}`);
    const customer = (await u.client.get('/api/stripe/get_customer')).body.data;
    expect(customer.subscriptions.data[0]).toMatchObject({ id: subscription!.id, plan: 'DEVELOPER', period: 'year', status: 'active' });
    await u.client.post(`/api/workspaces/${u.ws}/projects`, { projectName: 'a', networkId: 0 });
    await u.client.post(`/api/workspaces/${u.ws}/projects`, { projectName: 'b', networkId: 0 });
    const down = await u.client.post('/api/stripe/update_subscription', { newPriceId: await priceId('cairn_hobby_month') });
    expect(down.status, down.text).toBe(200);
    await u.client.fetchCsrf();
    const cancel = await u.client.request('GET', '/api/stripe/cancel_subscription', { headers: { 'x-csrf-token': u.client.csrfToken! } });
    expect(cancel.status).toBe(422);
    expect(cancel.body.error.message).toBe(messages.billing.removeToMatch(1, 0, 0, 'STARTER'));
    const projects = (await u.client.get(`/api/workspaces/${u.ws}/projects`)).body.data;
    await u.client.delete(`/api/workspaces/${u.ws}/projects/${projects[0].uuid}`);
    const ok = await u.client.request('GET', '/api/stripe/cancel_subscription', { headers: { 'x-csrf-token': u.client.csrfToken! } });
    expect(ok.status, ok.text).toBe(200);
    expect(subscription!.status).toBe('canceled');
    expect(await status(u)).toEqual({ status: 'canceled', currentPlan: { name: 'STARTER' } });
    // Stripe's own deletion event arriving afterwards changes nothing more.
    await send(stripe.event('customer.subscription.deleted', subscription!));
    expect(await logTypes(u)).toEqual(['cancellation', 'downgrade', 'upgrade', 'checkout']);
  });

  it("previews a plan change with Stripe's invoice preview, changing nothing, and refuses what the counts forbid before it is confirmed", async () => {
    const u = await newUser();
    const sessionId = await checkout(u, 'cairn_hobby_month');
    const { subscription } = stripe.completeCheckout(sessionId, 'paid');
    await send(stripe.event('checkout.session.completed', stripe.sessions.get(sessionId)!));
    // Half of the month is left: Stripe credits half of HOBBY and charges half of DEVELOPER.
    const item = subscription!.items.data[0];
    item.current_period_end = Math.floor(Date.now() / 1000) + 15 * 86400;
    const up = await u.client.post('/api/stripe/preview_subscription_change', { newPriceId: await priceId('cairn_developer_month') });
    expect(up.status, up.text).toBe(200);
    expect(stripe.calls).toContain('POST /v1/invoices/create_preview');
    expect(up.body.data).toMatchObject({ plan: 'DEVELOPER', period: 'month', direction: 'upgrade', next_amount: 7900, next_period_start: item.current_period_end * 1000, currency: 'eur' });
    expect(Math.abs(up.body.data.amount_now - (7900 - 2900) / 2)).toBeLessThanOrEqual(1);
    // A yearly price starts a new period now: the year less the unused half month.
    const year = await u.client.post('/api/stripe/preview_subscription_change', { newPriceId: await priceId('cairn_hobby_year') });
    expect(year.body.data).toMatchObject({ plan: 'HOBBY', period: 'year', direction: 'upgrade', next_amount: 29900 });
    expect(Math.abs(year.body.data.amount_now - (29900 - 2900 / 2))).toBeLessThanOrEqual(1);
    // Previews change nothing.
    expect(item.price.lookup_key).toBe('cairn_hobby_month');
    expect(await logTypes(u)).toEqual(['checkout']);
    // Two projects on STARTER's one: refused with the spec's sentence before any confirmation.
    await u.client.post(`/api/workspaces/${u.ws}/projects`, { projectName: 'a', networkId: 0 });
    await u.client.post(`/api/workspaces/${u.ws}/projects`, { projectName: 'b', networkId: 0 });
    const down = await u.client.post('/api/stripe/preview_subscription_change', { newPriceId: null });
    expect(down.status).toBe(422);
    expect(down.body.error.message).toBe('Please remove 1 project to match the STARTER plan');
    const bad = await u.client.post('/api/stripe/preview_subscription_change', { newPriceId: 'price_nope' });
    expect(bad.status).toBe(400);
  });

  it('grants a boost bought through Stripe once, whichever of its events arrive', async () => {
    const u = await newUser();
    const res = await u.client.post('/api/checkout', { priceId: await priceId('cairn_requests_boost_300k'), mode: 'payment', onBehalfWorkspaceId: u.ws });
    expect(res.status).toBe(200);
    const sessionId = (res.body.data.url as string).split('/').pop()!;
    stripe.completeCheckout(sessionId, 'paid');
    await send(stripe.event('checkout.session.completed', stripe.sessions.get(sessionId)!));
    await send(stripe.event('checkout.session.async_payment_succeeded', stripe.sessions.get(sessionId)!));
    expect((await u.client.get(`/api/workspaces/${u.ws}/addons`)).body.data).toHaveLength(1);
    expect((await u.client.get(`/api/workspaces/${u.ws}/quota`)).body.data.quota.requestLimit).toBe(350_000);
  });

  it('a payment whose webhook never arrived (the process killed in between) is brought back on the next start', async () => {
    const u = await newUser();
    const sessionId = await checkout(u, 'cairn_hobby_year');
    stripe.completeCheckout(sessionId, 'paid');
    // No webhook: Cairn stops, and starts again over the same database.
    const again = await startTestApp({ env, database: app.database });
    try {
      const c = new Client(again.url);
      c.cookies.set(...([...u.client.cookies][0]! as [string, string]));
      expect((await c.get(`/api/workspaces/${u.ws}/quota`)).body.data.subscription).toEqual({ status: 'active', currentPlan: { name: 'HOBBY' } });
      expect(again.logs.some((l) => l.msg === 'billing: reconciled with Stripe')).toBe(true);
    } finally {
      await again.stop();
    }
    expect(await logTypes(u)).toEqual(['checkout']);
  });
});
