import crypto from 'node:crypto';
import type { Db } from '../../db/index';
import { Conflict, Invalid, NotFound } from '../../errors';
import { applySubscription, canceledState, grantBoost, readSubscriptionState, type SubscriptionState } from './billing';
import { isBoostType, isPaidPlan, isPlanName, plans, type PlanName } from '../../../shared/plans';
import { nextStatus, sellablePrices, type BillingPeriod, type CustomerDto } from '../../../shared/billing';
import type { BillingProvider, BillingUser, CheckoutRequest, PlanChangeCharge } from './provider';
import { PriceBook, periodMs } from './prices';
import { saveCustomer, customerRow } from './customers';

export interface LocalCheckoutDto {
  id: string;
  mode: 'subscription' | 'payment';
  plan: PlanName | null;
  period: BillingPeriod | null;
  boost: string | null;
  workspace_id: number | null;
  amount: number;
  status: 'open' | 'paid' | 'failed' | 'canceled';
  success_path: string;
  cancel_path: string;
}

export type LocalCheckoutOutcome = 'paid' | 'failed' | 'canceled';
export type LocalPortalAction = 'pay_invoice' | 'renew_paid' | 'renew_failed' | 'cancel';

const subscriptionId = (userId: number) => `lsub_${userId}`;

/**
 * Cairn's built-in test billing: its own checkout page and customer portal, where the customer pays,
 * lets the payment fail, or cancels. No money moves; everything ends in the same applySubscription
 * as Stripe's webhooks, so the state machine and the logs are the real ones.
 */
export class LocalBillingProvider implements BillingProvider {
  readonly name = 'local' as const;
  readonly testBilling = true;
  private readonly prices = new PriceBook();

  constructor(private readonly db: Db) {
    // The local provider's price ids are the lookup keys themselves.
    for (const p of sellablePrices()) this.prices.set(p.lookupKey, p.lookupKey);
  }

  async start(): Promise<void> {
    // All local state lives in the database and changes in single transactions: nothing to reconcile.
  }

  priceId(lookupKey: string) {
    return this.prices.priceId(lookupKey);
  }

  targetOf(priceId: string) {
    return this.prices.targetOf(priceId);
  }

