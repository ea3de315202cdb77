import http from 'node:http';
import type { Duplex } from 'node:stream';
import { NOT_FOUND_MESSAGE, blockfrostError } from './blockfrost/http';
import { usesEvmDevChain, type Config } from './config';
import type { Db } from './db/index';
import type { Logger } from './logger';
import { createSandboxChain, sandboxRouter, type SandboxChain, type SandboxNetwork } from './sandbox/chain/index';
import { KeyCache } from './gateway/key-cache';
import { MemoryLimiter, type BalanceStore, type Limiter } from './gateway/limiter';
import { RedisLimiter, type RedisState } from './gateway/redis-limiter';
import { Meter, loadQuotaBase } from './gateway/metering';
import { addBalanceSpends, raiseBalanceSpent } from './features/ppu/index';
import { createGatewayHandler, WARM_PAGE } from './gateway/gateway';
import { usageMetrics } from './gateway/usage-metrics';
import { GatewayResponse } from './gateway/gateway-response';
import { createJsonRpcBackend, type EvmBackend } from './features/milkomeda/index';
import { UpstreamPools } from './gateway/upstream-pool';
import { addServedRequests, enabledEndpoints } from './features/endpoints/index';
import type { DevChain } from './sandbox/evm-chain';
import { evmNetwork, networkBySlug, sandboxOf, upstreamNetworks } from '../shared/networks';
import { createIpfsBackend, storedBytes, type IpfsBackend } from './features/ipfs/index';
import { forgetComponentState, reportComponentState } from './features/status/index';
import { sendJson } from './gateway/respond';
import type { Metrics } from './metrics';
import type { GatewayBackend } from './gateway/backend';
import { landedOn, trackingSubmissions, txStatusBackend, UpstreamTxFollowers } from './features/txs/index';
import { devnetBackend, devnetExtension, devnetService, devnetWatchedChain, type DevnetRegistry } from './features/devnets/index';
import { devnetRegistry } from './sandbox/devnet-engine';
import { cairnExtensions } from './gateway/backends';
import { devnetNetwork } from '../shared/networks';
import { FollowerLeadership, httpSource, sandboxSource, writeTxStatusEvents } from './features/webhooks/index';
import { UpstreamReader } from './gateway/upstream-reader';
import type { UpstreamConfig } from './config';
import type { EndpointNetwork } from '../shared/endpoints';
import { createPushServer, PushHub, WriterThread, type PushServer, type WatchedChain } from './features/push/index';
import { keptAlive } from './http/keep-alive';

export interface GatewayOptions {
  config: Config;
  db: Db;
  logger: Logger;
  version: string;
  chains?: Partial<Record<SandboxNetwork, SandboxChain>>;
  /** The devnets this process holds (shared with the control plane in one process); made here when absent. */
  devnets?: DevnetRegistry;
  /** Listen here instead of config.gateway.port (tests use 0). */
  port?: number;
  host?: string;
  /** Redis key prefix, so tests can isolate their buckets. */
  redisPrefix?: string;
  /**
   * The clock of the key cache (a rolled key's grace period) and of the IPFS backend's pins and garbage
   * collection (tests move it past the grace periods); Date.now by default.
   */
  now?: () => number;
  /** How long close() lets open requests finish before it closes their connections; config.shutdownTimeoutMs by default. */
  drainMs?: number;
  /** Prometheus metrics (METRICS_PORT); none: nothing is counted for them. */
  metrics?: Metrics;
}

export interface RunningGateway {
  server: http.Server;
  url: string;
  keys: KeyCache;
  meter: Meter;
  limiter: Limiter;
  sandboxed: Set<string>;
  /** Failover over each network's configured upstream and enabled community endpoints. */
  pools: UpstreamPools;
  /** The embedded EVM development chain behind milkomeda-mainnet, when no upstream is configured (never in production). */
  devChain: DevChain | null;
  /** The IPFS backend (embedded store or Kubo); null when UPSTREAM_IPFS_URL proxies IPFS. */
  ipfs: IpfsBackend | null;
  /** The devnets this gateway holds; null when cardano-devnet is turned off (DISABLED_NETWORKS). */
  devnets: DevnetRegistry | null;
  /** The push API (/ws): its connections, and the hub that announces each network's blocks to them. */
  push: PushServer;
  pushHub: PushHub;
  /** The followers of the transactions submitted to each upstream-served Cardano network (one gateway of several follows each). */
  upstreamTxs: UpstreamTxFollowers;
  /**
   * Drains, then stops: /readyz answers 503, no new connection is accepted, every answer says
   * `Connection: close`; open requests (upstream calls, uploads, JSON-RPC batches) finish (for at
   * most drainMs), then metering and balance spends are flushed and everything else is closed.
   */
  close(): Promise<void>;
}

