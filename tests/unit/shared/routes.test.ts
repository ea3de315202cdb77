import { describe, expect, it } from 'vitest';
import { appRoutes, isAppRoute, isDashboardPath, signInPathFor } from '../../../shared/routes';

describe('client routes', () => {
  it('registers every route of spec section 2, the public status page, the cookie policy and the desktop pages', () => {
    // The spec's 24, /status and /cookie-policy, the dashboard's JSONPath sandbox and API console, and the standalone sandbox.
    expect(appRoutes).toHaveLength(29);
    expect(appRoutes).toContain('/status');
    expect(appRoutes).toContain('/cookie-policy');
    expect(appRoutes).toContain('/jsonpath-sandbox');
    expect(appRoutes).toContain('/dashboard/workspaces/:id/order/:orderId');
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
