import crypto from 'node:crypto';
import express, { type Express } from 'express';
import session from 'express-session';
import helmet from 'helmet';
import compression from 'compression';
import { pinoHttp } from 'pino-http';
import { proxyTrust, sandboxedSlugs, type Config } from './config';
import { type Db, isMigrated } from './db/index';
import { type Logger, sanitizeUrl } from './logger';
import type { Mailer } from './mail/mailer';
import { DbSessionStore } from './http/session-store';
import { csrfCookieKey } from './http/csrf';
import { writeRateLimit } from './http/write-limit';
import { refuseNulBytes } from './http/input-guard';
import { errorMiddleware } from './http/error-middleware';
import { createPassport, authRouter, SESSION_COOKIE } from './features/accounts/index';
import { apiRouter, tenancy } from './api-router';
import { devMailboxRouter } from './sandbox/mailbox-page';
import { devRouter } from './http/dev-router';
import { assetsRouter, defaultWebDir, spaRouter } from './web/static';
import { NotFound } from './errors';
import { createSandboxChains } from './sandbox/chains';
import { devFaucetRouter } from './sandbox/faucet';
import { communityServedNetworks } from './features/endpoints/index';
import type { SandboxChain, SandboxNetwork } from './sandbox/chain/index';
import { latestMainnetBlock, docsRouter } from './features/site/index';
import { webhookSources, EventStreams } from './features/webhooks/index';
import { createBillingProvider, StripeBillingProvider, type BillingProvider } from './features/billing/index';
import { sandboxPathShapes } from './sandbox/chain/path-shapes';
import { defaultProbes, statusReporter } from './features/status/index';
import { devnetNetwork, offeredNetworks, sandboxOf } from '../shared/networks';
import { devnetService, type DevnetRegistry } from './features/devnets/index';
import { devnetRegistry } from './sandbox/devnet-engine';
import { CAIRN_VERSION } from './version';
import { ppuSettings, paymentChainSource } from './features/ppu/index';
import { devPpuRouter } from './sandbox/ppu-payments';

export interface AppDeps {
  config: Config;
  db: Db;
  logger: Logger;
  mailer: Mailer;
  sessionSecret: string;
  webDir?: string;
  /** Sandbox chains of this process (shared with the gateway); created from config when absent. */
  chains?: Partial<Record<SandboxNetwork, SandboxChain>>;
  /** The billing provider (started by the caller); created from config when absent. */
  billing?: BillingProvider;
  /** The devnets this process holds (shared with the gateway in one process); made from config when absent. */
  devnets?: DevnetRegistry;
  /** The clock of the pay-as-you-go rate source's TTL and age; Date.now when absent (tests move their own). */
  now?: () => number;
}

export interface CairnApp {
  app: Express;
  close(): void;
  /** The billing provider the app serves (given, or created from config; the caller starts it). */
  billing: BillingProvider;
  /** The sandbox chains the app serves (given, or created from config). */
  chains: Partial<Record<SandboxNetwork, SandboxChain>>;
}

const REQUEST_ID_RE = /^[\w.-]{1,64}$/;

/** Builds the control-plane Express app without listening, so tests can drive it on any port. */
export function createApp(deps: AppDeps): CairnApp {
  const { config, db, logger, mailer } = deps;
  const webDir = deps.webDir ?? defaultWebDir;
  const app = express();
  app.disable('x-powered-by');
  // Which X-Forwarded-For hops to believe (TRUST_PROXY): req.ip, req.secure and the session cookie's Secure follow it.
  app.set('trust proxy', proxyTrust(config.trustProxy));

  app.use(requestLogger(logger));
  app.use(securityHeaders());
  // Small assets too: the landing page's budget counts every byte on the wire.
  app.use(compression({ threshold: 256 }));
  app.use(assetsRouter(webDir));
  mountHealthChecks(app, db);

  const billing = deps.billing ?? createBillingProvider(config, db, logger);
  mountStripeWebhook(app, billing);
  useBodyParsers(app);
  const { store, passport, enabledProviders } = useSessions(app, deps);

  const routeDeps = { db, config, logger, mailer, tenancy };
  mountAuth(app, deps, routeDeps, passport, enabledProviders);
  const { chains, eventStreams, community, simulatedPaymentChain, devnets, ownDevnets } = mountApi(app, deps, routeDeps, webDir, billing);
  if (!config.isProduction) mountDevTools(app, deps, chains, simulatedPaymentChain);

  app.use(docsRouter(config, () => sandboxPathShapes(chains.mainnet ?? chains.preprod ?? chains.preview), webDir));
  app.use(spaRouter(webDir));
  app.use((_req, _res, next) => next(new NotFound('Not found.')));
  app.use(errorMiddleware(logger));

  return {
    app,
    close: () => {
      eventStreams.closeAll();
      store.close();
      if (ownDevnets) devnets?.close();
      void community.stop();
    },
    billing,
    chains,
  };
}

