import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/use-test-app';
import { Client, linkIn } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { makeUser } from '../helpers/workspace-fixture';

const app = useTestApp();

describe('bad input answers 400, never 500', () => {
  it('malformed JSON', async () => {
    const c = new Client(app.url);
    const res = await c.request('POST', '/auth/signin/email', { rawBody: '{"email": "a@', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'malformed_json', message: 'The request body is not valid JSON.' } });
  });

  it('a body over 1 MB', async () => {
    const c = new Client(app.url);
    const res = await c.request('POST', '/auth/signin/email', { rawBody: JSON.stringify({ email: 'x'.repeat(1_100_000) }) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('body_too_large');
  });

  it('wrong types', async () => {
    const c = new Client(app.url);
    for (const body of [{ email: ['a@example.com'] }, { email: { $ne: 1 } }, { email: 'a@example.com', callbackUrl: 5 }]) {
      const res = await c.post('/auth/signin/email', body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid');
    }
    const res = await c.request('POST', '/auth/signin/email', { rawBody: '"just a string"' });
    expect(res.status).toBe(400);
  });

  it('unknown /api paths answer a JSON 404', async () => {
    const res = await new Client(app.url).get('/api/nothing/here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });
});

describe('unexpected failures', () => {
  it('answer 500 with a generic message and a request id; the stack goes only to the log', async () => {
    const broken = await startTestApp();
    try {
      const c = new Client(broken.url);
      await signIn(c, broken.mailer, 'boom@example.com');
      await broken.db.schema.dropTable('oauth_accounts');
      await broken.db.schema.renameTable('users', 'users_gone');
      const res = await c.get('/api/me');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: { code: 'internal', message: expect.any(String), requestId: expect.any(String) } });
      expect(res.text).not.toMatch(/users|sqlite|select|at .*\.ts/i);
      expect(res.headers.get('x-request-id')).toBe(res.body.error.requestId);
      const logged = broken.logs.find((l) => l.msg === 'unhandled error');
      expect(logged).toBeTruthy();
      expect(JSON.stringify(logged)).toContain(res.body.error.requestId);
      expect(JSON.stringify(logged)).toMatch(/stack/);
    } finally {
      await broken.stop();
      await broken.database.drop();
    }
  });
});

describe('logs', () => {
  it('are structured, carry request ids, and never contain tokens, cookies or secrets', async () => {
    const c = new Client(app.url);
    await c.post('/auth/signin/email', { email: 'logs@example.com', callbackUrl: '/dashboard' });
    const link = new URL(linkIn(app.mailer.captured()[0]!.text));
    const token = link.searchParams.get('token')!;
    await c.get(link.pathname + link.search);
    const csrf = await c.fetchCsrf();
    await c.get('/api/me');
    const sid = c.cookies.get('cairn.sid')!;

    const requestLogs = app.logs.filter((l) => l.req);
    expect(requestLogs.length).toBeGreaterThan(3);
    for (const l of requestLogs) expect((l.req as { id: string }).id).toEqual(expect.any(String));

    // The dev mailbox deliberately logs the mail text (that is its job in embedded mode); everything else must not.
    const others = app.rawLogs.filter((l) => !l.includes('[dev mailbox]'));
    const all = others.join('\n');
    expect(all).not.toContain(token);
    expect(all).not.toContain(decodeURIComponent(sid));
    expect(all).not.toContain(sid.split('.')[0]!.replace(/^s%3A/, ''));
    expect(all).not.toContain(csrf);
    expect(all).not.toContain('test-session-secret');
    expect(all).toContain('token=[redacted]');
  });
});

describe('invitation tokens', () => {
  it('are redacted from the paths the request log writes', async () => {
    await makeUser(app.db, 'inviter@logs.example', 'ENTERPRISE');
    const inviter = new Client(app.url);
    await signIn(inviter, app.mailer, 'inviter@logs.example');
    const ws = (await inviter.get('/api/workspaces')).body.data[0].id as number;
    expect((await inviter.post(`/api/workspaces/${ws}/invitations`, { email: 'invitee@logs.example', role: 'collaborator' })).status).toBe(201);
    const token = new URL(linkIn(app.mailer.captured()[0]!.text)).pathname.split('/').at(-1)!;
    const invitee = new Client(app.url);
    await signIn(invitee, app.mailer, 'invitee@logs.example');
    await invitee.get(`/workspace-invite/${token}`);
    expect((await invitee.get(`/api/invitations/${token}`)).status).toBe(200);
    expect((await invitee.post(`/api/invitations/${token}/accept`)).status).toBe(200);

    const requestLines = app.rawLogs.filter((l) => !l.includes('[dev mailbox]'));
    expect(requestLines.join('\n')).not.toContain(token);
    const urls = app.logs.map((l) => (l.req as { url?: string } | undefined)?.url).filter(Boolean);
    expect(urls).toContain('/api/invitations/[redacted]/accept');
    expect(urls).toContain('/workspace-invite/[redacted]');
  });
});

describe('health', () => {
  it('GET /healthz answers 200 while the process runs', async () => {
    expect((await new Client(app.url).get('/healthz')).status).toBe(200);
  });

  it('GET /readyz answers 200 when the database is reachable and migrated', async () => {
    expect((await new Client(app.url).get('/readyz')).body).toEqual({ data: { status: 'ready' } });
  });

  it('GET /readyz answers 503 when migrations are pending', async () => {
    const other = await startTestApp();
    try {
      await other.db('knex_migrations').delete();
      const res = await new Client(other.url).get('/readyz');
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('not_ready');
    } finally {
      await other.stop();
      await other.database.drop();
    }
  });

  it('GET /readyz answers 503 when the database is gone', async () => {
    const other = await startTestApp();
    await other.db.destroy();
    try {
      expect((await new Client(other.url).get('/readyz')).status).toBe(503);
    } finally {
      await other.stop();
      await other.database.drop().catch(() => undefined);
    }
  });
});
