// The gateway's own reads of an upstream, against small HTTP servers on loopback: the tip read once
// per its interval whoever asks, a failing upstream passed over for the next (a submit sent once),
// each upstream sent its own credentials, a 429's Retry-After kept.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryAfterMs, UpstreamError, UpstreamReader } from '../../../../server/gateway/upstream-reader';

interface Seen {
  server: string;
  method: string;
  path: string;
  key: string | undefined;
}
const seen: Seen[] = [];
const answers: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void> = {};
const servers: http.Server[] = [];
const urls: Record<string, string> = {};

async function serve(name: string): Promise<void> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ server: name, method: req.method!, path: req.url!, key: req.headers['x-key'] as string | undefined });
      answers[name]!(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v0`;
}
const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

beforeAll(async () => {
  await serve('first');
  await serve('second');
});
afterAll(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
});

const block = (height: number) => ({ height, hash: String(height).padStart(64, '0'), slot: height, time: height, previous_block: null });

describe('UpstreamReader', () => {
  it('reads the tip once per interval, however many ask, and again after it', async () => {
    let height = 10;
    answers.first = (_req, res) => json(res, 200, block(height++));
    let now = 1_000;
    const reader = new UpstreamReader({ upstreams: () => [{ url: urls.first!, auth: { name: 'x-key', value: 'operator' } }], timeoutMs: 2000, tipMs: 500, now: () => now });
    seen.length = 0;
    const [a, b] = await Promise.all([reader.latest(), reader.latest()]);
    expect(a).toEqual(b);
    expect((await reader.latest()).height).toBe(10);
    now += 499;
    expect((await reader.latest()).height).toBe(10);
    now += 1;
    expect((await reader.latest()).height).toBe(11);
    expect(reader.lastTip()?.height).toBe(11);
    expect(seen.map((s) => [s.path, s.key])).toEqual([
      ['/api/v0/blocks/latest', 'operator'],
      ['/api/v0/blocks/latest', 'operator'],
    ]);
  });

  it('passes a failing upstream over for the next, each with its own credentials, answers null for a 404, and sends a submit once', async () => {
    answers.first = (_req, res) => json(res, 503, { message: 'down' });
    answers.second = (req, res) => (req.url!.includes('/nothing') ? json(res, 404, { message: 'not found' }) : json(res, 200, { ok: req.url }));
    const reader = new UpstreamReader({ upstreams: () => [{ url: urls.first!, auth: { name: 'x-key', value: 'operator' } }, { url: urls.second!, auth: null }], timeoutMs: 2000, tipMs: 500 });
    seen.length = 0;
    expect(await reader.get('/blocks/1')).toEqual({ ok: '/api/v0/blocks/1' });
    expect(await reader.get('/nothing')).toBeNull();
    expect(seen.map((s) => [s.server, s.key])).toEqual([
      ['first', 'operator'],
      ['second', undefined],
      ['first', 'operator'],
      ['second', undefined],
    ]);
    seen.length = 0;
    await expect(reader.post('/tx/submit', new Uint8Array([0x84]))).rejects.toMatchObject({ status: 503 });
    expect(seen.map((s) => s.server)).toEqual(['first']);
    // None answering: the error says so.
    answers.second = (_req, res) => res.destroy();
    await expect(reader.get('/blocks/2')).rejects.toBeInstanceOf(UpstreamError);
    await expect(new UpstreamReader({ upstreams: () => [], timeoutMs: 100, tipMs: 100 }).get('/x')).rejects.toThrow('the network has no upstream');
  });

  it("stops at a 429 with the wait it asks for, in seconds or as a date", async () => {
    answers.first = (_req, res) => json(res, 429, { message: 'slow down' }, { 'retry-after': '7' });
    const reader = new UpstreamReader({ upstreams: () => [{ url: urls.first!, auth: null }, { url: urls.second!, auth: null }], timeoutMs: 2000, tipMs: 500 });
    seen.length = 0;
    await expect(reader.get('/blocks/3')).rejects.toMatchObject({ status: 429, retryAfterMs: 7000 });
    expect(seen.map((s) => s.server)).toEqual(['first']);
    expect(retryAfterMs(new Date(61_000).toUTCString(), 1_000)).toBe(60_000);
    expect(retryAfterMs('soon', 0)).toBeNull();
    expect(retryAfterMs(null, 0)).toBeNull();
  });
});
