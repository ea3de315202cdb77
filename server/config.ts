import { z } from 'zod';
import os from 'node:os';
import path from 'node:path';
import proxyaddr from 'proxy-addr';
import { isValidAllowlistEntry } from './allowlist';
import type { SiteInfo } from '../shared/site';
import {
  evmNetwork,
  isNetworkSlug,
  networks,
  networkSlugs,
  sandboxNetworks,
  sandboxSlugs,
  upstreamNetworks,
  upstreamVariables,
  type NetworkSlug,
  type SandboxSlug,
  type UpstreamNetwork,
} from '../shared/networks';
import { DAY_MS } from '../shared/time';

// Environment → typed configuration, validated once at boot. Each variable's description lives in the
// schema (.describe), so docs/configuration.md is generated from it (npm run docs:config) and cannot
// drift; .env.example lists every variable with its default.

/** TRUST_PROXY: false, a hop count, or a comma-separated list of addresses, CIDRs and proxy-addr's names. */
export type TrustProxy = false | number | string;

const TRUST_PROXY_FORMS =
  "must be false, the number of proxies in front of Cairn (e.g. 1), or their addresses/CIDRs (e.g. loopback or 10.0.0.0/8); true is refused because it believes every X-Forwarded-For entry, including what the client writes itself";

const proxyList = (value: string): string[] => value.split(',').map((s) => s.trim()).filter(Boolean);

/**
 * Which hops of a request's X-Forwarded-For chain to believe, as Express's 'trust proxy' function:
 * hop 0 is the TCP peer, each next hop one entry further left. The control plane (Express) and the
 * gateway both derive the client address with it, so they agree.
 */
export function proxyTrust(tp: TrustProxy): (addr: string, hop: number) => boolean {
  if (tp === false || tp === 0) return () => false;
  if (typeof tp === 'number') return (_addr, hop) => hop < tp;
  return proxyaddr.compile(proxyList(tp));
}

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
/** DEVNET_MAX_LOADED's default: a loaded devnet weighs most of a megabyte. */
export const DEFAULT_DEVNET_MAX_LOADED = 200;

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
const boolText = z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' });
const isTrue = (v: z.infer<typeof boolText>) => v === 'true' || v === '1' || v === 'yes';
const bool = (fallback: boolean) => z.preprocess(emptyToUndefined, boolText.default(fallback ? 'true' : 'false').transform(isTrue));
/** A yes or no whose default depends on other settings: undefined when unset. */
const optionalBool = z.preprocess(emptyToUndefined, boolText.transform(isTrue).optional());

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

/** What a network's upstream is, and what serves the network while it has none. */
const upstreamBackend = (stem: string): { what: string; unset: string } =>
  stem === evmNetwork.upstreamVar
    ? {
        what: `${evmNetwork.label}'s EVM JSON-RPC (e.g. https://rpc-mainnet-cardano-evm.c1.milkomeda.com)`,
        unset: 'an embedded EVM development chain (chain id 2001, funded development accounts listed in the start-up log); in production, no Milkomeda backend',
      }
    : {
        what: `A Blockfrost-compatible backend for ${networks.find((n) => n.upstreamVar === stem)?.label ?? stem} (a self-hosted Blockfrost backend, Dolos, …), e.g. http://blockfrost-backend:3000/api/v0`,
        unset: networks.find((n) => n.upstreamVar === stem)?.family === 'ipfs'
          ? "Cairn's own IPFS backend (the embedded store, or the Kubo node of IPFS_KUBO_API_URL)"
          : 'the sandbox chain',
      };

/** Every network's upstream variables, named by the network table (shared/networks.ts): <stem>_URL and <stem>_AUTH. */
const upstreamShape: Record<string, typeof optionalUrl | typeof headerLine> = {};
for (const stem of upstreamVariables) {
  const { what, unset } = upstreamBackend(stem);
  upstreamShape[`${stem}_URL`] = optionalUrl.describe(`${what}. Unset: ${unset}.`);
  upstreamShape[`${stem}_AUTH`] = headerLine.describe(`The credentials ${stem}_URL's backend asks for, as "Header-Name: value" (a client's own copy of that header is dropped).`);
}
export const upstreamSchema = z.object(upstreamShape);

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

