import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import type session from 'express-session';
import { ANONYMOUS_SESSION_TTL_MS, DbSessionStore } from '../../server/http/session-store';
import { withOwnerLock } from '../../server/features/workspaces/subscriptions';
import { isPostgres } from '../../server/db/index';

// Anonymous sessions, sign-in mail limits, and the owner an invitation checks.
// A trusted local proxy, so each test can speak for a client IP of its own.
const app = useTestApp({ env: { TRUST_PROXY: 'loopback', SIGNIN_LINKS_PER_IP: '8', DESKTOP_SIGN_INS_PER_IP: '6' } });

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const ask = (c: Client, email: string, ip: string) => c.request('POST', '/auth/signin/email', { body: { email }, headers: from(ip) });

describe('anonymous sessions', () => {
  it('a session nobody signed in to (an OAuth redirect) is stored for an hour, a signed-in session for its full age', async () => {
    const store = new DbSessionStore(app.db, 30 * 24 * 3600 * 1000);
    try {
      const before = Date.now();
      const far = new Date(before + 30 * 24 * 3600 * 1000);
      await new Promise<void>((resolve, reject) =>
        store.set('anonymous-oauth', { cookie: { expires: far, originalMaxAge: 30 * 24 * 3600 * 1000 }, oauthRedirect: '/dashboard' } as unknown as session.SessionData, (e) => (e ? reject(e) : resolve())),
      );
      const row = await app.db('sessions').where({ sid: 'anonymous-oauth' }).first('expires_at');
      expect(Number(row.expires_at)).toBeLessThanOrEqual(Date.now() + ANONYMOUS_SESSION_TTL_MS);
      expect(Number(row.expires_at)).toBeGreaterThanOrEqual(before + ANONYMOUS_SESSION_TTL_MS - 1000);
    } finally {
      store.close();
    }

    const user = new Client(app.url);
    await signIn(user, app.mailer, 'long-lived@throttle.example');
    const userSid = decodeURIComponent(user.cookies.get('cairn.sid')!).replace(/^s:/, '').split('.')[0]!;
    const userRow = await app.db('sessions').where({ sid: userSid }).first('expires_at');
    expect(Number(userRow.expires_at)).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
  });
});

describe('desktop sign-in starts', () => {
  const stateOf = (name: string) => `desktop-start-${name}`;
  const start = (c: Client, ip: string, name: string) =>
    c.request('GET', `/auth/desktop/start?${new URLSearchParams({ code_challenge: 'a'.repeat(43), code_challenge_method: 'S256', state: stateOf(name), redirect_uri: 'http://127.0.0.1:45678/callback' })}`, {
      headers: from(ip),
    });

  it('are capped per client IP: one more is refused with 429 and Retry-After and stores nothing', async () => {
    const before = Number((await app.db('desktop_sign_ins').count({ n: '*' }))[0]!.n);
    const c = new Client(app.url);
    for (let i = 0; i < 6; i++) expect((await start(c, '198.51.100.60', `s${i}`)).status).toBe(302);
    const refused = await start(c, '198.51.100.60', 'one-more');
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('Too many sign-ins to the app were started from your network');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(Number((await app.db('desktop_sign_ins').count({ n: '*' }))[0]!.n)).toBe(before + 6);
    expect(await app.db('desktop_sign_ins').where({ state: stateOf('one-more') }).first()).toBeUndefined();
    // Another client is not affected.
    expect((await start(c, '198.51.100.61', 'other')).status).toBe(302);
  });
});

describe('sign-in mail limits', () => {
  it('per client IP, whatever the e-mail', async () => {
    const c = new Client(app.url);
    for (let i = 0; i < 8; i++) expect((await ask(c, `ip-${i}@throttle.example`, '198.51.100.1')).status).toBe(200);
    const res = await ask(c, 'ip-9@throttle.example', '198.51.100.1');
    expect(res.status).toBe(429);
    expect(res.body.error.message).toBe('Too many sign-in links were requested from your network. Please wait a few minutes and try again.');
    // Another client is not affected, and the refused e-mail was not counted.
    expect((await ask(c, 'ip-9@throttle.example', '198.51.100.2')).status).toBe(200);
  });

  it('parallel requests cannot pass the per-address limit', async () => {
    const c = new Client(app.url);
    await c.fetchCsrf();
    const mails = app.mailer.captured().length;
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => ask(c, 'race@throttle.example', `203.0.113.${i + 1}`)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(7);
    expect(app.mailer.captured().length - mails).toBe(5);
  });

  it('parallel requests cannot pass the per-IP limit', async () => {
    const c = new Client(app.url);
    await c.fetchCsrf();
    const results = await Promise.all(Array.from({ length: 14 }, (_, i) => ask(c, `par-${i}@throttle.example`, '192.0.2.77')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(8);
  });
});

describe('accepting an invitation', () => {
  it("checks the plan of the workspace's owner at the time it holds the lock, not the one it read before", async () => {
    const rich = await makeUser(app.db, 'rich@throttle.example', 'ENTERPRISE');
    const poor = await makeUser(app.db, 'poor@throttle.example', 'STARTER');
    const ws = await makeWorkspace(app.db, rich.id, [{ userId: poor.id, role: 'administrator' }]);
    const inviter = new Client(app.url);
    await signIn(inviter, app.mailer, 'rich@throttle.example');
    const inv = await inviter.post(`/api/workspaces/${ws}/invitations`, { email: 'joiner@throttle.example', role: 'collaborator' });
    expect(inv.status).toBe(201);
    const token = /workspace-invite\/([\w-]+)/.exec(app.mailer.captured()[0]!.text)![1]!;
    const joiner = new Client(app.url);
    await signIn(joiner, app.mailer, 'joiner@throttle.example');
    await joiner.fetchCsrf();

    // Hold the current owner's lock, start accepting, then hand the workspace to an owner whose
    // plan has no room for another member, as a transfer would, and let go.
    let accepting!: Promise<{ status: number; body: any }>;
    await withOwnerLock(app.db, rich.id, async (trx) => {
      // The acceptance waits for the lock held here: on PostgreSQL its SELECT … FOR UPDATE has been sent
      // (any FOR UPDATE from now on is not this transaction's: it has taken its lock); on SQLite (one
      // connection, which this transaction holds) it waits for the connection.
      const waiting = isPostgres(app.db)
        ? new Promise<void>((resolve) => {
            const onQuery = (q: { sql: string }) => {
              if (/for update/i.test(q.sql)) {
                app.db.off('query', onQuery);
                resolve();
              }
            };
            app.db.on('query', onQuery);
          })
        : vi.waitFor(() => expect(app.db.client.pool.numPendingAcquires()).toBeGreaterThan(0), { timeout: 5000 });
      accepting = joiner.post(`/api/invitations/${token}/accept`);
      await waiting;
      await trx('workspaces').where({ id: ws }).update({ owner_id: poor.id });
    });
    const res = await accepting;
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(Number((await app.db('workspace_members').where({ workspace_id: ws }).count({ n: '*' }))[0]!.n)).toBe(2);
  });
});