type RouteDepsOf = Parameters<typeof apiRouter>[0];
type Passport = ReturnType<typeof createPassport>;

/** The access log: an X-Request-Id per request (the caller's when well formed), no headers logged. */
function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && REQUEST_ID_RE.test(incoming) ? incoming : crypto.randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // Log the method, sanitised URL and status only: headers carry cookies and CSRF tokens.
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: sanitizeUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url?.startsWith('/assets/') === true },
  });
}

/** Helmet with the content security policy the web app and the hCaptcha widget need. */
function securityHeaders() {
  return helmet({
    contentSecurityPolicy: {
      directives: {
        'script-src': ["'self'", 'https://hcaptcha.com', 'https://*.hcaptcha.com'],
        'frame-src': ["'self'", 'https://hcaptcha.com', 'https://*.hcaptcha.com'],
        'style-src': ["'self'", "'unsafe-inline'", 'https://hcaptcha.com', 'https://*.hcaptcha.com'],
        'connect-src': ["'self'", 'https://hcaptcha.com', 'https://*.hcaptcha.com'],
        'img-src': ["'self'", 'data:', 'https:'],
        'upgrade-insecure-requests': null,
      },
    },
    // HSTS only makes sense behind HTTPS; operators who terminate TLS set it at their proxy.
    strictTransportSecurity: false,
  });
}

/** Liveness (the process answers) and readiness (the database answers and is migrated). */
function mountHealthChecks(app: Express, db: Db): void {
  app.get('/healthz', (_req, res) => {
    res.json({ data: { status: 'ok' } });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await db.raw('select 1');
      if (!(await isMigrated(db))) return res.status(503).json({ error: { code: 'not_ready', message: 'Database migrations are pending.' } });
      res.json({ data: { status: 'ready' } });
    } catch {
      res.status(503).json({ error: { code: 'not_ready', message: 'The database is not reachable.' } });
    }
  });
}

/** Stripe's webhooks: the signature is checked on the raw body, before any JSON parsing, session or CSRF. */
function mountStripeWebhook(app: Express, billing: BillingProvider): void {
  if (!(billing instanceof StripeBillingProvider)) return;
  app.post('/api/stripe/webhook', express.raw({ type: '*/*', limit: '1mb' }), async (req, res, next) => {
    try {
      res.json(await billing.handleWebhook(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), req.get('stripe-signature')));
    } catch (err) {
      next(err);
    }
  });
}

function useBodyParsers(app: Express): void {
  app.use(express.json({ limit: '1mb', strict: true }));
  // The one server-rendered form that posts: the desktop sign-in's consent (its CSRF token is a form field).
  app.use('/auth/desktop/finish', express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 }));
  app.use(['/api', '/auth'], refuseNulBytes());
}

/** The session cookie over the database store, and passport's user on top of it. */
function useSessions(app: Express, deps: AppDeps): { store: DbSessionStore; passport: Passport['passport']; enabledProviders: Passport['enabled'] } {
  const { config, db } = deps;
  const store = new DbSessionStore(db, config.session.maxAgeMs);
  app.use(
    session({
      name: SESSION_COOKIE,
      secret: deps.sessionSecret,
      store,
      resave: false,
      saveUninitialized: false,
      rolling: false,
      proxy: undefined, // follows the app's trust proxy setting
      cookie: {
        httpOnly: true,
        sameSite: 'lax',
        secure: 'auto', // Secure whenever the request arrived over HTTPS (directly or through a trusted proxy)
        maxAge: config.session.maxAgeMs,
        path: '/',
      },
    }),
  );
  const { passport, enabled } = createPassport(config, db);
  app.use(passport.initialize());
  app.use(passport.session());
  app.use(store.requestNoter());
  return { store, passport, enabledProviders: enabled };
}

