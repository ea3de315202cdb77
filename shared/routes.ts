// Every client route of spec section 2. The server uses it to decide which paths get index.html.
export const appRoutes = [
  '/',
  '/status',
  '/cookie-policy',
  '/dashboard',
  '/dashboard/subscription',
  '/dashboard/subscription/plans',
  '/dashboard/subscription/plans/fixed',
  '/dashboard/subscription/logs',
  '/dashboard/webhooks/add',
  '/dashboard/webhooks/:id',
  '/dashboard/workspaces',
  '/dashboard/workspaces/:id',
  '/dashboard/workspaces/:id/transfer',
  '/dashboard/workspaces/:id/order',
  '/dashboard/workspaces/:id/order/:orderId',
  '/dashboard/settings',
  '/dashboard/endpoints',
  '/dashboard/operator/endpoints',
  '/dashboard/jsonpath-sandbox',
  '/dashboard/api-console',
  '/dashboard/project/:id',
  '/dashboard/project/:id/settings',
  '/dashboard/subscription/ppu/order',
  '/dashboard/subscription/ppu/order/:id',
  '/dashboard/subscription/ppu/history',
  '/workspace-invite/:id',
  '/auth/signin',
  '/auth/signout',
  '/auth/error',
  '/auth/verify-request',
  // Not in the spec's list: the operator page, a workspace's audit log, and the built-in test billing's checkout and portal.
  '/dashboard/operator',
  '/dashboard/workspaces/:id/audit',
  '/billing/checkout/:id',
  '/billing/portal',
  '/jsonpath-sandbox',
] as const;

export type AppRoute = (typeof appRoutes)[number];

const toRegExp = (route: string) =>
  new RegExp('^' + route.replace(/:[A-Za-z]+/g, '[^/]+').replace(/\//g, '\\/') + '\\/?$');
const matchers = appRoutes.map(toRegExp);

export const isAppRoute = (path: string): boolean => matchers.some((re) => re.test(path));

export const isDashboardPath = (path: string): boolean => path === '/dashboard' || path.startsWith('/dashboard/');

export const signInPathFor = (path: string): string => `/auth/signin?redirect=${encodeURIComponent(path)}`;
