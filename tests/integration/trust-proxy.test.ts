import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';

// TRUST_PROXY names the proxies in front of Cairn; only their hops of X-Forwarded-For are believed.
// A client reaching a trusted proxy writes its own X-Forwarded-For, which the proxy extends with the
// address it saw: '127.0.0.1, 203.0.113.9' is a remote client pretending to be this machine.
const app = useTestApp();

const FORGED = '127.0.0.1, 203.0.113.9';

async function withApp(env: Record<string, string>, run: (url: string) => Promise<void>): Promise<void> {
  const started = await startTestApp({ env, database: app.database });
  try {
    await run(started.url);
  } finally {
    await started.stop();
  }
}

const mailbox = (url: string, xff?: string) => fetch(url + '/dev/mailbox.json', { headers: { accept: 'application/json', ...(xff ? { 'x-forwarded-for': xff } : {}) } });

describe('TRUST_PROXY', () => {
  it('refuses true at start-up, naming the variable and the forms it takes', async () => {
    let started: Awaited<ReturnType<typeof startTestApp>> | undefined;
    try {
      started = await startTestApp({ env: { TRUST_PROXY: 'true' }, database: app.database });
    } catch (err) {
      expect((err as Error).message).toMatch(/TRUST_PROXY must be false, the number of proxies in front of Cairn \(e\.g\. 1\), or their addresses\/CIDRs/);
      return;
    }
    // Started: show what it let through before failing.
    const res = await mailbox(started.url, FORGED);
    await started.stop();
    expect.fail(`TRUST_PROXY=true was accepted, and a forged '${FORGED}' got ${res.status} from /dev/mailbox.json`);
  });

  it.each([['1'], ['loopback'], ['127.0.0.1/8'], ['2']])('TRUST_PROXY=%s: a forged left-most 127.0.0.1 does not reach the loopback-only /dev tools', async (tp) => {
    await withApp({ TRUST_PROXY: tp }, async (url) => {
      // With two hops trusted, the proxy nearer the client appended the real address second to last.
      const forged = tp === '2' ? `${FORGED}, 127.0.0.1` : FORGED;
      const res = await mailbox(url, forged);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/loopback/);
      // A local client through the local proxy still is one.
      expect((await mailbox(url, tp === '2' ? '127.0.0.1, 127.0.0.1' : '127.0.0.1')).status).toBe(200);
    });
  });

  it('TRUST_PROXY=false: the header is not read at all; the TCP peer decides', async () => {
    await withApp({ TRUST_PROXY: 'false' }, async (url) => {
      expect((await mailbox(url, FORGED)).status).toBe(200);
      expect((await mailbox(url, '203.0.113.9')).status).toBe(200);
    });
  });

  // (Each setting speaks for clients of its own: the throttle's counts are in the shared database.)
  it.each([['1', '198.51.100.50'], ['loopback', '198.51.100.60']])('TRUST_PROXY=%s: a rotating left-most entry does not escape the sign-in throttle', async (tp, client) => {
    await withApp({ TRUST_PROXY: tp, SIGNIN_LINKS_PER_IP: '3' }, async (url) => {
      const c = new Client(url);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await c.request('POST', '/auth/signin/email', { body: { email: `rotate-${tp}-${i}@throttle.example` }, headers: { 'x-forwarded-for': `10.9.8.${i}, ${client}` } });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      // Another real client (another address appended by the proxy) has its own allowance.
      const other = await c.request('POST', '/auth/signin/email', { body: { email: `other-${tp}@throttle.example` }, headers: { 'x-forwarded-for': `10.9.8.1, ${client}1` } });
      expect(other.status).toBe(200);
    });
  });
});
