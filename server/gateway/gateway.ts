import type http from 'node:http';
import type express from 'express';
import type { Router } from 'express';
import proxyaddr from 'proxy-addr';
import { proxyTrust, type Config } from '../config';
import type { Logger } from '../logger';
import { evmNetwork, evmSlugs, networks } from '../../shared/networks';
import { NOT_FOUND_MESSAGE } from '../blockfrost/http';
import { blockfrostMethods } from '../blockfrost/methods';
import type { KeyCache, ProjectKey } from './key-cache';
import type { Limiter, Verdict } from './limiter';
import type { Meter, MeteredRequest } from './metering';
import { UNKNOWN_ENDPOINT } from '../../shared/insight';
import { ANY_ORIGIN, sendBlockfrostError, sendJson, sendJsonRpcRefusal } from './respond';
import { requestKey } from './request-key';
import { blockfrostPath, methodAllowed } from './blockfrost-request';
import { errorMessageOf } from './gateway-response';
import type { AnswerSlot, GatewayInstruments, Metrics } from '../metrics';
import { METRICS_TEMPLATES, metricsBackend, type UsageMetrics } from './usage-metrics';
import { CATCH_UP, createAdmission, type Admission } from './admission';
import type { AdmittedCall, CairnExtension, GatewayBackend } from './backend';
import { networkBackends } from './backends';
import { REFUSALS, limitRefusal, type Refusal } from './refusals';
import { inProcessCaller, type InProcessAnswer, type InProcessRequest } from './in-process';

const API_PREFIX = '/api/v0';
/** Cairn's extensions outside Blockfrost's paths (backend.ts CairnExtension). */
const CAIRN_PREFIX = '/cairn/';
const slugs = new Set(networks.map((n) => n.slug).filter((s): s is string => !!s));

const MILKOMEDA: string = evmNetwork.slug;

/** A request whose key was looked up again after the key cache caught up: when it arrived. */
const CAUGHT_UP = Symbol('cairn.caughtUp');
type CaughtUpRequest = http.IncomingMessage & { [CAUGHT_UP]?: number };

