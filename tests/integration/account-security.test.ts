// The security section of Settings: the user's sessions (listed, ended one by one or all but the
// current), deleting the account, and downloading its data.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type session from 'express-session';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { makeProject, makeWorkspace } from '../helpers/workspace-fixture';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { DbSessionStore, INSERT_WINDOW_MS, TOUCH_AFTER_MS } from '../../server/http/session-store';
import { isPostgres, type Db } from '../../server/db/index';
import { accountMessages, type AccountSessionDto } from '../../shared/account';
import * as fillSessionOwners from '../../server/db/migrations/2026-11-26-1021-fill-session-owners';
import { DAY_MS } from '../../shared/time';

const app = useTestApp();

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const ELECTRON_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Cairn/0.1.0 Chrome/130.0.6723.191 Electron/33.2.1 Safari/537.36';

let n = 0;
const newEmail = (what: string) => `${what}${++n}-${Date.now()}@account.example`;

/** Signs in a browser with the given user agent. */
async function browser(email: string, userAgent = CHROME_LINUX) {
  const client = new Client(app.url, { 'user-agent': userAgent });
  await signIn(client, app.mailer, email);
  const me = (await client.get('/api/me')).body.data as { id: number; email: string };
  return { client, id: me.id, email: me.email };
}

/** Signs the desktop app in the way it does: start in the signed-in browser, consent there, trade the code for a session. */
async function desktopApp(signedInBrowser: Client, device: string) {
  const verifier = crypto.randomBytes(32).toString('base64url');
  const challenge = crypto.createHash('sha256').update(verifier).digest('base64url');
  const state = crypto.randomBytes(16).toString('base64url');
  const start = new URLSearchParams({ code_challenge: challenge, code_challenge_method: 'S256', state, redirect_uri: 'http://127.0.0.1:45678/callback', device });
  expect((await signedInBrowser.get(`/auth/desktop/start?${start}`)).status).toBe(302);
  const page = await signedInBrowser.get('/auth/desktop/finish');
  const signInField = /name="sign_in" value="([0-9a-f]{64})"/.exec(page.text)![1]!;
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.text)![1]!;
  const consent = await signedInBrowser.request('POST', '/auth/desktop/finish', {
    rawBody: new URLSearchParams({ csrf_token: csrf, sign_in: signInField, decision: 'approve' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    csrf: false,
  });
  expect(consent.status).toBe(303);
  const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
  // The exchange comes from the app's main process; its window (Electron) makes the later calls.
  const exchange = new Client(app.url, { 'user-agent': 'node' });
  const token = await exchange.post('/auth/desktop/token', { code, code_verifier: verifier });
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  const window = new Client(app.url, { 'user-agent': ELECTRON_MAC });
  for (const [k, v] of exchange.cookies) window.cookies.set(k, v);
  return window;
}

const sessionsOf = async (client: Client) => {
  const res = await client.get('/api/account/sessions');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as AccountSessionDto[];
};

describe('sessions in Settings', () => {
  it("lists the user's own sessions, browsers and the desktop app, with the current one marked and no session ids", async () => {
    const email = newEmail('list');
    const laptop = await browser(email, CHROME_LINUX);
    const other = await browser(email, FIREFOX_WINDOWS);
    const stranger = await browser(newEmail('stranger'));
    const desktop = await desktopApp(laptop.client, "Jane's laptop (macOS)");
    expect((await desktop.get('/api/me')).body.data.email).toBe(email);

    const list = await sessionsOf(laptop.client);
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({ current: true, device: 'Chrome 131 on Linux', desktop: false, device_name: null });
    expect(list[0]!.ip).toMatch(/127\.0\.0\.1$/);
    expect(list[0]!.signed_in_at).toBeGreaterThan(Date.now() - 60_000);
    expect(list[0]!.last_seen_at).toBeGreaterThanOrEqual(list[0]!.signed_in_at!);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list.map((s) => s.device).sort()).toEqual(['Cairn desktop on macOS', 'Chrome 131 on Linux', 'Firefox 133 on Windows']);
    expect(list.find((s) => s.desktop)).toMatchObject({ device_name: "Jane's laptop (macOS)", current: false });
    // The public ids name sessions without being their ids (a session id is a credential).
    const sids = (await app.db('sessions').where({ user_id: laptop.id }).select('sid')).map((r) => r.sid as string);
    expect(sids).toHaveLength(3);
    for (const sid of sids) expect(JSON.stringify(list)).not.toContain(sid);
    // Each user sees their own alone.
    expect((await sessionsOf(stranger.client)).map((s) => s.device)).toEqual(['Chrome 131 on Linux']);
    expect((await sessionsOf(other.client)).find((s) => s.current)?.device).toBe('Firefox 133 on Windows');
  });

  it('ends one of its own sessions; another user’s session, an unknown id and the current one are refused and nothing changes', async () => {
    const email = newEmail('end');
    const a = await browser(email);
    const b = await browser(email, FIREFOX_WINDOWS);
    const stranger = await browser(newEmail('stranger'));
    const strangerSession = (await sessionsOf(stranger.client))[0]!;
    const before = await app.db('sessions').count({ n: '*' });

    // Someone else's session: 404, as if it did not exist.
    const foreign = await a.client.delete(`/api/account/sessions/${strangerSession.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toEqual({ code: 'not_found', message: accountMessages.sessionNotFound });
    for (const bad of ['nope', 'x'.repeat(22), 'a'.repeat(500)]) expect((await a.client.delete(`/api/account/sessions/${bad}`)).status).toBe(404);
    const current = (await sessionsOf(a.client)).find((s) => s.current)!;
    const self = await a.client.delete(`/api/account/sessions/${current.id}`);
    expect(self.status).toBe(400);
    expect(self.body.error.message).toBe(accountMessages.currentSession);
    // Without the CSRF token: refused.
    const bSession = (await sessionsOf(a.client)).find((s) => !s.current)!;
    expect((await a.client.request('DELETE', `/api/account/sessions/${bSession.id}`, { csrf: false })).status).toBe(403);
    expect(await app.db('sessions').count({ n: '*' })).toEqual(before);
    expect((await stranger.client.get('/api/me')).status).toBe(200);

    const ended = await a.client.delete(`/api/account/sessions/${bSession.id}`);
    expect(ended.status).toBe(200);
    expect((await b.client.get('/api/me')).status).toBe(401);
    expect((await a.client.get('/api/me')).status).toBe(200);
    expect((await sessionsOf(a.client)).map((s) => s.current)).toEqual([true]);
    expect((await a.client.delete(`/api/account/sessions/${bSession.id}`)).status).toBe(404);
  });

  it('signs out everywhere else, keeping the current session and other users’ sessions', async () => {
    const email = newEmail('others');
    const a = await browser(email);
    const b = await browser(email, FIREFOX_WINDOWS);
    const desktop = await desktopApp(a.client, 'Build box (Linux)');
    const stranger = await browser(newEmail('stranger'));

    const res = await a.client.post('/api/account/sessions/sign-out-others');
    expect(res.body).toEqual({ data: { ended: 2, message: accountMessages.signedOutOthers(2) } });
    expect((await a.client.get('/api/me')).status).toBe(200);
    expect((await b.client.get('/api/me')).status).toBe(401);
    expect((await desktop.get('/api/me')).status).toBe(401);
    expect((await stranger.client.get('/api/me')).status).toBe(200);
    expect((await sessionsOf(a.client)).length).toBe(1);
    expect((await a.client.post('/api/account/sessions/sign-out-others')).body.data).toEqual({ ended: 0, message: accountMessages.signedOutOthers(0) });
    expect((await new Client(app.url).post('/api/account/sessions/sign-out-others')).status).toBe(401);
  });
});

describe('sessions in Settings, a page at a time', () => {
  it('lists the current session first, then the most recently seen, those never seen last, by cursor to the last page', async () => {
    const me = await browser(newEmail('pages'));
    const someoneElse = await browser(newEmail('pages-other'));
    const now = Date.now();
    const expires = now + 86_400_000;
    const row = (sid: string, userId: number, lastSeen: number | null, expiresAt = expires) => ({
      sid,
      sess: JSON.stringify({ cookie: {}, passport: { user: userId } }),
      expires_at: expiresAt,
      user_id: userId,
      ip: '192.0.2.1',
      user_agent: FIREFOX_WINDOWS,
      desktop: false,
      signed_in_at: now - 3_600_000,
      last_seen_at: lastSeen,
    });
    // Four seen at the same millisecond (a page boundary falls among them), four at times of their
    // own, three never seen; one ended already and two of another user, neither listed.
    const tied = Array.from({ length: 4 }, () => `page-${crypto.randomUUID()}`);
    const spread = Array.from({ length: 4 }, () => `page-${crypto.randomUUID()}`);
    const unseen = Array.from({ length: 3 }, () => `page-${crypto.randomUUID()}`);
    await app.db('sessions').insert([
      ...tied.map((sid) => row(sid, me.id, now - 120_000)),
      ...spread.map((sid, i) => row(sid, me.id, now - 60_000 * (i * 4 + 1))),
      ...unseen.map((sid) => row(sid, me.id, null)),
      row(`page-${crypto.randomUUID()}`, me.id, now - 1000, now - 1),
      row(`page-${crypto.randomUUID()}`, someoneElse.id, now - 1000),
      row(`page-${crypto.randomUUID()}`, someoneElse.id, null),
    ]);
    const sids = [...tied, ...spread, ...unseen];

    for (const limit of [1, 2, 3, 5, 50]) {
      const listed: AccountSessionDto[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: { status: number; body: { data: AccountSessionDto[]; next: string | null } } = await me.client.get(`/api/account/sessions?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data.length).toBeLessThanOrEqual(limit);
        if (res.body.next) expect(res.body.data).toHaveLength(limit);
        // A cursor never carries a session id (a credential).
        for (const sid of sids) expect(Buffer.from(String(res.body.next ?? ''), 'base64url').toString()).not.toContain(sid);
        listed.push(...res.body.data);
        cursor = res.body.next;
        pages++;
      } while (cursor && pages < 20);
      expect(cursor, `limit ${limit}`).toBeNull();
      expect(listed, `limit ${limit}`).toHaveLength(12);
      expect(new Set(listed.map((s) => s.id)).size, `limit ${limit}`).toBe(12);
      expect(listed[0]!.current, `limit ${limit}`).toBe(true);
      expect(listed.slice(1).every((s) => !s.current)).toBe(true);
      const seen = listed.slice(1).map((s) => s.last_seen_at);
      expect(seen, `limit ${limit}`).toEqual([now - 60_000, now - 120_000, now - 120_000, now - 120_000, now - 120_000, now - 300_000, now - 540_000, now - 780_000, null, null, null]);
    }
    expect((await me.client.get('/api/account/sessions')).body.next).toBeNull();
    // The list's public ids end the sessions listed on a later page too.
    const later = (await me.client.get(`/api/account/sessions?limit=2&cursor=${encodeURIComponent((await me.client.get('/api/account/sessions?limit=10')).body.next)}`)).body.data as AccountSessionDto[];
    expect(later).toHaveLength(2);
    expect((await me.client.delete(`/api/account/sessions/${later[0]!.id}`)).status).toBe(200);
    expect(Number((await app.db('sessions').whereIn('sid', sids).count({ n: '*' }))[0]!.n)).toBe(10);
  });

  it('refuses a bad limit or cursor with 400 and a clear message', async () => {
    const me = await browser(newEmail('pages-bad'));
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'limit=2.5']) {
      const res = await me.client.get(`/api/account/sessions?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid', message: 'limit must be a whole number from 1 to 100.' });
    }
    const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const cursor of ['', 'not%20base64!', Buffer.from('not json').toString('base64url'), encode([1]), encode(['1', 0]), encode([-2, 0]), encode([5, -1]), encode([5, 0.5]), 'A'.repeat(401)]) {
      const res = await me.client.get(`/api/account/sessions?cursor=${cursor}`);
      expect(res.status, cursor).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid', message: 'cursor must be the next of a previous page.' });
    }
  });
});

describe('the session store keeps last seen cheap', () => {
  const call = (fn: (cb: (err?: unknown) => void) => void) => new Promise<void>((resolve, reject) => fn((err) => (err ? reject(err) : resolve())));
  const sess = (expires: number, signedInAt: number) =>
    ({
      cookie: { expires: new Date(expires), originalMaxAge: 30 * DAY_MS },
      passport: { user: 424242 },
      client: { signedInAt, ip: '127.0.0.1', userAgent: CHROME_LINUX, desktop: false, deviceName: null },
    }) as unknown as session.SessionData;
  const row = (sid: string) => app.db('sessions').where({ sid }).first('user_id', 'ip', 'user_agent', 'last_seen_at');

  it('writes last seen and the latest address with the expiry, at most once a minute, and never writes an ended session back', async () => {
    const store = new DbSessionStore(app.db, 30 * DAY_MS);
    try {
      const start = Date.now() + 30 * DAY_MS;
      const sid = `seen-${crypto.randomUUID()}`;
      await call((cb) => store.set(sid, sess(start, Date.now()), cb));
      const first = await row(sid);
      expect(first).toMatchObject({ user_id: 424242, ip: '127.0.0.1', user_agent: CHROME_LINUX });
      store.noteRequest(sid, '127.0.0.2', FIREFOX_WINDOWS);
      await call((cb) => store.touch(sid, sess(start + TOUCH_AFTER_MS - 1, Date.now()), cb));
      expect(await row(sid)).toEqual(first);
      await call((cb) => store.touch(sid, sess(start + TOUCH_AFTER_MS + 5, Date.now()), cb));
      const later = await row(sid);
      expect(later).toMatchObject({ ip: '127.0.0.2', user_agent: FIREFOX_WINDOWS });
      expect(Number(later.last_seen_at)).toBeGreaterThanOrEqual(Number(first.last_seen_at));

      // Ended from Settings while a request of it was still running: that request's save does not bring it back.
      const old = `ended-${crypto.randomUUID()}`;
      await call((cb) => store.set(old, sess(start, Date.now() - INSERT_WINDOW_MS - 1000), cb));
      expect(await row(old)).toBeUndefined();
    } finally {
      store.close();
    }
  });
});

describe('sessions from before sessions had owners', () => {
  it('get their user from the session JSON, so they are listed and can be ended; anonymous and unreadable ones stay as they are', async () => {
    const user = await browser(newEmail('legacy'));
    const expires = Date.now() + 86_400_000;
    const legacy = `legacy-${crypto.randomUUID()}`;
    const anonymous = `anon-${crypto.randomUUID()}`;
    const broken = `broken-${crypto.randomUUID()}`;
    await app.db('sessions').insert([
      { sid: legacy, sess: JSON.stringify({ cookie: {}, passport: { user: user.id } }), expires_at: expires },
      { sid: anonymous, sess: JSON.stringify({ cookie: {}, csrfToken: 'x' }), expires_at: expires },
      { sid: broken, sess: '{"passport": nope', expires_at: expires },
    ]);
    await fillSessionOwners.up(app.db);
    const owners = await app.db('sessions').whereIn('sid', [legacy, anonymous, broken]).orderBy('sid').select('sid', 'user_id');
    expect(Object.fromEntries(owners.map((r) => [r.sid, r.user_id]))).toEqual({ [legacy]: user.id, [anonymous]: null, [broken]: null });
    const list = await sessionsOf(user.client);
    expect(list).toHaveLength(2);
    expect(list.find((s) => !s.current)).toMatchObject({ device: 'Unknown browser', ip: null, signed_in_at: null, last_seen_at: null });
    expect((await user.client.post('/api/account/sessions/sign-out-others')).body.data.ended).toBe(1);
    expect(await app.db('sessions').where({ sid: legacy }).first()).toBeUndefined();
    await app.db('sessions').whereIn('sid', [anonymous, broken]).delete();
  });
});

/** Every table and its columns, from the database itself, so a table added later is checked too. */
async function tablesAndColumns(db: Db): Promise<Map<string, string[]>> {
  const names: string[] = isPostgres(db)
    ? (await db.raw("select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'")).rows.map((r: { name: string }) => r.name)
    : (await db.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")).map((r: { name: string }) => r.name);
  const out = new Map<string, string[]>();
  for (const name of names.filter((t) => !t.startsWith('knex_'))) out.set(name, Object.keys(await db(name).columnInfo()));
  return out;
}

const USER_COLUMN = /^(user_id|owner_id|.*_by|.*_user_id|actor_id)$/;

describe('deleting the account', () => {
  it('is refused with the reason while the user owns a workspace with other members, and changes nothing', async () => {
    const owner = await browser(newEmail('owner'));
    const member = await browser(newEmail('member'));
    await setSubscription(app.db, owner.id, 'DEVELOPER', 'active');
    await makeWorkspace(app.db, owner.id, [{ userId: member.id, role: 'collaborator' }], 'Team Nebula');

    const plan = await owner.client.get('/api/account/deletion');
    expect(plan.body.data).toMatchObject({ allowed: false, blockers: [{ name: 'Team Nebula', members: 2 }], workspacesDeleted: [{ name: 'My Workspace', projects: 0 }], cancelsSubscription: 'DEVELOPER' });

    const res = await owner.client.request('DELETE', '/api/account', { body: { confirmation: owner.email } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'account_has_shared_workspaces', message: accountMessages.blocked(['Team Nebula']), details: { blockers: [{ name: 'Team Nebula', members: 2 }] } });
    expect(res.body.error.message).toContain('Transfer ownership');

    // Wrong confirmation, no token, no body: clear refusals.
    const solo = await browser(newEmail('solo'));
    const wrong = await solo.client.request('DELETE', '/api/account', { body: { confirmation: 'someone@else.example' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toBe(accountMessages.confirmationMismatch);
    expect((await solo.client.request('DELETE', '/api/account', { body: {} })).status).toBe(400);
    expect((await solo.client.request('DELETE', '/api/account', { body: { confirmation: solo.email }, csrf: false })).status).toBe(403);
    expect((await new Client(app.url).request('DELETE', '/api/account', { body: { confirmation: solo.email } })).status).toBe(401);

    expect((await owner.client.get('/api/me')).status).toBe(200);
    expect((await solo.client.get('/api/me')).status).toBe(200);
    expect(await app.db('users').whereIn('id', [owner.id, solo.id]).count({ n: '*' })).toEqual([{ n: 2 }]);
  });

  it('removes every row that names the user, signs them out everywhere, and leaves other people’s workspaces and data alone', async () => {
    const email = newEmail('leaving');
    const user = await browser(email);
    const second = await browser(email, FIREFOX_WINDOWS);
    const desktop = await desktopApp(user.client, 'Old mac (macOS)');
    const friend = await browser(newEmail('friend'));
    await setSubscription(app.db, friend.id, 'DEVELOPER', 'active');
    await setSubscription(app.db, user.id, 'DEVELOPER', 'active');
    const now = Date.now();

    // Their own workspaces, with projects: deleted with them.
    const own = (await user.client.get('/api/workspaces')).body.data[0].id as number;
    const ownProject = await makeProject(app.db, own, 'Mine');
    const second_ws = await makeWorkspace(app.db, user.id, [], 'Side project');
    await makeProject(app.db, second_ws, 'Side');
    // A friend's workspace they belong to, an invitation they sent from there, one they received, and an order they placed there.
    const friendsWs = await makeWorkspace(app.db, friend.id, [{ userId: user.id, role: 'administrator' }], 'Friend HQ');
    const friendsProject = await makeProject(app.db, friendsWs, 'Friend project');
    await app.db('workspace_invitations').insert([
      { id: crypto.randomUUID(), workspace_id: friendsWs, token_hash: crypto.randomBytes(32).toString('hex'), email: `invitee-${n}@account.example`, role: 'collaborator', invited_by: user.id, created_at: now, expires_at: now + 86_400_000 },
      { id: crypto.randomUUID(), workspace_id: friendsWs, token_hash: crypto.randomBytes(32).toString('hex'), email, role: 'maintainer', invited_by: friend.id, created_at: now, expires_at: now + 86_400_000 },
    ]);
    const [order] = await app
      .db('ppu_orders')
      .insert({ workspace_id: friendsWs, user_id: user.id, network: 'cardano-preprod', requests: 100000, price_per_unit_eur: 0.0000024, ada_eur_rate: 0.5, total_eur: 0.24, lovelace: 480000, status: 'expired', created_at: now, expires_at: now })
      .returning('id');
    const orderId = typeof order === 'object' ? (order as { id: number }).id : (order as number);
    await user.client.put('/api/customer/settings', { marketing_consent: true });
    await app.db('oauth_accounts').insert({ user_id: user.id, provider: 'github', provider_user_id: `gh-${n}`, email, created_at: now });
    await user.client.post('/auth/signin/email', { email, callbackUrl: '/dashboard' }); // an unspent sign-in link and a throttle count
    await app.db('community_endpoints').insert({ user_id: user.id, url: `http://127.0.0.1:9/${n}`, payment_address: 'addr_test1', network: 'cardano-preprod', status: 'pending', checked_at: now, created_at: now, updated_at: now });
    await app.db('quota_usage').insert({ user_id: user.id, day_ms: now - (now % 86_400_000), requests: 5 }).onConflict(['user_id', 'day_ms']).ignore();

    const res = await user.client.request('DELETE', '/api/account', { body: { confirmation: `  ${email.toUpperCase()} ` } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ deleted: true, redirect: '/auth/signin' });

    // Signed out everywhere: this browser, the other one and the desktop app.
    for (const c of [user.client, second.client, desktop]) expect((await c.get('/api/me')).status).toBe(401);
    expect(await app.db('sessions').where({ user_id: user.id }).count({ n: '*' })).toEqual([{ n: 0 }]);

    // No row in any table names the user, by id or by e-mail.
    const offenders: string[] = [];
    for (const [table, columns] of await tablesAndColumns(app.db)) {
      for (const column of columns.filter((c) => USER_COLUMN.test(c))) {
        const found = await app.db(table).where(column, user.id).count({ n: '*' });
        if (Number(found[0]!.n) > 0) offenders.push(`${table}.${column}`);
      }
      const rows = await app.db(table).select('*');
      if (JSON.stringify(rows).toLowerCase().includes(email.toLowerCase())) offenders.push(`${table} (e-mail)`);
      if (table === 'sessions' && rows.some((r) => String(r.sess).includes(`"user":${user.id}}`))) offenders.push('sessions.sess');
    }
    expect(offenders).toEqual([]);

    // Their workspaces went the way deleting a workspace goes; the friend's stays whole, the order without their name.
    expect(await app.db('workspaces').whereIn('id', [own, second_ws]).count({ n: '*' })).toEqual([{ n: 0 }]);
    expect(await app.db('projects').where({ uuid: ownProject }).first()).toBeUndefined();
    expect(await app.db('projects').where({ uuid: friendsProject }).first('name')).toEqual({ name: 'Friend project' });
    expect((await friend.client.get(`/api/workspaces/${friendsWs}/members`)).body.data.map((m: { email: string }) => m.email)).toEqual([friend.email]);
    expect(await app.db('ppu_orders').where({ id: orderId }).first('user_id', 'status')).toEqual({ user_id: null, status: 'expired' });
    expect((await friend.client.get('/api/me')).status).toBe(200);
    const sent = await app.db('workspace_invitations').where({ workspace_id: friendsWs }).select('email', 'invited_by');
    expect(sent).toEqual([{ email: `invitee-${n}@account.example`, invited_by: null }]);

    // The address can sign up again, as a new account.
    const again = await browser(email);
    expect(again.id).not.toBe(user.id);
  });
});

