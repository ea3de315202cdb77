import crypto from 'node:crypto';
import http from 'node:http';
import { loadConfig } from '../../server/config';
import { createLogger } from '../../server/logger';
import { startGateway, type RunningGateway } from '../../server/gateway/index';
import type { TestApp } from './test-app';
import type { TestDatabase } from './db-template';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** A gateway on 127.0.0.1 over the same database as a test app. */
export async function startTestGateway(app: TestApp & { database: TestDatabase }, env: Record<string, string> = {}, redisPrefix?: string): Promise<RunningGateway> {
  const config = loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: 'x'.repeat(40),
    METERING_FLUSH_MS: '100000',
    ...(app.database.databaseUrl ? { DATABASE_URL: app.database.databaseUrl } : {}),
    ...env,
  });
  return startGateway({
    config,
    db: app.db,
    logger: createLogger('silent'),
    version: 'test',
    port: 0,
    host: '127.0.0.1',
    redisPrefix: redisPrefix ?? `cairn-test:${crypto.randomBytes(4).toString('hex')}:`,
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
