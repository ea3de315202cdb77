// Deleting an account with a paid Stripe subscription cancels it at Stripe first, so nothing is
// charged after the account is gone; when Stripe cannot be reached the account stays as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe';

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
/** A user on a paid Stripe plan, bought through checkout as a person would. */
async function payingUser() {
  const email = `paying${++n}-${Date.now()}@account.example`;
  const client = new Client(app.url);
  await signIn(client, app.mailer, email);
  const id = (await client.get('/api/me')).body.data.id as number;
  const priceId = (await app.db('billing_prices').where({ provider: 'stripe', lookup_key: 'cairn_developer_month' }).first('price_id')).price_id as string;
  const res = await client.post('/api/checkout', { priceId, mode: 'subscription' });
  expect(res.status, res.text).toBe(200);
  const sessionId = (res.body.data.url as string).split('/').pop()!;
  const { subscription } = stripe.completeCheckout(sessionId, 'paid');
  const event = stripe.event('checkout.session.completed', stripe.sessions.get(sessionId)!);
  const sent = await new Client(app.url).request('POST', '/api/stripe/webhook', { rawBody: event.body, headers: { 'stripe-signature': event.signature, 'content-type': 'application/json' }, csrf: false });
  expect(sent.status, sent.text).toBe(200);
  expect((await client.get('/api/account/deletion')).body.data.cancelsSubscription).toBe('DEVELOPER');
  return { client, id, email, subscription: subscription! };
}

describe('deleting an account with a paid subscription', () => {
  it('cancels the subscription at Stripe, then deletes the account', async () => {
    const u = await payingUser();
    expect(u.subscription.status).toBe('active');
    const res = await u.client.request('DELETE', '/api/account', { body: { confirmation: u.email } });
    expect(res.status, res.text).toBe(200);
    expect(stripe.calls).toContain(`DELETE /v1/subscriptions/${u.subscription.id}`);
    expect(u.subscription.status).toBe('canceled');
    expect(await app.db('users').where({ id: u.id }).first()).toBeUndefined();
    expect(await app.db('billing_customers').where({ user_id: u.id }).first()).toBeUndefined();
  });

  it('keeps the account as it was when Stripe cannot be reached', async () => {
    const u = await payingUser();
    await stripe.close();
    const res = await u.client.request('DELETE', '/api/account', { body: { confirmation: u.email } });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('billing_unavailable');
    expect((await u.client.get('/api/me')).status).toBe(200);
    expect(await app.db('subscriptions').where({ user_id: u.id }).first('plan', 'status')).toEqual({ plan: 'DEVELOPER', status: 'active' });
  });
});
