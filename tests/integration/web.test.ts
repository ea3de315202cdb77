import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { ARTIFACTS } from '../helpers/db-template';
import { appRoutes } from '../../shared/routes';

// A tiny stand-in build so these tests do not depend on `vite build` having run.
const webDir = path.join(ARTIFACTS, `web-${process.pid}`);
beforeAll(async () => {
  fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html lang="en"><div id="root"></div></html>');
  fs.writeFileSync(path.join(webDir, 'landing.html'), '<!doctype html><html lang="en"><div id="root"><h1>Prerendered landing</h1></div></html>');
  fs.writeFileSync(path.join(webDir, 'assets', 'index-AbC123.js'), 'console.log(1)');
});
afterAll(() => {
  fs.rmSync(webDir, { recursive: true, force: true });
});
const app = useTestApp({ webDir });

const html = (c: Client, p: string) => c.request('GET', p, { headers: { accept: 'text/html' } });

describe('serving the web app', () => {
  it('serves hashed assets with long immutable cache headers', async () => {
    const res = await fetch(app.url + '/assets/index-AbC123.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable/);
  });

  it('answers 404 for a missing asset instead of index.html', async () => {
    expect((await fetch(app.url + '/assets/missing.js')).status).toBe(404);
  });

  it('serves index.html for every public client route, revalidated on each visit', async () => {
    const c = new Client(app.url);
    for (const p of ['/', '/auth/signin', '/auth/error', '/auth/verify-request', '/auth/signout', '/workspace-invite/abc']) {
      const res = await html(c, p);
      expect(res.status, p).toBe(200);
      expect(res.text).toContain('<div id="root">');
      expect(res.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('answers / with the prerendered landing page, and no other page with it', async () => {
    const c = new Client(app.url);
    const landing = await html(c, '/');
    expect(landing.status).toBe(200);
    expect(landing.text).toContain('<h1>Prerendered landing</h1>');
    expect(landing.headers.get('cache-control')).toBe('no-cache');
    for (const p of ['/auth/signin', '/cookie-policy', '/no/such/page']) expect((await html(c, p)).text, p).not.toContain('Prerendered landing');
  });

  it('answers 404 (with the app, which shows its not-found page) for unknown pages', async () => {
    const res = await html(new Client(app.url), '/no/such/page');
    expect(res.status).toBe(404);
    expect(res.text).toContain('<div id="root">');
  });

  it('sends a signed-out visit to any dashboard page to sign-in with the way back', async () => {
    const c = new Client(app.url);
    const dashboardRoutes = appRoutes.filter((r) => r.startsWith('/dashboard')).map((r) => r.replace(/:[a-zA-Z]+/g, '42'));
    expect(dashboardRoutes.length).toBeGreaterThan(15);
    for (const p of dashboardRoutes) {
      const res = await html(c, p);
      expect(res.status, p).toBe(302);
      expect(res.headers.get('location')).toBe(`/auth/signin?redirect=${encodeURIComponent(p)}`);
    }
    const withQuery = await html(c, '/dashboard/project/7?tab=stats');
    expect(withQuery.headers.get('location')).toBe('/auth/signin?redirect=%2Fdashboard%2Fproject%2F7%3Ftab%3Dstats');
  });

  it('serves the dashboard once signed in', async () => {
    const c = new Client(app.url);
    await signIn(c, app.mailer, 'web@example.com');
    const res = await html(c, '/dashboard/settings');
    expect(res.status).toBe(200);
  });

  it('sets security headers', async () => {
    const res = await fetch(app.url + '/');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});

describe('development mailbox', () => {
  it('lists captured mails in embedded mode', async () => {
    await new Client(app.url).post('/auth/signin/email', { email: 'mailbox@example.com' });
    const page = await fetch(app.url + '/dev/mailbox');
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('mailbox@example.com');
    expect(text).toContain('/auth/callback/email?token=');
  });

  it('answers loopback clients only, on every /dev route (a proxied remote client is refused)', async () => {
    const proxied = await startTestApp({ env: { TRUST_PROXY: 'loopback' }, database: app.database, webDir });
    try {
      for (const path of ['/dev/mailbox', '/dev/mailbox.json', '/dev/anything-added-later']) {
        const res = await fetch(proxied.url + path, { headers: { 'x-forwarded-for': '203.0.113.7', accept: 'application/json' } });
        expect(res.status, path).toBe(403);
        const body = (await res.json()) as { error: { message: string } };
        expect(body.error.message).toMatch(/loopback/);
      }
      const local = await fetch(proxied.url + '/dev/mailbox.json', { headers: { 'x-forwarded-for': '127.0.0.1' } });
      expect(local.status).toBe(200);
    } finally {
      await proxied.stop();
    }
  });

  it('does not exist when NODE_ENV=production', async () => {
    const prod = await startTestApp({ env: { NODE_ENV: 'production' }, database: app.database, webDir });
    try {
      const res = await fetch(prod.url + '/dev/mailbox', { headers: { accept: 'application/json' } });
      expect(res.status).toBe(404);
      const json = await fetch(prod.url + '/dev/mailbox.json');
      expect(json.status).toBe(404);
    } finally {
      await prod.stop();
    }
  });
});
