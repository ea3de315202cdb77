import type { ChildProcess } from 'node:child_process';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../helpers/workspace-fixture';
import { startFakeStripe, type FakeStripe } from '../helpers/fake-stripe';
import { freePort, serverData, spawnServerProcess, stopServerProcess, stopServerProcesses, type ServerData } from '../helpers/server-process';
import type { Db } from '../../server/db/index';

// A SIGKILL between payment and webhook: the real entry point (API role) is killed while it applies
// the webhook of a paid checkout. Nothing is lost: the next start reconciles with Stripe, and the
// webhook Stripe delivers again applies nothing twice.

let stripe: FakeStripe;
let data: ServerData;
let db: Db;
let env: Record<string, string>;
let port: number;

/** Resolves once the API answers /readyz (30 s at most). */
const startApi = () => spawnServerProcess({ role: 'api', env, readyUrl: `http://127.0.0.1:${port}/readyz`, readyTimeoutMs: 30_000 });

beforeAll(async () => {
  stripe = await startFakeStripe();
  data = await serverData('billing-crash');
  db = data.db;
  port = await freePort();
  env = {
    ...data.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SESSION_SECRET: 'x'.repeat(40),
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_URL: stripe.url,
  };
});
afterAll(async () => {
  await stopServerProcesses();
  await data.remove();
  await stripe.close();
});

describe('a crash between payment and webhook', () => {
  it('loses nothing: the restart reconciles with Stripe, and the redelivered webhook changes nothing more', async () => {
    const first = await startApi();
    let second: ChildProcess | null = null;
    try {
      // A customer who went through checkout (as POST /api/checkout leaves it) and paid at Stripe.
      const user = await makeUser(db, 'crash-buyer@billing.example');
      const price = (await db('billing_prices').where({ provider: 'stripe', lookup_key: 'cairn_hobby_month' }).first('price_id')).price_id as string;
      const api = new URL(stripe.url);
      const sdk = new Stripe(stripe.secretKey, { host: api.hostname, port: api.port, protocol: 'http' });
      const customer = await sdk.customers.create({ email: user.email });
      const session = await sdk.checkout.sessions.create({ mode: 'subscription', customer: customer.id, line_items: [{ price, quantity: 1 }], success_url: 'http://x/s', cancel_url: 'http://x/c' });
      const now = Date.now();
      await db('billing_customers').insert({ user_id: user.id, provider: 'stripe', customer_id: customer.id, created_at: now, updated_at: now });
      await db('checkout_sessions').insert({ id: session.id, provider: 'stripe', user_id: user.id, mode: 'subscription', price_id: price, plan: 'HOBBY', period: 'month', amount: 2900, status: 'open', success_path: '/dashboard/subscription', cancel_path: '/dashboard', created_at: now });
      stripe.completeCheckout(session.id, 'paid');

      // The webhook arrives; Cairn is killed while it re-reads the session from Stripe.
      stripe.delayMs = 1500;
      const event = stripe.event('checkout.session.completed', stripe.sessions.get(session.id)!);
      const calls = stripe.calls.length;
      const delivery = fetch(`http://127.0.0.1:${port}/api/stripe/webhook`, { method: 'POST', headers: { 'stripe-signature': event.signature, 'content-type': 'application/json' }, body: event.body }).catch(() => null);
      const end = Date.now() + 10_000;
      while (!stripe.calls.slice(calls).some((c) => c.startsWith('GET /v1/checkout/sessions/')) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      await stopServerProcess(first, 'SIGKILL');
      expect((await delivery)?.ok ?? false).toBe(false);
      expect((await db('subscriptions').where({ user_id: user.id }).first('plan')).plan).toBe('STARTER');
      expect(await db('billing_events').where({ event_id: event.id }).first()).toBeUndefined();

      // Started again: the reconciliation brings the paid plan back before the first request.
      stripe.delayMs = 0;
      second = await startApi();
      expect(await db('subscriptions').where({ user_id: user.id }).first('plan', 'status')).toEqual({ plan: 'HOBBY', status: 'active' });
      // Stripe delivers the unanswered webhook again: applied, nothing twice.
      const again = await fetch(`http://127.0.0.1:${port}/api/stripe/webhook`, { method: 'POST', headers: { 'stripe-signature': event.signature, 'content-type': 'application/json' }, body: event.body });
      expect(again.status).toBe(200);
      expect(await db('subscription_logs').where({ user_id: user.id }).select('type')).toEqual([{ type: 'checkout' }]);
      expect(await db('checkout_sessions').where({ id: session.id }).first('status')).toEqual({ status: 'paid' });
    } finally {
      await stopServerProcess(first, 'SIGKILL');
      if (second) await stopServerProcess(second, 'SIGTERM');
    }
  });
});
