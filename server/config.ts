import { z } from 'zod';
import path from 'node:path';
import { isValidAllowlistEntry } from './allowlist';
import type { SiteInfo } from '../shared/site';
import {
  evmNetwork,
  isNetworkSlug,
  networkSlugs,
  sandboxNetworks,
  sandboxSlugs,
  upstreamNetworks,
  upstreamVariables,
  type NetworkSlug,
  type SandboxSlug,
  type UpstreamNetwork,
} from '../shared/networks';

// Environment → typed configuration, validated once at boot. Every variable here is documented in the
// README and listed with its default in .env.example.

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const port = (fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a whole number between 1 and 65535' })
      .int('must be a whole number between 1 and 65535')
      .min(1, 'must be a whole number between 1 and 65535')
      .max(65535, 'must be a whole number between 1 and 65535')
      .default(fallback),
  );
const positiveInt = (fallback: number, what: string) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: `must be ${what}` }).int(`must be ${what}`).positive(`must be ${what}`).default(fallback),
  );
const httpUrl = (what: string) =>
  z.string().refine((v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, `must be an http(s) URL ${what}`.trim());
const optionalUrl = z.preprocess(emptyToUndefined, httpUrl('').optional());
const urlWithDefault = (fallback: string) => z.preprocess(emptyToUndefined, httpUrl('').default(fallback));
const bool = (fallback: boolean) =>
  z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  );

/** "Label=https://…,Label=https://…" → [{label, url}] */
const linkList = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default('')
    .transform((v, ctx) => {
      const out: Array<{ label: string; url: string }> = [];
      for (const part of v.split(',').map((p) => p.trim()).filter(Boolean)) {
        const i = part.indexOf('=');
        const label = part.slice(0, i).trim();
        const url = part.slice(i + 1).trim();
        if (i <= 0 || !/^https?:\/\/\S+$/.test(url)) {
          ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of Label=https://… pairs' });
          return z.NEVER;
        }
        out.push({ label, url });
      }
      return out;
    }),
);

/** "Header-Name: value", for upstreams that need their own credentials. */
const headerLine = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+:\s*\S.*$/, 'must look like "Header-Name: value"')
    .transform((v) => {
      const i = v.indexOf(':');
      return { name: v.slice(0, i).trim().toLowerCase(), value: v.slice(i + 1).trim() };
    })
    .optional(),
);

/** Every network's upstream variables, named by the network table (shared/networks.ts): <stem>_URL and <stem>_AUTH. */
const upstreamShape: Record<string, typeof optionalUrl | typeof headerLine> = {};
for (const stem of upstreamVariables) {
  upstreamShape[`${stem}_URL`] = optionalUrl;
  upstreamShape[`${stem}_AUTH`] = headerLine;
}
const upstreamSchema = z.object(upstreamShape);

/** DISABLED_NETWORKS: gateway slugs the operator turns off, e.g. "cardano-mainnet,ipfs"; an unknown one stops start-up. */
const disabledNetworks = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default('')
    .transform((v, ctx): NetworkSlug[] => {
      const list = v.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
      const unknown = list.filter((s) => !isNetworkSlug(s));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `names ${unknown.map((u) => `"${u}"`).join(', ')}, which ${unknown.length === 1 ? 'is not a network' : 'are not networks'} of Cairn: use a comma-separated list of ${networkSlugs.join(', ')}`,
        });
        return z.NEVER;
      }
      return networkSlugs.filter((slug) => list.includes(slug));
    }),
);

