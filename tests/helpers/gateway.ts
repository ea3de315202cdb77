import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { loadConfig, type Config } from '../../server/config';
import { ARTIFACTS } from './db-template';
import { createLogger } from '../../server/logger';
import { startGateway, type GatewayOptions, type RunningGateway } from '../../server/gateway-app';
import type { TestApp } from './test-app';
import type { TestDatabase } from './db-template';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

const scratch: string[] = [];
process.once('exit', () => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A gateway's configuration for a test: over the test app's database, metering flushed only on close,
 * and a DATA_DIR of its own (the embedded IPFS store lives there: two gateways sharing one would
 * collect each other's blocks, each seeing only its own database's pins), removed when the process or
 * the run ends (global-setup.ts).
 */
export function testGatewayConfig(app: Pick<TestApp, never> & { database: Pick<TestDatabase, 'databaseUrl'> }, env: Record<string, string> = {}): Config {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(ARTIFACTS, 'gateway-data-'));
  scratch.push(dataDir);
  return loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: 'x'.repeat(40),
    METERING_FLUSH_MS: '100000',
    DATA_DIR: dataDir,
    ...(app.database.databaseUrl ? { DATABASE_URL: app.database.databaseUrl } : {}),
    ...env,
  });
}

/** A gateway on 127.0.0.1 over the same database as a test app; `options` are startGateway's (e.g. a clock, the sandbox chains it serves). */
export async function startTestGateway(
  app: TestApp & { database: TestDatabase },
  env: Record<string, string> = {},
  redisPrefix?: string,
  options: Pick<GatewayOptions, 'now' | 'drainMs' | 'devnets' | 'chains'> = {},
): Promise<RunningGateway> {
  const config = testGatewayConfig(app, env);
  return startGateway({
    config,
    db: app.db,
    logger: createLogger('silent'),
    version: 'test',
    port: 0,
    host: '127.0.0.1',
    redisPrefix: redisPrefix ?? `cairn-test:${crypto.randomBytes(4).toString('hex')}:`,
    // A connection a test left open holds close() for this long at most.
    drainMs: 5_000,
    ...options,
  });
}

/** One GET through node:http (fetch would drop a Host header), answering status, headers and parsed body. */
export const call = (url: string, key?: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: Headers; body: any }>((resolve, reject) => {
    const req = http.get(url, { headers: { ...(key ? { project_id: key } : {}), ...headers }, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let body: any = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        resolve({ status: res.statusCode ?? 0, headers: h, body });
      });
    });
    req.on('error', reject);
  });

/**
 * One request as a raw HTTP client sends it (any method, any path, '#' included, sent as it is),
 * answering status, headers and the body, parsed when it is JSON.
 */
export const rawRequest = (baseUrl: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    const u = new URL(baseUrl);
    const req = http.request({ host: u.hostname, port: u.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let parsed: any = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // HEAD, or not JSON
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });

/** One request through node:http for the helpers below: its URL, options and body (none for a GET). */
export interface TimedCall {
  url: string;
  options: http.RequestOptions;
  body?: string;
}

const send = (c: TimedCall, onAnswer: (res: http.IncomingMessage, req: http.ClientRequest) => void, onError: (err: Error) => void): void => {
  const req = http.request(c.url, c.options, (res) => onAnswer(res, req));
  req.on('error', onError);
  req.end(c.body);
};

/** The first piece a raw client receives for `request` (an HTTP/1.1 request as text) sent to `baseUrl`'s host and port. */
export const firstPiece = (baseUrl: string, request: string) =>
  new Promise<string>((resolve, reject) => {
    const u = new URL(baseUrl);
    const socket = net.connect(Number(u.port), u.hostname, () => socket.write(request));
    socket.once('data', (chunk) => {
      resolve(chunk.toString('latin1'));
      socket.destroy();
    });
    socket.on('error', reject);
  });

/** Reads an answer whole, calling `release` once its first piece came; `firstBeforeEnd`: that piece came before the end (the answer streamed). */
export const readReleasing = (c: TimedCall, release: () => void) =>
  new Promise<{ firstBeforeEnd: boolean; body: string }>((resolve, reject) =>
    send(
      c,
      (res) => {
        let body = '';
        let released = false;
        res.setEncoding('latin1');
        res.on('data', (piece: string) => {
          body += piece;
          if (!released) {
            released = true;
            release();
          }
        });
        res.on('end', () => resolve({ firstBeforeEnd: released, body }));
      },
      reject,
    ),
  );

/** Leaves once the answer began, then waits for `closed` (the backend's sign that its request was given up); fails after 2 s. */
export async function leaveMidAnswer(c: TimedCall, closed: Promise<void>): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    send(
      c,
      (res, req) =>
        res.once('data', () => {
          req.destroy();
          resolve();
        }),
      () => undefined,
    );
    setTimeout(() => reject(new Error('no answer from the backend')), 3000);
  });
  await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error('the backend request was not given up')), 2000))]);
}

/** A backend's answer that streams until the request is given up, then calls `closed`. */
export function answerEndlessly(res: http.ServerResponse, contentType: string, closed: () => void): void {
  res.writeHead(200, { 'content-type': contentType });
  const t = setInterval(() => res.write(' '.repeat(100)), 10);
  res.on('close', () => {
    clearInterval(t);
    closed();
  });
}