/** The texts of the gateway's refusals (refusals.ts holds them with their statuses). */
export const MESSAGES = {
  invalidToken: REFUSALS.invalidKey.message,
  missingToken: REFUSALS.missingKey.message,
  mismatch: REFUSALS.mismatch.message,
  overLimit: REFUSALS.rate_limited.message,
  banned: REFUSALS.banned.message,
  noBackend: REFUSALS.noBackend.message,
  disabled: REFUSALS.disabled.message,
  badPath: REFUSALS.badPath.message,
  invalidPath: REFUSALS.invalidPath.message,
  restricted: REFUSALS.restricted.message,
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
  /** Wraps a Cardano network's backend (its configured upstream or its sandbox chain): the composition root records the transactions submitted to it (server/features/txs). */
  trackSubmissions?: (slug: string, backend: GatewayBackend) => GatewayBackend;
  /** Milkomeda's JSON-RPC backend (server/features/milkomeda); none: calls answer 'no backend'. */
  jsonRpc?: GatewayBackend | undefined;
  /** IPFS calls for the ipfs network when no UPSTREAM_IPFS_URL is set (server/features/ipfs). */
  ipfs?: GatewayBackend;
  /** cardano-devnet's calls: each key's own project's chain (server/features/devnets); none: no backend. */
  devnet?: GatewayBackend;
  version: string;
  now?: () => number;
  /** Prometheus metrics (METRICS_PORT); none: nothing is counted for them. */
  metrics?: Metrics;
  /** Cairn's extensions (/cairn/v1/…), e.g. the status of a submitted transaction; none: those paths answer 404. */
  cairn?: CairnExtension;
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

const preflight = (res: http.ServerResponse): void => {
  res.writeHead(204, {
    ...ANY_ORIGIN,
    'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': 'project_id, Content-Type, Authorization',
    'Access-Control-Max-Age': '86400',
  });
  res.end();
};


/** The first path segment when it names a network, else undefined. */
function pathNetwork(pathname: string): string | undefined {
  const second = pathname.indexOf('/', 1);
  const first = second === -1 ? pathname.slice(1) : pathname.slice(1, second);
  return slugs.has(first) ? first : undefined;
}

/** The network a host names (cardano-mainnet.<domain>), else undefined. */
function hostNetwork(req: http.IncomingMessage, domain: string): string | undefined {
  const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
  if (!host.endsWith(`.${domain}`)) return undefined;
  const sub = host.slice(0, -domain.length - 1);
  return slugs.has(sub) ? sub : undefined;
}

/** What the request path shares, made once per gateway. */
interface Gateway {
  deps: GatewayDeps;
  admission: Admission;
  byNetwork: Map<string, GatewayBackend>;
  ownAnswers: Map<string, GatewayBackend>;
  methods: ReturnType<typeof blockfrostMethods>;
  observed: GatewayInstruments | undefined;
  clientIp: (req: http.IncomingMessage) => string;
  onFinish: (this: http.ServerResponse) => void;
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void;
}

/** A JSON-RPC client (a Milkomeda path, a POST to the API root, a Milkomeda key on the plain /api/v0) is refused in JSON-RPC, so viem and ethers show the reason. */
const speaksJsonRpc = (req: http.IncomingMessage, network: string | undefined, rest: string, p: ProjectKey | undefined): boolean =>
  network === MILKOMEDA || (rest === '/' && req.method === 'POST') || (!network && p !== undefined && evmSlugs.has(p.network));

/** Answers a refusal in the client's protocol: JSON-RPC for a JSON-RPC client, Blockfrost's error body for everything else. */
function refuse(req: http.IncomingMessage, res: http.ServerResponse, network: string | undefined, rest: string, refusal: Refusal, p?: ProjectKey): void {
  if (speaksJsonRpc(req, network, rest, p)) return sendJsonRpcRefusal(req, res, refusal.status, refusal.message);
  sendBlockfrostError(res, refusal.status, refusal.message);
}

/** Answers the limits step's verdict, and meters the request once its answer has gone out. */
function dispatch(g: Gateway, verdict: Verdict, req: http.IncomingMessage, res: http.ServerResponse, backend: GatewayBackend, path: string, metered: MeteredRequest, call: AdmittedCall): void {
  metered.admitted = verdict === 'ok';
  (res as MeteredResponse)[METERED] = metered;
  // With metrics on, the handler has already added the listener to every response.
  if (!g.observed) res.on('finish', g.onFinish);
  if (verdict !== 'ok') {
    g.observed?.refusals[verdict].inc();
    const refusal = limitRefusal(verdict);
    return sendBlockfrostError(res, refusal.status, refusal.message);
  }
  if (g.observed) (res as ObservedResponse)[ANSWER] = g.observed.slot(call.project.network, true);
  backend.handle(req, res, path, call, g.admission.steps);
}

/**
 * After the key step: the backend, Blockfrost's methods, the allow-lists and the limits, then the
 * backend. A backend whose request holds calls (JSON-RPC) gets it admitted by key and lists, and runs
 * the limits and metering steps per call.
 */
function serveKeyed(g: Gateway, req: http.IncomingMessage, res: http.ServerResponse, p: ProjectKey, network: string | undefined, rest: string, search: string, started: number, extensionPath: boolean): void {
  const target = network ?? p.network;
  const extension = extensionPath ? g.deps.cairn : undefined;
  const backend = extensionPath ? extension : g.byNetwork.get(target);
  // Nothing can answer it here: say so before the limits, so it costs no quota, no token and no metering.
  if (!backend) return extensionPath ? sendBlockfrostError(res, 404, NOT_FOUND_MESSAGE) : refuse(req, res, network, rest, REFUSALS.noBackend, p);
  // Only the methods Blockfrost defines for the path reach a backend (a JSON-RPC backend keeps its
  // own rules); a path it does not define is passed on for reading only, so the backend answers its own 404.
  // A Cairn extension names its own routes.
  const calls = backend.admits === 'calls';
  const template = extension ? extension.template(req.method ?? 'GET', rest) : undefined;
  if (extension && template === null) return sendBlockfrostError(res, 404, NOT_FOUND_MESSAGE);
  const route = calls || extension ? undefined : g.methods.match(rest);
  if (!calls && !extension && !methodAllowed(route, req, res)) return;
  const endpoint = template ?? route?.template ?? UNKNOWN_ENDPOINT;
  const serve = (route && g.ownAnswers.get(route.template)) ?? backend;
  const { admission } = g;
  const call = admission.admittedCall(p, g.clientIp(req), g.deps.now!(), started, req.headers['user-agent']);
  // The allow-lists, before any limit: a refused request spends no token, quota or balance.
  const list = admission.refusingList(p, req.headers.origin, call.ip);
  if (list !== null) {
    const refusal = admission.steps.refusedByList(call, list, endpoint);
    return sendBlockfrostError(res, refusal.status, refusal.message);
  }
  if (calls) {
    if (g.observed) (res as ObservedResponse)[ANSWER] = g.observed.slot(target, true);
    return serve.handle(req, res, rest, call, admission.steps);
  }
  const metered = admission.recordOf(call, endpoint, false);
  // The in-memory limiter answers at once; only Redis needs a round trip.
  const now = admission.steps.limitNow(call);
  if (now !== null) return dispatch(g, now, req, res, serve, rest + search, metered, call);
  admission.steps
    .limitLater(call)
    .then((verdict) => dispatch(g, verdict, req, res, serve, rest + search, metered, call))
    .catch((err: unknown) => {
      g.deps.logger.error({ err: { message: (err as Error).message } }, 'gateway: limiter failed');
      if (!res.headersSent) sendBlockfrostError(res, REFUSALS.limiterFailed.status, REFUSALS.limiterFailed.message);
    });
}

/** The data plane's HTTP adapter: routes the request, answers what needs no key, then takes it through the admission steps. */
function handle(g: Gateway, req: http.IncomingMessage, res: http.ServerResponse): void {
  // The request's latency runs from here until its answer has gone out (metering's histograms).
  const started = (req as CaughtUpRequest)[CAUGHT_UP] ?? performance.now();
  const { observed } = g;
  if (observed && (res as ObservedResponse)[ANSWER] === undefined) {
    (res as ObservedResponse)[ANSWER] = observed.slot(undefined, false);
    (res as ObservedResponse)[ARRIVED] = started;
    res.on('finish', g.onFinish);
  }
  // Browsers (dApps, the API reference's 'try it') call the gateway from other origins: every
  // answer allows any origin (respond.ts ANY_ORIGIN), each in its own headers.
  if (req.method === 'OPTIONS') return preflight(res);
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const search = q === -1 ? '' : url.slice(q);
  const target = locate(g, req);
  const { key, network } = target;
  let rest = target.rest;
  // Cairn's extensions live beside /api/v0, never under it (where Blockfrost's paths are): admitted below like them.
  const extensionPath = rest.startsWith(CAIRN_PREFIX);
  if (rest === API_PREFIX || rest.startsWith(API_PREFIX + '/')) rest = rest.slice(API_PREFIX.length) || '/';
  else if (extensionPath) {
    // admitted below
  } else if (rest !== '/' && rest !== '/health' && rest !== '/health/clock') return sendBlockfrostError(res, 404, NOT_FOUND_MESSAGE);
  // POST /api/v0/ is a JSON-RPC call (Milkomeda), not the root document.
  const rpcRoot = rest === '/' && req.method === 'POST';
  if (!rpcRoot && root(g, res, rest, network)) return;
  // Before any key, limit or backend: a path that climbs out of /api/v0 would reach whatever the
  // upstream serves beside its API, with Cairn's upstream credentials.
  // A '#' in the query would end the target for a backend that reads it as a fragment.
  if (climbs(rest) || search.includes('#')) return sendBlockfrostError(res, REFUSALS.badPath.status, REFUSALS.badPath.message);
  const p = g.admission.project(key, (req as CaughtUpRequest)[CAUGHT_UP] !== undefined);
  if (p === CATCH_UP) {
    // A key created a moment ago may not be in the cache yet: look again once the cache has caught
    // up with the changes made before this request, then answer as if it had been there (once).
    (req as CaughtUpRequest)[CAUGHT_UP] = started;
    return void g.deps.keys.catchUp().then(
      () => g.handler(req, res),
      () => refuse(req, res, network, rest, REFUSALS.invalidKey),
    );
  }
  if (!('projectId' in p)) return refuse(req, res, network, rest, p);
  if (observed) (res as ObservedResponse)[ANSWER] = observed.slot(p.network, false);
  const refusal = g.admission.keyRefusal(p, network, rpcRoot);
  if (refusal) return refuse(req, res, network, rest, refusal, p);
  serveKeyed(g, req, res, p, network, rest, search, started, extensionPath);
}

/** Where a request without a route of its own (a websocket upgrade) is going: its key, the network its host or path names, and the rest of its path. */
export interface RequestTarget {
  key: string | string[] | undefined;
  network: string | undefined;
  /** The path after the key and network segments, without its query. */
  rest: string;
}

function locate(g: Gateway, req: http.IncomingMessage): RequestTarget {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  // The key from the header, the path (/<key>/api/v0/…) or basic auth; a key segment leaves the path here.
  const { key, pathname } = requestKey(req, blockfrostPath(q === -1 ? url : url.slice(0, q)));
  // Network from the host (cardano-mainnet.<domain>), else from the path (/cardano-mainnet/api/v0/…).
  const domain = g.deps.config.gateway.domain;
  let network = domain ? hostNetwork(req, domain) : undefined;
  let rest = pathname;
  if (!network) {
    network = pathNetwork(pathname);
    if (network) rest = pathname.slice(network.length + 1) || '/';
  }
  return { key, network, rest };
}

/** The API root, /health and /health/clock, answered without a key. */
function root(g: Gateway, res: http.ServerResponse, rest: string, network: string | undefined): boolean {
  const { config, version } = g.deps;
  if (rest === '/' || rest === '') return (sendJson(res, 200, { url: `${config.gateway.publicUrl}${network ? `/${network}` : ''}${API_PREFIX}`, version }), true);
  if (rest === '/health') return (sendJson(res, 200, { is_healthy: true }), true);
  if (rest === '/health/clock') return (sendJson(res, 200, { server_time: g.deps.now!() }), true);
  return false;
}

/**
 * Made once, not per request: the hot path allocates no listener closures. One listener meters an
 * admitted request and, with metrics on, counts every answer (a second listener per response
 * would cost each request an array of listeners).
 */
function finishListener(meter: Meter): (this: http.ServerResponse) => void {
  return function (this: http.ServerResponse) {
    const r = (this as MeteredResponse)[METERED];
    if (r !== undefined) {
      r.status = this.statusCode;
      if (r.status >= 400) r.message = errorMessageOf(this);
      meter.record(r);
    }
    if ((this as ObservedResponse)[ANSWER] !== undefined) observeAnswer.call(this);
  };
}

/** Blockfrost's usage metrics of the calling project: answered here on every network (made once per template). */
function ownAnswersOf(deps: GatewayDeps, now: () => number): Map<string, GatewayBackend> {
  const own = new Map<string, GatewayBackend>();
  if (!deps.usage) return own;
  const answer = metricsBackend(deps.usage, now, (err) => deps.logger.error({ err: { message: (err as Error).message } }, 'gateway: usage metrics failed'));
  for (const template of METRICS_TEMPLATES) own.set(template, answer(template));
  return own;
}

/**
 * What the gateway reads of each sandbox network once it serves: a page of the oldest epochs, which
 * nothing has summed yet (a start sums the newest), so the read takes the whole way a client's cold
 * page of a list takes.
 */
export const WARM_PAGE = '/epochs/0/next?count=100';

/** The caller of the gateway's own read: no client and no project (a sandbox backend reads nothing of its caller on a GET). */
function ownCall(network: string, at: number): AdmittedCall {
  const project: ProjectKey = {
    key: '',
    projectId: 0,
    uuid: '',
    workspaceId: 0,
    ownerId: 0,
    quotaKey: '',
    network,
    limitPerSecond: 0,
    limitBurst: 0,
    requestLimit: 0,
    websocketConnections: 0,
    status: 'active',
    ppuCredited: 0,
    ppuSpent: 0,
    balanceKey: '',
    allow: null,
  };
  return { ip: '', bucketKey: '', rate: 0, burst: 0, quotaKey: '', day: 0, quotaLimit: 0, quotaBase: 0, project, at, started: performance.now(), userAgent: undefined };
}

/**
 * The data plane: takes each request through the admission steps (admission.ts: key, allow-lists,
 * ban, bucket, quota, metering) and hands it to its network's backend (backend.ts). The hot path
 * touches no database.
 */
export function createGatewayHandler(deps: GatewayDeps) {
  const { config, keys, limiter, meter } = deps;
  const now = deps.now ?? Date.now;
  // The control plane's rule (its Express 'trust proxy' is the same function): the client is the
  // nearest X-Forwarded-For hop not trusted, never simply the left-most entry a client wrote.
  const tp = config.trustProxy;
  const trust = proxyTrust(tp);
  const clientIp = (req: http.IncomingMessage): string => (tp === false ? (req.socket.remoteAddress ?? '') : proxyaddr(req as express.Request, trust));
  const { byNetwork, kinds, sandboxed, close } = networkBackends(deps);
  const admission = createAdmission({ keys, limiter, meter, disabled: new Set<string>(config.disabledNetworks), now });
  const g: Gateway = {
    deps: { ...deps, now },
    admission,
    byNetwork,
    ownAnswers: ownAnswersOf(deps, now),
    // Read at start, so a document the gateway cannot read stops it there rather than at a request.
    methods: blockfrostMethods(),
    // Bound once: a request only adds to numbers (server/metrics.ts).
    observed: deps.metrics?.gateway(kinds, [...slugs]),
    clientIp,
    onFinish: finishListener(meter),
    handler: (req, res) => handle(g, req, res),
  };
  const callInProcess = inProcessCaller();
  return {
    handler: g.handler,
    /** Where an upgrade request is going (key, network, path): the websocket endpoints route on it. */
    locate: (req: http.IncomingMessage): RequestTarget => locate(g, req),
    /** The client's address as the gateway reads it (TRUST_PROXY). */
    clientIp,
    /**
     * One call to a network's backend for an admitted caller without an HTTP request of its own (a
     * websocket frame, admitted and metered by its caller): null when nothing serves the network.
     */
    callBackend(network: string, request: InProcessRequest, call: AdmittedCall): Promise<InProcessAnswer> | null {
      const backend = byNetwork.get(network);
      return backend && backend.admits === 'request' ? callInProcess(backend, request, call, admission.steps) : null;
    },
    /**
     * Reads WARM_PAGE from each network a sandbox chain serves (and no other backend serves in its
     * place), one after the other, in process (no admission, no metering) over an HTTP request of
     * its own: the first time V8 meets a request's way through the sandbox's backend (its router, a
     * cold page's code, the answer written) it compiles it, and each chain's worker its part of a
     * page (sums-assist.ts), which a client's first cold page after a start would otherwise wait
     * for. Answers each network's status; once `stopped()` says so, reads no further network.
     */
    async warmSandbox(stopped: () => boolean): Promise<{ network: string; status: number }[]> {
      const read: { network: string; status: number }[] = [];
      for (const network of sandboxed) {
        if (stopped()) break;
        // Community endpoints may serve the network meanwhile (upstream-pool.ts swaps its backend): never theirs to read.
        const backend = byNetwork.get(network);
        if (backend?.kind !== 'sandbox') continue;
        read.push({ network, status: (await callInProcess(backend, { method: 'GET', path: WARM_PAGE }, ownCall(network, now()), admission.steps)).status });
      }
      return read;
    },
    /** Networks served by the sandbox chain (the dashboard marks their projects 'Sandbox data'). */
    sandboxed,
    /** The backend of each network; the failover pools (upstream-pool.ts) swap entries while community endpoints serve a network. */
    backends: byNetwork,
    /** The admission steps, for callers without an HTTP request (admission.ts admit()). */
    admission,
    setQuotaBase(base: Map<number, number>, at = now()) {
      admission.setQuotaBase(base, at);
    },
    close,
  };
}
