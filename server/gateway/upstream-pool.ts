import http from 'node:http';
import https from 'node:https';
import type { Config, UpstreamConfig } from '../config';
import type { Db } from '../db/index';
import type { Logger } from '../logger';
import { SerialTicker } from '../ticker';
import { endpointNetworks, type EndpointNetwork } from '../../shared/endpoints';
import type { UpstreamNetwork } from '../../shared/networks';
import { httpUpstream, type ForwardHooks, type Upstream } from './proxy';
import { sendBlockfrostError } from './respond';
import { DAY_MS } from '../../shared/time';
import type { GatewayBackend } from './backend';

// Failover over the upstreams of one network: the configured one (UPSTREAM_<NETWORK>_URL) first,
// then the community endpoints an operator enabled, in their order. Each is health-checked
// (GET /health) several times a second and a failed request marks it dead at once, so requests go
// to the next one within a second; a GET that met a dead backend is retried on the next, so none is
// lost to it. Requests each community endpoint answered are counted and written per day, for paying
// its address.

export const HEALTH_INTERVAL_MS = 400;
const HEALTH_TIMEOUT_MS = 500;
const POLL_MS = 1000;
const NO_BACKEND_ANSWERING = 'No backend of this network is answering at the moment. Please retry shortly.';

interface Member {
  /** Community endpoint id; null for the configured upstream. */
  id: number | null;
  url: string;
  /** Its address and the credentials it is sent (the operator's, for the configured upstream). */
  cfg: UpstreamConfig;
  upstream: Upstream;
  alive: boolean;
  checking: boolean;
}

export interface CommunityEndpoints {
  enabled(db: Db): Promise<Array<{ id: number; url: string; network: EndpointNetwork; position: number; updated_at: number }>>;
  addServed(db: Db, counts: Map<number, number>, dayMs: number): Promise<void>;
}

export interface UpstreamPoolsOptions {
  db: Db;
  config: Config;
  logger: Logger;
  /** The gateway's backend per network slug; pools replace entries here while they have community endpoints. */
  backends: Map<string, GatewayBackend>;
  /** The enabled community endpoints and their served-request counts (server/features/endpoints, wired by the composition root). */
  endpoints: CommunityEndpoints;
  flushMs?: number;
  healthIntervalMs?: number;
  /** Wraps the backend a pool puts in place for a network (the composition root records the transactions submitted through it). */
  wrap?: (network: EndpointNetwork, backend: GatewayBackend) => GatewayBackend;
}

export class UpstreamPools {
  private readonly base: Map<string, GatewayBackend | undefined>;
  private members = new Map<EndpointNetwork, Member[]>();
  private served = new Map<number, number>();
  private servedDay = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  private signature = '';
  private poll: SerialTicker;
  private health: NodeJS.Timeout | null = null;
  private flusher: SerialTicker;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  private readonly tlsAgent = new https.Agent({ keepAlive: true, maxSockets: 8 });

  constructor(private readonly opts: UpstreamPoolsOptions) {
    this.base = new Map((Object.keys(endpointNetworks) as EndpointNetwork[]).map((n) => [n, opts.backends.get(n)]));
    const onError = (what: string) => (err: Error) => opts.logger.error({ err: { message: err.message } }, `upstream pools: ${what} failed`);
    this.poll = new SerialTicker(() => this.reload(), POLL_MS, onError('loading the enabled endpoints'));
    this.flusher = new SerialTicker(() => this.flush(), opts.flushMs ?? opts.config.gateway.meteringFlushMs, onError('writing the requests served'));
  }

  async start(): Promise<void> {
    await this.reload().catch((err: unknown) => this.opts.logger.error({ err: { message: (err as Error).message } }, 'upstream pools: first load failed'));
    this.poll.start();
    this.flusher.start();
    this.health = setInterval(() => this.checkAll(), this.opts.healthIntervalMs ?? HEALTH_INTERVAL_MS);
    this.health.unref();
  }

  async stop(): Promise<void> {
    await this.poll.stop();
    await this.flusher.stop();
    if (this.health) clearInterval(this.health);
    await this.flush();
    for (const list of this.members.values()) for (const m of list) m.upstream.close();
    this.agent.destroy();
    this.tlsAgent.destroy();
  }

  /** Health and order of a network's upstreams (for tests and logs). */
  status(network: EndpointNetwork): Array<{ id: number | null; url: string; alive: boolean }> {
    return (this.members.get(network) ?? []).map(({ id, url, alive }) => ({ id, url, alive }));
  }