/** The package the EVM development chain runs on: a development dependency, absent from a production install. */
const EVM_ENGINE = '@nomicfoundation/edr';

/**
 * The embedded EVM development chain, loaded only when it runs (outside production, without a Milkomeda
 * upstream). Without its engine (installed with `npm ci --omit=dev`) milkomeda-mainnet has no backend, and
 * the log says why.
 */
async function startEvmDevChain(logger: Logger, db: Db): Promise<DevChain | null> {
  try {
    const { startDevChain } = await import('./sandbox/evm-chain');
    // The development chain keeps its history in the database, so a restart keeps its accounts, contracts and blocks.
    const { dbEvmChainStore } = await import('./sandbox/store');
    return await startDevChain({ store: dbEvmChainStore(db) });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if ((e.code !== 'ERR_MODULE_NOT_FOUND' && e.code !== 'MODULE_NOT_FOUND') || !String(e.message).includes(`'${EVM_ENGINE}'`)) throw err;
    logger.warn(`EVM development chain: off, because ${EVM_ENGINE} (a development dependency) is not installed; milkomeda-mainnet has no backend: install the development dependencies (npm install) or set UPSTREAM_MILKOMEDA_MAINNET_URL`);
    return null;
  }
}

export async function startGateway(opts: GatewayOptions): Promise<RunningGateway> {
  const { config, db, logger } = opts;
  const gw = config.gateway;
  const keys = new KeyCache(db, logger, opts.now);
  await keys.start();
  const limiter: Limiter = gw.redisUrl ? await sharedLimits(opts) : new MemoryLimiter(gw.ban);
  if (!gw.redisUrl) await forgetComponentState(db, 'Shared rate limits').catch(() => undefined);
  const meter = new Meter(db, logger, gw.meteringFlushMs);
  const { metrics } = opts;
  if (metrics) {
    metrics.keyCache(keys);
    meter.onFlushed = (seconds, rows, ok) => metrics.meteringFlushed(seconds, rows, ok);
  }
  meter.start();
  const off = new Set<string>(config.disabledNetworks);
  const ipfs = gw.upstreams.ipfs || off.has('ipfs') ? null : createIpfsBackend({ config, db, logger, ...(opts.now ? { now: opts.now } : {}) });
  if (ipfs) {
    await ipfs.start();
    metrics?.ipfsStore(() => storedBytes(db, config.ipfs.gcGraceMs));
    logger.info({ ipfs: ipfs.store.kind, filecoin: ipfs.pinning ? 'pinning-service' : 'embedded' }, `ipfs: ${ipfs.store.description}; Filecoin: ${ipfs.pinning ? `deals through the pinning service at ${ipfs.pinning.url}` : 'no provider configured, Filecoin pins are kept on this store and no Filecoin deal is made'}`);
  }
  const devChain = usesEvmDevChain(config) ? await startEvmDevChain(logger, db) : null;
  const evm: EvmBackend | null = gw.milkomeda ? { ...gw.milkomeda, sandbox: false } : devChain ? { url: devChain.url, auth: null, sandbox: true } : null;
  if (devChain) {
    logger.warn(
      { chainId: devChain.chainId, accounts: devChain.accounts.map((a) => a.address) },
      `EVM development chain: milkomeda-mainnet is served by an embedded EVM chain (Hardhat EDR, chain id ${devChain.chainId}, 'Sandbox data') because UPSTREAM_MILKOMEDA_MAINNET_URL is not set; ${devChain.replayed} transactions of its history replayed from the database. Funded development accounts (10000 mADA each; public keys, never use them for real funds):\n` +
        devChain.accounts.map((a, i) => `  (${i}) ${a.address}  private key ${a.privateKey}`).join('\n'),
    );
  } else if (!evm && !off.has(evmNetwork.slug) && !usesEvmDevChain(config)) logger.warn('milkomeda-mainnet has no backend: set UPSTREAM_MILKOMEDA_MAINNET_URL (the embedded EVM development chain does not run in production)');
  // No EVM backend: the gateway answers Milkomeda's calls 'no backend'.
  const jsonRpc = evm ? createJsonRpcBackend({ backend: evm, timeoutMs: gw.upstreamTimeoutMs }) : undefined;
  // The sandbox chain serving each network without an upstream: its router answers REST, and the
  // push hub announces its blocks.
  const sandboxChains = new Map<string, SandboxChain>();
  const sandbox = (slug: string, url: string) => {
    const network = sandboxOf(slug);
    if (!network) return undefined;
    const chain = opts.chains?.[network] ?? createSandboxChain({ network, blockIntervalMs: gw.sandboxBlockIntervalMs });
    sandboxChains.set(slug, chain);
    return sandboxRouter(chain, { url, version: opts.version });
  };
  // Transactions submitted to a Cardano network (its sandbox chain or configured upstream) are tracked
  // (/cairn/v1/txs/{hash}/status); what a submit records fires the 'tx_status' webhooks.
  const { devnets, ownDevnets, cairn, devnet } = devnetParts(opts, off.has(devnetNetwork.slug));
  // Where a submitted transaction sits on the chain served here (a sandbox's, a project's devnet): one
  // the follower already passed the block of lands as it is recorded.
  const landedIn = async (slug: string, projectId: number) => {
    if (slug === devnetNetwork.slug) return devnets ? landedOn((await devnets.readChainOf(projectId)).chain.local) : null;
    const chain = sandboxChains.get(slug);
    return chain ? landedOn(chain) : null;
  };
  const trackSubmissions = (slug: string, backend: GatewayBackend) =>
    trackingSubmissions(backend, { db, logger, slug, withChange: (trx, change) => writeTxStatusEvents(trx, change.network, [change], null, Date.now()), landedIn: (projectId) => landedIn(slug, projectId) });
  // A devnet's submissions are tracked as a sandbox network's are; its webhook followers advance them.
  const gateway = createGatewayHandler({ config, logger, keys, limiter, meter, version: opts.version, jsonRpc, sandbox, trackSubmissions, cairn, usage: usageMetrics(db), ...(devnet ? { devnet: trackSubmissions(devnetNetwork.slug, devnet) } : {}), ...(ipfs ? { ipfs } : {}), ...(metrics ? { metrics } : {}) });
  gateway.setQuotaBase(await loadQuotaBase(db));
  // A network with a configured upstream stays tracked while community endpoints serve it beside that upstream.
  const pools = new UpstreamPools({ db, config, logger, backends: gateway.backends, endpoints: { enabled: enabledEndpoints, addServed: addServedRequests }, wrap: (network, backend) => (gw.upstreams[network] ? trackSubmissions(network, backend) : backend) });
  await pools.start();
  const upstreamChains = followUpstreams(opts, pools, off);
  // Pay as you go: requests paid from balances go to ppu_balances.spent with the metering's rhythm
  // (from Redis: the totals of every balance any gateway spent from, including one killed since).
  const balanceStore: BalanceStore = { addSpends: (m) => addBalanceSpends(db, m), raiseSpent: (m) => raiseBalanceSpent(db, m) };
  let flushing: Promise<void> | null = null;
  const flushBalances = async () => {
    while (flushing) await flushing;
    flushing = limiter
      .flushBalanceSpends(balanceStore)
      .catch((err: unknown) => logger.error({ err: { message: (err as Error).message } }, 'gateway: writing pay-as-you-go balance spends failed; retrying'))
      .finally(() => {
        flushing = null;
      });
    await flushing;
  };
  void flushBalances();
  const balanceTimer = setInterval(() => void flushBalances(), gw.meteringFlushMs);
  balanceTimer.unref();

  const { push, pushHub, stopHearingSteering } = pushParts(opts, keys, gateway, sandboxChains, devnets, upstreamChains.networks);

  // /readyz tells a load balancer to send no more requests once this gateway drains (close());
  // GatewayResponse keeps an error answer's message for request insight.
  let draining = false;
  const server = http.createServer({ ServerResponse: GatewayResponse }, (req, res) => {
    if (draining) res.setHeader('connection', 'close');
    if (req.url === '/readyz') return sendJson(res, draining ? 503 : 200, { ready: !draining });
    gateway.handler(req, res);
  });
  keptAlive(server);
  // Websocket upgrades: the push API at /ws; any other path (or a draining gateway) is refused.
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (draining) return refuseUpgrade(socket, 503, 'The gateway is shutting down.');
    if (!push.upgrade(req, socket, head)) refuseUpgrade(socket, 404, NOT_FOUND_MESSAGE);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? gw.port, opts.host ?? config.host, resolve);
  });
  // Once it serves, not before: a client's request meanwhile is answered beside the read (both in time slices).
  const warming = gateway.warmSandbox(() => draining).then(
    (read) => {
      for (const { network, status } of read) if (status !== 200) logger.warn({ network, status, path: WARM_PAGE }, 'gateway: its first read of a sandbox chain was not answered 200');
    },
    (err: unknown) => logger.warn({ err: { message: (err as Error).message }, path: WARM_PAGE }, 'gateway: its first read of a sandbox chain failed'),
  );
  const address = server.address() as { port: number };
  logger.info(
    { limiter: limiter.kind, sandbox: [...gateway.sandboxed], disabled: [...off], evm: devChain ? 'development chain' : evm ? 'upstream' : 'none' },
    `gateway listening on port ${address.port} (limits in ${limiter.kind === 'redis' ? 'Redis' : 'memory'}; sandbox chain for ${[...gateway.sandboxed].join(', ') || 'no network'}${devChain ? '; EVM development chain for milkomeda-mainnet' : ''}${off.size ? `; turned off by DISABLED_NETWORKS: ${[...off].join(', ')}` : ''})`,
  );
  return {
    server,
    url: `http://127.0.0.1:${address.port}`,
    keys,
    meter,
    limiter,
    sandboxed: new Set([...gateway.sandboxed, ...(devChain ? ['milkomeda-mainnet'] : [])]),
    devChain,
    pools,
    ipfs,
    devnets,
    push,
    pushHub,
    upstreamTxs: upstreamChains.followers,
    async close() {
      draining = true;
      await warming;
      push.close();
      stopHearingSteering();
      await pushHub.stop();
      await upstreamChains.stop();
      await drain(server, opts.drainMs ?? config.shutdownTimeoutMs);
      await keys.stop();
      clearInterval(balanceTimer);
      await flushBalances();
      await meter.stop();
      await pools.stop();
      await limiter.close();
      gateway.close();
      if (ownDevnets) devnets?.close();
      await devChain?.close();
      await ipfs?.stop();
    },
  };
}

