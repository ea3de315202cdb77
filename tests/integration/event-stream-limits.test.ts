// GET /api/events holds a connection and polls the database once a second per stream, so the streams
// one user and one client IP may hold open at once are capped; one more is refused with 429 in the
// error shape, and a closed stream frees its slot.
import { afterEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';

// A trusted local proxy, so each test can speak for a client IP of its own.
const app = useTestApp({ env: { TRUST_PROXY: 'loopback' } });

const opened: AbortController[] = [];
// The open answers are kept: undici cancels the body of a response that is garbage collected unread,
// which would close its stream and free a slot in the middle of a test.
const answered: Response[] = [];
afterEach(() => {
  for (const c of opened.splice(0)) c.abort();
  answered.splice(0);
});

/** Opens a stream as EventSource would; answers its status and, when refused, its JSON body. */
async function open(client: Client, ip: string) {
  const controller = new AbortController();
  opened.push(controller);
  const res = await fetch(`${app.url}/api/events`, {
    headers: { accept: 'text/event-stream', 'x-forwarded-for': ip, cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    signal: controller.signal,
  });
  answered.push(res);
  const body = res.status === 200 ? null : ((await res.json()) as unknown);
  return { status: res.status, body, close: () => controller.abort() };
}

const signedIn = async (email: string) => {
  const c = new Client(app.url);
  await signIn(c, app.mailer, email);
  return c;
};

describe('event streams open at once', () => {
  it('one session asking for 200 gets 5 (the default per user), the rest 429; a closed one frees its slot', async () => {
    const c = await signedIn('many-streams@example.com');
    const answers = await Promise.all(Array.from({ length: 200 }, () => open(c, '203.0.113.1')));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(5);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: { code: 'too_many_streams', message: expect.stringContaining('5 event streams') } });
    }

    ok[0]!.close();
    // The server learns of the close when the socket goes: until then the slot is still taken.
    await expect.poll(async () => (await open(c, '203.0.113.1')).status, { timeout: 5000, interval: 50 }).toBe(200);
    expect((await open(c, '203.0.113.1')).status).toBe(429);
  });

  it('one client IP gets 20 (the default), whoever is signed in; another IP is not affected', async () => {
    const users: Client[] = [];
    for (const i of [1, 2, 3, 4, 5]) users.push(await signedIn(`ip-streams-${i}@example.com`));
    for (const u of users.slice(0, 4)) {
      const answers = await Promise.all(Array.from({ length: 5 }, () => open(u, '203.0.113.2')));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    }
    const refused = await open(users[4]!, '203.0.113.2');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 'too_many_streams', message: expect.stringContaining('network') } });
    expect((await open(users[4]!, '203.0.113.3')).status).toBe(200);
  });
});
