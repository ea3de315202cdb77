import Stripe from 'stripe';
import type { Db } from '../../db/index';
import type { Logger } from '../../logger';
import { AppError, Conflict, Invalid } from '../../errors';
import { applySubscription, canceledState, grantBoost, readSubscriptionState, type LogEntry, type SubscriptionState } from './billing';
import { isBoostType, plans, type PlanName, type SubscriptionStatus } from '../../../shared/plans';
import { sellablePrices, type BillingPeriod, type CustomerDto, type PriceTarget } from '../../../shared/billing';
import type { BillingProvider, BillingUser, CheckoutRequest, PlanChangeCharge, PortalScope } from './provider';
import { PriceBook } from './prices';
import { customerRow, saveCustomer } from './customers';
import { localCustomer } from './local';
import { DAY_MS } from '../../../shared/time';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** A Stripe-compatible API (the tests' own server, stripe-mock); Stripe's own when unset. */
  apiUrl: string | null;
  publicUrl: string;
}

const LIVE: ReadonlySet<SubscriptionStatus> = new Set(['active', 'trialing', 'past_due', 'unpaid', 'incomplete']);

const KNOWN: ReadonlySet<string> = new Set(['active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'incomplete_expired', 'canceled']);
/** Stripe's status as Cairn's; a paused subscription (or one Cairn does not know) is treated as unpaid. */
const statusOf = (s: string): SubscriptionStatus => (KNOWN.has(s) ? (s as SubscriptionStatus) : 'unpaid');

/** Wraps a failed call to Stripe as a clear 502 instead of an internal error. */
async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { type?: string; message?: string; statusCode?: number };
    if (e.type === 'StripeInvalidRequestError' && e.statusCode === 400) throw new Invalid(`Stripe refused to ${what}: ${e.message ?? 'invalid request'}`);
    throw new AppError(502, 'billing_unavailable', `Stripe could not ${what} right now (${e.message ?? 'no answer'}). Try again in a moment.`);
  }
}

const idOf = (v: string | { id: string } | null | undefined): string | null => (v == null ? null : typeof v === 'string' ? v : v.id);

/**
 * Billing through Stripe with the official SDK. Webhooks are verified on the raw body, applied once per
 * event id, and never trusted for state: each handler re-reads the object from Stripe, so events that
 * arrive late or out of order cannot move a subscription backwards.
 */