  async checkout(req: CheckoutRequest): Promise<string> {
    const id = `lcs_${crypto.randomBytes(16).toString('hex')}`;
    await saveCustomer(this.db, req.user.id, 'local', `lcus_${req.user.id}`, req.country, req.taxId);
    await this.db('checkout_sessions').insert({
      id,
      provider: 'local',
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
    return `/billing/checkout/${id}`;
  }

  async session(userId: number, id: string): Promise<LocalCheckoutDto> {
    const r = await this.db('checkout_sessions').where({ id, user_id: userId, provider: 'local' }).first();
    if (!r) throw new NotFound('This checkout does not exist.');
    return {
      id: r.id,
      mode: r.mode,
      plan: r.plan,
      period: r.period,
      boost: r.boost,
      workspace_id: r.workspace_id === null ? null : Number(r.workspace_id),
      amount: Number(r.amount),
      status: r.status,
      success_path: r.success_path,
      cancel_path: r.cancel_path,
    };
  }

  /** Pays, fails or cancels an open checkout, once: the session's status moves in the same transaction. */
  async complete(userId: number, id: string, outcome: LocalCheckoutOutcome, now = Date.now()): Promise<{ redirect: string }> {
    const s = await this.session(userId, id);
    if (s.status !== 'open') throw new Conflict('This checkout is already closed.');
    await this.db.transaction(async (trx) => {
      const moved = await trx('checkout_sessions').where({ id, status: 'open' }).update({ status: outcome, completed_at: now });
      if (moved !== 1) throw new Conflict('This checkout is already closed.');
      if (outcome === 'canceled') return;
      if (s.mode === 'payment') {
        if (!isBoostType(s.boost) || s.workspace_id === null) throw new Invalid('This checkout has no boost.');
        if (outcome === 'paid') await grantBoost(trx, { workspaceId: s.workspace_id, type: s.boost, reference: id, amount: s.amount, provider: 'local' }, now);
        else {
          const state = await readSubscriptionState(trx, userId);
          await applySubscription(trx, userId, { plan: state.plan, status: state.status }, 'local', { type: 'failed_payment', amount: s.amount, boost: s.boost, workspaceId: s.workspace_id, reference: id }, now);
        }
        return;
      }
      if (!isPlanName(s.plan) || !s.period) throw new Invalid('This checkout has no plan.');
      const current = await readSubscriptionState(trx, userId);
      const event = outcome === 'paid' ? 'first_payment_paid' : 'first_payment_failed';
      const status = nextStatus(current.status, event) ?? (outcome === 'paid' ? 'active' : 'incomplete');
      await applySubscription(
        trx,
        userId,
        {
          plan: s.plan,
          status,
          period: s.period,
          priceId: sellablePrices().find((p) => p.target.kind === 'plan' && p.target.plan === s.plan && p.target.period === s.period)?.lookupKey ?? null,
          provider: 'local',
          providerSubscriptionId: subscriptionId(userId),
          currentPeriodEnd: now + periodMs(s.period),
          cancelAtPeriodEnd: false,
          delinquent: false,
          incompleteSince: null,
        },
        'local',
        { type: outcome === 'paid' ? 'checkout' : 'failed_payment', amount: s.amount, reference: id },
        now,
      );
    });
    return { redirect: outcome === 'canceled' ? s.cancel_path : s.success_path };
  }

  /**
   * The built-in billing's proration: a change starts a new period at once, charging the new price
   * less the unused part of the old period; a downgrade charges nothing now.
   */
  private charge(current: SubscriptionState, plan: PlanName, period: BillingPeriod, now: number): PlanChangeCharge & { up: boolean } {
    const newPrice = plans[plan].stripePriceId[period].price ?? 0;
    const oldPrice = current.period ? (plans[current.plan].stripePriceId[current.period].price ?? 0) : 0;
    const remaining = current.currentPeriodEnd && current.period ? Math.max(0, current.currentPeriodEnd - now) / periodMs(current.period) : 0;
    const up = plans[plan].requestLimit > plans[current.plan].requestLimit || (plan === current.plan && period === 'year');
    return { up, amountNow: up ? Math.max(0, Math.round(newPrice - oldPrice * remaining)) : 0, nextAmount: newPrice, nextPeriodStart: now + periodMs(period) };
  }

  async previewPlanChange(user: BillingUser, plan: PlanName, period: BillingPeriod, _priceId: string, now = Date.now()): Promise<PlanChangeCharge> {
    const { amountNow, nextAmount, nextPeriodStart } = this.charge(await readSubscriptionState(this.db, user.id), plan, period, now);
    return { amountNow, nextAmount, nextPeriodStart };
  }

  async changePlan(user: BillingUser, plan: PlanName, period: BillingPeriod, priceId: string, now = Date.now()): Promise<void> {
    const current = await readSubscriptionState(this.db, user.id);
    const { up, amountNow: amount } = this.charge(current, plan, period, now);
    await applySubscription(
      this.db,
      user.id,
      { plan, status: 'active', period, priceId, provider: 'local', providerSubscriptionId: subscriptionId(user.id), currentPeriodEnd: now + periodMs(period) },
      'local',
      { type: up ? 'upgrade' : 'downgrade', amount: up ? amount : null, reference: null },
      now,
    );
  }

  async cancel(user: BillingUser): Promise<void> {
    await applySubscription(this.db, user.id, canceledState('local'), 'local', { type: 'cancellation' });
  }

  async portalUrl(): Promise<string> {
    return '/billing/portal';
  }

  /** The customer portal's test actions: pay the open invoice, renew now (paid or failed), cancel. */
  async portalAction(user: BillingUser, action: LocalPortalAction, now = Date.now()): Promise<SubscriptionState> {
    const s = await readSubscriptionState(this.db, user.id);
    if (!isPaidPlan(s.plan) || s.status === 'canceled') throw new Conflict('There is no paid subscription to act on.');
    const amount = s.period ? plans[s.plan].stripePriceId[s.period].price : null;
    const ref = `lin_${crypto.randomBytes(8).toString('hex')}`;
    if (action === 'cancel') {
      await this.cancel(user);
      return readSubscriptionState(this.db, user.id);
    }
    if (action === 'pay_invoice') {
      const event = s.status === 'incomplete' || s.status === 'incomplete_expired' ? 'first_payment_paid' : 'invoice_paid';
      const status = nextStatus(s.status, event);
      if (!status) throw new Conflict('There is no open invoice to pay.');
      return applySubscription(this.db, user.id, { plan: s.plan, status, delinquent: false, currentPeriodEnd: s.period ? now + periodMs(s.period) : null }, 'local', {
        type: 'payment',
        amount,
        reference: ref,
      }, now);
    }
    const status = nextStatus(s.status, action === 'renew_paid' ? 'renewal_paid' : 'renewal_failed');
    if (!status) throw new Conflict(s.status === 'incomplete' || s.status === 'incomplete_expired' ? 'Pay the first invoice before renewing.' : 'This subscription cannot renew now.');
    return applySubscription(
      this.db,
      user.id,
      {
        plan: s.plan,
        status,
        delinquent: action === 'renew_failed',
        currentPeriodEnd: action === 'renew_paid' && s.period ? Math.max(now, s.currentPeriodEnd ?? now) + periodMs(s.period) : s.currentPeriodEnd,
      },
      'local',
      { type: action === 'renew_paid' ? 'renewal' : 'failed_payment', amount, reference: ref },
      now,
    );
  }

  async customer(user: BillingUser): Promise<CustomerDto> {
    return localCustomer(this.db, user, 'local');
  }
}

/** The customer as Cairn's database knows it (the local provider, and no billing at all). */
export async function localCustomer(db: Db, user: BillingUser, provider: 'local' | 'none'): Promise<CustomerDto> {
  const s = await readSubscriptionState(db, user.id);
  const c = await customerRow(db, user.id);
  const paid = isPaidPlan(s.plan) && s.status !== 'canceled';
  return {
    id: c?.customer_id ?? null,
    email: user.email,
    delinquent: s.delinquent,
    country: c?.country ?? null,
    tax_id: c?.tax_id_type && c.tax_id ? { type: c.tax_id_type, value: c.tax_id } : null,
    subscriptions: {
      data: paid || s.status === 'incomplete_expired'
        ? [
            {
              id: s.providerSubscriptionId,
              status: s.status,
              plan: s.plan,
              period: s.period,
              price_id: s.priceId,
              current_period_end: s.currentPeriodEnd,
              cancel_at_period_end: s.cancelAtPeriodEnd,
              provider: s.provider ?? provider,
            },
          ]
        : [],
    },
  };
}
