import type http from 'node:http';
import express, { type Router } from 'express';
import proxyaddr from 'proxy-addr';
import { proxyTrust, type Config } from '../config';
import type { Logger } from '../logger';
import { evmNetwork, evmSlugs, networks, type UpstreamNetwork } from '../../shared/networks';
import { INVALID_PATH_MESSAGE, NOT_FOUND_MESSAGE } from '../blockfrost/http';
import { blockfrostMethods } from '../blockfrost/methods';
import { KeyCache, type ProjectKey } from './key-cache';
import { MemoryLimiter, utcDay, type Limiter, type Verdict } from './limiter';
import type { Meter, MeteredRequest } from './metering';
import { UNKNOWN_ENDPOINT } from '../../shared/insight';
import { httpUpstream, type Upstream } from './proxy';
import { ANY_ORIGIN, allowAnyOrigin, sendBlockfrostError, sendJson, sendJsonRpcRefusal } from './respond';
import type { JsonRpcHandler } from '../features/milkomeda/index';
import { requestKey } from './request-key';
import { blockfrostPath, methodAllowed } from './blockfrost-request';
import { errorMessageOf, keepErrorBodyOwn } from './gateway-response';
import type { IpfsBackend } from '../features/ipfs/index';
import { ALLOW_LIST_MESSAGES, refusedCode, type AllowListName } from '../../shared/allow-list';
import type { AnswerSlot, Metrics } from '../metrics';
import { METRICS_TEMPLATES, metricsBackend, type UsageMetrics } from './usage-metrics';

const API_PREFIX = '/api/v0';
const slugs = new Set(networks.map((n) => n.slug).filter((s): s is string => !!s));

const MILKOMEDA: string = evmNetwork.slug;

/** A request whose key was looked up again after the key cache caught up: when it arrived. */
const CAUGHT_UP = Symbol('cairn.caughtUp');
type CaughtUpRequest = http.IncomingMessage & { [CAUGHT_UP]?: number };

export const MESSAGES = {
  invalidToken: 'Invalid project token.',
  missingToken: 'Missing project token. Please include project_id in your request.',
  mismatch: 'Network token mismatch. Are you using token for the correct network? See https://docs.blockfrost.io/#section/Available-networks.',
  overLimit: 'Usage is over limit.',
  banned: 'IP has been auto-banned for flooding.',
  noBackend: 'This network has no backend configured on this Cairn server, so requests to it cannot be answered (and are not counted).',
  disabled: 'This network is turned off on this Cairn server by its operator: its keys are refused (and requests are not counted).',
  badPath: "The path is not valid: dot segments (also encoded), encoded slashes, backslashes and '#' are not allowed.",
  invalidPath: INVALID_PATH_MESSAGE,
  restricted: 'API access is restricted: the first payment of this subscription failed. Pay the open invoice in the dashboard to restore it.',
} as const;

export interface GatewayDeps {
  config: Config;
  logger: Logger;
  keys: KeyCache;
  limiter: Limiter;
  meter: Meter;
  /**
   * The sandbox chain's Blockfrost router for a Cardano network without an upstream (`url`: the
   * network's public base URL); undefined when the network has no sandbox. From the composition
   * root, which owns the simulators.
   */
  sandbox?: (slug: string, url: string) => Router | undefined;
  /** Milkomeda's JSON-RPC handler (server/features/milkomeda); none: calls answer 'no backend'. */
  jsonRpc: JsonRpcHandler;
  /** IPFS calls for the ipfs network when no UPSTREAM_IPFS_URL is set (server/features/ipfs). */
  ipfs?: IpfsBackend;
  version: string;
  now?: () => number;
  /** Prometheus metrics (METRICS_PORT); none: nothing is counted for them. */
  metrics?: Metrics;
  /** The metering's figures behind Blockfrost's /metrics and /metrics/endpoints; none: those paths go to the network's backend. */
  usage?: UsageMetrics;
}

