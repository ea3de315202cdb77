import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { startLocalGitHub, type LocalGitHub } from '../helpers/oauth';

let github: LocalGitHub;
beforeAll(async () => {
  github = await startLocalGitHub({ id: 1, login: 'octo', emails: [{ email: 'octo@example.com', primary: true, verified: true }] });
});
afterAll(async () => {
  await github.close();
});
const app = useTestApp(() => ({ env: github.env }));

/** Walks the authorization-code dance the way a browser does: Cairn → OAuth server → Cairn. */
async function signInWithGitHub(c: Client, redirect = '/dashboard/workspaces') {
  const start = await c.get(`/auth/signin/github?redirect=${encodeURIComponent(redirect)}`);
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get('location')!);
  expect(authorize.origin + authorize.pathname).toBe(`${github.issuerUrl}/authorize`);
  expect(authorize.searchParams.get('state')).toBeTruthy();
  expect(authorize.searchParams.get('redirect_uri')).toBe(`${app.url}/auth/callback/github`);
  const consent = await fetch(authorize, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const back = new URL(consent.headers.get('location')!);
  expect(back.origin).toBe(app.url);
  return c.get(back.pathname + back.search);
}

describe('GitHub sign-in through the real passport strategy', () => {
  it('shows the GitHub button when its client id and secret are configured', async () => {
    expect((await new Client(app.url).get('/auth/providers')).body.data.github).toBe(true);
  });

  it('creates the account and lands back where the user was going', async () => {
    const c = new Client(app.url);
    const done = await signInWithGitHub(c);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/dashboard/workspaces');
    expect((await c.get('/api/me')).body.data.email).toBe('octo@example.com');
    const link = await app.db('oauth_accounts').where({ provider: 'github', provider_user_id: '1' }).first();
    expect(link).toBeTruthy();
  });

  it('refuses a callback whose state was not issued to this browser', async () => {
    const c = new Client(app.url);
    const start = await c.get('/auth/signin/github');
    const consent = await fetch(start.headers.get('location')!, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    const stranger = new Client(app.url);
    const res = await stranger.get(back.pathname + back.search);
    expect(res.headers.get('location')).toBe('/auth/error?error=OAuthCallback');
    expect((await stranger.get('/api/me')).status).toBe(401);
  });

  it('does not follow an open redirect', async () => {
    const res = await signInWithGitHub(new Client(app.url), '//evil.example/steal');
    expect(res.headers.get('location')).toBe('/dashboard');
  });

  it('signs into an existing account with the same e-mail only when GitHub says it is verified', async () => {
    const mailUser = new Client(app.url);
    await signIn(mailUser, app.mailer, 'shared@example.com');
    const existing = (await mailUser.get('/api/me')).body.data;

    github.user = { id: 2, login: 'unverified', emails: [{ email: 'shared@example.com', primary: true, verified: false }] };
    const refused = await signInWithGitHub(new Client(app.url));
    expect(refused.headers.get('location')).toBe('/auth/error?error=OAuthAccountNotLinked');
    expect(await app.db('oauth_accounts').where({ provider_user_id: '2' }).first()).toBeUndefined();

    github.user = { id: 3, login: 'verified', emails: [{ email: 'Shared@Example.com', primary: true, verified: true }] };
    const c = new Client(app.url);
    const ok = await signInWithGitHub(c);
    expect(ok.headers.get('location')).toBe('/dashboard/workspaces');
    expect((await c.get('/api/me')).body.data).toEqual(existing);
  });

  it('does not create an account on an unverified e-mail', async () => {
    github.user = { id: 4, login: 'newbie', emails: [{ email: 'newbie@example.com', primary: true, verified: false }] };
    const res = await signInWithGitHub(new Client(app.url));
    expect(res.headers.get('location')).toBe('/auth/error?error=OAuthEmailNotVerified');
    expect(await app.db('users').where({ email: 'newbie@example.com' }).first()).toBeUndefined();
  });

  it('uses the primary address among several', async () => {
    github.user = {
      id: 5,
      login: 'many',
      emails: [
        { email: 'old@example.com', primary: false, verified: true },
        { email: 'main@example.com', primary: true, verified: true },
      ],
    };
    const c = new Client(app.url);
    await signInWithGitHub(c);
    expect((await c.get('/api/me')).body.data.email).toBe('main@example.com');
  });
});
