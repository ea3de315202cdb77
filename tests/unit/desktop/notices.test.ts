import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NoticeStream, NoticeThrottle, SseParser, nativeNotification } from '../../../desktop/main/notices';
import type { WebhookNotice } from '../../../shared/webhook-notices';

const notice = (id: number, kind: WebhookNotice['kind'] = 'delivery_failed', webhookId = 'w1'): WebhookNotice => ({
  id,
  kind,
  webhookId,
  webhookName: 'Payments hook',
  workspaceId: 1,
  at: 1_700_000_000_000,
  statusCode: 502,
  error: null,
});
const frame = (n: WebhookNotice) => `id: ${n.id}\nevent: webhook.${n.kind}\ndata: ${JSON.stringify(n)}\n\n`;

describe('SseParser', () => {
  it('reads events split anywhere, with CRLF, comments, multi-line data and a remembered id', () => {
    const parser = new SseParser();
    const text = ': connected\r\nretry: 5000\r\n\r\nid: 7\r\nevent: webhook.warning\r\ndata: {"a":\r\ndata: 1}\r\n\r\ndata: no id here\n\n';
    const events = [...text].flatMap((c) => parser.feed(c));
    expect(events).toEqual([
      { id: '7', event: 'webhook.warning', data: '{"a":\n1}' },
      { id: '7', event: 'message', data: 'no id here' },
    ]);
  });
});

describe('NoticeThrottle', () => {
  it('lets one notification per webhook through per hour', () => {
    const throttle = new NoticeThrottle();
    expect(throttle.allow('a', 0)).toBe(true);
    expect(throttle.allow('a', 59 * 60_000)).toBe(false);
    expect(throttle.allow('b', 59 * 60_000)).toBe(true);
    expect(throttle.allow('a', 60 * 60_000)).toBe(true);
  });
});

describe('nativeNotification', () => {
  it("words the notice and opens the webhook's page on the Cairn origin", () => {
    expect(nativeNotification(notice(1, 'disabled', 'a/b'), 'https://cairn.example')).toEqual({
      title: 'Webhook disabled: Payments hook',
      body: expect.stringContaining('failed for 5 days'),
      url: 'https://cairn.example/dashboard/webhooks/a%2Fb',
    });
    expect(nativeNotification(notice(2), 'https://cairn.example').body).toContain('HTTP 502');
  });
});

describe('NoticeStream', () => {
  let server: http.Server | null = null;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r) ?? r(undefined));
    server = null;
  });

  it('listens with the session cookie, resumes with Last-Event-ID after the connection drops, skips other events', async () => {
    const requests: Array<{ cookie?: string; lastEventId?: string }> = [];
    server = http.createServer((req, res) => {
      requests.push({ cookie: req.headers.cookie, lastEventId: req.headers['last-event-id'] as string | undefined });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (requests.length === 1) {
        res.end(`: connected\n\n${frame(notice(1))}event: something.else\nid: 2\ndata: {}\n\n${frame(notice(3, 'warning'))}`);
      } else {
        res.write(frame(notice(4, 'disabled')));
      }
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const heard: WebhookNotice[] = [];
    const stream = new NoticeStream({ cairnOrigin: origin, sessionCookie: async () => 'cairn.sid=abc', onNotice: (n) => heard.push(n), retryMs: 20 });
    stream.start();
    await expect.poll(() => heard.length).toBe(3);
    await stream.stop();
    expect(heard.map((n) => [n.id, n.kind])).toEqual([
      [1, 'delivery_failed'],
      [3, 'warning'],
      [4, 'disabled'],
    ]);
    expect(requests[0]).toEqual({ cookie: 'cairn.sid=abc', lastEventId: undefined });
    expect(requests[1]).toEqual({ cookie: 'cairn.sid=abc', lastEventId: '3' });
  });

  it('does not call the server while signed out', async () => {
    const fetchImpl = vi.fn();
    // Each look for a session is counted: three of them, each answered 'signed out', and no call.
    const sessionCookie = vi.fn(async () => null);
    const stream = new NoticeStream({ cairnOrigin: 'http://127.0.0.1:9', sessionCookie, onNotice: () => undefined, fetchImpl, signedOutPollMs: 10 });
    stream.start();
    await vi.waitFor(() => expect(sessionCookie.mock.calls.length).toBeGreaterThanOrEqual(3));
    await stream.stop();
    expect(fetchImpl).not.toHaveBeenCalled();
  });
});
