// Starts the process's parts (the control plane, the gateway, the worker) once main.ts has read a
// valid configuration. main.ts imports this module only then, so a configuration error is reported
// before the server's modules (the sandbox, CSL, the features) are even loaded.
import http from 'node:http';
import type { Config, SandboxSweep } from './config';
import { createDb, migrateLatest, sqliteFileIn } from './db/index';
import { createLogger } from './logger';
import { devMailbox, smtpMailer } from './mail/mailer';
import { createApp } from './app';
import { resolveSessionSecret } from './session-secret';
import { createSandboxChains, sandboxChainsDir, startSandboxSync } from './sandbox/chains';
import { startGateway } from './gateway-app';
import { devnetRegistry } from './sandbox/devnet-engine';
import { pruneDevnetLedgers } from './features/devnets/index';
import { devnetNetwork } from '../shared/networks';
import { startWebhookWorker, pruneOutbox, pruneDevnetCursors } from './features/webhooks/index';
import { startRetention } from './features/stats/index';
import { pruneTrackedTxs } from './features/txs/index';
import { billingStartupLine, createBillingProvider, startSubscriptionSweeper } from './features/billing/index';
import { CAIRN_VERSION } from './version';
import { startHeartbeat } from './features/status/index';
import { ppuSettings, ppuStartupLine, startPaymentWatcherFor } from './features/ppu/index';
import { Metrics, processRole, startMetricsServer } from './metrics';
import { keptAlive } from './http/keep-alive';


/** The part a process runs: `all` (the default) or one of them, so operators can scale parts out. */
export type Role = 'all' | 'api' | 'gateway' | 'worker';

const version = CAIRN_VERSION;

/** What the start-up log says of the shared chains' workers (SANDBOX_SWEEP). */
const SWEEP_LOG: Record<SandboxSweep, (dir: string) => string> = {
  all: (dir) => `sandbox chain: sweeping each chain's history in a worker thread, kept in ${dir} (SANDBOX_SWEEP)`,
  sums: (dir) => `sandbox chain: each chain's epochs summed in a worker thread, their sums kept in ${dir}; SANDBOX_SWEEP=true sweeps the history from the start, as in production`,
  off: () => 'sandbox chain: lists sum the history they read; SANDBOX_SWEEP=true sweeps it from the start',
};

