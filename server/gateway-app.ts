import http from 'node:http';
import { usesEvmDevChain, type Config } from './config';
import type { Db } from './db/index';
import type { Logger } from './logger';
import { createSandboxChain, sandboxRouter, type SandboxChain, type SandboxNetwork } from './sandbox/chain/index';
import { KeyCache } from './gateway/key-cache';
import { MemoryLimiter, type BalanceStore, type Limiter } from './gateway/limiter';
import { RedisLimiter } from './gateway/redis-limiter';
import { Meter, loadQuotaBase } from './gateway/metering';
import { addBalanceSpends, raiseBalanceSpent } from './features/ppu/index';
import { createGatewayHandler } from './gateway/gateway';
import { GatewayResponse } from './gateway/gateway-response';
import { createJsonRpcHandler, type EvmBackend } from './features/milkomeda/index';
import { UpstreamPools } from './gateway/upstream-pool';
import { addServedRequests, enabledEndpoints } from './features/endpoints/index';
import type { DevChain } from './sandbox/evm-chain';
import { evmNetwork, sandboxOf } from '../shared/networks';
import { createIpfsBackend, type IpfsBackend } from './features/ipfs/index';

export interface GatewayOptions {
  config: Config;
  db: Db;
  logger: Logger;
  version: string;
  chains?: Partial<Record<SandboxNetwork, SandboxChain>>;
  /** Listen here instead of config.gateway.port (tests use 0). */
  port?: number;
  host?: string;
  /** Redis key prefix, so tests can isolate their buckets. */
  redisPrefix?: string;
  /** The clock of the IPFS backend's pins and garbage collection (tests move it past the grace period); Date.now by default. */
  now?: () => number;
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
  close(): Promise<void>;
}

export async function startGateway(opts: GatewayOptions): Promise<RunningGateway> {
  const { config, db, logger } = opts;
  const gw = config.gateway;
  const keys = new KeyCache(db, logger);
  await keys.start();
  const limiter: Limiter = gw.redisUrl ? new RedisLimiter(gw.redisUrl, gw.ban, opts.redisPrefix ?? gw.redisPrefix) : new MemoryLimiter(gw.ban);
  const meter = new Meter(db, logger, gw.meteringFlushMs);
  meter.start();
  const off = new Set<string>(config.disabledNetworks);
  const ipfs = gw.upstreams.ipfs || off.has('ipfs') ? null : createIpfsBackend({ config, db, logger, ...(opts.now ? { now: opts.now } : {}) });
  if (ipfs) {
    await ipfs.start();
    logger.info({ ipfs: ipfs.store.kind, filecoin: ipfs.pinning ? 'pinning-service' : 'embedded' }, `ipfs: ${ipfs.store.description}; Filecoin: ${ipfs.pinning ? `deals through the pinning service at ${ipfs.pinning.url}` : 'no provider configured, Filecoin pins are kept on this store and no Filecoin deal is made'}`);
  }
  // The development chain keeps its history in the database, so a restart keeps its accounts, contracts and blocks.
  const devChain = usesEvmDevChain(config) ? await (await import('./sandbox/evm-chain')).startDevChain({ store: (await import('./sandbox/store')).dbEvmChainStore(db) }) : null;
  const evm: EvmBackend | null = gw.milkomeda ? { ...gw.milkomeda, sandbox: false } : devChain ? { url: devChain.url, auth: null, sandbox: true } : null;
  if (devChain) {
    logger.warn(
      { chainId: devChain.chainId, accounts: devChain.accounts.map((a) => a.address) },
      `EVM development chain: milkomeda-mainnet is served by an embedded EVM chain (Hardhat EDR, chain id ${devChain.chainId}, 'Sandbox data') because UPSTREAM_MILKOMEDA_MAINNET_URL is not set; ${devChain.replayed} transactions of its history replayed from the database. Funded development accounts (10000 mADA each; public keys, never use them for real funds):\n` +
        devChain.accounts.map((a, i) => `  (${i}) ${a.address}  private key ${a.privateKey}`).join('\n'),
    );
  } else if (!evm && !off.has(evmNetwork.slug)) logger.warn('milkomeda-mainnet has no backend: set UPSTREAM_MILKOMEDA_MAINNET_URL (the embedded EVM development chain does not run in production)');
  const jsonRpc = createJsonRpcHandler({ backend: evm, limiter, meter, timeoutMs: gw.upstreamTimeoutMs });
  const sandbox = (slug: string, url: string) => {
    const network = sandboxOf(slug);
    if (!network) return undefined;
    const chain = opts.chains?.[network] ?? createSandboxChain({ network, blockIntervalMs: gw.sandboxBlockIntervalMs });
    return sandboxRouter(chain, { url, version: opts.version });
  };
  const gateway = createGatewayHandler({ config, logger, keys, limiter, meter, version: opts.version, jsonRpc, sandbox, ...(ipfs ? { ipfs } : {}) });
  gateway.setQuotaBase(await loadQuotaBase(db));
  const pools = new UpstreamPools({ db, config, logger, backends: gateway.backends, endpoints: { enabled: enabledEndpoints, addServed: addServedRequests } });
  await pools.start();
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

  // GatewayResponse keeps an error answer's message for request insight.
  const server = http.createServer({ ServerResponse: GatewayResponse }, gateway.handler);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? gw.port, opts.host ?? config.host, resolve);
  });
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
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await keys.stop();
      clearInterval(balanceTimer);
      await flushBalances();
      await meter.stop();
      await pools.stop();
      await limiter.close();
      gateway.close();
      await devChain?.close();
      await ipfs?.stop();
    },
  };
}
