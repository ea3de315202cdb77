import type { Router } from 'express';
import { pageQuerySchema } from '../../../shared/page-query';
import { z } from 'zod';
import { route, type RouteDeps, type SignedInUser } from '../../http/route';
import { Conflict, Forbidden, NotFound } from '../../errors';
import { fromLoopback } from '../../http/loopback';
import type { BillingProvider, PortalScope } from './provider';
import { LocalBillingProvider } from './local';
import { NO_BILLING } from './providers';
import { customerRow } from './customers';
import { membershipOf } from '../workspaces/index';
import { findUserById } from '../accounts/index';
import { originOf, type AuditAction } from '../audit/index';
import { activeAddons, assertPlanChangeAllowed, auditSubscriptionAction, currentCounts, getLog, listLogs, readSubscriptionState } from './billing';
import { assertCancellable, assertPlanChangeable, changeDirection, prepareCheckout } from './checkout';
import { can, deniedMessages, type Role } from '../../../shared/permissions';
import { boosts, boostTypes, planNames, plans } from '../../../shared/plans';
import { INCOMPLETE_EXPIRY_MS, boostLookupKey, checkoutSchema, idSchema, logTypeLabels, normalizeTaxId, planLookupKey, previewSubscriptionChangeSchema, taxIdTypeFor, updateSubscriptionSchema, type BillingInfoDto, type PlanChangePreviewDto, type CheckoutResultDto, type WorkspaceBillingDto } from '../../../shared/billing';
import { formatEur } from '../../../shared/pricing';
import type { AddonDto } from '../../../shared/workspaces';
import { safeRedirect } from '../../../shared/redirect';

/** What a member's billing portal of the workspace owner's account offers (spec section 6). */
const portalScope = (role: Role): PortalScope => (can(role, 'billing.subscription') ? 'full' : 'invoices');