/**
 * The push API: each gateway learns of each block of a network once, from the chain itself (a
 * sandbox chain's block is announced when it is due; an upstream's tip is read on a rhythm; a
 * devnet's blocks when its clock makes them or a steering call here does), and fans it out to its own
 * connections.
 */
function pushParts(opts: GatewayOptions, keys: KeyCache, gateway: ReturnType<typeof createGatewayHandler>, sandboxChains: Map<string, SandboxChain>, devnets: DevnetRegistry | null, upstreams: ReturnType<typeof followUpstreams>['networks']) {
  const gw = opts.config.gateway;
  const pushHub = new PushHub(opts.logger, gw.pushWriterThread ? new WriterThread() : null);
  for (const slug of gateway.sandboxed) {
    const chain = sandboxChains.get(slug);
    if (chain) pushHub.watch(slug, { source: sandboxSource(chain), nextLook: () => chain.nextBlockAt() + 2 });
  }
  for (const { slug, upstream, reader } of upstreams) pushHub.watch(slug, { source: sharedTipSource(httpSource(upstream, gw.upstreamTimeoutMs), reader), nextLook: (now) => now + gw.pushUpstreamTipMs });
  // Each devnet project's connections hear its own chain; a steering call here is announced at once.
  const stopHearingSteering = devnets ? devnets.onSteered((projectId) => pushHub.wake(devnetNetwork.slug, projectId)) : () => undefined;
  if (devnets) pushHub.watchEach(devnetNetwork.slug, (projectId) => devnetWatchedChain(devnets, projectId));
  const push = createPushServer({
    logger: opts.logger,
    keys,
    admission: gateway.admission,
    locate: gateway.locate,
    clientIp: gateway.clientIp,
    callBackend: gateway.callBackend,
    hub: pushHub,
    version: opts.version,
    idleTimeoutMs: gw.pushIdleTimeoutMs,
  });
  return { push, pushHub, stopHearingSteering };
}

