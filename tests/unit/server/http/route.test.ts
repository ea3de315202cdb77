import express from 'express';
import { describe, expect, it } from 'vitest';
import { route, type RouteDeps } from '../../../../server/http/route';
import { loadConfig } from '../../../../server/config';
import { sanitizeUrl } from '../../../../server/logger';

const deps = { config: loadConfig({}) } as RouteDeps;

describe('route()', () => {
  it('refuses to register a route that declares no permission', () => {
    const router = express.Router();
    expect(() =>
      route(router, deps, { method: 'get', path: '/x', handler: () => 1 } as unknown as Parameters<typeof route>[2]),
    ).toThrow('Route GET /x declares no permission');
  });

  it('registers one that does', () => {
    const router = express.Router();
    route(router, deps, { method: 'get', path: '/x', permission: 'public', handler: () => 1 });
    expect(router.stack).toHaveLength(1);
  });
});

describe('sanitizeUrl', () => {
  it('redacts secrets in query strings', () => {
    expect(sanitizeUrl('/auth/callback/email?token=abc&email=a%40b.c&callbackUrl=%2Fx')).toBe(
      '/auth/callback/email?token=[redacted]&email=[redacted]&callbackUrl=%2Fx',
    );
    expect(sanitizeUrl('/auth/callback/github?code=1&state=2')).toBe('/auth/callback/github?code=[redacted]&state=[redacted]');
  });
});

describe('RouteContext types what the permission guarantees (checked by npm run typecheck)', () => {
  it('compiles only the uses each permission allows', () => {
    const router = express.Router();
    route(router, deps, { method: 'get', path: '/a', permission: 'signedIn', handler: ({ user }) => user.id });
    // @ts-expect-error a signed-in route has no membership
    route(router, deps, { method: 'get', path: '/b', permission: 'signedIn', handler: ({ membership }) => membership });
    // @ts-expect-error a public route may have no user
    route(router, deps, { method: 'get', path: '/c', permission: 'public', handler: ({ user }) => user.id });
    route(router, deps, { method: 'get', path: '/d/:id', permission: { workspace: 'workspace.view' }, handler: ({ user, membership }) => [user.id, membership.role] });
    route(router, deps, { method: 'get', path: '/e/:projectId', permission: { project: 'projects.view' }, handler: ({ project, membership }) => [project.uuid, membership.ownerId] });
    route(router, deps, { method: 'get', path: '/f/:id/:webhookId', permission: { webhook: 'webhooks.view' }, handler: ({ webhook }) => webhook.id });
    // @ts-expect-error a workspace route names no project
    route(router, deps, { method: 'get', path: '/g/:id', permission: { workspace: 'projects.view' }, handler: ({ project }) => project });
    expect(router.stack).toHaveLength(7);
  });
});
