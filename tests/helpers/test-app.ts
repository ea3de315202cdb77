import http from 'node:http';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../server/config';
import type { Express } from 'express';
import { createApp, type CairnApp } from '../../server/app';
import { startPaymentWatcherFor } from '../../server/features/ppu/watcher';
import { createLogger } from '../../server/logger';
import { devMailbox, smtpMailer, type Mailer } from '../../server/mail/mailer';
import type { Db } from '../../server/db/index';
import { freshDatabase, type TestDatabase } from './db-template';
import { keptAlive } from '../../server/http/keep-alive';

export const TEST_SESSION_SECRET = 'test-session-secret-that-is-long-enough-1234567890';

export interface TestApp {
  url: string;
  config: Config;
  db: Db;
  mailer: Mailer;
  /** Every log line the app wrote, as parsed JSON. */
  logs: Array<Record<string, unknown>>;
  rawLogs: string[];
  /** The Express app itself (tests that walk its routes). */
  express: Express;
  /** The app's sandbox chains (the pay-as-you-go watcher and faucet tests read them). */
  chains: CairnApp['chains'];
  /** Stops this server (the database stays). */
  stop(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  database?: TestDatabase;
  port?: number;
  /** The built web app to serve; the real build (dist/web) by default. */
  webDir?: string;
  /** Runs the pay-as-you-go payment watcher beside the app, as the worker role does. */
  ppuWatcher?: boolean;
  /** The app's clock where it takes one (createApp's `now`: the pay-as-you-go rate source). */
  now?: () => number;
}

/** Starts the real app on 127.0.0.1 over a fresh copy of the template database (or a given one). */
export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp & { database: TestDatabase }> {
  const database = opts.database ?? (await freshDatabase(inject('dbTemplate')));
  const db = opts.database ? database.reopen() : database.db;
  const rawLogs: string[] = [];
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        rawLogs.push(line);
        try {
          logs.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          // not JSON
        }
      }
      cb();
    },
  });
  const logger = createLogger('debug', sink);
  const server = keptAlive(http.createServer());
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const config = loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SESSION_SECRET: TEST_SESSION_SECRET,
    // Every test signs its users in from 127.0.0.1; the per-IP limit has its own test (auth-throttle).
    SIGNIN_LINKS_PER_IP: '100000',
    DATA_DIR: '/nonexistent-data-dir-for-tests',
    ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
    ...opts.env,
  });
  const mailer = config.mail.smtpUrl ? smtpMailer(config.mail.smtpUrl, config.mail.from) : devMailbox(logger);
  const { app, close, billing, chains } = createApp({
    config,
    db,
    logger,
    mailer,
    sessionSecret: TEST_SESSION_SECRET,
    ...(opts.webDir ? { webDir: opts.webDir } : {}),
    ...(opts.now ? { now: opts.now } : {}),
  });
  // As server/main.ts does: price ids and reconciliation before the first request.
  await billing.start();
  server.on('request', app);
  const watcher = opts.ppuWatcher ? startPaymentWatcherFor({ config, db, logger, chains, intervalMs: 200 }) : null;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    config,
    db,
    mailer,
    logs,
    rawLogs,
    database,
    express: app,
    chains,
    stop: async () => {
      await watcher?.stop();
      close();
      mailer.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (opts.database) await db.destroy();
    },
  };
}
