import type { Router } from 'express';
import { z } from 'zod';
import { route, type RouteDeps } from '../../http/route';
import { dbIdSchema } from '../../../shared/text';
import { pageQuerySchema } from '../../../shared/page-query';
import { ppuOrderSchema, ppuQuoteSchema, type PpuSettingsDto } from '../../../shared/ppu';
import { createOrder, currentPricing, getOrder, getOrderForUser, listOrders, quote, type OrderView, type PpuSettings } from './ppu';

export interface PpuExtras {
  settings: PpuSettings;
  /** The payment network's tip height (for the confirmations shown), or null when it cannot be read. */
  tip: () => Promise<number | null>;
  /** 'Simulate payment' exists here (development, the payment network on the sandbox chain). */
  canSimulate: boolean;
}

const orderParams = z.object({ id: z.string(), orderId: dbIdSchema('Order not found.') });

/** Pay as you go (spec section 7): quotes, orders per workspace, and the signed-in user's order history. */
export function registerPpuRoutes(router: Router, deps: RouteDeps, ppu: PpuExtras): void {
  const { db } = deps;
  const view = async (): Promise<OrderView> => ({ tip: await ppu.tip().catch(() => null), canSimulate: ppu.canSimulate, requiredConfirmations: ppu.settings.confirmations });

  route(router, deps, {
    method: 'get',
    path: '/ppu/settings',
    permission: 'signedIn',
    summary: 'Whether pay as you go takes orders here, on which network, at which prices',
    handler: async (): Promise<PpuSettingsDto> => ({
      enabled: ppu.settings.enabled,
      network: ppu.settings.network,
      devAccount: ppu.settings.devAccount,
      confirmations: ppu.settings.confirmations,
      orderTtlMs: ppu.settings.orderTtlMs,
      pricing: await currentPricing(ppu.settings),
      canSimulate: ppu.canSimulate,
    }),
  });

  route(router, deps, {
    method: 'post',
    path: '/ppu/orders/quotes',
    permission: 'signedIn',
    body: ppuQuoteSchema,
    summary: 'A price quote for requests, in EUR and in lovelace',
    handler: async ({ body }) => quote(await currentPricing(ppu.settings), body.items[0]!.item_quantity),
  });

  route(router, deps, {
    method: 'get',
    path: '/ppu/orders',
    permission: 'signedIn',
    query: pageQuerySchema,
    paged: true,
    summary: "One page of the pay-as-you-go orders of the signed-in user's workspaces, newest first",
    handler: async ({ user, query }) => listOrders(db, { userId: user.id }, await view(), query),
  });

  route(router, deps, {
    method: 'get',
    path: '/ppu/orders/:orderId',
    permission: 'signedIn',
    params: z.object({ orderId: dbIdSchema('Order not found.') }),
    handler: async ({ user, params }) => getOrderForUser(db, user.id, params.orderId, await view()),
  });

  route(router, deps, {
    method: 'post',
    path: '/workspaces/:id/ppu/orders',
    permission: { workspace: 'workspace.payg_new_order' },
    body: ppuOrderSchema,
    status: 201,
    summary: 'Orders requests for the workspace: an address of its own and an amount in lovelace, locked for a limited time',
    handler: async ({ user, membership, body }) => createOrder(db, ppu.settings, { workspaceId: membership.workspaceId, userId: user.id, requests: body.items[0]!.item_quantity }, await view()),
  });

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/ppu/orders',
    permission: { workspace: 'workspace.view' },
    query: pageQuerySchema,
    paged: true,
    summary: "One page of the workspace's pay-as-you-go orders, newest first",
    handler: async ({ membership, query }) => listOrders(db, { workspaceId: membership.workspaceId }, await view(), query),
  });

  route(router, deps, {
    method: 'get',
    path: '/workspaces/:id/ppu/orders/:orderId',
    permission: { workspace: 'workspace.view' },
    params: orderParams,
    handler: async ({ membership, params }) => getOrder(db, membership.workspaceId, params.orderId, await view()),
  });
}