/** A decoded segment that is a dot segment ('..', also '..;x') or hides a separator ('/', '\\', '#', NUL). */
const escapes = (decoded: string): boolean => {
  if (/[/\\#]/.test(decoded) || decoded.includes('\u0000')) return true;
  const bare = decoded.split(';', 1)[0]!.trim();
  return bare === '.' || bare === '..';
};

/** How many more times a segment is decoded after the first: '%252e%252e' is '..' to a backend that decodes twice. */
const DECODE_AGAIN = 3;

/**
 * True for a path a backend could resolve outside the API or to another path than the one checked:
 * '.' or '..' segments, also encoded ('%2e%2e'), encoded twice ('%252e%252e') or with a parameter
 * ('..;'); slashes, backslashes or '#' encoded (a '#' ends the path for whoever reads it next), and a
 * backslash or '#' as it is. The cheap test first: a normal path has none of '.', '%', ';', '\\', '#'.
 */
export function climbs(path: string): boolean {
  if (!/[.%;\\#]/.test(path)) return false;
  if (path.includes('\\') || path.includes('#')) return true;
  for (const segment of path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return true;
    }
    if (escapes(decoded)) return true;
    // Decoded again while it still holds an escape: what a backend that decodes once more would see.
    for (let round = 0; round < DECODE_AGAIN && decoded.includes('%'); round++) {
      let again: string;
      try {
        again = decodeURIComponent(decoded);
      } catch {
        break; // a literal '%' (a file named '100%.txt'): nothing more to decode
      }
      if (again === decoded) break;
      if (escapes(again) || again.includes('?')) return true;
      decoded = again;
    }
  }
  return false;
}

/** `project` is the admitted key's project (the IPFS backend keeps its bookkeeping per project; proxies ignore it). */
type Backend = (req: http.IncomingMessage, res: http.ServerResponse, path: string, project?: ProjectKey) => void;

/** Where the request's answer is counted for the metrics, and when it arrived. */
const ANSWER = Symbol('cairn.answer');
const ARRIVED = Symbol('cairn.arrived');
type ObservedResponse = http.ServerResponse & { [ANSWER]?: AnswerSlot; [ARRIVED]?: number };

/** Made once: counts an answer by status class and its latency in its slot. */
function observeAnswer(this: http.ServerResponse): void {
  const r = this as ObservedResponse;
  const slot = r[ANSWER]!;
  const c = (this.statusCode / 100) | 0;
  slot.byClass[c < 1 ? 0 : c > 5 ? 4 : c - 1]!.inc();
  slot.latency.observe((performance.now() - r[ARRIVED]!) / 1000);
}

/** The request's meter record rides on its response until the answer has gone out. */
const METERED = Symbol('cairn.metered');
type MeteredResponse = http.ServerResponse & { [METERED]?: MeteredRequest };

/** Where each network's requests go: its configured upstream, or the sandbox chain for Cardano networks without one. */
function backends(deps: GatewayDeps): { byNetwork: Map<string, Backend>; kinds: Map<string, string>; sandboxed: Set<string>; close(): void } {
  const byNetwork = new Map<string, Backend>();
  const kinds = new Map<string, string>([[MILKOMEDA, 'jsonrpc']]);
  const sandboxed = new Set<string>();
  const upstreams: Upstream[] = [];
  const gw = deps.config.gateway;
  const off = new Set<string>(deps.config.disabledNetworks);
  for (const slug of slugs) {
    // Turned off by the operator (DISABLED_NETWORKS): nothing serves it; the handler says so.
    if (off.has(slug)) continue;
    const upstream = gw.upstreams[slug as UpstreamNetwork];
    if (upstream) {
      const u = httpUpstream(upstream, gw.upstreamTimeoutMs);
      upstreams.push(u);
      byNetwork.set(slug, (req, res, path) => u.forward(req, res, path));
      kinds.set(slug, 'upstream');
      continue;
    }
    // IPFS: the embedded store or a Kubo node (server/features/ipfs), unless an upstream is configured above.
    const ipfs = slug === 'ipfs' ? deps.ipfs : undefined;
    if (ipfs) {
      byNetwork.set(slug, (req, res, path, project) => {
        if (!project) return sendBlockfrostError(res, 403, MESSAGES.invalidToken);
        allowAnyOrigin(res);
        ipfs.handle(req, res, path, project);
      });
      kinds.set(slug, 'ipfs');
      continue;
    }
    const router = deps.sandbox?.(slug, `${gw.publicUrl}/${slug}${API_PREFIX}`);
    if (!router) continue;
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    app.use(router);
    sandboxed.add(slug);
    kinds.set(slug, 'sandbox');
    byNetwork.set(slug, (req, res, path) => {
      req.url = path;
      allowAnyOrigin(res);
      keepErrorBodyOwn(res);
      app(req as express.Request, res as express.Response);
    });
  }
  return { byNetwork, kinds, sandboxed, close: () => upstreams.forEach((u) => u.close()) };
}

const preflight = (res: http.ServerResponse): void => {
  res.writeHead(204, {
    ...ANY_ORIGIN,
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers': 'project_id, Content-Type, Authorization',
    'Access-Control-Max-Age': '86400',
  });
  res.end();
};

/**
 * The data plane: authenticates the project key, picks the network (from the path, the host or the
 * key), applies the ban, rate limit and daily quota, meters the request and hands it to the
 * network's backend. The hot path touches no database.
 */
export function createGatewayHandler(deps: GatewayDeps) {
  const { config, keys, limiter, meter } = deps;
  const now = deps.now ?? Date.now;
  // The control plane's rule (its Express 'trust proxy' is the same function): the client is the
  // nearest X-Forwarded-For hop not trusted, never simply the left-most entry a client wrote.
  const tp = config.trustProxy;
  const trust = proxyTrust(tp);
  const clientIp = (req: http.IncomingMessage): string => (tp === false ? (req.socket.remoteAddress ?? '') : proxyaddr(req as express.Request, trust));
  const { byNetwork, kinds, sandboxed, close } = backends(deps);
  // Bound once: a request only adds to numbers (server/metrics.ts).
  const observed = deps.metrics?.gateway(kinds, [...slugs]);
  // Read at start, so a document the gateway cannot read stops it there rather than at a request.
  const methods = blockfrostMethods();
  const memory = limiter instanceof MemoryLimiter ? limiter : null;
  const domain = config.gateway.domain;
  const disabled = new Set<string>(config.disabledNetworks);
  let quotaBase = new Map<number, number>();
  let quotaBaseDay = -1;
  // Milkomeda: JSON-RPC with a method allow-list (server/features/milkomeda/jsonrpc.ts).
  const { jsonRpc } = deps;
  // Blockfrost's usage metrics of the calling project: answered here on every network (made once per template).
  const ownAnswers = new Map<string, Backend>();
  if (deps.usage) {
    const answer = metricsBackend(deps.usage, now, (err) => deps.logger.error({ err: { message: (err as Error).message } }, 'gateway: usage metrics failed'));
    for (const template of METRICS_TEMPLATES) ownAnswers.set(template, answer(template));
  }

  const root = (res: http.ServerResponse, rest: string, network: string | undefined): boolean => {
    if (rest === '/' || rest === '') return (sendJson(res, 200, { url: `${config.gateway.publicUrl}${network ? `/${network}` : ''}${API_PREFIX}`, version: deps.version }), true);
    if (rest === '/health') return (sendJson(res, 200, { is_healthy: true }), true);
    if (rest === '/health/clock') return (sendJson(res, 200, { server_time: now() }), true);
    return false;
  };

  // Made once, not per request: the hot path allocates no listener closures. One listener meters an
  // admitted request and, with metrics on, counts every answer (a second listener per response
  // would cost each request an array of listeners).
  const onFinish = function (this: http.ServerResponse) {
    const r = (this as MeteredResponse)[METERED];
    if (r !== undefined) {
      r.status = this.statusCode;
      if (r.status >= 400) r.message = errorMessageOf(this);
      meter.record(r);
    }
    if ((this as ObservedResponse)[ANSWER] !== undefined) observeAnswer.call(this);
  };

  /** Answers the limiter's verdict, and meters the request once its answer has gone out. */
  const dispatch = (verdict: Verdict, req: http.IncomingMessage, res: http.ServerResponse, backend: Backend, path: string, metered: MeteredRequest, project: ProjectKey): void => {
    metered.admitted = verdict === 'ok';
    (res as MeteredResponse)[METERED] = metered;
    // With metrics on, the handler has already added the listener to every response.
    if (!observed) res.on('finish', onFinish);
    if (verdict !== 'ok') {
      observed?.refusals[verdict].inc();
      if (verdict === 'banned') return sendBlockfrostError(res, 418, MESSAGES.banned);
      if (verdict === 'rate_limited') return sendBlockfrostError(res, 429, MESSAGES.overLimit);
      return sendBlockfrostError(res, 402, MESSAGES.overLimit);
    }
    if (observed) (res as ObservedResponse)[ANSWER] = observed.slot(project.network, true);
    backend(req, res, path, project);
  };

  /** A request an allow-list refused: Blockfrost's 403 naming the list, metered as refused (never toward the quota). */
  const refuseByList = (res: http.ServerResponse, project: ProjectKey, list: AllowListName, endpoint: string, ip: string, userAgent: string | undefined, at: number, started: number): void => {
    sendBlockfrostError(res, 403, ALLOW_LIST_MESSAGES[list]);
    meter.record({ projectId: project.projectId, ownerId: project.ownerId, endpoint, status: 403, ip, userAgent, admitted: false, refused: refusedCode(list), at, started });
  };

  /**
   * Refuses a request before any limit: in JSON-RPC for a JSON-RPC client (a Milkomeda path, a POST
   * to the API root, or a Milkomeda key on the plain /api/v0), so viem and ethers show the reason;
   * in Blockfrost's error body for everything else.
   */
  const refuse = (req: http.IncomingMessage, res: http.ServerResponse, network: string | undefined, rest: string, status: number, message: string, p?: ProjectKey): void => {
    const rpc = network === MILKOMEDA || (rest === '/' && req.method === 'POST') || (!network && p !== undefined && evmSlugs.has(p.network));
    if (rpc) return sendJsonRpcRefusal(req, res, status, message);
    sendBlockfrostError(res, status, message);
  };

  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    // The request's latency runs from here until its answer has gone out (metering's histograms).
    const started = (req as CaughtUpRequest)[CAUGHT_UP] ?? performance.now();
    if (observed && (res as ObservedResponse)[ANSWER] === undefined) {
      (res as ObservedResponse)[ANSWER] = observed.slot(undefined, false);
      (res as ObservedResponse)[ARRIVED] = started;
      res.on('finish', onFinish);
    }
    // Browsers (dApps, the API reference's 'try it') call the gateway from other origins: every
    // answer allows any origin (respond.ts ANY_ORIGIN), each in its own headers.
    if (req.method === 'OPTIONS') return preflight(res);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const search = q === -1 ? '' : url.slice(q);
    // The key from the header, the path (/<key>/api/v0/…) or basic auth; a key segment leaves the path here.
    const { key, pathname } = requestKey(req, blockfrostPath(q === -1 ? url : url.slice(0, q)));

    // Network from the host (cardano-mainnet.<domain>), else from the path (/cardano-mainnet/api/v0/…).
    let network: string | undefined;
    let rest = pathname;
    if (domain) {
      const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
      if (host.endsWith(`.${domain}`)) {
        const sub = host.slice(0, -domain.length - 1);
        if (slugs.has(sub)) network = sub;
      }
    }
    if (!network) {
      const second = pathname.indexOf('/', 1);
      const first = second === -1 ? pathname.slice(1) : pathname.slice(1, second);
      if (slugs.has(first)) {
        network = first;
        rest = second === -1 ? '/' : pathname.slice(second);
      }
    }
    if (rest === API_PREFIX || rest.startsWith(API_PREFIX + '/')) rest = rest.slice(API_PREFIX.length) || '/';
    else if (rest !== '/' && rest !== '/health' && rest !== '/health/clock') return sendBlockfrostError(res, 404, NOT_FOUND_MESSAGE);

    // POST /api/v0/ is a JSON-RPC call (Milkomeda), not the root document.
    if (!(rest === '/' && req.method === 'POST') && root(res, rest, network)) return;
    // Before any key, limit or backend: a path that climbs out of /api/v0 would reach whatever the
    // upstream serves beside its API, with Cairn's upstream credentials.
    // A '#' in the query would end the target for a backend that reads it as a fragment.
    if (climbs(rest) || search.includes('#')) return sendBlockfrostError(res, 400, MESSAGES.badPath);

    if (key === undefined) return refuse(req, res, network, rest, 403, MESSAGES.missingToken);
    const project = typeof key === 'string' ? keys.lookup(key) : undefined;
    if (!project) {
      // A key created a moment ago may not be in the cache yet: look again once the cache has caught
      // up with the changes made before this request, then answer as if it had been there (once).
      if (typeof key === 'string' && !(req as CaughtUpRequest)[CAUGHT_UP] && KeyCache.looksLikeKey(key)) {
        (req as CaughtUpRequest)[CAUGHT_UP] = started;
        return void keys.catchUp().then(
          () => handler(req, res),
          () => refuse(req, res, network, rest, 403, MESSAGES.invalidToken),
        );
      }
      return refuse(req, res, network, rest, 403, MESSAGES.invalidToken);
    }
    if (observed) (res as ObservedResponse)[ANSWER] = observed.slot(project.network, false);
    if (network && network !== project.network) return refuse(req, res, network, rest, 403, MESSAGES.mismatch, project);
    // POST /api/v0/ is Milkomeda's JSON-RPC: another network's key is the wrong one for it.
    if (!network && rest === '/' && req.method === 'POST' && !evmSlugs.has(project.network)) return refuse(req, res, network, rest, 403, MESSAGES.mismatch, project);
    // A network the operator turned off: the key is real but refused, before any limit (costs nothing, not metered).
    if (disabled.size > 0 && disabled.has(project.network)) return refuse(req, res, network, rest, 403, MESSAGES.disabled, project);
    // incomplete_expired: the first payment failed and none succeeded within 23 hours (spec: access restricted).
    if (project.status === 'incomplete_expired') return refuse(req, res, network, rest, 402, MESSAGES.restricted, project);
    const target = network ?? project.network;
    const backend = byNetwork.get(target);
    // Nothing can answer it here: say so before the limits, so it costs no quota, no token and no
    // metering. Milkomeda's JSON-RPC handler makes the same check for its own backend.
    if (!backend && target !== MILKOMEDA) return sendBlockfrostError(res, 500, MESSAGES.noBackend);
    // Only the methods Blockfrost defines for the path reach a backend (Milkomeda's JSON-RPC handler
    // keeps its own rules); a path it does not define is passed on for reading only, so the backend
    // answers its own 404.
    const route = target === MILKOMEDA ? undefined : methods.match(rest);
    if (target !== MILKOMEDA && !methodAllowed(route, req, res)) return;
    const serve = (route && ownAnswers.get(route.template)) ?? backend;

    const at = now();
    const day = utcDay(at);
    if (day !== quotaBaseDay) {
      // The day turned: nothing flushed for it yet.
      quotaBase = new Map();
      quotaBaseDay = day;
    }
    const ip = clientIp(req);
    // The project's allow-lists, before any limit: a refused request spends no token, quota or
    // balance. Compiled in the key cache, so a project without lists costs one null check.
    const allow = project.allow;
    if (allow !== null) {
      const refused = allow.origin !== null && !allow.origin(req.headers.origin) ? 'origin' : allow.ip !== null && !allow.ip(ip) ? 'ip' : null;
      if (refused !== null) return refuseByList(res, project, refused, route?.template ?? UNKNOWN_ENDPOINT, ip, req.headers['user-agent'], at, started);
    }
    if (observed && target === MILKOMEDA) (res as ObservedResponse)[ANSWER] = observed.slot(target, true);
    if (target === MILKOMEDA) return void jsonRpc.handle(req, res, rest, { project, ip, at, started, day, quotaBase: quotaBase.get(project.ownerId) ?? 0 });
    const admit = {
      ip,
      // Per project, not per key: during a roll's grace both keys share one bucket.
      bucketKey: project.uuid,
      rate: project.limitPerSecond,
      burst: project.limitBurst,
      quotaKey: project.quotaKey,
      day,
      quotaLimit: project.requestLimit,
      quotaBase: quotaBase.get(project.ownerId) ?? 0,
      // Pay as you go: a workspace without a balance passes 0 and costs nothing more.
      balanceKey: project.balanceKey,
      balanceCredited: project.ppuCredited,
      balanceSpentBase: project.ppuSpent,
    };
    const metered: MeteredRequest = { projectId: project.projectId, ownerId: project.ownerId, endpoint: route?.template ?? UNKNOWN_ENDPOINT, status: 0, ip, userAgent: req.headers['user-agent'], admitted: false, at, started };
    // The in-memory limiter answers at once; only Redis needs a round trip.
    if (!serve) return sendBlockfrostError(res, 500, MESSAGES.noBackend);
    if (memory) return dispatch(memory.admitNow(admit), req, res, serve, rest + search, metered, project);
    limiter
      .admit(admit)
      .then((verdict) => dispatch(verdict, req, res, serve, rest + search, metered, project))
      .catch((err: unknown) => {
        deps.logger.error({ err: { message: (err as Error).message } }, 'gateway: limiter failed');
        if (!res.headersSent) sendBlockfrostError(res, 500, 'The request could not be checked against its limits. Please retry.');
      });
  };

  return {
    handler,
    /** Networks served by the sandbox chain (the dashboard marks their projects 'Sandbox data'). */
    sandboxed,
    /** The backend of each network; the failover pools (upstream-pool.ts) swap entries while community endpoints serve a network. */
    backends: byNetwork,
    setQuotaBase(base: Map<number, number>, at = now()) {
      quotaBase = base;
      quotaBaseDay = utcDay(at);
    },
    close() {
      close();
      jsonRpc.close();
    },
  };
}