describe('downloading one’s data', () => {
  it('answers a JSON attachment of the user’s own data, without tokens, keys or session ids', async () => {
    const email = newEmail('export');
    const user = await browser(email);
    const other = await browser(email, FIREFOX_WINDOWS);
    const friend = await browser(newEmail('friend'));
    await setSubscription(app.db, friend.id, 'DEVELOPER', 'active');
    const own = (await user.client.get('/api/workspaces')).body.data[0].id as number;
    const project = await makeProject(app.db, own, 'Exported project');
    const friendsWs = await makeWorkspace(app.db, friend.id, [{ userId: user.id, role: 'maintainer' }], 'Friend HQ');
    await makeProject(app.db, friendsWs, 'Friend project');
    await setSubscription(app.db, user.id, 'DEVELOPER', 'active');
    await app.db('oauth_accounts').insert({ user_id: user.id, provider: 'gitlab', provider_user_id: `gl-${n}`, email, created_at: Date.now() });
    await user.client.put('/api/customer/settings', { marketing_consent: false });
    const invitation = await user.client.post(`/api/workspaces/${own}/invitations`, { email: `colleague-${n}@account.example`, role: 'collaborator' });

    const res = await user.client.get('/api/account/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="cairn-account-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = res.body;
    expect(data.profile).toEqual({ id: user.id, email, created_at: expect.any(Number) });
    expect(data.sign_in_providers).toEqual([{ provider: 'gitlab', email, linked_at: expect.any(Number) }]);
    expect(data.settings).toEqual({ marketing_consent: false });
    expect(data.memberships).toEqual([
      { workspace_id: own, workspace: 'My Workspace', role: 'owner', owner_email: email, joined_at: expect.any(Number) },
      { workspace_id: friendsWs, workspace: 'Friend HQ', role: 'maintainer', owner_email: friend.email, joined_at: expect.any(Number) },
    ]);
    expect(data.owned_workspaces).toEqual([{ id: own, name: 'My Workspace', created_at: expect.any(Number), projects: [{ uuid: project, name: 'Exported project', network: 'Cardano mainnet', created_at: expect.any(Number) }] }]);
    expect(data.sessions).toHaveLength(2);
    expect(data.sessions.find((s: { current: boolean }) => s.current)).toMatchObject({ device: 'Chrome 131 on Linux' });
    expect(invitation.status, JSON.stringify(invitation.body)).toBeLessThan(300);
    expect(data.invitations.sent).toEqual([expect.objectContaining({ workspace: 'My Workspace', email: `colleague-${n}@account.example`, role: 'collaborator' })]);
    expect(data.invitations.received).toEqual([]);

    // Nothing in it signs anyone in or calls the API.
    const text = res.text;
    const secrets = [
      ...(await app.db('sessions').where({ user_id: user.id }).select('sid')).map((r) => r.sid as string),
      ...(await app.db('projects').where({ workspace_id: own }).select('project_id')).map((r) => r.project_id as string),
      ...(await app.db('workspace_invitations').where({ workspace_id: own }).select('token_hash')).map((r) => r.token_hash as string),
      ...(await app.db('magic_link_tokens').where({ email }).select('token_hash')).map((r) => r.token_hash as string),
    ];
    expect(secrets.length).toBeGreaterThan(2);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/csrf|token_hash|project_id|"sid"/i);
    // Only their own: the friend's projects and sessions are not in it.
    expect(text).not.toContain('Friend project');
    expect((await other.client.get('/api/account/export')).status).toBe(200);

    // Signed out: to sign-in and back, never a JSON error page.
    const visitor = await new Client(app.url).get('/api/account/export');
    expect(visitor.status).toBe(303);
    expect(visitor.headers.get('location')).toMatch(/^\/auth\/signin\?/);
  });
});