export class StripeBillingProvider implements BillingProvider {
  readonly name = 'stripe' as const;
  readonly testBilling = false;
  readonly stripe: Stripe;
  private readonly prices = new PriceBook();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly opts: StripeOptions,
  ) {
    const api = opts.apiUrl ? new URL(opts.apiUrl) : null;
    this.stripe = new Stripe(opts.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(api ? { host: api.hostname, port: api.port || (api.protocol === 'https:' ? 443 : 80), protocol: api.protocol.replace(':', '') as 'http' | 'https' } : {}),
    });
  }

  async start(): Promise<void> {
    await this.resolvePrices();
    await this.reconcile();
  }

  /** Price ids per lookup key: stored ones, else found in the account by lookup_key, else created there once. */
  async resolvePrices(): Promise<void> {
    const stored = await this.db('billing_prices').where({ provider: 'stripe' }).select('lookup_key', 'price_id');
    for (const r of stored) this.prices.set(r.lookup_key, r.price_id);
    for (const p of sellablePrices()) {
      if (this.prices.priceId(p.lookupKey)) continue;
      const found = await call('list prices', () => this.stripe.prices.list({ lookup_keys: [p.lookupKey], active: true, limit: 1 }));
      let priceId = found.data[0]?.id;
      if (!priceId) {
        const product = await call('create a product', () => this.stripe.products.create({ name: p.name, metadata: { cairn_lookup_key: p.lookupKey } }));
        const price = await call('create a price', () =>
          this.stripe.prices.create({
            product: product.id,
            currency: 'eur',
            unit_amount: p.amount,
            lookup_key: p.lookupKey,
            ...(p.recurring ? { recurring: { interval: p.recurring } } : {}),
          }),
        );
        priceId = price.id;
        this.logger.info({ lookupKey: p.lookupKey, priceId }, 'billing: created a Stripe price');
      }
      await this.db('billing_prices').insert({ provider: 'stripe', lookup_key: p.lookupKey, price_id: priceId, created_at: Date.now() }).onConflict(['provider', 'lookup_key']).merge({ price_id: priceId });
      this.prices.set(p.lookupKey, priceId);
    }
  }

  priceId(lookupKey: string) {
    return this.prices.priceId(lookupKey);
  }

  targetOf(priceId: string) {
    return this.prices.targetOf(priceId);
  }

  private async ensureCustomer(user: BillingUser, country: string | null, taxId: { type: string; value: string } | null): Promise<string> {
    const row = await customerRow(this.db, user.id);
    if (row && row.provider === 'stripe') {
      if (country) await call('update the customer', () => this.stripe.customers.update(row.customer_id, { address: { country } }));
      if (taxId && (taxId.type !== row.tax_id_type || taxId.value !== row.tax_id)) {
        await call('add the tax id', () => this.stripe.customers.createTaxId(row.customer_id, { type: taxId.type as Stripe.CustomerCreateTaxIdParams.Type, value: taxId.value }));
      }
      await saveCustomer(this.db, user.id, 'stripe', row.customer_id, country, taxId);
      return row.customer_id;
    }
    const customer = await call('create the customer', () =>
      this.stripe.customers.create({
        email: user.email,
        metadata: { cairn_user_id: String(user.id) },
        ...(country ? { address: { country } } : {}),
        ...(taxId ? { tax_id_data: [{ type: taxId.type as Stripe.CustomerCreateParams.TaxIdDatum.Type, value: taxId.value }] } : {}),
      }),
    );
    await saveCustomer(this.db, user.id, 'stripe', customer.id, country, taxId);
    return customer.id;
  }

  async checkout(req: CheckoutRequest): Promise<string> {
    const customer = await this.ensureCustomer(req.user, req.country, req.taxId);
    const metadata: Record<string, string> = { cairn_user_id: String(req.user.id) };
    if (req.workspaceId !== null) metadata.cairn_workspace_id = String(req.workspaceId);
    if (req.target.kind === 'boost') metadata.cairn_boost = req.target.boost;
    const sep = req.successPath.includes('?') ? '&' : '?';
    const session = await call('start the checkout', () =>
      this.stripe.checkout.sessions.create({
        mode: req.target.kind === 'plan' ? 'subscription' : 'payment',
        customer,
        client_reference_id: String(req.user.id),
        line_items: [{ price: req.priceId, quantity: 1 }],
        success_url: `${this.opts.publicUrl}${req.successPath}${sep}checkout=success&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${this.opts.publicUrl}${req.cancelPath}`,
        metadata,
        ...(req.target.kind === 'plan' ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
      }),
    );
    if (!session.url) throw new AppError(502, 'billing_unavailable', 'Stripe did not return a checkout address. Try again in a moment.');
    await this.db('checkout_sessions').insert({
      id: session.id,
      provider: 'stripe',
      user_id: req.user.id,
      mode: req.target.kind === 'plan' ? 'subscription' : 'payment',
      price_id: req.priceId,
      plan: req.target.kind === 'plan' ? req.target.plan : null,
      period: req.target.kind === 'plan' ? req.target.period : null,
      boost: req.target.kind === 'boost' ? req.target.boost : null,
      workspace_id: req.workspaceId,
      amount: req.amount,
      status: 'open',
      success_path: req.successPath,
      cancel_path: req.cancelPath,
      created_at: Date.now(),
    });
    return session.url;
  }

  private async currentSubscriptionId(userId: number): Promise<string> {
    const s = await readSubscriptionState(this.db, userId);
    if (s.provider !== 'stripe' || !s.providerSubscriptionId || !LIVE.has(s.status)) throw new Conflict('There is no paid subscription to change. Choose a plan first.');
    return s.providerSubscriptionId;
  }

  /** Stripe's own proration of the change, from an invoice preview of the same update changePlan sends; nothing changes. */
  async previewPlanChange(user: BillingUser, plan: PlanName, period: BillingPeriod, priceId: string): Promise<PlanChangeCharge> {
    const id = await this.currentSubscriptionId(user.id);
    const sub = await call('read the subscription', () => this.stripe.subscriptions.retrieve(id));
    const item = sub.items.data[0];
    if (!item) throw new AppError(502, 'billing_unavailable', 'The Stripe subscription has no item to change.');
    const preview = await call('preview the plan change', () =>
      this.stripe.invoices.createPreview({
        customer: idOf(sub.customer)!,
        subscription: id,
        subscription_details: { items: [{ id: item.id, price: priceId }], proration_behavior: 'always_invoice' },
      }),
    );
    const ends = preview.lines.data.map((l) => l.period?.end ?? 0).filter((t) => t > 0);
    return {
      amountNow: Math.max(0, preview.amount_due),
      nextAmount: plans[plan].stripePriceId[period].price ?? 0,
      nextPeriodStart: ends.length ? Math.max(...ends) * 1000 : item.current_period_end ? item.current_period_end * 1000 : null,
    };
  }

  async changePlan(user: BillingUser, _plan: unknown, _period: BillingPeriod, priceId: string): Promise<void> {
    const id = await this.currentSubscriptionId(user.id);
    const sub = await call('read the subscription', () => this.stripe.subscriptions.retrieve(id));
    const item = sub.items.data[0];
    if (!item) throw new AppError(502, 'billing_unavailable', 'The Stripe subscription has no item to change.');
    const updated = await call('change the subscription', () =>
      this.stripe.subscriptions.update(id, { items: [{ id: item.id, price: priceId }], proration_behavior: 'always_invoice', payment_behavior: 'error_if_incomplete' }),
    );
    await this.applyStripeSubscription(user.id, updated);
  }

  async cancel(user: BillingUser): Promise<void> {
    const id = await this.currentSubscriptionId(user.id);
    const sub = await call('cancel the subscription', () => this.stripe.subscriptions.cancel(id));
    await this.applyStripeSubscription(user.id, sub);
  }

  async portalUrl(user: BillingUser, returnPath: string, scope: PortalScope): Promise<string> {
    const row = await customerRow(this.db, user.id);
    if (!row || row.provider !== 'stripe') throw new Conflict('There is no billing account yet: choose a plan first.');
    const configuration = scope === 'invoices' ? await this.invoicesPortal() : undefined;
    const session = await call('open the billing portal', () =>
      this.stripe.billingPortal.sessions.create({ customer: row.customer_id, return_url: `${this.opts.publicUrl}${returnPath}`, ...(configuration ? { configuration } : {}) }),
    );
    return session.url;
  }

  private invoicesPortalId: Promise<string> | null = null;

  /**
   * A portal configuration of the invoices alone (see them and pay an open one): no plan change,
   * cancellation, payment method or customer details. Created once per process.
   */
  private invoicesPortal(): Promise<string> {
    this.invoicesPortalId ??= call('configure the invoices portal', () =>
      this.stripe.billingPortal.configurations.create({
        features: {
          invoice_history: { enabled: true },
          payment_method_update: { enabled: false },
          subscription_cancel: { enabled: false },
          subscription_update: { enabled: false },
          customer_update: { enabled: false },
        },
      }),
    ).then(
      (c) => c.id,
      (err: unknown) => {
        this.invoicesPortalId = null;
        throw err;
      },
    );
    return this.invoicesPortalId;
  }

  async customer(user: BillingUser, opts: { refresh: boolean }): Promise<CustomerDto> {
    if (opts.refresh) await this.reconcileUser(user.id);
    const dto = await localCustomer(this.db, user, 'none');
    return { ...dto, subscriptions: { data: dto.subscriptions.data.map((s) => ({ ...s, provider: 'stripe' })) } };
  }

  // ---- from Stripe's state to Cairn's ----

  private async userOfCustomer(customer: string | null): Promise<number | null> {
    if (!customer) return null;
    const row = await this.db('billing_customers').where({ provider: 'stripe', customer_id: customer }).first('user_id');
    return row ? Number(row.user_id) : null;
  }

  private stateOf(sub: Stripe.Subscription): (Partial<SubscriptionState> & Pick<SubscriptionState, 'plan' | 'status'>) | null {
    const item = sub.items.data[0];
    const target: PriceTarget | null = item ? this.prices.targetOf(item.price.id) : null;
    const status = statusOf(sub.status);
    if (status === 'canceled') return { ...canceledState('stripe'), providerSubscriptionId: sub.id };
    if (!target || target.kind !== 'plan') return null;
    return {
      plan: target.plan,
      status,
      period: target.period,
      priceId: item!.price.id,
      provider: 'stripe',
      providerSubscriptionId: sub.id,
      currentPeriodEnd: item!.current_period_end ? item!.current_period_end * 1000 : null,
      cancelAtPeriodEnd: Boolean(sub.cancel_at_period_end),
      incompleteSince: status === 'incomplete' ? sub.created * 1000 : null,
    };
  }

  /**
   * Applies a subscription as Stripe reports it now. A user has one subscription: another one's
   * events change nothing while the user's own is live.
   */
  private async applyStripeSubscription(userId: number, sub: Stripe.Subscription, entry?: LogEntry, trx: Db = this.db): Promise<boolean> {
    const next = this.stateOf(sub);
    if (!next) {
      this.logger.warn({ subscription: sub.id }, 'billing: a Stripe subscription with a price Cairn does not sell; left alone');
      return false;
    }
    const current = await readSubscriptionState(trx, userId);
    if (current.providerSubscriptionId && current.providerSubscriptionId !== sub.id && LIVE.has(current.status) && current.provider === 'stripe') {
      if (!LIVE.has(next.status)) return false;
    }
    const customer = await call('read the customer', () => this.stripe.customers.retrieve(idOf(sub.customer)!));
    const delinquent = 'deleted' in customer && customer.deleted ? false : Boolean((customer as Stripe.Customer).delinquent);
    await applySubscription(trx, userId, { ...next, delinquent: next.status === 'canceled' ? false : delinquent }, 'stripe', entry);
    return true;
  }

  /** Re-reads a checkout session and applies what it paid for (a subscription or a boost). */
  private async applyCheckoutSession(sessionId: string, trx: Db = this.db): Promise<void> {
    const session = await call('read the checkout', () => this.stripe.checkout.sessions.retrieve(sessionId));
    const userId = (await this.userOfCustomer(idOf(session.customer))) ?? (Number(session.client_reference_id) || null);
    if (!userId) return;
    const row = await trx('checkout_sessions').where({ id: session.id }).first();
    if (session.status === 'expired') {
      await trx('checkout_sessions').where({ id: session.id, status: 'open' }).update({ status: 'canceled', completed_at: Date.now() });
      return;
    }
    if (session.status !== 'complete') return;
    if (session.mode === 'subscription' && session.subscription) {
      const sub = await call('read the subscription', () => this.stripe.subscriptions.retrieve(idOf(session.subscription)!));
      const paid = sub.status === 'active' || sub.status === 'trialing';
      await this.applyStripeSubscription(userId, sub, { type: paid ? 'checkout' : 'failed_payment', amount: session.amount_total ?? row?.amount ?? null, reference: session.id, dedupeKey: `stripe:checkout:${session.id}` }, trx);
      await trx('checkout_sessions').where({ id: session.id, status: 'open' }).update({ status: paid ? 'paid' : 'failed', completed_at: Date.now() });
    } else if (session.mode === 'payment') {
      const boost = session.metadata?.cairn_boost;
      const workspaceId = Number(session.metadata?.cairn_workspace_id);
      if (session.payment_status === 'paid' && isBoostType(boost) && workspaceId > 0) {
        await grantBoost(trx, { workspaceId, type: boost, reference: session.id, amount: session.amount_total ?? null, provider: 'stripe' });
        await trx('checkout_sessions').where({ id: session.id, status: 'open' }).update({ status: 'paid', completed_at: Date.now() });
      }
    }
  }

  /** Re-reads an invoice's subscription and logs what the invoice says (renewal, failed payment, payment). */
  private async applyInvoice(invoiceId: string, trx: Db = this.db): Promise<void> {
    const invoice = await call('read the invoice', () => this.stripe.invoices.retrieve(invoiceId));
    const subId = idOf(invoice.parent?.subscription_details?.subscription ?? null);
    const userId = await this.userOfCustomer(idOf(invoice.customer));
    if (!subId || !userId) return;
    const sub = await call('read the subscription', () => this.stripe.subscriptions.retrieve(subId));
    let entry: LogEntry | undefined;
    if (invoice.status === 'paid') {
      // Paid after a failed attempt: the open invoice was paid. Else a renewal (creation and updates are logged by their checkout and plan change).
      if (invoice.attempt_count > 1 || invoice.billing_reason === 'manual') entry = { type: 'payment', amount: invoice.amount_paid, reference: invoice.id, dedupeKey: `stripe:invoice:${invoice.id}` };
      else if (invoice.billing_reason === 'subscription_cycle') entry = { type: 'renewal', amount: invoice.amount_paid, reference: invoice.id, dedupeKey: `stripe:invoice:${invoice.id}` };
    } else if (invoice.status === 'open' && invoice.attempted) {
      entry = { type: 'failed_payment', amount: invoice.amount_due, reference: invoice.id, dedupeKey: `stripe:invoice-failed:${invoice.id}:${invoice.attempt_count}` };
    }
    await this.applyStripeSubscription(userId, sub, entry, trx);
  }

  /**
   * POST /api/stripe/webhook: verifies the signature on the raw body (400 and nothing changed when it
   * fails), then applies the event once: a stored event id answers 'duplicate' and changes nothing.
   */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<{ received: true; duplicate: boolean }> {
    let event: Stripe.Event;
    try {
      if (!signature) throw new Error('no Stripe-Signature header');
      event = this.stripe.webhooks.constructEvent(rawBody, signature, this.opts.webhookSecret);
    } catch (err) {
      throw new Invalid(`Invalid Stripe webhook signature: ${(err as Error).message}`);
    }
    if (await this.db('billing_events').where({ provider: 'stripe', event_id: event.id }).first('event_id')) return { received: true, duplicate: true };
    // Every effect below re-reads Stripe and is idempotent on its own (logs by dedupe key, boosts by
    // session id, states by comparison), so a crash before the event id is stored only repeats them.
    const object = event.data.object as { id?: string };
    if (event.type.startsWith('checkout.session.') && object.id) await this.applyCheckoutSession(object.id);
    else if (event.type.startsWith('customer.subscription.') && object.id) {
      const sub = await call('read the subscription', () => this.stripe.subscriptions.retrieve(object.id!));
      const userId = await this.userOfCustomer(idOf(sub.customer));
      if (userId) await this.applyStripeSubscription(userId, sub);
    } else if (event.type.startsWith('invoice.') && object.id) await this.applyInvoice(object.id);
    else if (event.type === 'customer.updated' && object.id) {
      const userId = await this.userOfCustomer(object.id);
      const s = userId ? await readSubscriptionState(this.db, userId) : null;
      if (userId && s?.provider === 'stripe' && s.providerSubscriptionId) {
        const sub = await call('read the subscription', () => this.stripe.subscriptions.retrieve(s.providerSubscriptionId!));
        await this.applyStripeSubscription(userId, sub);
      }
    }
    await this.db('billing_events').insert({ provider: 'stripe', event_id: event.id, type: event.type, received_at: Date.now() }).onConflict(['provider', 'event_id']).ignore();
    return { received: true, duplicate: false };
  }

  /** Brings one user's subscription and open checkouts up to date with Stripe. */
  async reconcileUser(userId: number): Promise<void> {
    const open = await this.db('checkout_sessions').where({ provider: 'stripe', user_id: userId, status: 'open' }).andWhere('created_at', '>', Date.now() - 2 * DAY_MS).select('id');
    for (const s of open) await this.applyCheckoutSession(s.id);
    const state = await readSubscriptionState(this.db, userId);
    if (state.provider === 'stripe' && state.providerSubscriptionId) {
      const sub = await call('read the subscription', () => this.stripe.subscriptions.retrieve(state.providerSubscriptionId!));
      await this.applyStripeSubscription(userId, sub);
    }
  }

  /**
   * On start: whatever happened while Cairn was down (a payment whose webhook never arrived, a process
   * killed between the two) is read back from Stripe.
   */
  async reconcile(): Promise<void> {
    const users = new Set<number>();
    for (const r of await this.db('checkout_sessions').where({ provider: 'stripe', status: 'open' }).andWhere('created_at', '>', Date.now() - 2 * DAY_MS).select('user_id')) users.add(Number(r.user_id));
    for (const r of await this.db('subscriptions').where({ provider: 'stripe' }).whereNotNull('provider_subscription_id').whereNotIn('status', ['canceled', 'incomplete_expired']).select('user_id')) users.add(Number(r.user_id));
    let failed = 0;
    for (const userId of users) {
      try {
        await this.reconcileUser(userId);
      } catch (err) {
        failed++;
        this.logger.warn({ userId, err: { message: (err as Error).message } }, 'billing: reconciliation of a customer failed');
      }
    }
    this.logger.info({ customers: users.size, failed }, 'billing: reconciled with Stripe');
  }
}