export async function start(config: Config, role: Role) {
  // On a terminal, outside production, log lines are made readable; anything else gets JSON.
  const pretty = !config.isProduction && process.stdout.isTTY ? (await import('pino-pretty')).default({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service' }) : undefined;
  const logger = createLogger(config.logLevel, pretty);
  // Production runs the build (no TypeScript tooling installed or loaded); tsx is a development tool.
  if (config.isProduction && import.meta.url.endsWith('.ts')) logger.warn('production from the TypeScript sources: run the build instead (npm run build, then npm run start:prod)');
  const db = createDb({ databaseUrl: config.databaseUrl, sqliteFile: sqliteFileIn(config.dataDir) });
  await migrateLatest(db);
  logger.info({ engine: config.databaseUrl ? 'postgresql' : 'sqlite' }, config.databaseUrl ? 'database: PostgreSQL (migrated)' : `database: SQLite at ${sqliteFileIn(config.dataDir)} (migrated)`);
  // The gateway serves the chains' lists and transactions to clients: with SANDBOX_SWEEP its process
  // sweeps them from the start, and it keeps their epochs' sums between starts.
  const serves = role === 'all' || role === 'gateway';
  const chains = createSandboxChains(config, db, { sweep: serves ? config.gateway.sandboxSweep : 'off', keepSums: serves, logger });
  // One process's devnets, shared by its control plane (the Devnet card), its gateway and its webhook
  // followers; a worker alone holds its own, for the devnets it follows.
  const devnets = (role === 'all' || role === 'worker') && !config.disabledNetworks.includes(devnetNetwork.slug) ? devnetRegistry(config, db, logger, version) : undefined;
  const stopSandboxSync = await startSandboxSync(chains, (err) => logger.error({ err }, 'sandbox chain: reading accepted transactions failed'));
  const stops: Array<() => Promise<void> | void> = [];
  // Signals may arrive while parts are still starting: stop whatever has started so far.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Each part finishes its in-flight work within SHUTDOWN_TIMEOUT_MS (the gateway drains its
    // requests, the worker its deliveries); a part that still hangs after that does not keep the process.
    setTimeout(() => {
      logger.error({ signal }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 5_000).unref();
    void (async () => {
      stopSandboxSync();
      await Promise.all(Object.values(chains).map((c) => c.close()));
      for (const stop of stops) await stop();
      await db.destroy();
      process.exit(0);
    })();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  // Off unless METRICS_PORT is set: one registry for the process, each series labelled with its role.
  const metrics = config.metrics ? new Metrics(processRole(role)) : undefined;
  if (metrics && config.metrics) {
    metrics.databasePool((db.client as { pool?: Parameters<Metrics['databasePool']>[0] }).pool);
    const listener = await startMetricsServer({ metrics, port: config.metrics.port, host: config.metrics.host, token: config.metrics.token });
    logger.info(`metrics: Prometheus text at http://${config.metrics.host}:${config.metrics.port}/metrics (${config.metrics.token ? 'loopback clients, or Authorization: Bearer $METRICS_TOKEN' : 'loopback clients only; set METRICS_TOKEN for a scraper elsewhere'})`);
    stops.push(() => listener.close());
  }

  const mailer = config.mail.smtpUrl ? smtpMailer(config.mail.smtpUrl, config.mail.from) : devMailbox(logger);
  if (role === 'all' || role === 'api') {
    if (mailer.kind === 'dev-mailbox') {
      logger.warn(`embedded mail: SMTP_URL is not set, sign-in links are written to this log and listed at ${config.publicUrl}/dev/mailbox (loopback clients only)`);
    }
    if (!config.captcha) logger.warn('captcha is off: HCAPTCHA_SITE_KEY and HCAPTCHA_SECRET are not set');
    const billing = createBillingProvider(config, db, logger);
    const { level, line } = billingStartupLine(billing);
    logger[level](line);
    if (config.operatorEmails.length === 0) logger.warn('operators: OPERATOR_EMAILS is not set, so nobody sees the operator page (npm run operator works from the shell)');
    // Price ids, and whatever was paid while Cairn was down, before the first request is served.
    try {
      await billing.start();
    } catch (err) {
      logger.error({ err: { message: (err as Error).message } }, 'billing: the provider could not be reached on start; checkout stays off until Cairn restarts with it reachable');
    }
    const { app, close } = createApp({ config, db, logger, mailer, sessionSecret: resolveSessionSecret(config), chains, billing, ...(devnets ? { devnets } : {}) });
    const server = keptAlive(http.createServer(app));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, resolve);
    });
    logger.info(`Cairn is running at ${config.publicUrl}`);
    stops.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Ends open event streams (GET /api/events), which the server would otherwise wait for.
          close();
          server.closeIdleConnections();
        }),
    );
  }

  if (role === 'all' || role === 'gateway') {
    if (devnets) logger.info(`devnets: each cardano-devnet project's own chain, loaded on its first request, unloaded after ${Math.round(config.gateway.devnetIdleMs / 1000)} s without one`);
    if (Object.keys(chains).length > 0) {
      logger.warn(`sandbox chain: simulated data for ${Object.keys(chains).map((n) => `cardano-${n}`).join(', ')} (no upstream configured)`);
      logger.info(SWEEP_LOG[config.gateway.sandboxSweep](sandboxChainsDir(config)));
    }
    if (!config.isProduction) logDevWallets(logger, chains, config.publicUrl);
    const gateway = await startGateway({ config, db, logger, version, chains, ...(devnets ? { devnets } : {}), ...(metrics ? { metrics } : {}) });
    const heartbeat = startHeartbeat(db, 'gateway', logger);
    // The gateway flushes its last metering counts on the way out.
    stops.push(() => heartbeat.stop(), () => gateway.close());
  }

  if (role === 'all' || role === 'worker') {
    const worker = startWebhookWorker({ config, db, logger, mailer, chains, ...(devnets ? { devnets: { chains: devnets, idleMs: config.gateway.devnetIdleMs } } : {}), ...(metrics ? { metrics } : {}) });
    const heartbeat = startHeartbeat(db, 'worker', logger);
    stops.unshift(() => worker.stop(), () => heartbeat.stop());
    const sweeper = startSubscriptionSweeper(db, logger);
    stops.unshift(() => sweeper.stop());
    // Pay as you go: the payment watcher follows the payment network's chain and credits orders.
    const ppuLine = ppuStartupLine(ppuSettings(config));
    logger[ppuLine.level](ppuLine.line);
    const watcher = startPaymentWatcherFor({ config, db, logger, chains, ...(metrics ? { metrics } : {}) });
    if (watcher) stops.unshift(() => watcher.stop());
    // Retention prunes the growing tables; the webhook outbox prunes its own, through this option.
    const retention = startRetention(db, logger, { pruneWebhookOutbox: (d, now) => pruneOutbox(d, now), pruneTrackedTxs: (d, now) => pruneTrackedTxs(d, now), pruneDevnetLedgers, pruneDevnetCursors, auditRetentionDays: config.auditRetentionDays });
    stops.unshift(() => retention.stop());
  }
  stops.push(() => mailer.close());

}

/** Development wallets of each sandbox chain: test keys, funded in block 0, never in production. */
function logDevWallets(logger: ReturnType<typeof createLogger>, chains: ReturnType<typeof createSandboxChains>, publicUrl: string) {
  for (const [network, chain] of Object.entries(chains)) {
    const wallets = chain.devWallets();
    logger.warn(
      { network: `cardano-${network}`, wallets },
      `sandbox chain cardano-${network}: development wallets (test keys, 11,000 test ada each; never use them on a real network):\n` +
        wallets.map((w, i) => `  wallet ${i + 1}: ${w.address}\n    mnemonic: ${w.mnemonic}`).join('\n') +
        `\n  faucet: POST ${publicUrl}/dev/faucet {"network":"cardano-${network}","address":"addr…","lovelace":"10000000"} (loopback only)`,
    );
  }
}
