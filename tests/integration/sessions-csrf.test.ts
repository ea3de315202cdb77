import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/use-test-app';
import { Client, linkIn } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';

const app = useTestApp();

const cookieLine = (headers: Headers, name: string) => headers.getSetCookie().find((l) => l.startsWith(`${name}=`));

/** Signs a client in and answers the Set-Cookie line of its session. */
async function signInCookie(base: string, mailer: typeof app.mailer, email: string, headers: Record<string, string> = {}) {
  const c = new Client(base, headers);
  expect((await c.post('/auth/signin/email', { email })).status).toBe(200);
  const link = new URL(linkIn(mailer.captured().find((m) => m.to === email)!.text));
  return cookieLine((await c.get(link.pathname + link.search)).headers, 'cairn.sid');
}

describe('session and CSRF cookies', () => {
  it('are httpOnly and SameSite=Lax, not Secure over plain HTTP', async () => {
    const csrf = cookieLine((await new Client(app.url).get('/auth/csrf')).headers, 'cairn.csrf')!;
    const sid = (await signInCookie(app.url, app.mailer, 'plain-cookie@example.com'))!;
    for (const line of [csrf, sid]) {
      expect(line).toMatch(/HttpOnly/i);
      expect(line).toMatch(/SameSite=Lax/i);
      expect(line).not.toMatch(/;\s*Secure/i);
    }
  });

  it('are Secure when served over HTTPS through a trusted proxy', async () => {
    const proxied = await startTestApp({ env: { TRUST_PROXY: '1' }, database: app.database });
    try {
      const https = { 'x-forwarded-proto': 'https' };
      const res = await fetch(proxied.url + '/auth/csrf', { headers: https });
      expect(cookieLine(res.headers, 'cairn.csrf')).toMatch(/;\s*Secure/i);
      expect(await signInCookie(proxied.url, proxied.mailer, 'secure-cookie@example.com', https)).toMatch(/;\s*Secure/i);
    } finally {
      await proxied.stop();
    }
  });

  it('ignore X-Forwarded-Proto from an untrusted client', async () => {
    const res = await fetch(app.url + '/auth/csrf', { headers: { 'x-forwarded-proto': 'https' } });
    expect(cookieLine(res.headers, 'cairn.csrf') ?? '').not.toMatch(/;\s*Secure/i);
    expect(await signInCookie(app.url, app.mailer, 'untrusted-proto@example.com', { 'x-forwarded-proto': 'https' })).not.toMatch(/;\s*Secure/i);
  });

  it('a session gets a new id at each sign-in, so an earlier session id is useless', async () => {
    const c = new Client(app.url);
    await signIn(c, app.mailer, 'fixation@example.com');
    const before = c.cookies.get('cairn.sid');
    expect(before).toBeTruthy();
    await signIn(c, app.mailer, 'fixation@example.com');
    expect(c.cookies.get('cairn.sid')).not.toBe(before);

    const attacker = new Client(app.url);
    attacker.cookies.set('cairn.sid', before!);
    expect((await attacker.get('/api/me')).status).toBe(401);
  });
});

describe('someone not signed in', () => {
  const sessionRows = async () => Number((await app.db('sessions').count({ n: '*' }).first())!.n);

  it('gets CSRF tokens without a stored session: 3,000 requests for one add no rows', async () => {
    const before = await sessionRows();
    const tokens = new Set<string>();
    for (let round = 0; round < 150; round++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const res = await fetch(app.url + '/auth/csrf', { headers: { accept: 'application/json' } });
          expect(res.status).toBe(200);
          return ((await res.json()) as { data: { csrfToken: string } }).data.csrfToken;
        }),
      );
      for (const t of answers) tokens.add(t);
    }
    expect(tokens.size).toBe(3000);
    expect((await sessionRows()) - before).toBeLessThanOrEqual(0);
    expect(cookieLine((await fetch(app.url + '/auth/csrf')).headers, 'cairn.sid')).toBeUndefined();
  }, 120_000);

  it('keeps one token while the CSRF cookie is sent back, and signs in with it', async () => {
    const c = new Client(app.url);
    const first = await c.fetchCsrf();
    expect(await c.fetchCsrf()).toBe(first);
    await signIn(c, app.mailer, 'cookie-token@example.com');
    // Signing in moves the token into the session: the CSRF cookie is dropped, the old token no longer works.
    expect(c.cookies.has('cairn.csrf')).toBe(false);
    expect((await c.request('PUT', '/api/me', { body: {}, headers: { 'x-csrf-token': first }, csrf: false })).status).toBe(403);
    const now = await c.fetchCsrf();
    expect(now).not.toBe(first);
    expect((await c.request('PUT', '/api/me', { body: {}, headers: { 'x-csrf-token': now }, csrf: false })).status).not.toBe(403);
  });

  it('cannot make up a CSRF cookie: a token with a wrong signature is refused and sends no mail', async () => {
    const sent = app.mailer.captured().length;
    const token = 'a'.repeat(43);
    for (const cookie of [`cairn.csrf=${token}.${'b'.repeat(43)}`, `cairn.csrf=${token}`, `cairn.csrf=.${token}`]) {
      const res = await fetch(app.url + '/auth/signin/email', {
        method: 'POST',
        headers: { cookie, 'x-csrf-token': token, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ email: 'forged@example.com' }),
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: { code: 'csrf', message: expect.stringContaining('CSRF') } });
    }
    expect(app.mailer.captured().length).toBe(sent);
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