const schema = z.object({
  NODE_ENV: z.preprocess(
    emptyToUndefined,
    z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'),
  ),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  PORT: port(3000),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => {
        try {
          const u = new URL(v);
          return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname !== '';
        } catch {
          return false;
        }
      }, 'must be a PostgreSQL URL such as postgres://user:password@host:5432/database')
      .optional(),
  ),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    }).default('info'),
  ),
  SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters long').optional()),
  SESSION_MAX_AGE_DAYS: positiveInt(30, 'a positive whole number of days'),
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('false')
      .transform((v, ctx): boolean | number | string => {
        if (v === 'true') return true;
        if (v === 'false') return false;
        if (/^\d+$/.test(v)) return Number(v);
        if (/^[\w.:/,\s-]+$/.test(v)) return v; // loopback, linklocal, uniquelocal or addresses/CIDRs
        ctx.addIssue({ code: 'custom', message: 'must be true, false, a hop count, or a list of addresses' });
        return z.NEVER;
      }),
  ),
  MAGIC_LINK_TTL_MINUTES: positiveInt(15, 'a positive whole number of minutes'),
  SIGNIN_LINKS_PER_IP: positiveInt(30, 'a positive whole number'),
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^smtps?:\/\/.+/.test(v), 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('Cairn <no-reply@localhost>')),
  HCAPTCHA_SITE_KEY: optionalString,
  HCAPTCHA_SECRET: optionalString,
  HCAPTCHA_VERIFY_URL: urlWithDefault('https://api.hcaptcha.com/siteverify'),
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  GITHUB_AUTHORIZATION_URL: urlWithDefault('https://github.com/login/oauth/authorize'),
  GITHUB_TOKEN_URL: urlWithDefault('https://github.com/login/oauth/access_token'),
  GITHUB_API_URL: urlWithDefault('https://api.github.com'),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GITLAB_CLIENT_ID: optionalString,
  GITLAB_CLIENT_SECRET: optionalString,
  GITLAB_URL: urlWithDefault('https://gitlab.com'),
  STATUS_URL: optionalUrl,
  BLOG_URL: optionalUrl,
  DOCS_URL: optionalUrl,
  COOKIE_POLICY_URL: optionalUrl,
  CHAT_URL: optionalUrl,
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.string().regex(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address').default('support@localhost')),
  SOCIAL_LINKS: linkList,
  COMPANY_ADDRESS: z.preprocess(emptyToUndefined, z.string().max(300, 'must be at most 300 characters').optional()),
  GATEWAY_PORT: port(3001),
  GATEWAY_PUBLIC_URL: optionalUrl,
  GATEWAY_DOMAIN: z.preprocess(
    emptyToUndefined,
    z.string().regex(/^[a-z0-9.-]+$/i, 'must be a domain name such as api.cairn.example').optional(),
  ),
  REDIS_URL: z.preprocess(emptyToUndefined, z.string().regex(/^rediss?:\/\/.+/, 'must be a redis:// or rediss:// URL').optional()),
  REDIS_KEY_PREFIX: z.preprocess(emptyToUndefined, z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1 to 64 letters, digits or : _ . -').default('cairn:')),
  METERING_FLUSH_MS: positiveInt(5000, 'a positive whole number of milliseconds'),
  SANDBOX_BLOCK_INTERVAL_MS: positiveInt(20000, 'a positive whole number of milliseconds'),
  UPSTREAM_TIMEOUT_MS: positiveInt(30000, 'a positive whole number of milliseconds'),
  GATEWAY_BAN_THRESHOLD: positiveInt(1000, 'a positive whole number of rejected requests'),
  GATEWAY_BAN_WINDOW_SECONDS: positiveInt(60, 'a positive whole number of seconds'),
  GATEWAY_BAN_SECONDS: positiveInt(600, 'a positive whole number of seconds'),
  DISABLED_NETWORKS: disabledNetworks,
  OPERATOR_EMAILS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('')
      .refine((v) => v.split(',').map((e) => e.trim()).filter(Boolean).every((e) => /^[^\s@,]+@[^\s@,]+$/.test(e)), 'must be a comma-separated list of e-mail addresses')
      .transform((v) => v.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean)),
  ),
  IPFS_KUBO_API_URL: optionalUrl,
  IPFS_GC_GRACE_SECONDS: positiveInt(86_400, 'a positive whole number of seconds'),
  IPFS_GC_INTERVAL_SECONDS: positiveInt(600, 'a positive whole number of seconds'),
  FILECOIN_PINNING_SERVICE_URL: optionalUrl,
  FILECOIN_PINNING_SERVICE_TOKEN: optionalString,
  WEBHOOK_ALLOWLIST: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('')
      .refine(
        (v) => v.split(',').map((e) => e.trim()).filter(Boolean).every(isValidAllowlistEntry),
        'must be a comma-separated list of host names and CIDR ranges such as 127.0.0.1/32',
      ),
  ),
  WEBHOOK_TIMEOUT_MS: positiveInt(15000, 'a positive whole number of milliseconds'),
  WEBHOOK_RETRY_SCHEDULE_SECONDS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('0,5,300,1800,7200,18000,36000,36000')
      .refine((v) => /^\d+(\s*,\s*\d+)*$/.test(v.trim()), 'must be a comma-separated list of whole seconds, such as 0,5,300')
      .transform((v) => v.split(',').map((x) => Number(x.trim()) * 1000)),
  ),
  CHAIN_POLL_MS: positiveInt(2000, 'a positive whole number of milliseconds'),
  PPU_ACCOUNT_XPUB: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(acct_xvk1[02-9ac-hj-np-z]+|[0-9a-fA-F]{128})$/, 'must be a CIP-1852 account public key: acct_xvk1… or 128 hex digits')
      .optional(),
  ),
  PPU_NETWORK: z.preprocess(emptyToUndefined, z.enum(sandboxSlugs, { error: `must be one of ${sandboxSlugs.join(', ')}` }).default('cardano-mainnet')),
  PPU_PRICE_PER_REQUEST_EUR: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'must be a number' }).positive('must be a positive number of euro').optional()),
  PPU_ADA_EUR_RATE: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'must be a number' }).positive('must be a positive number of euro per ADA').optional()),
  PPU_RATE_URL: optionalUrl,
  PPU_RATE_TTL_SECONDS: positiveInt(300, 'a positive whole number of seconds'),
  PPU_RATE_MAX_AGE_SECONDS: positiveInt(86_400, 'a positive whole number of seconds'),
  PPU_RATE_TIMEOUT_MS: positiveInt(3000, 'a positive whole number of milliseconds'),
  PPU_CONFIRMATIONS: positiveInt(3, 'a positive whole number of blocks'),
  PPU_ORDER_TTL_MINUTES: positiveInt(60, 'a positive whole number of minutes'),
  BILLING_PROVIDER: z.preprocess(emptyToUndefined, z.enum(['stripe', 'local', 'none'], { error: 'must be stripe, local or none' }).optional()),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: optionalUrl,
  MAINTENANCE_MODE: bool(false),
  MAINTENANCE_ETA: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => !Number.isNaN(Date.parse(v)), 'must be a date and time such as 2026-12-01T18:00:00Z')
      .optional(),
  ),
});

