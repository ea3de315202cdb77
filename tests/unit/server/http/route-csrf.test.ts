import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRoutes, route, type RouteDeps } from '../../../../server/http/route';
import { csrfCookieKey, csrfTokenFor, requireCsrfToken } from '../../../../server/http/csrf';
import { errorMiddleware } from '../../../../server/http/error-middleware';
import { loadConfig } from '../../../../server/config';
import { createLogger } from '../../../../server/logger';

// route()'s csrf option, on a router of its own: a state-changing route declared without the option
// needs the client's CSRF token, a GET does not, and the option says otherwise where a route needs it.
const deps = { config: loadConfig({}) } as RouteDeps;
const router = express.Router();
route(router, deps, { method: 'get', path: '/token', permission: 'public', handler: ({ req }) => csrfTokenFor(req) });
route(router, deps, { method: 'get', path: '/plain', permission: 'public', handler: () => 'read' });
route(router, deps, { method: 'post', path: '/plain', permission: 'public', handler: () => 'written' });
route(router, deps, { method: 'delete', path: '/plain', permission: 'public', handler: () => 'deleted' });
route(router, deps, { method: 'post', path: '/signed-in', permission: 'signedIn', handler: () => 'written' });
route(router, deps, { method: 'get', path: '/changes-state', permission: 'public', csrf: true, handler: () => 'changed' });
route(router, deps, { method: 'post', path: '/exempt', permission: 'public', csrf: false, handler: () => 'taken' });

const app = express();
app.use(express.json());
app.use(express.urlencoded({ extended: false }));
app.use(csrfCookieKey('a test secret'));
app.post('/form', requireCsrfToken, (_req, res) => void res.json({ data: 'form' }));
app.use(router);
app.use(errorMiddleware(createLogger('silent')));

let server: http.Server;
let base = '';
let cookie = '';
let token = '';

const call = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  fetch(base + path, { method, headers: { cookie, ...headers }, body }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data?: unknown; error?: { code: string } } }));

beforeAll(async () => {
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const res = await fetch(base + '/token');
  cookie = res.headers.getSetCookie()[0]!.split(';')[0]!;
  token = ((await res.json()) as { data: string }).data;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("route()'s csrf option", () => {
  it('without it, POST and DELETE need the token and are refused with 403 csrf before anything else', async () => {
    for (const method of ['POST', 'DELETE']) {
      expect(await call(method, '/plain')).toMatchObject({ status: 403, body: { error: { code: 'csrf' } } });
      expect(await call(method, '/plain', { 'x-csrf-token': 'not-the-token' })).toMatchObject({ status: 403, body: { error: { code: 'csrf' } } });
      expect((await call(method, '/plain', { 'x-csrf-token': token })).status).toBe(200);
    }
    // Refused for the token before the permission is asked: no 401 to tell a cross-site caller anything.
    expect(await call('POST', '/signed-in')).toMatchObject({ status: 403, body: { error: { code: 'csrf' } } });
    expect((await call('POST', '/signed-in', { 'x-csrf-token': token })).status).toBe(401);
  });

  it('without it, GET needs no token', async () => {
    expect(await call('GET', '/plain')).toEqual({ status: 200, body: { data: 'read' } });
  });

  it('csrf: true asks the token of a GET; csrf: false of nothing', async () => {
    expect(await call('GET', '/changes-state')).toMatchObject({ status: 403, body: { error: { code: 'csrf' } } });
    expect(await call('GET', '/changes-state', { 'x-csrf-token': token })).toEqual({ status: 200, body: { data: 'changed' } });
    expect(await call('POST', '/exempt')).toEqual({ status: 200, body: { data: 'taken' } });
  });

  it('is what the API reference reads', () => {
    expect(declaredRoutes(router).map((d) => `${d.method} ${d.path} ${d.csrf}`)).toEqual([
      'get /token false',
      'get /plain false',
      'post /plain true',
      'delete /plain true',
      'post /signed-in true',
      'get /changes-state true',
      'post /exempt false',
    ]);
  });

  it('a handler outside route() takes the token from a form field through requireCsrfToken', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await call('POST', '/form', form, 'csrf_token=wrong')).status).toBe(403);
    expect(await call('POST', '/form', form, `csrf_token=${encodeURIComponent(token)}`)).toEqual({ status: 200, body: { data: 'form' } });
  });
});
