import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
  at: number;
}

/** A local HTTP endpoint for webhooks; `respond` decides each answer's status (200 by default). */
export async function startReceiver(host = '127.0.0.1') {
  const received: Received[] = [];
  const state = { respond: (_r: Received): number | 'hang' => 200, delayMs: 0 };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        body = null;
      }
      const r = { headers: req.headers, raw, body, at: Date.now() };
      received.push(r);
      const status = state.respond(r);
      if (status === 'hang') return;
      if (state.delayMs > 0) {
        setTimeout(() => res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok thanks' : `nope ${status}`), state.delayMs);
        return;
      }
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok thanks' : `nope ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}/hook`,
    port,
    received,
    state,
    async waitFor(pred: (r: Received[]) => boolean, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      while (!pred(received)) {
        if (Date.now() > end) throw new Error(`receiver: condition not met within ${timeoutMs} ms (got ${received.length})`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
