import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client, linkIn } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { messages } from '../../shared/messages';

const app = useTestApp();

const askForLink = async (c: Client, email: string, callbackUrl = '/dashboard') => {
  const res = await c.post('/auth/signin/email', { email, callbackUrl });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new URL(linkIn(app.mailer.captured()[0]!.text));
};

describe('e-mail magic link', () => {
  it('signs a new user in, creating the account on first sign-in', async () => {
    const c = new Client(app.url);
    expect((await c.get('/api/me')).status).toBe(401);
    expect(await app.db('users').where({ email: 'ada@example.com' }).first()).toBeUndefined();

    const res = await c.post('/auth/signin/email', { email: '  Ada@Example.com ', callbackUrl: '/dashboard/settings' });
    expect(res.body).toEqual({ data: { redirect: '/auth/verify-request' } });
    const mail = app.mailer.captured()[0]!;
    expect(mail.to).toBe('ada@example.com');
    const link = new URL(linkIn(mail.text));
    expect(link.origin).toBe(app.url);

    const cb = await c.get(link.pathname + link.search);
    expect(cb.status).toBe(302);
    expect(cb.headers.get('location')).toBe('/dashboard/settings');

    const me = await c.get('/api/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ data: { id: expect.any(Number), email: 'ada@example.com', is_operator: false } });
    expect(await app.db('users').where({ email: 'ada@example.com' }).count({ n: '*' })).toEqual([{ n: 1 }]);
  });

  it('stores only a hash of the token', async () => {
    const link = await askForLink(new Client(app.url), 'hash@example.com');
    const token = link.searchParams.get('token')!;
    const rows = await app.db('magic_link_tokens').where({ email: 'hash@example.com' });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is single use', async () => {
    const link = await askForLink(new Client(app.url), 'once@example.com');
    const first = new Client(app.url);
    expect((await first.get(link.pathname + link.search)).headers.get('location')).toBe('/dashboard');
    const second = new Client(app.url);
    const again = await second.get(link.pathname + link.search);
    expect(again.headers.get('location')).toBe('/auth/error?error=Verification');
    expect((await second.get('/api/me')).status).toBe(401);
  });

  it('cannot be used twice even when both clicks arrive at once', async () => {
    const link = await askForLink(new Client(app.url), 'race@example.com');
    const results = await Promise.all(
      Array.from({ length: 5 }, () => new Client(app.url).get(link.pathname + link.search)),
    );
    expect(results.filter((r) => r.headers.get('location') === '/dashboard')).toHaveLength(1);
  });

  it('expires', async () => {
    const link = await askForLink(new Client(app.url), 'late@example.com');
    await app.db('magic_link_tokens').where({ email: 'late@example.com' }).update({ expires_at: Date.now() - 1000 });
    const res = await new Client(app.url).get(link.pathname + link.search);
    expect(res.headers.get('location')).toBe('/auth/error?error=Verification');
  });

  it('expires after 15 minutes by default', async () => {
    const before = Date.now();
    await askForLink(new Client(app.url), 'ttl@example.com');
    const row = await app.db('magic_link_tokens').where({ email: 'ttl@example.com' }).first();
    expect(row.expires_at - before).toBeGreaterThanOrEqual(15 * 60 * 1000 - 1000);
    expect(row.expires_at - before).toBeLessThanOrEqual(15 * 60 * 1000 + 5000);
  });

  it('is bound to its e-mail', async () => {
    const link = await askForLink(new Client(app.url), 'owner@example.com');
    link.searchParams.set('email', 'thief@example.com');
    const res = await new Client(app.url).get(link.pathname + link.search);
    expect(res.headers.get('location')).toBe('/auth/error?error=Verification');
    expect(await app.db('users').where({ email: 'thief@example.com' }).first()).toBeUndefined();
  });

  it('validates the e-mail with the spec texts and changes nothing', async () => {
    const c = new Client(app.url);
    const count = async () => (await app.db('magic_link_tokens').count({ n: '*' }))[0]!.n;
    const before = await count();
    for (const [body, message] of [
      [{ email: '' }, messages.signIn.emailEmpty],
      [{ email: '   ' }, messages.signIn.emailEmpty],
      [{}, messages.signIn.emailEmpty],
      [{ email: 'not-an-email' }, messages.signIn.emailInvalid],
      [{ email: 'a@b' }, messages.signIn.emailInvalid],
      [{ email: 42 }, messages.signIn.emailEmpty],
    ] as const) {
      const res = await c.post('/auth/signin/email', body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    expect(await count()).toBe(before);
  });

  it('limits how many links one address can ask for', async () => {
    const c = new Client(app.url);
    for (let i = 0; i < 5; i++) expect((await c.post('/auth/signin/email', { email: 'spam@example.com' })).status).toBe(200);
    const res = await c.post('/auth/signin/email', { email: 'spam@example.com' });
    expect(res.status).toBe(429);
    expect(res.body.error.message).toMatch(/Too many sign-in links/);
  });

  it.each([
    ['//evil.example', '/dashboard'],
    ['https://evil.example', '/dashboard'],
    ['/\\evil.example', '/dashboard'],
    ['/%5Cevil.example', '/%5Cevil.example'],
    ['javascript:alert(1)', '/dashboard'],
    ['/dashboard/workspaces?tab=1#x', '/dashboard/workspaces?tab=1#x'],
  ])('sends callbackUrl %s to %s after sign-in', async (callbackUrl, expected) => {
    const c = new Client(app.url);
    const link = await askForLink(c, `redirect${Math.random().toString(36).slice(2)}@example.com`, callbackUrl);
    const res = await c.get(link.pathname + link.search);
    expect(res.headers.get('location')).toBe(expected);
  });

  it('signs out: the session ends and /api/me answers 401', async () => {
    const c = new Client(app.url);
    await signIn(c, app.mailer, 'bye@example.com');
    expect((await c.get('/api/me')).status).toBe(200);
    const out = await c.post('/auth/signout');
    expect(out.body).toEqual({ data: { redirect: '/auth/signin' } });
    expect((await c.get('/api/me')).status).toBe(401);
  });

  it('lists the sign-in options: e-mail only when no provider or captcha is configured', async () => {
    const res = await new Client(app.url).get('/auth/providers');
    expect(res.body).toEqual({ data: { email: true, captchaSiteKey: null, github: false, google: false, gitlab: false } });
  });

  it('refuses an unconfigured provider with a readable error', async () => {
    const res = await new Client(app.url).get('/auth/signin/github');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/auth/error?error=Configuration');
  });
});

describe('captcha', () => {
  let verifier: http.Server;
  const seen: string[] = [];

  beforeAll(async () => {
    // A local stand-in for hCaptcha's siteverify endpoint, speaking its protocol.
    verifier = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        seen.push(body);
        const ok = form.get('secret') === 'hc-secret' && form.get('response') === 'solved-token';
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: ok }));
      });
    });
    await new Promise<void>((r) => verifier.listen(0, '127.0.0.1', r));
  });
  afterAll(() => {
    verifier.close();
  });
  // Started after the verifier above, stopped before it closes.
  const captchaApp = useTestApp(() => {
    const port = (verifier.address() as AddressInfo).port;
    return { env: { HCAPTCHA_SITE_KEY: 'hc-site', HCAPTCHA_SECRET: 'hc-secret', HCAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/siteverify` } };
  });

  it('shows the site key', async () => {
    const res = await new Client(captchaApp.url).get('/auth/providers');
    expect(res.body.data.captchaSiteKey).toBe('hc-site');
  });

  it('asks for the checkbox when no token is sent', async () => {
    const res = await new Client(captchaApp.url).post('/auth/signin/email', { email: 'cap@example.com' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(messages.signIn.captchaRequired);
    expect(seen).toHaveLength(0);
  });

  it('refuses a token hCaptcha does not accept, and sends no mail', async () => {
    const before = captchaApp.mailer.captured().length;
    const res = await new Client(captchaApp.url).post('/auth/signin/email', { email: 'cap@example.com', captchaToken: 'forged' });
    expect(res.status).toBe(400);
    expect(captchaApp.mailer.captured().length).toBe(before);
  });

  it('sends the link once hCaptcha verifies the token on the server', async () => {
    const res = await new Client(captchaApp.url).post('/auth/signin/email', { email: 'cap@example.com', captchaToken: 'solved-token' });
    expect(res.status).toBe(200);
    expect(seen.at(-1)).toContain('response=solved-token');
    expect(captchaApp.mailer.captured()[0]!.to).toBe('cap@example.com');
  });
});
