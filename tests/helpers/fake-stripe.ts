import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

// A Stripe-compatible HTTP server of the tests' own: the parts of Stripe's API that Cairn calls,
// with state the tests move the way Stripe would (a checkout paid or failed, a renewal, an expiry),
// and events signed with the SDK's own test-header helper. Stripe itself cannot be reached from here.

type Obj = Record<string, any>;

/** Stripe's form encoding (a[b][0][c]=v) back into objects and arrays. */
function parseForm(text: string): Obj {
  const root: Obj = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node = root;
    parts.forEach((p, i) => {
      if (i === parts.length - 1) node[p] = value;
      else node = node[p] ??= {};
    });
  }
  const arrays = (v: unknown): unknown => {
    if (!v || typeof v !== 'object') return v;
    const o = v as Obj;
    const keys = Object.keys(o);
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) return keys.sort((a, b) => +a - +b).map((k) => arrays(o[k]));
    for (const k of keys) o[k] = arrays(o[k]);
    return o;
  };
  return arrays(root) as Obj;
}

export interface FakeStripe {
  url: string;
  secretKey: string;
  webhookSecret: string;
  customers: Map<string, Obj>;
  prices: Map<string, Obj>;
  products: Map<string, Obj>;
  sessions: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  invoices: Map<string, Obj>;
  /** Billing portal sessions by id (with the configuration they were opened with, null for the default). */
  portal: Map<string, Obj>;
  portalConfigurations: Map<string, Obj>;
  /** Requests received, "METHOD /path". */
  calls: string[];
  /** How long every answer waits (to catch Cairn in the middle of a call). */
  delayMs: number;
  /** The customer pays (or fails) the checkout, as Stripe's hosted page would. */
  completeCheckout(sessionId: string, outcome: 'paid' | 'failed'): { subscription: Obj | null; invoice: Obj | null };
  /** A renewal invoice, paid or failed (the subscription goes past_due and the customer delinquent). */
  renew(subscriptionId: string, paid: boolean): Obj;
  /** A signed event as Stripe would POST it. */
  event(type: string, object: Obj, opts?: { timestamp?: number; secret?: string }): { id: string; body: string; signature: string };
  close(): Promise<void>;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const secretKey = 'sk_test_cairn_fake';
  const webhookSecret = 'whsec_cairn_fake_secret';
  let seq = 0;
  const id = (prefix: string) => `${prefix}_${(++seq).toString().padStart(6, '0')}`;
  const now = () => Math.floor(Date.now() / 1000);
  const customers = new Map<string, Obj>();
  const prices = new Map<string, Obj>();
  const products = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  const portal = new Map<string, Obj>();
  const portalConfigurations = new Map<string, Obj>();
  const calls: string[] = [];
  const signer = new Stripe(secretKey);

