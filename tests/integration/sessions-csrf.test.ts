import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';

const app = useTestApp();

const sessionCookieLine = (headers: Headers) => headers.getSetCookie().find((l) => l.startsWith('cairn.sid='));

describe('session cookie', () => {
  it('is httpOnly and SameSite=Lax, not Secure over plain HTTP', async () => {
    const res = await new Client(app.url).get('/auth/csrf');
    const line = sessionCookieLine(res.headers)!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).not.toMatch(/;\s*Secure/i);
  });

  it('is Secure when served over HTTPS through a trusted proxy', async () => {
    const proxied = await startTestApp({ env: { TRUST_PROXY: '1' }, database: app.database });
    try {
      const res = await fetch(proxied.url + '/auth/csrf', { headers: { 'x-forwarded-proto': 'https' } });
      expect(sessionCookieLine(res.headers)).toMatch(/;\s*Secure/i);
    } finally {
      await proxied.stop();
    }
  });

  it('ignores X-Forwarded-Proto from an untrusted client', async () => {
    const res = await fetch(app.url + '/auth/csrf', { headers: { 'x-forwarded-proto': 'https' } });
    // Without trust proxy, express-session refuses to set a Secure cookie on an insecure request.
    expect(sessionCookieLine(res.headers) ?? '').not.toMatch(/;\s*Secure/i);
  });

  it('gets a new id at sign-in, so a planted session id is useless', async () => {
    const c = new Client(app.url);
    await c.fetchCsrf();
    const before = c.cookies.get('cairn.sid');
    expect(before).toBeTruthy();
    await signIn(c, app.mailer, 'fixation@example.com');
    expect(c.cookies.get('cairn.sid')).not.toBe(before);

    const attacker = new Client(app.url);
    attacker.cookies.set('cairn.sid', before!);
    expect((await attacker.get('/api/me')).status).toBe(401);
  });
});

describe('sessions survive a restart', () => {
  it('keeps the user signed in after the server restarts on the same database', async () => {
    const first = await startTestApp({ database: app.database });
    const c = new Client(first.url);
    await signIn(c, first.mailer, 'restart@example.com');
    expect((await c.get('/api/me')).status).toBe(200);
    await first.stop();

    const second = await startTestApp({ database: app.database });
    try {
      const again = new Client(second.url);
      for (const [k, v] of c.cookies) again.cookies.set(k, v);
      const me = await again.get('/api/me');
      expect(me.status).toBe(200);
      expect(me.body.data.email).toBe('restart@example.com');
    } finally {
      await second.stop();
    }
  });
});

describe('CSRF protection', () => {
  it('answers a token at GET /auth/csrf', async () => {
    const res = await new Client(app.url).get('/auth/csrf');
    expect(res.body).toEqual({ data: { csrfToken: expect.stringMatching(/^[\w-]{40,}$/) } });
  });

  it('refuses a forged cross-site POST that carries the cookie but not the token', async () => {
    const victim = new Client(app.url);
    await signIn(victim, app.mailer, 'victim@example.com');
    // What a hostile page can make a browser send: the cookie rides along, the token cannot be read.
    const res = await fetch(app.url + '/auth/signout', {
      method: 'POST',
      headers: { cookie: `cairn.sid=${victim.cookies.get('cairn.sid')}`, 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: 'x=1',
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: { code: 'csrf', message: expect.stringContaining('CSRF') } });
    expect((await victim.get('/api/me')).status).toBe(200);
  });

  it('refuses a wrong token and a token from another session', async () => {
    const c = new Client(app.url);
    await c.fetchCsrf();
    const other = new Client(app.url);
    const otherToken = await other.fetchCsrf();
    for (const token of ['nope', otherToken]) {
      const res = await c.request('POST', '/auth/signin/email', { body: { email: 'x@example.com' }, headers: { 'x-csrf-token': token }, csrf: false });
      expect(res.status).toBe(403);
    }
  });

  it('refuses a state-changing /api request without the token', async () => {
    const c = new Client(app.url);
    await signIn(c, app.mailer, 'api-csrf@example.com');
    const res = await c.request('PUT', '/api/me', { body: {}, csrf: false });
    expect(res.status).toBe(403);
  });

  it('accepts the request once the token is sent', async () => {
    const c = new Client(app.url);
    const res = await c.post('/auth/signin/email', { email: 'ok@example.com' });
    expect(res.status).toBe(200);
  });
});

describe('/api/me', () => {
  it('answers 401 in the error shape when signed out', async () => {
    const res = await new Client(app.url).get('/api/me');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
  });

  it('forgets a user whose account is gone', async () => {
    const c = new Client(app.url);
    await signIn(c, app.mailer, 'gone@example.com');
    const { id } = (await c.get('/api/me')).body.data;
    await app.db('workspaces').where({ owner_id: id }).delete();
    await app.db('users').where({ id }).delete();
    expect((await c.get('/api/me')).status).toBe(401);
  });
});