type Env = z.infer<typeof schema>;

export interface OAuthClientConfig {
  clientId: string;
  clientSecret: string;
}

export interface Config {
  env: Env['NODE_ENV'];
  isProduction: boolean;
  host: string;
  port: number;
  publicUrl: string;
  /** PUBLIC_URL was set; when not, development links follow the loopback address the user used. */
  publicUrlConfigured: boolean;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  session: { secret: string | undefined; maxAgeMs: number };
  trustProxy: boolean | number | string;
  magicLinkTtlMs: number;
  /** Sign-in mails one client IP may ask for in 15 minutes. */
  signInLinksPerIp: number;
  mail: { smtpUrl: string | undefined; from: string };
  captcha: { siteKey: string; secret: string; verifyUrl: string } | null;
  github: (OAuthClientConfig & { authorizationUrl: string; tokenUrl: string; apiUrl: string }) | null;
  google: OAuthClientConfig | null;
  gitlab: (OAuthClientConfig & { baseUrl: string }) | null;
  site: SiteConfig;
  gateway: GatewayConfig;
  ipfs: IpfsConfig;
  webhooks: { allowlist: string; timeoutMs: number; retryScheduleMs: number[]; chainPollMs: number };
  billing: BillingConfig;
  /** Networks the operator turned off (DISABLED_NETWORKS): not offered in Add Project, refused by the gateway, left off the status page. */
  disabledNetworks: readonly NetworkSlug[];
  /** Lower-cased e-mails of the operators (OPERATOR_EMAILS): the operator page, plans by hand, submitted endpoints. */
  operatorEmails: string[];
  /** Pay as you go: the operator's account public key (payment addresses derive from it), the network paid on, prices. */
  ppu: {
    accountXpub: string | null;
    network: SandboxSlug;
    pricePerRequestEur: number | null;
    adaEurRate: number | null;
    /** Where the ADA/EUR rate is read (PPU_RATE_URL), how long a reading is reused, how old one may still be used, the fetch's timeout. */
    rateSource: { url: string; ttlMs: number; maxAgeMs: number; timeoutMs: number } | null;
    confirmations: number;
    orderTtlMs: number;
  };
}