  const invoice = (sub: Obj, reason: string, paid: boolean, attempt = 1): Obj => {
    const amount = sub.items.data[0].price.unit_amount;
    const inv = {
      id: id('in'),
      object: 'invoice',
      customer: sub.customer,
      status: paid ? 'paid' : 'open',
      billing_reason: reason,
      amount_paid: paid ? amount : 0,
      amount_due: amount,
      attempt_count: attempt,
      attempted: true,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id } },
    };
    invoices.set(inv.id, inv);
    return inv;
  };
  const newSubscription = (customer: string, price: Obj, status: string): Obj => {
    const sub = {
      id: id('sub'),
      object: 'subscription',
      customer,
      status,
      created: now(),
      cancel_at_period_end: false,
      metadata: {},
      items: { object: 'list', data: [{ id: id('si'), object: 'subscription_item', price, quantity: 1, current_period_end: now() + 30 * 86400 }] },
    };
    subscriptions.set(sub.id, sub);
    return sub;
  };

  const handle = (method: string, path: string, body: Obj, query: URLSearchParams): [number, unknown] => {
    const seg = path.split('/').filter(Boolean); // ['v1', resource, ...]
    const notFound: [number, unknown] = [404, { error: { type: 'invalid_request_error', message: `No such object: ${path}` } }];
    const r = seg.slice(1).join('/');
    if (method === 'GET' && r === 'prices') {
      const keys = [...query.entries()].filter(([k]) => k.startsWith('lookup_keys')).map(([, v]) => v);
      return [200, { object: 'list', data: [...prices.values()].filter((p) => keys.includes(p.lookup_key)), has_more: false }];
    }
    if (method === 'POST' && r === 'products') {
      const p = { id: id('prod'), object: 'product', name: body.name, metadata: body.metadata ?? {} };
      products.set(p.id, p);
      return [200, p];
    }
    if (method === 'POST' && r === 'prices') {
      const p = { id: id('price'), object: 'price', product: body.product, currency: body.currency, unit_amount: Number(body.unit_amount), lookup_key: body.lookup_key, recurring: body.recurring ?? null, active: true };
      prices.set(p.id, p);
      return [200, p];
    }
    if (method === 'POST' && r === 'customers') {
      const c = { id: id('cus'), object: 'customer', email: body.email, delinquent: false, metadata: body.metadata ?? {}, address: body.address ?? null, tax_ids: body.tax_id_data ?? [] };
      customers.set(c.id, c);
      return [200, c];
    }
    if (seg[1] === 'customers' && seg[2]) {
      const c = customers.get(seg[2]);
      if (!c) return notFound;
      if (method === 'GET' && seg.length === 3) return [200, c];
      if (method === 'POST' && seg.length === 3) return [200, Object.assign(c, { address: body.address ?? c.address })];
      if (method === 'POST' && seg[3] === 'tax_ids') {
        const t = { id: id('txi'), object: 'tax_id', type: body.type, value: body.value };
        c.tax_ids.push(t);
        return [200, t];
      }
    }
    if (method === 'POST' && r === 'checkout/sessions') {
      const price = prices.get(body.line_items?.[0]?.price);
      if (!price) return [400, { error: { type: 'invalid_request_error', message: 'No such price' } }];
      const s = {
        id: id('cs_test'),
        object: 'checkout.session',
        mode: body.mode,
        customer: body.customer,
        client_reference_id: body.client_reference_id ?? null,
        status: 'open',
        payment_status: 'unpaid',
        amount_total: price.unit_amount,
        metadata: body.metadata ?? {},
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        line_items: body.line_items,
        subscription: null,
        url: '',
      };
      s.url = `https://checkout.stripe.test/c/pay/${s.id}`;
      sessions.set(s.id, s);
      return [200, s];
    }
    if (method === 'GET' && seg[1] === 'checkout' && seg[2] === 'sessions' && seg[3]) return sessions.has(seg[3]) ? [200, sessions.get(seg[3])] : notFound;
    if (seg[1] === 'subscriptions' && seg[2]) {
      const sub = subscriptions.get(seg[2]);
      if (!sub) return notFound;
      if (method === 'GET') return [200, sub];
      if (method === 'DELETE') return [200, Object.assign(sub, { status: 'canceled' })];
      if (method === 'POST') {
        const item = body.items?.[0];
        if (item?.price) {
          const price = prices.get(item.price);
          if (!price) return [400, { error: { type: 'invalid_request_error', message: 'No such price' } }];
          sub.items.data[0].price = price;
          invoice(sub, 'subscription_update', true);
        }
        return [200, sub];
      }
    }
    if (method === 'POST' && r === 'invoices/create_preview') {
      // Stripe's proration of a price change: the unused part of the current period credited, the
      // same part of the new price charged; a change of interval starts a new period now.
      const sub = subscriptions.get(body.subscription);
      if (!sub || sub.customer !== body.customer) return notFound;
      const price = prices.get(body.subscription_details?.items?.[0]?.price);
      if (!price) return [400, { error: { type: 'invalid_request_error', message: 'No such price' } }];
      const item = sub.items.data[0];
      const old = item.price;
      const lengthOf = (p: Obj) => (p.recurring?.interval === 'year' ? 365 : 30) * 86400;
      const t = now();
      const left = Math.max(0, item.current_period_end - t) / lengthOf(old);
      const sameInterval = (old.recurring?.interval ?? 'month') === (price.recurring?.interval ?? 'month');
      const end = sameInterval ? item.current_period_end : t + lengthOf(price);
      const lines = [
        { object: 'line_item', amount: -Math.round(old.unit_amount * left), description: 'Unused time', period: { start: t, end: item.current_period_end } },
        { object: 'line_item', amount: Math.round(price.unit_amount * (sameInterval ? left : 1)), description: 'Remaining time', period: { start: t, end } },
      ];
      const total = lines.reduce((a, l) => a + l.amount, 0);
      return [200, { id: `upcoming_${seq}`, object: 'invoice', customer: sub.customer, currency: 'eur', total, amount_due: Math.max(0, total), lines: { object: 'list', data: lines, has_more: false } }];
    }
    if (method === 'GET' && seg[1] === 'invoices' && seg[2]) return invoices.has(seg[2]) ? [200, invoices.get(seg[2])] : notFound;
    if (method === 'POST' && r === 'billing_portal/configurations') {
      const c = { id: id('bpc'), object: 'billing_portal.configuration', active: true, is_default: false, features: body.features };
      portalConfigurations.set(c.id, c);
      return [200, c];
    }
    if (method === 'POST' && r === 'billing_portal/sessions') {
      if (!customers.has(body.customer)) return notFound;
      if (body.configuration && !portalConfigurations.has(body.configuration)) return notFound;
      const p = { id: id('bps'), object: 'billing_portal.session', customer: body.customer, configuration: body.configuration ?? null, return_url: body.return_url, url: `https://billing.stripe.test/p/session/${seq}` };
      portal.set(p.id, p);
      return [200, p];
    }
    return notFound;
  };

  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      calls.push(`${req.method} ${url.pathname}`);
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key' } }));
        return;
      }
      const [status, payload] = handle(req.method ?? 'GET', url.pathname, parseForm(text), url.searchParams);
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${seq}` }).end(JSON.stringify(payload));
      }, fake.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const fake: FakeStripe = {
    delayMs: 0,
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    customers,
    prices,
    products,
    sessions,
    subscriptions,
    invoices,
    portal,
    portalConfigurations,
    calls,
    completeCheckout(sessionId, outcome) {
      const s = sessions.get(sessionId)!;
      const price = prices.get(s.line_items[0].price)!;
      s.status = 'complete';
      if (s.mode === 'payment') {
        s.payment_status = outcome === 'paid' ? 'paid' : 'unpaid';
        if (outcome === 'failed') s.status = 'open';
        return { subscription: null, invoice: null };
      }
      const sub = newSubscription(s.customer, price, outcome === 'paid' ? 'active' : 'incomplete');
      s.subscription = sub.id;
      s.payment_status = outcome === 'paid' ? 'paid' : 'unpaid';
      return { subscription: sub, invoice: invoice(sub, 'subscription_create', outcome === 'paid') };
    },
    renew(subscriptionId, paid) {
      const sub = subscriptions.get(subscriptionId)!;
      sub.items.data[0].current_period_end += 30 * 86400;
      sub.status = paid ? 'active' : 'past_due';
      customers.get(sub.customer)!.delinquent = !paid;
      return invoice(sub, 'subscription_cycle', paid);
    },
    event(type, object, opts = {}) {
      const evId = id('evt');
      const body = JSON.stringify({ id: evId, object: 'event', type, created: now(), api_version: '2026-10-28.endive', data: { object: structuredClone(object) } });
      const signature = signer.webhooks.generateTestHeaderString({ payload: body, secret: opts.secret ?? webhookSecret, ...(opts.timestamp ? { timestamp: opts.timestamp } : {}) });
      return { id: evId, body, signature };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
