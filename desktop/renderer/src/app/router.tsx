import type { ComponentType } from 'react';
import { createBrowserRouter, Outlet, ScrollRestoration, type Location, type RouteObject } from 'react-router-dom';
import type { AppRoute } from '../../../../shared/routes';
import { PageLoader } from '../components/page-loader';
import { PublicShell } from '../components/public-shell';
import { LandingPage } from '../features/landing/landing-page';
import { RouteError } from './route-error';
import { RouterNav } from './router-nav';

type Frame = 'signedIn' | 'auth' | 'public' | 'standalone';
type LazyComponent = () => Promise<{ Component: ComponentType }>;

/** Loads a page module only when its route is visited: the landing page never pulls dashboard code. */
const lazyPage =
  <M,>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyComponent =>
  async () => {
    const [module] = await Promise.all([load(), pageStyles()]);
    return { Component: pick(module) };
  };
const pageStyles = () => import('./page-styles');

/**
 * Every client route of shared/routes.ts except '/', which the entry renders directly. Typed as a
 * Record over AppRoute so a route added there cannot be forgotten here.
 */
const pages: Record<Exclude<AppRoute, '/'>, { frame: Frame; lazy: LazyComponent }> = {
  '/dashboard': { frame: 'signedIn', lazy: lazyPage(() => import('../features/projects/projects-page'), (m) => m.ProjectsPage) },
  '/dashboard/project/:id': { frame: 'signedIn', lazy: lazyPage(() => import('../features/projects/project-page'), (m) => m.ProjectPage) },
  '/dashboard/project/:id/settings': { frame: 'signedIn', lazy: lazyPage(() => import('../features/projects/project-settings-page'), (m) => m.ProjectSettingsPage) },
  '/dashboard/subscription': { frame: 'signedIn', lazy: lazyPage(() => import('../features/subscription/subscription-page'), (m) => m.SubscriptionPage) },
  '/dashboard/subscription/plans': { frame: 'signedIn', lazy: lazyPage(() => import('../features/subscription/subscription-plans-page'), (m) => m.SubscriptionPlansPage) },
  '/dashboard/subscription/plans/fixed': { frame: 'signedIn', lazy: lazyPage(() => import('../features/subscription/fixed-plans-page'), (m) => m.FixedPlansPage) },
  '/dashboard/subscription/logs': { frame: 'signedIn', lazy: lazyPage(() => import('../features/subscription/subscription-logs-page'), (m) => m.SubscriptionLogsPage) },
  '/dashboard/subscription/ppu/order': { frame: 'signedIn', lazy: lazyPage(() => import('../features/ppu/pay-as-you-go-order-page'), (m) => m.PayAsYouGoOrderPage) },
  '/dashboard/subscription/ppu/order/:id': { frame: 'signedIn', lazy: lazyPage(() => import('../features/ppu/pay-as-you-go-order-detail-page'), (m) => m.PayAsYouGoOrderDetailPage) },
  '/dashboard/subscription/ppu/history': { frame: 'signedIn', lazy: lazyPage(() => import('../features/ppu/pay-as-you-go-history-page'), (m) => m.PayAsYouGoHistoryPage) },
  '/dashboard/webhooks/add': { frame: 'signedIn', lazy: lazyPage(() => import('../features/webhooks/add-webhook-page'), (m) => m.AddWebhookPage) },
  '/dashboard/webhooks/:id': { frame: 'signedIn', lazy: lazyPage(() => import('../features/webhooks/webhook-page'), (m) => m.WebhookPage) },
  '/dashboard/workspaces': { frame: 'signedIn', lazy: lazyPage(() => import('../features/workspaces/workspaces-page'), (m) => m.WorkspacesPage) },
  '/dashboard/workspaces/:id': { frame: 'signedIn', lazy: lazyPage(() => import('../features/workspaces/workspace-page'), (m) => m.WorkspacePage) },
  '/dashboard/workspaces/:id/audit': { frame: 'signedIn', lazy: lazyPage(() => import('../features/audit/audit-page'), (m) => m.AuditPage) },
  '/dashboard/workspaces/:id/transfer': { frame: 'signedIn', lazy: lazyPage(() => import('../features/workspaces/transfer-workspace-page'), (m) => m.TransferWorkspacePage) },
  '/dashboard/workspaces/:id/order': { frame: 'signedIn', lazy: lazyPage(() => import('../features/ppu/workspace-order-page'), (m) => m.WorkspaceOrderPage) },
  '/dashboard/workspaces/:id/order/:orderId': { frame: 'signedIn', lazy: lazyPage(() => import('../features/ppu/workspace-order-detail-page'), (m) => m.WorkspaceOrderDetailPage) },
  '/dashboard/settings': { frame: 'signedIn', lazy: lazyPage(() => import('../features/settings/settings-page'), (m) => m.SettingsPage) },
  '/dashboard/endpoints': { frame: 'signedIn', lazy: lazyPage(() => import('../features/endpoints/submit-endpoint-page'), (m) => m.SubmitEndpointPage) },
  '/dashboard/operator/endpoints': { frame: 'signedIn', lazy: lazyPage(() => import('../features/endpoints/operator-endpoints-page'), (m) => m.OperatorEndpointsPage) },
  '/dashboard/operator': { frame: 'signedIn', lazy: lazyPage(() => import('../features/operator/operator-page'), (m) => m.OperatorPage) },
  '/billing/checkout/:id': { frame: 'signedIn', lazy: lazyPage(() => import('../features/billing/local-checkout-page'), (m) => m.LocalCheckoutPage) },
  '/billing/portal': { frame: 'signedIn', lazy: lazyPage(() => import('../features/billing/local-portal-page'), (m) => m.LocalPortalPage) },
  '/dashboard/jsonpath-sandbox': { frame: 'signedIn', lazy: lazyPage(() => import('../features/jsonpath-sandbox/jsonpath-sandbox-page'), (m) => m.JsonPathSandboxPage) },
  '/dashboard/api-console': { frame: 'signedIn', lazy: lazyPage(() => import('../features/api-console/api-console-page'), (m) => m.ApiConsolePage) },
  // No sign-in and no server: the desktop app's sandbox window shows it from the packaged build.
  '/jsonpath-sandbox': { frame: 'standalone', lazy: lazyPage(() => import('../features/jsonpath-sandbox/standalone-sandbox-page'), (m) => m.StandaloneSandboxPage) },
  '/workspace-invite/:id': { frame: 'signedIn', lazy: lazyPage(() => import('../features/workspace-invite/workspace-invite-page'), (m) => m.WorkspaceInvitePage) },
  '/cookie-policy': { frame: 'public', lazy: lazyPage(() => import('../features/shell/cookie-policy-page'), (m) => m.CookiePolicyPage) },
  '/status': { frame: 'public', lazy: lazyPage(() => import('../features/status/status-page'), (m) => m.StatusPage) },
  '/auth/signin': { frame: 'auth', lazy: lazyPage(() => import('../features/auth/signin-page'), (m) => m.SignInPage) },
  '/auth/signout': { frame: 'auth', lazy: lazyPage(() => import('../features/auth/signout-page'), (m) => m.SignOutPage) },
  '/auth/error': { frame: 'auth', lazy: lazyPage(() => import('../features/auth/auth-error-page'), (m) => m.AuthErrorPage) },
  '/auth/verify-request': { frame: 'auth', lazy: lazyPage(() => import('../features/auth/verify-request-page'), (m) => m.VerifyRequestPage) },
};