export interface BillingConfig {
  provider: 'stripe' | 'local' | 'none';
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string | null } | null;
}

export interface UpstreamConfig {
  url: string;
  auth: { name: string; value: string } | null;
}

export interface GatewayConfig {
  port: number;
  publicUrl: string;
  /** Host-based network selection: cardano-mainnet.<domain> and so on. */
  domain: string | null;
  redisUrl: string | null;
  /** Prefix of every Redis key the gateways write (REDIS_KEY_PREFIX), so deployments can share one Redis. */
  redisPrefix: string;
  meteringFlushMs: number;
  sandboxBlockIntervalMs: number;
  upstreamTimeoutMs: number;
  ban: { threshold: number; windowSeconds: number; seconds: number };
  /** Configured upstreams; a Cardano network without one is served by the sandbox chain. */
  upstreams: Partial<Record<UpstreamNetwork, UpstreamConfig>>;
  /** Milkomeda mainnet's EVM JSON-RPC; unset: the embedded development chain (never in production). */
  milkomeda: UpstreamConfig | null;
}

export interface IpfsConfig {
  /** Kubo's RPC API (http://127.0.0.1:5001); null: the embedded store under DATA_DIR/ipfs. */
  kuboApiUrl: string | null;
  /** Added objects never pinned, and gc pins, are kept this long. */
  gcGraceMs: number;
  gcIntervalMs: number;
  /** An IPFS Pinning Service API provider for Filecoin deals; null: none is made. */
  pinningService: { url: string; token: string } | null;
}

/** What the public site and the dashboard shell show; answered by GET /api/site. */
export type SiteConfig = SiteInfo;

export class ConfigError extends Error {}

const pair = (id: string | undefined, secret: string | undefined) => (id && secret ? { clientId: id, clientSecret: secret } : null);