/** What a gateway's sandbox chains' workers do (Config's gateway.sandboxSweep). */
export type SandboxSweep = 'all' | 'sums' | 'off';
/**
 * SANDBOX_SWEEP unset: production sweeps; development sums the epochs only (a cold page of a hundred
 * epochs shares its fifty segments with the worker rather than summing them all in the server's
 * thread, and the worker's first pass sums every one within minutes), with nothing swept to disk
 * (the epochs' sums alone are kept, as whatever the setting); tests, which start many gateways, run
 * none unless they ask.
 */
const DEFAULT_SWEEP: Record<'development' | 'production' | 'test', SandboxSweep> = { production: 'all', development: 'sums', test: 'off' };

/** The folder under DATA_DIR where a gateway keeps its sandbox chains' sweep (SANDBOX_SWEEP) and their epochs' sums: derived data, never backed up. */
export const SANDBOX_CHAINS_DIR = 'sandbox-chains';

export const configSchema = z.object({
  NODE_ENV: z.preprocess(
    emptyToUndefined,
    z.enum(['development', 'production', 'test'], { error: 'must be development, production or test' }).default('development'),
  ).describe('development, production or test. production removes the /dev tools (outside production they answer loopback clients only), requires SMTP_URL and refuses BILLING_PROVIDER=local.'),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')).describe('Interface the web app and the gateway listen on.'),
  PORT: port(3000).describe('Port of the web app and the dashboard API (the control plane).'),
  PUBLIC_URL: optionalUrl.describe('Public address of the web app, used in e-mailed links and OAuth callbacks. Unset: http://localhost:$PORT, and outside production mailed links follow the loopback address the user used (localhost, 127.0.0.1, [::1]).'),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')).describe("Where the SQLite file (cairn.sqlite), the generated session secret, the embedded IPFS store (ipfs/blocks) and the sweep and the epochs' sums of the sandbox chains (sandbox-chains) live."),
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
  ).describe('postgres://… to run on PostgreSQL, e.g. postgres://postgres@127.0.0.1:5432/cairn. Unset: SQLite at $DATA_DIR/cairn.sqlite.'),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    }).default('info'),
  ).describe('pino log level: fatal, error, warn, info, debug, trace or silent.'),
  SHUTDOWN_TIMEOUT_MS: positiveInt(25_000, 'a positive whole number of milliseconds').describe('On SIGTERM or SIGINT, how long a process has to finish what it is doing (the gateway its open requests, the worker its deliveries) before it closes what is left; it exits 5 s after at the latest. Keep it below the grace period of whatever stops it (Kubernetes: 30 s).'),
  SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters long').optional()).describe('Secret that signs session cookies, at least 32 characters; every process of one deployment must share it. Unset: generated once and kept in $DATA_DIR/session-secret.'),
  SESSION_MAX_AGE_DAYS: positiveInt(30, 'a positive whole number of days').describe('How long a signed-in session lasts, in days.'),
  AUDIT_RETENTION_DAYS: positiveInt(400, 'a positive whole number of days').describe("How long a workspace's audit log keeps an entry, in days; the hourly retention pass deletes older ones."),
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('false')
      .transform((v, ctx): TrustProxy => {
        const value = v.trim();
        if (value === 'false' || value === '0') return false;
        if (/^\d+$/.test(value)) return Number(value);
        if (value !== 'true' && /^[\w.:/,\s-]+$/.test(value)) {
          try {
            proxyaddr.compile(proxyList(value)); // loopback, linklocal, uniquelocal, addresses, CIDRs
            return value;
          } catch {
            // reported below
          }
        }
        ctx.addIssue({ code: 'custom', message: TRUST_PROXY_FORMS });
        return z.NEVER;
      }),
  ).describe(
    "The proxies in front of Cairn, whose X-Forwarded-For entries are believed: false (none), their number (1 for one reverse proxy: the client is the address that proxy saw), or their addresses/CIDRs, comma-separated (loopback, linklocal, uniquelocal or e.g. 10.0.0.0/8). The client is the nearest address not trusted, for the sign-in throttle, the loopback-only /dev tools and the gateway's IP bans and statistics alike. true is refused: it would believe the left-most entry, which the client writes itself. Set it behind a TLS-terminating proxy so cookies become Secure.",
  ),
  MAGIC_LINK_TTL_MINUTES: positiveInt(15, 'a positive whole number of minutes').describe('How long an e-mailed sign-in link works, in minutes.'),
  SIGNIN_LINKS_PER_IP: positiveInt(30, 'a positive whole number').describe('Sign-in mails one client IP may ask for in 15 minutes (per e-mail address the limit is 5).'),
  DESKTOP_SIGN_INS_PER_IP: positiveInt(30, 'a positive whole number').describe(
    'Desktop-app sign-ins (GET /auth/desktop/start, each a row kept until it expires) one client IP may start in 15 minutes; one more is refused with 429 and Retry-After.',
  ),
  DASHBOARD_WRITE_BURST: positiveInt(60, 'a positive whole number').describe(
    "State-changing dashboard requests (POST, PUT, PATCH, DELETE under /api) one signed-in user may make at once, in all their workspaces; the allowance refills at DASHBOARD_WRITES_PER_MINUTE, and one more is refused with 429 and Retry-After. Counted per api process.",
  ),
  DASHBOARD_WRITES_PER_MINUTE: positiveInt(60, 'a positive whole number').describe('How fast the allowance of DASHBOARD_WRITE_BURST refills: state-changing dashboard requests per minute and user.'),
  EVENT_STREAMS_PER_USER: positiveInt(5, 'a positive whole number').describe('Event streams (GET /api/events) one user may hold open at once; one more is refused with 429.'),
  EVENT_STREAMS_PER_IP: positiveInt(20, 'a positive whole number').describe('Event streams (GET /api/events) one client IP may hold open at once, whoever is signed in; one more is refused with 429.'),
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^smtps?:\/\/.+/.test(v), 'must be an smtp:// or smtps:// URL')
      .optional(),
  ).describe('smtp://user:pass@host:587 or smtps://user:pass@host:465 of the mail server. Unset: the embedded development mailbox at /dev/mailbox (loopback clients only); required in production (the api and worker roles refuse to start without it).'),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('Cairn <no-reply@localhost>')).describe('Sender of sign-in and invitation mails.'),
  HCAPTCHA_SITE_KEY: optionalString.describe('hCaptcha site key; set together with HCAPTCHA_SECRET (both or neither). Unset: captcha off.'),
  HCAPTCHA_SECRET: optionalString.describe('hCaptcha secret; set together with HCAPTCHA_SITE_KEY (both or neither). Unset: captcha off.'),
  HCAPTCHA_VERIFY_URL: urlWithDefault('https://api.hcaptcha.com/siteverify').describe('Where hCaptcha tokens are verified.'),
  GITHUB_CLIENT_ID: optionalString.describe('GitHub OAuth app\'s client id; the GitHub button appears when it and GITHUB_CLIENT_SECRET are set. Callback: $PUBLIC_URL/auth/callback/github.'),
  GITHUB_CLIENT_SECRET: optionalString.describe('GitHub OAuth app\'s client secret.'),
  GITHUB_AUTHORIZATION_URL: urlWithDefault('https://github.com/login/oauth/authorize').describe('GitHub\'s authorization endpoint; change it for GitHub Enterprise (and the tests\' local OAuth2 server).'),
  GITHUB_TOKEN_URL: urlWithDefault('https://github.com/login/oauth/access_token').describe('GitHub\'s token endpoint; change it for GitHub Enterprise (and the tests\' local OAuth2 server).'),
  GITHUB_API_URL: urlWithDefault('https://api.github.com').describe('GitHub\'s API; change it for GitHub Enterprise (and the tests\' local OAuth2 server).'),
  GOOGLE_CLIENT_ID: optionalString.describe('Google OAuth client id; the Google button appears when it and GOOGLE_CLIENT_SECRET are set. Callback: $PUBLIC_URL/auth/callback/google.'),
  GOOGLE_CLIENT_SECRET: optionalString.describe('Google OAuth client secret.'),
  GITLAB_CLIENT_ID: optionalString.describe('GitLab application id; the GitLab button appears when it and GITLAB_CLIENT_SECRET are set. Callback: $PUBLIC_URL/auth/callback/gitlab.'),
  GITLAB_CLIENT_SECRET: optionalString.describe('GitLab application secret.'),
  GITLAB_URL: urlWithDefault('https://gitlab.com').describe('Your GitLab instance.'),
  STATUS_URL: optionalUrl.describe('The Status link of the top navigation. Unset: the built-in /status.'),
  BLOG_URL: optionalUrl.describe('The Blog link of the top navigation. Unset: the item is hidden.'),
  DOCS_URL: optionalUrl.describe('The Documentation link of the top navigation. Unset: the built-in API reference at /docs.'),
  COOKIE_POLICY_URL: optionalUrl.describe('Where the cookie banner\'s \'Cookie Policy\' link leads. Unset: the built-in page /cookie-policy.'),
  CHAT_URL: optionalUrl.describe('Live-chat page the Enterprise button opens. Unset: a mailto link to SUPPORT_EMAIL.'),
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.string().regex(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address').default('support@localhost')).describe('Address of the \'Get in Touch\' and contact-support links.'),
  SOCIAL_LINKS: linkList.describe('Footer links: Label=https://…,Label=https://…'),
  COMPANY_ADDRESS: z.preprocess(emptyToUndefined, z.string().max(300, 'must be at most 300 characters').optional()).describe('The company address in the footer (at most 300 characters).'),
  GATEWAY_PORT: port(3001).describe('Port of the gateway (the data plane that project keys call).'),
  GATEWAY_PUBLIC_URL: optionalUrl.describe('The gateway\'s public address, shown in the dashboard\'s API examples and used by the API reference and the desktop API console. Unset: http://localhost:$GATEWAY_PORT.'),
  GATEWAY_DOMAIN: z.preprocess(
    emptyToUndefined,
    z.string().regex(/^[a-z0-9.-]+$/i, 'must be a domain name such as api.cairn.example').optional(),
  ).describe('Host-based network selection: cardano-mainnet.<domain>, cardano-preprod.<domain>, … Unset: by path and key prefix only.'),
  REDIS_URL: z.preprocess(emptyToUndefined, z.string().regex(/^rediss?:\/\/.+/, 'must be a redis:// or rediss:// URL').optional()).describe('redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379, to share rate limits, quotas, bans and pay-as-you-go spends between gateway processes. Unset: limits in memory (one gateway).'),
  REDIS_KEY_PREFIX: z.preprocess(emptyToUndefined, z.string().regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1 to 64 letters, digits or : _ . -').default('cairn:')).describe('Prefix of every key the gateways write in Redis (several deployments can share one Redis).'),
  REDIS_TIMEOUT_MS: positiveInt(100, 'a positive whole number of milliseconds').describe('How long a gateway request waits on a Redis that answers nothing before the gateway treats Redis as down and checks requests against its own share of each limit (its limits divided by the number of live gateways) until Redis answers again.'),
  METERING_FLUSH_MS: positiveInt(5000, 'a positive whole number of milliseconds').describe('How often usage counts (and pay-as-you-go balance spends) are written to the database, in milliseconds; a crash loses at most this long a stretch of counts.'),
  METRICS_PORT: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a whole number between 1 and 65535' })
      .int('must be a whole number between 1 and 65535')
      .min(1, 'must be a whole number between 1 and 65535')
      .max(65535, 'must be a whole number between 1 and 65535')
      .optional(),
  ).describe('Port of the Prometheus metrics listener (GET /metrics), separate from the web app and the gateway. Unset: no metrics listener (metrics are off).'),
  METRICS_HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')).describe('Interface the metrics listener binds to. Set 0.0.0.0 (with METRICS_TOKEN) for a Prometheus on another machine.'),
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, 'must be at least 16 characters long').optional()).describe('Bearer token a scraper sends (Authorization: Bearer <token>) to read the metrics from a non-loopback address. Unset: loopback clients only.'),
  SANDBOX_BLOCK_INTERVAL_MS: positiveInt(20000, 'a positive whole number of milliseconds').describe('The sandbox chain makes a block every this many milliseconds.'),
  SANDBOX_SWEEP: optionalBool.describe("Whether a gateway sweeps each sandbox chain's history from its start, in a worker thread per chain at the lowest priority (one chain at a time, every chain's epochs' sums first, about a minute of a core each, then each one's sweep, about 6 minutes of a core per network at the first start; read back at once after a restart; about 105 bytes a block under $DATA_DIR/sandbox-chains), so that every background transaction is found by its hash and the lists of blocks and epochs read totals made ahead. Unset: on in production; in development each chain's worker sums its epochs and helps a cold page of them but sweeps nothing (a background transaction is then found once its block was read); none in tests. false: no worker. Whatever the setting, a gateway keeps each chain's whole epochs' sums in $DATA_DIR/sandbox-chains/epoch-sums-<network>.bin (about 50 bytes an epoch: some 5 MB a default chain) and installs them at its next start, so only a first start has old pages of epochs to sum."),
  DEVNET_IDLE_MS: positiveInt(600000, 'a positive whole number of milliseconds').describe('A devnet (a cardano-devnet project\'s own chain) no request reached for this many milliseconds is unloaded from memory: it lives in the database only and wakes, where it was, on its next request. The webhook worker follows a devnet with webhooks or open submitted transactions, keeping it in memory, while its clock runs, while it was used or steered within this time, and until it has caught up with its tip.'),
  DEVNET_MAX_LOADED: positiveInt(DEFAULT_DEVNET_MAX_LOADED, 'a positive whole number').describe('How many devnets one process holds in memory at most. Past it, loading another unloads the least recently used (those no call is steering and no webhook worker follows): they live in the database and wake, where they were, on their next request. A loaded devnet weighs most of a megabyte.'),
  PUSH_IDLE_TIMEOUT_MS: positiveInt(300_000, 'a positive whole number of milliseconds').describe('A websocket connection of the push API (/ws) that sends no message for this long is closed, in milliseconds (5 minutes by default; clients with subscriptions send a keep-alive well within it).'),
  PUSH_WRITER_THREAD: optionalBool.describe("Whether a gateway writes about half of each block's push notifications from a second thread once a network has 256 block subscribers or more (each subscriber costs a system call of some 10 µs, so ten thousand of them hold one thread for about 100 ms; two threads halve the wait on a machine with a core to spare). Unset: on where the machine has two cores or more."),
  PUSH_UPSTREAM_TIP_MS: positiveInt(1000, 'a positive whole number of milliseconds').describe('How often a gateway reads the tip of a Cardano network served by an upstream, for its websocket subscribers and for the submitted transactions it follows, in milliseconds (one read per network and gateway, whatever the number of connections; transactions are followed only while some are open). Sandbox networks announce each block when it is due, without reading.'),
  UPSTREAM_TX_REQUESTS_PER_SECOND: positiveInt(5, 'a positive whole number of requests').describe("The most requests per second the gateway following an upstream-served Cardano network's submitted transactions sends that upstream (blocks, their transactions, mempool checks, resubmissions), beside the tip read it shares with the push API; the upstream's 429 Retry-After is waited out. Only while transactions are open on the network."),
  UPSTREAM_TIMEOUT_MS: positiveInt(30000, 'a positive whole number of milliseconds').describe('How long the gateway waits for a backend\'s answer head, and between pieces of its body, in milliseconds.'),
  GATEWAY_BAN_THRESHOLD: positiveInt(1000, 'a positive whole number of rejected requests').describe('Refusals (429/402) within GATEWAY_BAN_WINDOW_SECONDS that get a client IP banned (418).'),
  GATEWAY_BAN_WINDOW_SECONDS: positiveInt(60, 'a positive whole number of seconds').describe('The window in which GATEWAY_BAN_THRESHOLD refusals are counted, in seconds.'),
  GATEWAY_BAN_SECONDS: positiveInt(600, 'a positive whole number of seconds').describe('How long a ban (418) lasts, in seconds.'),
  DISABLED_NETWORKS: disabledNetworks.describe('Gateway slugs of networks this server does not offer, comma-separated (cardano-mainnet, ipfs, milkomeda-mainnet, cardano-preview, cardano-preprod, cardano-devnet): left out of Add Project, new projects refused (400), existing keys answered 403 by the gateway (not counted), left off the status page. An unknown slug stops start-up. Unset: every network is offered.'),
  OPERATOR_EMAILS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('')
      .refine((v) => v.split(',').map((e) => e.trim()).filter(Boolean).every((e) => /^[^\s@,]+@[^\s@,]+$/.test(e)), 'must be a comma-separated list of e-mail addresses')
      .transform((v) => v.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean)),
  ).describe('Comma-separated e-mails of the operators: the operator page (/dashboard/operator, plans and boosts by hand) and calls, and the review of submitted community endpoints.'),
  IPFS_KUBO_API_URL: optionalUrl.describe('A Kubo node\'s RPC API, e.g. http://127.0.0.1:5001. Unset: the embedded store under $DATA_DIR/ipfs/blocks (one gateway process only; content is not announced to the IPFS network).'),
  IPFS_GC_GRACE_SECONDS: positiveInt(86_400, 'a positive whole number of seconds').describe('How long objects added but never pinned, and unpinned pins (state gc), are kept, in seconds (24 hours by default).'),
  IPFS_GC_INTERVAL_SECONDS: positiveInt(600, 'a positive whole number of seconds').describe('How often the IPFS collector runs, in seconds.'),
  IPFS_MAX_ADD_MB: positiveInt(100, 'a positive whole number of MB').describe('The largest file one IPFS add takes, in MB (1,000,000 bytes); 100 by default, as Blockfrost\'s contract says. Adds stream to disk, so a larger limit costs disk and the plan\'s storage, not memory.'),
  FILECOIN_PINNING_SERVICE_URL: optionalUrl.describe('An IPFS Pinning Service API provider for Filecoin deals; set together with FILECOIN_PINNING_SERVICE_TOKEN (both or neither). Unset: Filecoin pins are kept on this server\'s store and no Filecoin deal is made (the dashboard says so).'),
  FILECOIN_PINNING_SERVICE_TOKEN: optionalString.describe('The Pinning Service API provider\'s access token (both or neither with FILECOIN_PINNING_SERVICE_URL).'),
  WEBHOOK_ALLOWLIST: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('')
      .refine(
        (v) => v.split(',').map((e) => e.trim()).filter(Boolean).every(isValidAllowlistEntry),
        'must be a comma-separated list of host names and CIDR ranges such as 127.0.0.1/32',
      ),
  ).describe('Host names and CIDR ranges, comma-separated (e.g. 127.0.0.1/32,localhost), that webhook deliveries and the check of a submitted endpoint may reach although they are private, loopback or reserved (refused otherwise).'),
  WEBHOOK_TIMEOUT_MS: positiveInt(15000, 'a positive whole number of milliseconds').describe('How long one delivery attempt may take, in milliseconds.'),
  WEBHOOK_RETRY_SCHEDULE_SECONDS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('0,5,300,1800,7200,18000,36000,36000')
      .refine((v) => /^\d+(\s*,\s*\d+)*$/.test(v.trim()), 'must be a comma-separated list of whole seconds, such as 0,5,300')
      .transform((v) => v.split(',').map((x) => Number(x.trim()) * 1000)),
  ).describe('Delay before each delivery attempt, in seconds, comma-separated (the first is the first attempt).'),
  CHAIN_POLL_MS: positiveInt(2000, 'a positive whole number of milliseconds').describe('How often the webhook chain followers look for new blocks, in milliseconds (the payment watcher looks at least this often).'),
  PPU_ACCOUNT_XPUB: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^(acct_xvk1[02-9ac-hj-np-z]+|[0-9a-fA-F]{128})$/, 'must be a CIP-1852 account public key: acct_xvk1… or 128 hex digits')
      .optional(),
  ).describe('The CIP-1852 account public key pay-as-you-go order addresses derive from (acct_xvk1… or 128 hex digits); the server never holds a spending key. Unset: the published test mnemonic\'s account outside production (test ada only), no orders in production.'),
  PPU_NETWORK: z.preprocess(emptyToUndefined, z.enum(sandboxSlugs, { error: `must be one of ${sandboxSlugs.join(', ')}` }).default('cardano-mainnet')).describe('The network pay-as-you-go orders are paid on (its upstream, else its sandbox chain): cardano-mainnet, cardano-preprod or cardano-preview.'),
  PPU_PRICE_PER_REQUEST_EUR: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'must be a number' }).positive('must be a positive number of euro').optional()).describe('The price of one request in EUR. Unset: the spec\'s 0.0000024 EUR.'),
  PPU_ADA_EUR_RATE: z.preprocess(emptyToUndefined, z.coerce.number({ error: 'must be a number' }).positive('must be a positive number of euro per ADA').optional()).describe('EUR per ADA. With PPU_RATE_URL, the rate used while the source has no young enough reading. Unset, and without a reading of the rate source: 0.0000024 / 0.0000044839 EUR per ADA (the spec\'s 0.0000024 EUR = 0.0000044839 ADA per request).'),
  PPU_RATE_URL: optionalUrl.describe('The ADA/EUR rate source: a URL answering {"cardano":{"eur":…}} (e.g. https://api.coingecko.com/api/v3/simple/price?ids=cardano&vs_currencies=eur) or {"ada_eur":…}; it wins over PPU_ADA_EUR_RATE when it answers.'),
  PPU_RATE_TTL_SECONDS: positiveInt(300, 'a positive whole number of seconds').describe('How long a reading of the rate source is reused before it is read again, in seconds.'),
  PPU_RATE_MAX_AGE_SECONDS: positiveInt(86_400, 'a positive whole number of seconds').describe('How old the last reading may be and still be used while the rate source does not answer, in seconds.'),
  PPU_RATE_TIMEOUT_MS: positiveInt(3000, 'a positive whole number of milliseconds').describe('How long a quote waits for the rate source, in milliseconds.'),
  PPU_CONFIRMATIONS: positiveInt(3, 'a positive whole number of blocks').describe('Blocks on top of a payment (counting its own) before the order is credited.'),
  PPU_ORDER_TTL_MINUTES: positiveInt(60, 'a positive whole number of minutes').describe('How long an order\'s amount and rate stay locked, in minutes.'),
  BILLING_PROVIDER: z.preprocess(emptyToUndefined, z.enum(['stripe', 'local', 'none'], { error: 'must be stripe, local or none' }).optional()).describe('stripe, local (Cairn\'s built-in test billing, no money moves; refused in production) or none (operators set plans). Unset: stripe when STRIPE_SECRET_KEY is set, else local outside production and none in production.'),
  STRIPE_SECRET_KEY: optionalString.describe('Stripe API key; set together with STRIPE_WEBHOOK_SECRET (both or neither).'),
  STRIPE_WEBHOOK_SECRET: optionalString.describe('The Stripe webhook endpoint\'s signing secret. Endpoint: $PUBLIC_URL/api/stripe/webhook (events: checkout.session.*, customer.subscription.*, invoice.*, customer.updated).'),
  STRIPE_API_URL: optionalUrl.describe('A Stripe-compatible API instead of api.stripe.com, such as stripe-mock (the tests use a server of their own). Unset: Stripe\'s own.'),
  MAINTENANCE_MODE: bool(false).describe('true replaces the dashboard with the maintenance page.'),
  MAINTENANCE_ETA: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => !Number.isNaN(Date.parse(v)), 'must be a date and time such as 2026-12-01T18:00:00Z')
      .optional(),
  ).describe('Estimated completion shown on the maintenance page (ISO date and time, e.g. 2026-12-01T18:00:00Z).'),
});