const routesIn = (frame: Frame): RouteObject[] =>
  Object.entries(pages)
    .filter(([, page]) => page.frame === frame)
    .map(([path, page]) => ({ path, lazy: page.lazy }));

/**
 * Where a page's scroll position is remembered. The router names the first page of every document
 * 'default', so a fresh load of /#pricing in a tab that showed / before would get /'s old position
 * instead of its anchor; first pages are remembered by their URL instead.
 */
const scrollKey = (location: Location) => (location.key === 'default' ? location.pathname + location.search + location.hash : location.key);

function Root() {
  return (
    <RouterNav>
      <Outlet />
      <ScrollRestoration getKey={scrollKey} />
    </RouterNav>
  );
}

/** Public pages wider than a sign-in card (the status page). */
function PublicFrame() {
  return (
    <PublicShell size="md">
      <Outlet />
    </PublicShell>
  );
}

function AuthFrame() {
  return (
    <PublicShell>
      <Outlet />
    </PublicShell>
  );
}

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: Root,
    errorElement: <RouteError standalone />,
    HydrateFallback: () => <PageLoader minHeight="100dvh" />,
    children: [
      { index: true, Component: LandingPage },
      {
        // Header, account menu and the RequireAuth guard; pages render inside it, and so do their errors.
        lazy: lazyPage(() => import('../features/dashboard/signed-in-layout'), (m) => m.SignedInLayout),
        children: [{ errorElement: <RouteError />, children: routesIn('signedIn') }],
      },
      {
        Component: AuthFrame,
        children: [{ errorElement: <RouteError />, children: routesIn('auth') }],
      },
      {
        Component: PublicFrame,
        children: [{ errorElement: <RouteError />, children: routesIn('public') }],
      },
      { errorElement: <RouteError />, children: routesIn('standalone') },
      { path: '*', lazy: lazyPage(() => import('./not-found-page'), (m) => m.NotFoundPage) },
    ],
  },
];

export const router = createBrowserRouter(routes);
