import type { ComponentType } from 'react';
import { createBrowserRouter, Outlet, ScrollRestoration, type Location, type RouteObject } from 'react-router-dom';
import type { AppRoute } from '../../../../shared/routes';
import { PageLoader } from '../components/page-loader';
import { PublicShell } from '../components/public-shell';
import { apiConsolePages } from '../features/api-console/index';
import { auditPages } from '../features/audit/index';
import { authPages } from '../features/auth/index';
import { billingPages } from '../features/billing/index';
import { dashboardLayout } from '../features/dashboard/index';
import { endpointsPages } from '../features/endpoints/index';
import { jsonPathSandboxPages } from '../features/jsonpath-sandbox/index';
import { operatorPages } from '../features/operator/index';
import { ppuPages } from '../features/ppu/index';
import { projectsPages } from '../features/projects/index';
import { settingsPages } from '../features/settings/index';
import { sitePages } from '../features/site/index';
import { statusPages } from '../features/status/index';
import { subscriptionPages } from '../features/subscription/index';
import { webhooksPages } from '../features/webhooks/index';
import { workspaceInvitePages } from '../features/workspace-invite/index';
import { workspacesPages } from '../features/workspaces/index';
import { LandingPage } from '../features/landing/index';
import { RouteError } from './route-error';
import { RouterNav } from './router-nav';

type Frame = 'signedIn' | 'auth' | 'public' | 'standalone';
type LazyComponent = () => Promise<{ Component: ComponentType }>;

/** Loads a page module only when its route is visited: the landing page never pulls dashboard code. */
const lazyPage =
  (load: () => Promise<ComponentType>): LazyComponent =>
  async () => {
    const [Component] = await Promise.all([load(), pageStyles()]);
    return { Component };
  };
const pageStyles = () => import('./page-styles');

/**
 * Every client route of shared/routes.ts except '/', which the entry renders directly. Typed as a
 * Record over AppRoute so a route added there cannot be forgotten here.
 */
const pages: Record<Exclude<AppRoute, '/'>, { frame: Frame; lazy: LazyComponent }> = {
  '/dashboard': { frame: 'signedIn', lazy: lazyPage(projectsPages.ProjectsPage) },
  '/dashboard/project/:id': { frame: 'signedIn', lazy: lazyPage(projectsPages.ProjectPage) },
  '/dashboard/project/:id/settings': { frame: 'signedIn', lazy: lazyPage(projectsPages.ProjectSettingsPage) },
  '/dashboard/subscription': { frame: 'signedIn', lazy: lazyPage(subscriptionPages.SubscriptionPage) },
  '/dashboard/subscription/plans': { frame: 'signedIn', lazy: lazyPage(subscriptionPages.SubscriptionPlansPage) },
  '/dashboard/subscription/plans/fixed': { frame: 'signedIn', lazy: lazyPage(subscriptionPages.FixedPlansPage) },
  '/dashboard/subscription/logs': { frame: 'signedIn', lazy: lazyPage(subscriptionPages.SubscriptionLogsPage) },
  '/dashboard/subscription/ppu/order': { frame: 'signedIn', lazy: lazyPage(ppuPages.PayAsYouGoOrderPage) },
  '/dashboard/subscription/ppu/order/:id': { frame: 'signedIn', lazy: lazyPage(ppuPages.PayAsYouGoOrderDetailPage) },
  '/dashboard/subscription/ppu/history': { frame: 'signedIn', lazy: lazyPage(ppuPages.PayAsYouGoHistoryPage) },
  '/dashboard/webhooks/add': { frame: 'signedIn', lazy: lazyPage(webhooksPages.AddWebhookPage) },
  '/dashboard/webhooks/:id': { frame: 'signedIn', lazy: lazyPage(webhooksPages.WebhookPage) },
  '/dashboard/workspaces': { frame: 'signedIn', lazy: lazyPage(workspacesPages.WorkspacesPage) },
  '/dashboard/workspaces/:id': { frame: 'signedIn', lazy: lazyPage(workspacesPages.WorkspacePage) },
  '/dashboard/workspaces/:id/audit': { frame: 'signedIn', lazy: lazyPage(auditPages.AuditPage) },
  '/dashboard/workspaces/:id/transfer': { frame: 'signedIn', lazy: lazyPage(workspacesPages.TransferWorkspacePage) },
  '/dashboard/workspaces/:id/order': { frame: 'signedIn', lazy: lazyPage(ppuPages.WorkspaceOrderPage) },
  '/dashboard/workspaces/:id/order/:orderId': { frame: 'signedIn', lazy: lazyPage(ppuPages.WorkspaceOrderDetailPage) },
  '/dashboard/settings': { frame: 'signedIn', lazy: lazyPage(settingsPages.SettingsPage) },
  '/dashboard/endpoints': { frame: 'signedIn', lazy: lazyPage(endpointsPages.SubmitEndpointPage) },
  '/dashboard/operator/endpoints': { frame: 'signedIn', lazy: lazyPage(endpointsPages.OperatorEndpointsPage) },
  '/dashboard/operator': { frame: 'signedIn', lazy: lazyPage(operatorPages.OperatorPage) },
  '/billing/checkout/:id': { frame: 'signedIn', lazy: lazyPage(billingPages.LocalCheckoutPage) },
  '/billing/portal': { frame: 'signedIn', lazy: lazyPage(billingPages.LocalPortalPage) },
  '/dashboard/jsonpath-sandbox': { frame: 'signedIn', lazy: lazyPage(jsonPathSandboxPages.JsonPathSandboxPage) },
  '/dashboard/api-console': { frame: 'signedIn', lazy: lazyPage(apiConsolePages.ApiConsolePage) },
  // No sign-in and no server: the desktop app's sandbox window shows it from the packaged build.
  '/jsonpath-sandbox': { frame: 'standalone', lazy: lazyPage(jsonPathSandboxPages.StandaloneSandboxPage) },
  '/workspace-invite/:id': { frame: 'signedIn', lazy: lazyPage(workspaceInvitePages.WorkspaceInvitePage) },
  '/cookie-policy': { frame: 'public', lazy: lazyPage(sitePages.CookiePolicyPage) },
  '/status': { frame: 'public', lazy: lazyPage(statusPages.StatusPage) },
  '/auth/signin': { frame: 'auth', lazy: lazyPage(authPages.SignInPage) },
  '/auth/signout': { frame: 'auth', lazy: lazyPage(authPages.SignOutPage) },
  '/auth/error': { frame: 'auth', lazy: lazyPage(authPages.AuthErrorPage) },
  '/auth/verify-request': { frame: 'auth', lazy: lazyPage(authPages.VerifyRequestPage) },
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
        lazy: lazyPage(dashboardLayout.SignedInLayout),
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
      { path: '*', lazy: lazyPage(() => import('./not-found-page').then((m) => m.NotFoundPage)) },
    ],
  },
];

export const router = createBrowserRouter(routes);