/** Parses the environment; throws ConfigError with one line naming the variable and what is wrong. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(env);
  const upstreamEnv = upstreamSchema.safeParse(env);
  if (!parsed.success || !upstreamEnv.success) {
    const issue = (parsed.error ?? upstreamEnv.error)!.issues[0]!;
    const name = String(issue.path[0] ?? 'configuration');
    const raw = env[name];
    // Never echo values that may carry credentials.
    const secret = /SECRET|DATABASE_URL|SMTP_URL|REDIS_URL|PPU_RATE_URL|PASSWORD|TOKEN|_AUTH$/.test(name);
    const got = raw === undefined || secret ? '' : ` (got ${JSON.stringify(raw.length > 60 ? raw.slice(0, 60) + '…' : raw)})`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}${got}`);
  }
  const e = parsed.data;
  const upstreamValue = (name: string) => (upstreamEnv.data as Record<string, unknown>)[name];
  const upstream = (stem: string): UpstreamConfig | null => {
    const url = upstreamValue(`${stem}_URL`) as string | undefined;
    const auth = upstreamValue(`${stem}_AUTH`) as UpstreamConfig['auth'] | undefined;
    return url ? { url: url.replace(/\/+$/, ''), auth: auth ?? null } : null;
  };
  if (Boolean(e.HCAPTCHA_SITE_KEY) !== Boolean(e.HCAPTCHA_SECRET)) {
    throw new ConfigError('Invalid configuration: HCAPTCHA_SITE_KEY and HCAPTCHA_SECRET must be set together');
  }
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError('Invalid configuration: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together');
  }
  const billingProvider = e.BILLING_PROVIDER ?? (e.STRIPE_SECRET_KEY ? 'stripe' : e.NODE_ENV === 'production' ? 'none' : 'local');
  if (billingProvider === 'stripe' && !e.STRIPE_SECRET_KEY) {
    throw new ConfigError('Invalid configuration: BILLING_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  }
  if (billingProvider === 'local' && e.NODE_ENV === 'production') {
    throw new ConfigError('Invalid configuration: BILLING_PROVIDER=local is test billing (no money moves) and cannot run with NODE_ENV=production; use stripe or none');
  }
  if (Boolean(e.FILECOIN_PINNING_SERVICE_URL) !== Boolean(e.FILECOIN_PINNING_SERVICE_TOKEN)) {
    throw new ConfigError('Invalid configuration: FILECOIN_PINNING_SERVICE_URL and FILECOIN_PINNING_SERVICE_TOKEN must be set together');
  }
  const github = pair(e.GITHUB_CLIENT_ID, e.GITHUB_CLIENT_SECRET);
  const gitlab = pair(e.GITLAB_CLIENT_ID, e.GITLAB_CLIENT_SECRET);
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    host: e.HOST,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    publicUrlConfigured: e.PUBLIC_URL !== undefined,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    session: { secret: e.SESSION_SECRET, maxAgeMs: e.SESSION_MAX_AGE_DAYS * 24 * 3600 * 1000 },
    trustProxy: e.TRUST_PROXY,
    magicLinkTtlMs: e.MAGIC_LINK_TTL_MINUTES * 60 * 1000,
    signInLinksPerIp: e.SIGNIN_LINKS_PER_IP,
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    captcha:
      e.HCAPTCHA_SITE_KEY && e.HCAPTCHA_SECRET
        ? { siteKey: e.HCAPTCHA_SITE_KEY, secret: e.HCAPTCHA_SECRET, verifyUrl: e.HCAPTCHA_VERIFY_URL }
        : null,
    github: github && {
      ...github,
      authorizationUrl: e.GITHUB_AUTHORIZATION_URL,
      tokenUrl: e.GITHUB_TOKEN_URL,
      apiUrl: e.GITHUB_API_URL.replace(/\/+$/, ''),
    },
    google: pair(e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET),
    gitlab: gitlab && { ...gitlab, baseUrl: e.GITLAB_URL.replace(/\/+$/, '') },
    webhooks: {
      allowlist: e.WEBHOOK_ALLOWLIST,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE_SECONDS,
      chainPollMs: e.CHAIN_POLL_MS,
    },
    billing: {
      provider: billingProvider,
      stripe: billingProvider === 'stripe' ? { secretKey: e.STRIPE_SECRET_KEY!, webhookSecret: e.STRIPE_WEBHOOK_SECRET!, apiUrl: e.STRIPE_API_URL ?? null } : null,
    },
    operatorEmails: e.OPERATOR_EMAILS,
    disabledNetworks: e.DISABLED_NETWORKS,
    ppu: {
      accountXpub: e.PPU_ACCOUNT_XPUB ?? null,
      network: e.PPU_NETWORK,
      pricePerRequestEur: e.PPU_PRICE_PER_REQUEST_EUR ?? null,
      adaEurRate: e.PPU_ADA_EUR_RATE ?? null,
      rateSource: e.PPU_RATE_URL
        ? { url: e.PPU_RATE_URL, ttlMs: e.PPU_RATE_TTL_SECONDS * 1000, maxAgeMs: e.PPU_RATE_MAX_AGE_SECONDS * 1000, timeoutMs: e.PPU_RATE_TIMEOUT_MS }
        : null,
      confirmations: e.PPU_CONFIRMATIONS,
      orderTtlMs: e.PPU_ORDER_TTL_MINUTES * 60_000,
    },
    gateway: {
      port: e.GATEWAY_PORT,
      publicUrl: (e.GATEWAY_PUBLIC_URL ?? `http://localhost:${e.GATEWAY_PORT}`).replace(/\/+$/, ''),
      domain: e.GATEWAY_DOMAIN?.toLowerCase() ?? null,
      redisUrl: e.REDIS_URL ?? null,
      redisPrefix: e.REDIS_KEY_PREFIX,
      meteringFlushMs: e.METERING_FLUSH_MS,
      sandboxBlockIntervalMs: e.SANDBOX_BLOCK_INTERVAL_MS,
      upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
      ban: { threshold: e.GATEWAY_BAN_THRESHOLD, windowSeconds: e.GATEWAY_BAN_WINDOW_SECONDS, seconds: e.GATEWAY_BAN_SECONDS },
      milkomeda: upstream(evmNetwork.upstreamVar),
      upstreams: Object.fromEntries(
        upstreamNetworks.flatMap(({ slug, upstreamVar }) => {
          const configured = upstream(upstreamVar);
          return configured ? [[slug, configured]] : [];
        }),
      ),
    },
    ipfs: {
      kuboApiUrl: e.IPFS_KUBO_API_URL?.replace(/\/+$/, '') ?? null,
      gcGraceMs: e.IPFS_GC_GRACE_SECONDS * 1000,
      gcIntervalMs: e.IPFS_GC_INTERVAL_SECONDS * 1000,
      pinningService:
        e.FILECOIN_PINNING_SERVICE_URL && e.FILECOIN_PINNING_SERVICE_TOKEN
          ? { url: e.FILECOIN_PINNING_SERVICE_URL.replace(/\/+$/, ''), token: e.FILECOIN_PINNING_SERVICE_TOKEN }
          : null,
    },
    site: {
      // Status and Documentation default to the built-in pages (/status, /docs); Blog has none.
      links: { status: e.STATUS_URL ?? '/status', blog: e.BLOG_URL ?? null, docs: e.DOCS_URL ?? '/docs', cookiePolicy: e.COOKIE_POLICY_URL ?? '/cookie-policy' },
      chatUrl: e.CHAT_URL ?? null,
      supportEmail: e.SUPPORT_EMAIL,
      socialLinks: e.SOCIAL_LINKS,
      companyAddress: e.COMPANY_ADDRESS ?? null,
      maintenance: { enabled: e.MAINTENANCE_MODE, eta: e.MAINTENANCE_ETA ? new Date(e.MAINTENANCE_ETA).toISOString() : null },
      gatewayUrl: (e.GATEWAY_PUBLIC_URL ?? `http://localhost:${e.GATEWAY_PORT}`).replace(/\/+$/, ''),
    },
  };
}

/**
 * Milkomeda mainnet without UPSTREAM_MILKOMEDA_MAINNET_URL runs on the embedded EVM development chain,
 * except in production or when the operator turned it off (DISABLED_NETWORKS).
 */
export const usesEvmDevChain = (config: Config): boolean =>
  !config.gateway.milkomeda && !config.isProduction && !config.disabledNetworks.includes(evmNetwork.slug);

/** Gateway slugs answered by simulated data (the sandbox chain, the EVM development chain): their projects show 'Sandbox data'. */
export const sandboxedSlugs = (config: Config): string[] => [
  ...sandboxNetworks.filter(({ slug }) => !config.gateway.upstreams[slug] && !config.disabledNetworks.includes(slug)).map(({ slug }) => slug),
  ...(usesEvmDevChain(config) ? [evmNetwork.slug] : []),
];
