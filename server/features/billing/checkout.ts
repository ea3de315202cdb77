// Who may buy what, and at which amount: the rules of checkout, cancellation and plan changes,
// whatever the billing provider (the built-in one or Stripe). The routes only call these.
import type { Db } from '../../db/index';
import { Conflict, Forbidden, Invalid } from '../../errors';
import { membershipOf } from '../workspaces/index';
import { can, deniedMessages } from '../../../shared/permissions';
import { boosts, isPaidPlan, planNames, plans, type PlanName } from '../../../shared/plans';
import { hasPaidSubscription, type BillingPeriod, type PriceTarget } from '../../../shared/billing';
import { assertPlanChangeAllowed, readSubscriptionState } from './billing';

export interface CheckoutRequest {
  user: { id: number; email: string };
  target: PriceTarget | null;
  mode: 'subscription' | 'payment';
  email?: string;
  onBehalfWorkspaceId?: number;
}

/**
 * Checks a checkout before the provider opens it: the price is sold here and bought the right way,
 * with the account's own e-mail; a boost is bought for a workspace by its owner or an administrator,
 * a plan by its owner; a plan only when no paid plan is live and the counts allow it.
 * Answers what is bought, for which workspace and at which amount (euro cents).
 */
export async function prepareCheckout(db: Db, req: CheckoutRequest): Promise<{ target: PriceTarget; workspaceId: number | null; amount: number }> {
  const { user, target } = req;
  if (!target) throw new Invalid('This priceId is not sold here. Choose a plan or a boost from the list.');
  if ((target.kind === 'plan') !== (req.mode === 'subscription')) {
    throw new Invalid(target.kind === 'plan' ? 'A plan is bought with mode subscription.' : 'A boost is bought with mode payment.');
  }
  if (req.email && req.email.toLowerCase() !== user.email.toLowerCase()) throw new Invalid('Checkout uses the e-mail of the signed-in account.');
  let workspaceId: number | null = null;
  if (req.onBehalfWorkspaceId !== undefined) {
    const m = await membershipOf(db, req.onBehalfWorkspaceId, user.id);
    const needed = target.kind === 'boost' ? 'billing.manage' : 'billing.subscription';
    if (!can(m.role, needed)) throw new Forbidden(target.kind === 'boost' ? 'Only the owner and administrators can buy boosts.' : deniedMessages[needed]);
    workspaceId = m.workspaceId;
  }
  if (target.kind === 'plan') {
    if (hasPaidSubscription(await readSubscriptionState(db, user.id))) {
      throw new Conflict('You already have a paid subscription: change it with Upgrade plan or Downgrade plan.');
    }
    await assertPlanChangeAllowed(db, user.id, target.plan);
    return { target, workspaceId, amount: plans[target.plan].stripePriceId[target.period].price! };
  }
  if (workspaceId === null) throw new Invalid('onBehalfWorkspaceId is required: a boost is bought for a workspace.');
  return { target, workspaceId, amount: boosts[target.boost].price };
}

/** A paid plan can be cancelled while it is live or its first payment is still being collected, and when the counts fit STARTER. */
export async function assertCancellable(db: Db, userId: number): Promise<void> {
  const state = await readSubscriptionState(db, userId);
  if (!hasPaidSubscription(state) && !(isPaidPlan(state.plan) && state.status === 'incomplete')) throw new Conflict('There is no paid subscription to cancel.');
  await assertPlanChangeAllowed(db, userId, 'STARTER');
}

/** A live paid plan can move to another plan's price (not the one it has) when the counts fit the new plan. */
export async function assertPlanChangeable(db: Db, userId: number, target: PriceTarget | null, priceId: string): Promise<Extract<PriceTarget, { kind: 'plan' }>> {
  if (!target || target.kind !== 'plan') throw new Invalid('This newPriceId is not a plan sold here.');
  const state = await readSubscriptionState(db, userId);
  if (!hasPaidSubscription(state)) throw new Conflict('There is no paid subscription to change. Choose a plan with Select plan first.');
  if (state.priceId === priceId) throw new Conflict(`You are already on the ${target.plan} plan, billed every ${target.period}.`);
  await assertPlanChangeAllowed(db, userId, target.plan);
  return target;
}

/** Whether moving from one plan and period to another is an upgrade (more requests, or the same plan yearly) or a downgrade. */
export function changeDirection(from: { plan: PlanName; period: BillingPeriod | null }, to: { plan: PlanName; period: BillingPeriod | null }): 'upgrade' | 'downgrade' {
  const rank = (p: { plan: PlanName; period: BillingPeriod | null }) => planNames.indexOf(p.plan) * 2 + (p.period === 'year' ? 1 : 0);
  return rank(to) > rank(from) ? 'upgrade' : 'downgrade';
}