  private async reload(): Promise<void> {
    const rows = await this.opts.endpoints.enabled(this.opts.db);
    const signature = rows.map((r) => `${r.id}:${r.url}:${r.network}:${r.position}`).join('|');
    if (signature === this.signature) return;
    this.signature = signature;
    const gw = this.opts.config.gateway;
    for (const network of Object.keys(endpointNetworks) as EndpointNetwork[]) {
      const old = this.members.get(network) ?? [];
      const community = rows.filter((r) => r.network === network);
      if (community.length === 0) {
        for (const m of old) m.upstream.close();
        this.members.delete(network);
        this.restore(network);
        continue;
      }
      const configured = gw.upstreams[network as UpstreamNetwork];
      const wanted: Array<{ id: number | null; cfg: UpstreamConfig }> = [
        ...(configured ? [{ id: null, cfg: configured }] : []),
        ...community.map((r) => ({ id: r.id, cfg: { url: r.url.replace(/\/+$/, ''), auth: null } })),
      ];
      const next: Member[] = wanted.map(({ id, cfg }) => {
        const kept = old.find((m) => m.id === id && m.url === cfg.url);
        return kept ?? { id, url: cfg.url, cfg, upstream: httpUpstream(cfg, gw.upstreamTimeoutMs), alive: true, checking: false };
      });
      for (const m of old) if (!next.includes(m)) m.upstream.close();
      this.members.set(network, next);
      const pooled: GatewayBackend = { kind: 'upstream', admits: 'request', handle: (req, res, path) => this.forward(network, req, res, path, 0) };
      this.opts.backends.set(network, this.opts.wrap ? this.opts.wrap(network, pooled) : pooled);
      this.opts.logger.info({ network, upstreams: next.map((m) => m.url) }, `upstreams of ${network}: ${next.map((m) => m.url).join(', ')} (in this order, with failover)`);
    }
  }

  /**
   * The upstreams a reader of the network's chain asks, in the order requests go to them: the ones
   * answering of its pool (the configured upstream first, then the community endpoints), or the
   * configured upstream alone while it has no pool (or none of its pool answers); empty when the
   * network has no upstream.
   */
  upstreamsOf(network: EndpointNetwork): UpstreamConfig[] {
    const alive = (this.members.get(network) ?? []).filter((m) => m.alive).map((m) => m.cfg);
    if (alive.length > 0) return alive;
    const configured = this.opts.config.gateway.upstreams[network as UpstreamNetwork];
    return configured ? [configured] : [];
  }

  /** Back to the configured upstream or the sandbox chain. */
  private restore(network: EndpointNetwork): void {
    const base = this.base.get(network);
    if (base) this.opts.backends.set(network, base);
    else this.opts.backends.delete(network);
  }

  private forward(network: EndpointNetwork, req: http.IncomingMessage, res: http.ServerResponse, path: string, from: number): void {
    const list = this.members.get(network) ?? [];
    let i = from;
    while (i < list.length && !list[i]!.alive) i++;
    const member = list[i];
    if (!member) return sendBlockfrostError(res, 500, NO_BACKEND_ANSWERING);
    // Only a request without a body can be sent again once it met a dead backend.
    const retriable = req.method === 'GET' || req.method === 'HEAD';
    const hooks: ForwardHooks = {
      unavailable: () => {
        if (member.alive) {
          member.alive = false;
          this.opts.logger.warn({ network, url: member.url }, `upstream ${member.url} of ${network} failed; skipped until its health check passes`);
        }
        if (!retriable) return false;
        this.forward(network, req, res, path, i + 1);
        return true;
      },
      answered: () => {
        if (member.id !== null) this.served.set(member.id, (this.served.get(member.id) ?? 0) + 1);
      },
    };
    member.upstream.forward(req, res, path, hooks);
  }

  private checkAll(): void {
    for (const [network, list] of this.members) for (const m of list) if (!m.checking) this.check(network, m);
  }

  private check(network: EndpointNetwork, m: Member): void {
    m.checking = true;
    const url = new URL(`${m.url}/health`);
    const isHttps = url.protocol === 'https:';
    const done = (ok: boolean) => {
      if (!m.checking) return;
      m.checking = false;
      if (ok !== m.alive) {
        m.alive = ok;
        this.opts.logger[ok ? 'info' : 'warn']({ network, url: m.url }, `upstream ${m.url} of ${network} is ${ok ? 'answering again' : 'not answering its health check'}`);
      }
    };
    const req = (isHttps ? https : http).get(url, { agent: isHttps ? this.tlsAgent : this.agent, timeout: HEALTH_TIMEOUT_MS }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        if (text.length < 4096) text += c;
      });
      res.on('end', () => {
        try {
          done(res.statusCode === 200 && (JSON.parse(text) as { is_healthy?: unknown }).is_healthy === true);
        } catch {
          done(false);
        }
      });
      res.on('error', () => done(false));
    });
    req.on('timeout', () => {
      req.destroy();
      done(false);
    });
    req.on('error', () => done(false));
  }

  /** Writes the requests served since the last flush; on failure they are kept for the next one. */
  private async flush(): Promise<void> {
    if (this.served.size === 0) return;
    const counts = this.served;
    const day = this.servedDay;
    this.served = new Map();
    this.servedDay = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    try {
      await this.opts.endpoints.addServed(this.opts.db, counts, day);
    } catch (err) {
      for (const [id, n] of counts) this.served.set(id, (this.served.get(id) ?? 0) + n);
      this.opts.logger.error({ err: { message: (err as Error).message } }, 'upstream pools: could not write the requests served');
    }
  }
}