/**
 * The Cardano networks served by a configured upstream: a reader of each (its upstreams in the pool's
 * order, its tip read once per PUSH_UPSTREAM_TIP_MS for the push API and the transaction follower
 * alike), and the followers of the transactions submitted to them, led by one gateway of several on
 * PostgreSQL (an advisory lock of their own), their changes firing 'tx_status' webhooks.
 */
function followUpstreams(opts: GatewayOptions, pools: UpstreamPools, off: Set<string>) {
  const { config, db, logger } = opts;
  const gw = config.gateway;
  const networks = upstreamNetworks.flatMap(({ slug }) => {
    const upstream = gw.upstreams[slug];
    const network = networkBySlug(slug)?.webhookId;
    if (!upstream || !sandboxOf(slug) || off.has(slug) || network === null || network === undefined) return [];
    const reader = new UpstreamReader({ upstreams: () => pools.upstreamsOf(slug as EndpointNetwork), timeoutMs: gw.upstreamTimeoutMs, tipMs: gw.pushUpstreamTipMs });
    return [{ slug, network, upstream, reader }];
  });
  const leadership = new FollowerLeadership(db, logger, 'cairn:upstream-tx-follower');
  const followers = new UpstreamTxFollowers(db, logger, {
    networks,
    intervalMs: gw.pushUpstreamTipMs,
    requestsPerSecond: gw.upstreamTxRequestsPerSecond,
    leads: (network) => leadership.leads(network),
    withChanges: (trx, network, changes, at) => writeTxStatusEvents(trx, network, changes, at, Date.now()),
  });
  followers.start();
  return {
    networks: networks as Array<{ slug: string; network: number; upstream: UpstreamConfig; reader: UpstreamReader }>,
    followers,
    async stop() {
      await followers.stop();
      await leadership.close();
    },
  };
}