type Env = z.infer<typeof configSchema>;

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
  /** On SIGTERM: how long in-flight work may take before what is left is closed (SHUTDOWN_TIMEOUT_MS). */
  shutdownTimeoutMs: number;
  session: { secret: string | undefined; maxAgeMs: number };
  /** AUDIT_RETENTION_DAYS: how long the workspace audit log keeps an entry. */
  auditRetentionDays: number;
  trustProxy: TrustProxy;
  magicLinkTtlMs: number;
  /** Sign-in mails one client IP may ask for in 15 minutes. */
  signInLinksPerIp: number;
  /** Each user's state-changing dashboard requests: a burst, refilled at a rate a minute (per api process). */
  dashboardWrites: { burst: number; perMinute: number };
  /** Desktop-app sign-ins one client IP may start in a sign-in window (15 minutes). */
  desktopSignInsPerIp: number;
  /** Event streams (GET /api/events) open at once, per user and per client IP. */
  eventStreams: { perUser: number; perIp: number };
  mail: { smtpUrl: string | undefined; from: string };
  captcha: { siteKey: string; secret: string; verifyUrl: string } | null;
  github: (OAuthClientConfig & { authorizationUrl: string; tokenUrl: string; apiUrl: string }) | null;
  google: OAuthClientConfig | null;
  gitlab: (OAuthClientConfig & { baseUrl: string }) | null;
  site: SiteConfig;
  gateway: GatewayConfig;
  ipfs: IpfsConfig;
  webhooks: { allowlist: string; timeoutMs: number; retryScheduleMs: number[]; chainPollMs: number };
  /** Prometheus metrics on a listener of their own; null: off. */
  metrics: { port: number; host: string; token: string | undefined } | null;
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
  /** How long a request waits on a silent Redis before the gateway applies its own share of the limits (REDIS_TIMEOUT_MS). */
  redisTimeoutMs: number;
  meteringFlushMs: number;
  sandboxBlockIntervalMs: number;
  /**
   * What the gateway's sandbox chains' worker threads do from the start (SANDBOX_SWEEP): `all`, sum
   * every chain's epochs and then sweep its history to disk; `sums`, only sum the epochs (and help a
   * cold page of them), nothing swept; `off`, no worker.
   */
  sandboxSweep: SandboxSweep;
  /** How long a devnet stays in memory without a request (DEVNET_IDLE_MS). */
  devnetIdleMs: number;
  /** How many devnets a process holds in memory at most (DEVNET_MAX_LOADED). */
  devnetMaxLoaded: number;
  /** A push API connection silent this long is closed (PUSH_IDLE_TIMEOUT_MS). */
  pushIdleTimeoutMs: number;
  /** Whether a second thread writes about half of each large block fan-out (PUSH_WRITER_THREAD). */
  pushWriterThread: boolean;
  /** How often the tip of an upstream-served Cardano network is read for push subscribers and the submitted transactions followed (PUSH_UPSTREAM_TIP_MS). */
  pushUpstreamTipMs: number;
  /** Requests per second the follower of an upstream-served network's submitted transactions sends it at most (UPSTREAM_TX_REQUESTS_PER_SECOND). */
  upstreamTxRequestsPerSecond: number;
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
  /** The largest file one add takes, in bytes (IPFS_MAX_ADD_MB). */
  maxAddBytes: number;
  /** An IPFS Pinning Service API provider for Filecoin deals; null: none is made. */
  pinningService: { url: string; token: string } | null;
}