/** The billing calls of spec section 7, the subscription logs, and the built-in test billing's pages. */
export function registerBillingRoutes(router: Router, deps: RouteDeps, billing: BillingProvider): void {
  const { db } = deps;

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/addons',
    permission: { workspace: 'workspace.view' },
    handler: ({ membership }): Promise<AddonDto[]> => activeAddons(db, membership.workspaceId),
  });

  route(router, deps, {
    method: 'get',
    path: '/billing/plans',
    permission: 'public',
    handler: (): BillingInfoDto => ({
      provider: billing.name,
      testBilling: billing.testBilling,
      plans: planNames.map((name) => {
        const plan = plans[name];
        const month = billing.priceId(planLookupKey(name, 'month'));
        const year = billing.priceId(planLookupKey(name, 'year'));
        return {
          ...plan,
          stripePriceId: { month: { ...plan.stripePriceId.month, id: month }, year: { ...plan.stripePriceId.year, id: year } },
          purchasable: month !== null && year !== null,
        };
      }),
      boosts: boostTypes.map((t) => ({ ...boosts[t], priceId: billing.priceId(boostLookupKey(t)) })),
    }),
  });

  route(router, deps, {
    method: 'post',
    path: '/checkout',
    permission: 'signedIn',
    body: checkoutSchema,
    handler: async ({ user, body }): Promise<CheckoutResultDto> => {
      if (billing.name === 'none') throw new Conflict(NO_BILLING);
      const { target, workspaceId, amount } = await prepareCheckout(db, {
        user: user!,
        target: billing.targetOf(body.priceId),
        mode: body.mode,
        email: body.email,
        onBehalfWorkspaceId: body.onBehalfWorkspaceId,
      });
      const type = body.country ? taxIdTypeFor(body.country) : null;
      const taxId = type && body.taxId?.trim() ? { type: type.type, value: normalizeTaxId(body.taxId) } : null;
      const url = await billing.checkout({
        user: user!,
        priceId: body.priceId,
        target,
        amount,
        workspaceId,
        successPath: body.successCallbackPath,
        cancelPath: body.cancelCallbackPath,
        country: body.country ?? null,
        taxId,
      });
      return { url };
    },
  });

  route(router, deps, {
    method: 'get',
    path: '/stripe/get_customer',
    permission: 'signedIn',
    query: z.object({ migrate: z.enum(['true', 'false', '1', '0']).optional() }),
    handler: ({ user, query }) => billing.customer(user!, { refresh: query.migrate === 'true' || query.migrate === '1' }),
  });

  route(router, deps, {
    method: 'get',
    path: '/stripe/get_customer_subscriptions',
    permission: 'signedIn',
    handler: async ({ user }) => (await billing.customer(user!, { refresh: false })).subscriptions.data,
  });

  route(router, deps, {
    method: 'get',
    path: '/stripe/cancel_subscription',
    permission: 'signedIn',
    // The spec makes this a GET; it changes state, so it still needs the session's CSRF token.
    csrf: true,
    handler: async ({ user }) => {
      await assertCancellable(db, user!.id);
      await billing.cancel(user!);
      return (await billing.customer(user!, { refresh: false })).subscriptions.data;
    },
  });

  route(router, deps, {
    method: 'post',
    path: '/stripe/update_subscription',
    permission: 'signedIn',
    body: updateSubscriptionSchema,
    handler: async ({ user, body }) => {
      const target = await assertPlanChangeable(db, user!.id, billing.targetOf(body.newPriceId), body.newPriceId);
      await billing.changePlan(user!, target.plan, target.period, body.newPriceId);
      return (await billing.customer(user!, { refresh: false })).subscriptions.data;
    },
  });

  route(router, deps, {
    method: 'post',
    path: '/stripe/preview_subscription_change',
    permission: 'signedIn',
    body: previewSubscriptionChangeSchema,
    handler: async ({ user, body }): Promise<PlanChangePreviewDto> => {
      // The same rules as the change itself, so a change the counts or an unpaid invoice forbid is refused before it is confirmed.
      const state = await readSubscriptionState(db, user!.id);
      if (body.newPriceId === null) {
        await assertCancellable(db, user!.id);
        return { plan: 'STARTER', period: null, direction: 'downgrade', amount_now: 0, next_amount: 0, next_period_start: null, currency: 'eur' };
      }
      const target = await assertPlanChangeable(db, user!.id, billing.targetOf(body.newPriceId), body.newPriceId);
      const charge = await billing.previewPlanChange(user!, target.plan, target.period, body.newPriceId);
      return {
        plan: target.plan,
        period: target.period,
        direction: changeDirection(state, target),
        amount_now: charge.amountNow,
        next_amount: charge.nextAmount,
        next_period_start: charge.nextPeriodStart,
        currency: 'eur',
      };
    },
  });

  route(router, deps, {
    method: 'get',
    path: '/customer-portal',
    permission: 'signedIn',
    link: { errorPage: '/dashboard/subscription' },
    handler: async ({ res, user }) => res.redirect(303, await billing.portalUrl(user!, '/dashboard/subscription', 'full')),
  });

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/billing-portal',
    permission: { workspace: 'billing.manage', denied: deniedMessages['billing.manage'] },
    link: { errorPage: '/dashboard/subscription' },
    handler: async ({ res, membership }) => {
      const owner = await findUserById(db, membership.ownerId);
      if (!owner) throw new NotFound('Workspace not found.');
      // The owner's subscription is the owner's: an administrator's portal shows the invoices alone.
      const url = await billing.portalUrl(owner, '/dashboard/subscription', portalScope(membership.role));
      res.redirect(303, billing.name === 'local' ? `${url}?workspace=${membership.workspaceId}` : url);
    },
  });

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/billing',
    permission: { workspace: 'workspace.view' },
    handler: async ({ membership }): Promise<WorkspaceBillingDto> => {
      const [state, owner, counts] = await Promise.all([readSubscriptionState(db, membership.ownerId), findUserById(db, membership.ownerId), currentCounts(db, membership.ownerId)]);
      return {
        provider: billing.name,
        testBilling: billing.testBilling,
        owner_email: owner?.email ?? '',
        plan: state.plan,
        period: state.period,
        status: state.status,
        delinquent: state.delinquent,
        current_period_end: state.currentPeriodEnd,
        incomplete_expires_at: state.status === 'incomplete' && state.incompleteSince ? state.incompleteSince + INCOMPLETE_EXPIRY_MS : null,
        counts,
      };
    },
  });

  // ---- subscription logs ----
  route(router, deps, {
    method: 'get',
    path: '/logs',
    permission: 'signedIn',
    query: pageQuerySchema,
    paged: true,
    summary: "One page of the signed-in user's subscription log, newest first.",
    handler: ({ user, query }) => listLogs(db, user!.id, query),
  });

  route(router, deps, {
    method: 'get',
    path: '/logs/:id/download',
    permission: 'signedIn',
    link: { errorPage: '/dashboard/subscription/logs' },
    params: z.object({ id: z.coerce.number({ error: 'Log entry not found.' }).int('Log entry not found.').positive('Log entry not found.').max(2 ** 53 - 1) }),
    handler: async ({ res, user, params }) => {
      const log = await getLog(db, user!.id, params.id);
      const customer = await customerRow(db, user!.id);
      const lines = [
        'Cairn subscription log',
        '',
        `Entry:      ${log.id}`,
        `Date (UTC): ${new Date(log.created_at).toISOString()}`,
        `Account:    ${user!.email}`,
        `Event:      ${logTypeLabels[log.type]}`,
        `Plan:       ${log.plan}${log.period ? ` (billed every ${log.period})` : ''}`,
        `Status:     ${log.status}`,
        ...(log.boost ? [`Boost:      ${log.boost} (+${boosts[log.boost].requests.toLocaleString('en-US')} requests per day)`] : []),
        ...(log.workspace_id ? [`Workspace:  ${log.workspace_id}`] : []),
        `Amount:     ${log.amount === null ? '-' : formatEur(log.amount)}`,
        ...(customer?.country ? [`Country:    ${customer.country}`] : []),
        ...(customer?.tax_id ? [`Tax id:     ${customer.tax_id_type} ${customer.tax_id}`] : []),
        `Billing:    ${log.provider === 'local' ? "built-in test billing (no money moved)" : log.provider}`,
        ...(log.reference ? [`Reference:  ${log.reference}`] : []),
        '',
      ];
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="cairn-subscription-log-${log.id}.txt"`);
      res.status(200).send(lines.join('\n'));
    },
  });

  if (billing instanceof LocalBillingProvider) registerLocalBillingRoutes(router, deps, billing);
}

/** The built-in test billing's checkout page and customer portal. A development aid: loopback clients only. */
function registerLocalBillingRoutes(router: Router, deps: RouteDeps, local: LocalBillingProvider): void {
  const { db } = deps;
  const onlyHere = (req: Parameters<typeof fromLoopback>[0]) => {
    if (!fromLoopback(req)) throw new Forbidden("Cairn's built-in test billing answers on this machine only. The operator sets STRIPE_SECRET_KEY for real payments.");
  };
  /** The account whose portal this is, and what the signed-in user may do in it (as on Stripe: the invoices alone for an administrator). */
  const ownerFor = async (user: SignedInUser, workspaceId: number | undefined): Promise<{ owner: { id: number; email: string }; scope: PortalScope }> => {
    if (workspaceId === undefined) return { owner: user, scope: 'full' };
    const m = await membershipOf(db, workspaceId, user.id);
    if (!can(m.role, 'billing.manage')) throw new Forbidden(deniedMessages['billing.manage']);
    const owner = await findUserById(db, m.ownerId);
    if (!owner) throw new NotFound('Workspace not found.');
    return { owner, scope: portalScope(m.role) };
  };
  const portalAuditAction: Record<'pay_invoice' | 'renew_paid' | 'renew_failed' | 'cancel', AuditAction> = {
    pay_invoice: 'billing.invoice_paid',
    renew_paid: 'billing.renewed',
    renew_failed: 'billing.renewal_failed',
    cancel: 'billing.canceled',
  };
  const sessionParams = z.object({ id: z.string().regex(/^lcs_[0-9a-f]{32}$/, 'This checkout does not exist.') });

  route(router, deps, {
    method: 'get',
    path: '/billing/local/checkout/:id',
    permission: 'signedIn',
    params: sessionParams,
    handler: ({ req, user, params }) => {
      onlyHere(req);
      return local.session(user!.id, params.id);
    },
  });

  route(router, deps, {
    method: 'post',
    path: '/billing/local/checkout/:id',
    permission: 'signedIn',
    params: sessionParams,
    body: z.object({ outcome: z.enum(['paid', 'failed', 'canceled'], { error: 'outcome must be paid, failed or canceled' }) }),
    handler: async ({ req, user, params, body }) => {
      onlyHere(req);
      const { redirect } = await local.complete(user!.id, params.id, body.outcome);
      return { redirect: safeRedirect(redirect, '/dashboard/subscription') };
    },
  });

  const portalQuery = z.object({ workspace: z.coerce.number().int().positive().max(2_147_483_647).optional() });

  route(router, deps, {
    method: 'get',
    path: '/billing/local/portal',
    permission: 'signedIn',
    query: portalQuery,
    handler: async ({ req, user, query }) => {
      onlyHere(req);
      const { owner, scope } = await ownerFor(user!, query.workspace);
      return { owner_email: owner.email, scope, customer: await local.customer(owner) };
    },
  });

  route(router, deps, {
    method: 'post',
    path: '/billing/local/portal',
    permission: 'signedIn',
    body: z.object({ action: z.enum(['pay_invoice', 'renew_paid', 'renew_failed', 'cancel'], { error: 'action must be pay_invoice, renew_paid, renew_failed or cancel' }), workspace: idSchema('workspace must be a workspace id').optional() }),
    handler: async ({ req, user, body }) => {
      onlyHere(req);
      const { owner, scope } = await ownerFor(user!, body.workspace);
      // Paying the open invoice is billing; renewing and cancelling are the subscription's owner's.
      if (body.action !== 'pay_invoice' && scope !== 'full') throw new Forbidden(deniedMessages['billing.subscription']);
      if (body.action === 'cancel') await assertPlanChangeAllowed(db, owner.id, 'STARTER');
      const after = await local.portalAction(owner, body.action);
      await auditSubscriptionAction(db, owner.id, after, { userId: user!.id, email: user!.email }, portalAuditAction[body.action], originOf(req));
      return { owner_email: owner.email, scope, customer: await local.customer(owner) };
    },
  });
}