/** An upstream's chain for the push API, its tip the reader's (shared with the transaction follower). */
function sharedTipSource(source: ReturnType<typeof httpSource>, reader: UpstreamReader): WatchedChain['source'] {
  return {
    tipHeight: async () => (await reader.latest()).height ?? 0,
    // The tip block itself was just read with it.
    blockAt: async (h) => {
      const tip = reader.lastTip();
      return tip && tip.height === h ? tip : source.blockAt(h);
    },
    blockTxDetails: (hash) => source.blockTxDetails(hash),
  };
}

/** Answers an upgrade nothing serves with Blockfrost's error body, then closes the socket. */
function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  socket.on('error', () => socket.destroy());
  const body = JSON.stringify(blockfrostError(status, message));
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/**
 * Devnets: each cardano-devnet project's own chain (its network's backend), and the Cairn extensions
 * (the status of a submitted transaction, and the devnets' steering calls under /cairn/v1/devnet).
 */
function devnetParts(opts: GatewayOptions, turnedOff: boolean) {
  const { config, db, logger } = opts;
  const devnets = turnedOff ? null : (opts.devnets ?? devnetRegistry(config, db, logger, opts.version));
  const txStatus = txStatusBackend(db, logger);
  return {
    devnets,
    ownDevnets: devnets !== null && opts.devnets === undefined,
    cairn: devnets ? cairnExtensions(txStatus, devnetExtension(devnetService(db, devnets), logger)) : txStatus,
    devnet: devnets ? devnetBackend(devnets, logger) : undefined,
  };
}

/**
 * Limits shared through Redis, reported on the status page (Shared rate limits) as Redis stops and
 * starts answering; resolves once Redis has answered or the gateway has started in an outage.
 */
async function sharedLimits(opts: GatewayOptions): Promise<RedisLimiter> {
  const { config, db, logger } = opts;
  const gw = config.gateway;
  // Reports go out in order, so the page never ends on an older state.
  let reports = Promise.resolve();
  const report = (state: RedisState, since: number) => {
    reports = reports.then(() =>
      reportComponentState(db, { name: 'Shared rate limits', state, since }).catch((err: unknown) =>
        logger.warn({ err: { message: (err as Error).message } }, 'gateway: recording the state of the shared rate limits failed'),
      ),
    );
  };
  const limiter = new RedisLimiter(gw.redisUrl!, gw.ban, opts.redisPrefix ?? gw.redisPrefix, { logger, onState: report, commandTimeoutMs: gw.redisTimeoutMs });
  await limiter.whenStarted();
  return limiter;
}

/**
 * Stops accepting connections and waits for the open ones: idle kept-alive connections are closed as
 * they become idle (their answers carry `Connection: close`), and whatever is still open after
 * `graceMs` is closed.
 */
function drain(server: http.Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}
