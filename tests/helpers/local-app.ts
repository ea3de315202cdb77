import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../server/config';
import { createApp } from '../../server/app';
import { type Db, createDb, migrateLatest, sqliteFileIn } from '../../server/db/index';
import { createLogger } from '../../server/logger';
import { devMailbox, type Mailer } from '../../server/mail/mailer';
import { keptAlive } from '../../server/http/keep-alive';

export interface LocalApp {
  url: string;
  mailer: Mailer;
  dataDir: string;
  /** The app's database, for fixtures the API cannot make (a history of past orders). */
  db: Db;
  stop(): Promise<void>;
}

/**
 * The real app outside vitest (benchmarks, screenshots): SQLite in a fresh temporary data directory,
 * migrated, on a free loopback port, with the embedded mailbox. Removed again by stop().
 */
export async function startLocalApp(opts: { env?: Record<string, string>; webDir?: string } = {}): Promise<LocalApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-local-'));
  const server = keptAlive(http.createServer());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...opts.env,
  });
  const logger = createLogger(config.logLevel);
  const db = createDb({ sqliteFile: sqliteFileIn(dataDir) });
  await migrateLatest(db);
  const mailer = devMailbox(logger);
  const { app, close, billing } = createApp({
    config,
    db,
    logger,
    mailer,
    sessionSecret: 'local-app-session-secret-that-is-long-enough-0123456789',
    ...(opts.webDir ? { webDir: opts.webDir } : {}),
  });
  await billing.start();
  server.on('request', app);
  return {
    url,
    mailer,
    dataDir,
    db,
    stop: async () => {
      close();
      mailer.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
