// Which backend answers each network's admitted requests: its configured upstream, the backends the
// composition root hands over (IPFS, Milkomeda's JSON-RPC), or the sandbox chain for a Cardano
// network without an upstream.
import type http from 'node:http';
import express, { type Router } from 'express';
import type { Config } from '../config';
import { devnetNetwork, evmNetwork, networks, type UpstreamNetwork } from '../../shared/networks';
import type { CairnExtension, GatewayBackend } from './backend';
import { httpUpstream, type Upstream } from './proxy';
import { allowAnyOrigin } from './respond';
import { keepErrorBodyOwn } from './gateway-response';

const API_PREFIX = '/api/v0';
const slugs = networks.map((n) => n.slug).filter((s): s is string => !!s);

export interface NetworkBackends {
  /** The backend of each network; the failover pools (upstream-pool.ts) swap entries while community endpoints serve a network. */
  byNetwork: Map<string, GatewayBackend>;
  /** Each network's backend kind at start (the metrics' label). */
  kinds: Map<string, string>;
  /** Networks served by the sandbox chain. */
  sandboxed: Set<string>;
  close(): void;
}

/** A network's configured upstream: requests are passed on as they came. */
export function upstreamBackend(u: Upstream): GatewayBackend {
  return { kind: 'upstream', admits: 'request', handle: (req, res, path) => u.forward(req, res, path) };
}

/** A sandbox chain's Blockfrost router (a shared network's, a devnet's), run as an Express app of its own. */
export function sandboxBackend(router: Router): GatewayBackend {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(router);
  return {
    kind: 'sandbox',
    admits: 'request',
    handle(req: http.IncomingMessage, res: http.ServerResponse, path: string) {
      req.url = path;
      allowAnyOrigin(res);
      keepErrorBodyOwn(res);
      app(req as express.Request, res as express.Response);
    },
  };
}

export function networkBackends(opts: {
  config: Config;
  ipfs?: GatewayBackend | undefined;
  jsonRpc?: GatewayBackend | undefined;
  /** The devnets' backend (server/features/devnets): each key's own project's chain. */
  devnet?: GatewayBackend | undefined;
  sandbox?: ((slug: string, url: string) => Router | undefined) | undefined;
  /** Wraps a Cardano network's backend, its configured upstream or its sandbox chain (the composition root records the transactions submitted to it). */
  trackSubmissions?: ((slug: string, backend: GatewayBackend) => GatewayBackend) | undefined;
}): NetworkBackends {
  const byNetwork = new Map<string, GatewayBackend>();
  const kinds = new Map<string, string>([[evmNetwork.slug, 'jsonrpc']]);
  const sandboxed = new Set<string>();
  const upstreams: Upstream[] = [];
  const gw = opts.config.gateway;
  const off = new Set<string>(opts.config.disabledNetworks);
  const given = new Map<string, GatewayBackend | undefined>([
    ['ipfs', opts.ipfs],
    [evmNetwork.slug, opts.jsonRpc],
    [devnetNetwork.slug, opts.devnet],
  ]);
  for (const slug of slugs) {
    // Turned off by the operator (DISABLED_NETWORKS): nothing serves it; the key step says so.
    if (off.has(slug)) continue;
    const upstream = slug === evmNetwork.slug ? undefined : gw.upstreams[slug as UpstreamNetwork];
    if (upstream) {
      const u = httpUpstream(upstream, gw.upstreamTimeoutMs);
      upstreams.push(u);
      byNetwork.set(slug, opts.trackSubmissions ? opts.trackSubmissions(slug, upstreamBackend(u)) : upstreamBackend(u));
      kinds.set(slug, 'upstream');
      continue;
    }
    const backend = given.get(slug);
    if (backend) {
      byNetwork.set(slug, backend);
      kinds.set(slug, backend.kind);
      continue;
    }
    const router = opts.sandbox?.(slug, `${gw.publicUrl}/${slug}${API_PREFIX}`);
    if (!router) continue;
    const served = sandboxBackend(router);
    byNetwork.set(slug, opts.trackSubmissions ? opts.trackSubmissions(slug, served) : served);
    sandboxed.add(slug);
    kinds.set(slug, 'sandbox');
  }
  return {
    byNetwork,
    kinds,
    sandboxed,
    close() {
      upstreams.forEach((u) => u.close());
      for (const b of given.values()) b?.close?.();
    },
  };
}

/** Several Cairn extensions as one: each request goes to the first that names its route. */
export function cairnExtensions(...list: CairnExtension[]): CairnExtension {
  const owner = (method: string, path: string) => list.find((e) => e.template(method, path) !== null);
  return {
    kind: 'cairn',
    admits: 'request',
    template: (method, path) => owner(method, path)?.template(method, path) ?? null,
    handle(req, res, path, call, steps) {
      owner(req.method ?? 'GET', path)!.handle(req, res, path, call, steps);
    },
    close() {
      for (const e of list) e.close?.();
    },
  };
}