/** What the public site and the dashboard shell show; answered by GET /api/site. */
export type SiteConfig = SiteInfo;

export class ConfigError extends Error {}

const pair = (id: string | undefined, secret: string | undefined) => (id && secret ? { clientId: id, clientSecret: secret } : null);


/** Parses the environment; throws ConfigError with one line naming the variable and what is wrong. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
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
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    session: { secret: e.SESSION_SECRET, maxAgeMs: e.SESSION_MAX_AGE_DAYS * DAY_MS },
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    trustProxy: e.TRUST_PROXY,
    magicLinkTtlMs: e.MAGIC_LINK_TTL_MINUTES * 60 * 1000,
    signInLinksPerIp: e.SIGNIN_LINKS_PER_IP,
    desktopSignInsPerIp: e.DESKTOP_SIGN_INS_PER_IP,
    dashboardWrites: { burst: e.DASHBOARD_WRITE_BURST, perMinute: e.DASHBOARD_WRITES_PER_MINUTE },
    eventStreams: { perUser: e.EVENT_STREAMS_PER_USER, perIp: e.EVENT_STREAMS_PER_IP },
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
    metrics: e.METRICS_PORT === undefined ? null : { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    gateway: {
      port: e.GATEWAY_PORT,
      publicUrl: (e.GATEWAY_PUBLIC_URL ?? `http://localhost:${e.GATEWAY_PORT}`).replace(/\/+$/, ''),
      domain: e.GATEWAY_DOMAIN?.toLowerCase() ?? null,
      redisUrl: e.REDIS_URL ?? null,
      redisPrefix: e.REDIS_KEY_PREFIX,
      redisTimeoutMs: e.REDIS_TIMEOUT_MS,
      meteringFlushMs: e.METERING_FLUSH_MS,
      sandboxBlockIntervalMs: e.SANDBOX_BLOCK_INTERVAL_MS,
      sandboxSweep: e.SANDBOX_SWEEP === true ? 'all' : e.SANDBOX_SWEEP === false ? 'off' : DEFAULT_SWEEP[e.NODE_ENV],
      devnetIdleMs: e.DEVNET_IDLE_MS,
      devnetMaxLoaded: e.DEVNET_MAX_LOADED,
      pushIdleTimeoutMs: e.PUSH_IDLE_TIMEOUT_MS,
      pushWriterThread: e.PUSH_WRITER_THREAD ?? os.availableParallelism() > 1,
      pushUpstreamTipMs: e.PUSH_UPSTREAM_TIP_MS,
      upstreamTxRequestsPerSecond: e.UPSTREAM_TX_REQUESTS_PER_SECOND,
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
      maxAddBytes: e.IPFS_MAX_ADD_MB * 1_000_000,
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
      // The mailer is the development mailbox exactly when SMTP_URL is unset (production requires it).
      devMailbox: e.NODE_ENV !== 'production' && !e.SMTP_URL ? '/dev/mailbox' : null,
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