/** The CSRF cookie's key and the dashboard write limit of /api, then the sign-in routes. */
function mountAuth(app: Express, deps: AppDeps, routeDeps: RouteDepsOf, passport: Passport['passport'], enabledProviders: Passport['enabled']): void {
  // route() checks the CSRF token of each state-changing route (its csrf option); this holds the cookie's key.
  app.use(['/api', '/auth'], csrfCookieKey(deps.sessionSecret));
  app.use('/api', writeRateLimit(deps.config.dashboardWrites));
  app.use('/auth', authRouter({ ...routeDeps, passport, enabledProviders }));
}

/** The API under /api, with the sandbox chains, event streams and networks it serves. */
function mountApi(app: Express, deps: AppDeps, routeDeps: RouteDepsOf, webDir: string, billing: BillingProvider) {
  const { config, db, logger } = deps;
  const chains = deps.chains ?? createSandboxChains(config);
  const eventStreams = new EventStreams(config.eventStreams);
  // A network an enabled community endpoint serves is no longer the sandbox chain's.
  const community = communityServedNetworks(db, (err) => logger.error({ err: { message: err.message } }, 'community endpoints: could not read the enabled ones'));
  const sandboxSlugs = new Set(sandboxedSlugs(config));
  // The status page's probes are the backends the gateway answers from: a configured upstream, the
  // sandbox chain, the EVM development chain (and whatever else defaultProbes learns to name).
  const probes = defaultProbes(config, chains, db);
  const disabledNetworks = new Set<string>(config.disabledNetworks);
  // Pay as you go: the payment network's tip (for confirmations) and, in development on the sandbox
  // chain, 'Simulate payment'.
  const ppu = ppuSettings(config, logger, deps.now);
  const paymentSource = paymentChainSource(config, chains);
  const ppuChain = config.gateway.upstreams[ppu.network] ? undefined : chains[sandboxOf(ppu.network)!];
  const canSimulatePayment = !config.isProduction && ppu.enabled && ppuChain !== undefined;
  // The project page's Devnet card steers the same chains as the gateway's /cairn/v1/devnet.
  const devnets = config.disabledNetworks.includes(devnetNetwork.slug) ? undefined : (deps.devnets ?? devnetRegistry(config, db, logger, CAIRN_VERSION));
  app.use(
    '/api',
    apiRouter(routeDeps, {
      webDir,
      latestBlock: latestMainnetBlock(config, logger, chains),
      sandboxed: { has: (slug: string) => sandboxSlugs.has(slug) && !community.has(slug) },
      webhookSources: webhookSources(config, chains),
      eventStreams,
      billing,
      status: statusReporter({ db, probes, networks: offeredNetworks(config.disabledNetworks) }),
      // Not turned off by the operator, and with a backend: Add Project offers it, and a project may be keyed to it.
      served: (slug: string) => !disabledNetworks.has(slug) && (probes.has(slug) || community.has(slug)),
      ppu: { settings: ppu, tip: async () => (paymentSource ? paymentSource.tipHeight() : null), canSimulate: canSimulatePayment },
      ...(devnets ? { devnets: devnetService(db, devnets) } : {}),
    }),
  );
  return { chains, eventStreams, community, simulatedPaymentChain: canSimulatePayment ? ppuChain : undefined, devnets, ownDevnets: devnets !== undefined && deps.devnets === undefined };
}

/** Development aids hang off this one router, whose guard admits loopback clients only. */
function mountDevTools(app: Express, deps: AppDeps, chains: Partial<Record<SandboxNetwork, SandboxChain>>, simulatedPaymentChain: SandboxChain | undefined): void {
  const dev = devRouter();
  if (deps.mailer.kind === 'dev-mailbox') dev.use(devMailboxRouter(deps.mailer));
  // The sandbox faucet and development wallets.
  if (Object.keys(chains).length > 0) dev.use(devFaucetRouter(chains));
  // 'Simulate payment' of pay-as-you-go orders: a faucet payment of the order's amount to its address.
  if (simulatedPaymentChain) dev.use(devPpuRouter(deps.db, simulatedPaymentChain));
  app.use('/dev', dev);
}
