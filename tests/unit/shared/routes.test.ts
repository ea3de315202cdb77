import { describe, expect, it } from 'vitest';
import { appRoutes, isAppRoute, isDashboardPath, signInPathFor } from '../../../shared/routes';

describe('client routes', () => {
  it('registers every route of spec section 2, the status page, the cookie policy, the operator pages, the built-in billing pages, the submit-endpoint pages and the desktop pages', () => {
    // The spec's 24, plus /status, the cookie policy, the operator page, the built-in test billing's
    // checkout and portal, the submit-endpoint form's page with its operator review, and the JSONPath
    // sandbox (dashboard and standalone) and the desktop app's API console.
    expect(appRoutes).toHaveLength(35);
    expect(appRoutes).toContain('/dashboard/workspaces/:id/audit');
    expect(appRoutes).toContain('/status');
    expect(appRoutes).toContain('/cookie-policy');
    expect(appRoutes).toContain('/dashboard/endpoints');
    expect(appRoutes).toContain('/dashboard/operator/endpoints');
    expect(appRoutes).toContain('/jsonpath-sandbox');
    expect(appRoutes).toContain('/dashboard/workspaces/:id/order/:orderId');
    expect(appRoutes).toContain('/billing/checkout/:id');
  });

  it.each(['/', '/dashboard', '/dashboard/', '/dashboard/project/5', '/dashboard/project/5/settings', '/auth/signin', '/workspace-invite/x1'])(
    'knows %s',
    (p) => expect(isAppRoute(p)).toBe(true),
  );

  it.each(['/nope', '/dashboard/project', '/dashboard/project/5/other', '/auth', '/api/me'])('does not know %s', (p) =>
    expect(isAppRoute(p)).toBe(false),
  );

  it('tells dashboard paths apart', () => {
    expect(isDashboardPath('/dashboard')).toBe(true);
    expect(isDashboardPath('/dashboard/settings')).toBe(true);
    expect(isDashboardPath('/dashboards')).toBe(false);
  });

  it('builds the sign-in path with the way back', () => {
    expect(signInPathFor('/dashboard/settings?x=1')).toBe('/auth/signin?redirect=%2Fdashboard%2Fsettings%3Fx%3D1');
  });
});
