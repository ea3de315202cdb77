import 'dotenv/config';
import http from 'node:http';
import { ConfigError, loadConfig, type Config } from './config';
import { createDb, migrateLatest, sqliteFileIn } from './db/index';
import { createLogger } from './logger';
import { devMailbox, smtpMailer } from './mail/mailer';
import { createApp } from './app';
import { resolveSessionSecret } from './session-secret';

async function start(config: Config) {
  const logger = createLogger(config.logLevel);
  const db = createDb({ databaseUrl: config.databaseUrl, sqliteFile: sqliteFileIn(config.dataDir) });
  await migrateLatest(db);
  logger.info({ engine: config.databaseUrl ? 'postgresql' : 'sqlite' }, config.databaseUrl ? 'database: PostgreSQL (migrated)' : `database: SQLite at ${sqliteFileIn(config.dataDir)} (migrated)`);

  const mailer = config.mail.smtpUrl ? smtpMailer(config.mail.smtpUrl, config.mail.from) : devMailbox(logger);
  if (mailer.kind === 'dev-mailbox') {
    logger.warn(
      config.isProduction
        ? 'embedded mail: SMTP_URL is not set, sign-in links are only written to this log'
        : `embedded mail: SMTP_URL is not set, sign-in links are written to this log and listed at ${config.publicUrl}/dev/mailbox`,
    );
  }
  if (!config.captcha) logger.warn('captcha is off: HCAPTCHA_SITE_KEY and HCAPTCHA_SECRET are not set');

  const { app, close } = createApp({ config, db, logger, mailer, sessionSecret: resolveSessionSecret(config) });
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  logger.info(`Cairn is running at ${config.publicUrl}`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close(() => {
      close();
      mailer.close();
      void db.destroy().finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(err.message + '\n');
    process.exit(1);
  }
  throw err;
}
start(config).catch((err: unknown) => {
  const e = err as NodeJS.ErrnoException;
  const reason =
    e.code === 'EADDRINUSE'
      ? `port ${config.port} is already in use (set PORT to another port)`
      : e.code === 'ECONNREFUSED'
        ? 'the database refused the connection (check DATABASE_URL)'
        : (e.message ?? String(err));
  process.stderr.write(`Cairn could not start: ${reason}\n`);
  process.exit(1);
});
