import type { Config } from '../../config';
import { closeOwnConnection, ownConnection, type Db } from '../../db/index';
import type { Logger } from '../../logger';
import type { Mailer } from '../../mail/mailer';
import type { LocalChains } from '../../blockfrost/chain';
import { webhookNetworks } from '../../../shared/webhooks';
import { sandboxOf, type UpstreamNetwork } from '../../../shared/networks';
import { httpSource, sandboxSource, type ChainSource } from './chain-source';
import { ChainFollower } from './follower';
import { FollowerLeadership } from './leadership';
import { Dispatcher } from './dispatcher';
import { parseAllowlist } from './ssrf';
import { startNoticeDeriver } from './notices';
import { pendingCount } from './outbox';
import type { Metrics } from '../../metrics';
import { DevnetFollowers, type DevnetChains } from './devnet-followers';

/** The event source of each webhook network: its configured upstream, else the sandbox chain. */
export function webhookSources(config: Config, chains: LocalChains): Map<number, ChainSource> {
  const out = new Map<number, ChainSource>();
  for (const n of webhookNetworks) {
    if (!n.slug || n.webhookId === null) continue;
    const upstream = config.gateway.upstreams[n.slug as UpstreamNetwork];
    const sandbox = sandboxOf(n.slug);
    const chain = sandbox ? chains[sandbox] : undefined;
    if (upstream) out.set(n.webhookId, httpSource(upstream));
    else if (chain) out.set(n.webhookId, sandboxSource(chain));
  }
  return out;
}

export interface WebhookWorker {
  followers: ChainFollower[];
  devnetFollowers: DevnetFollowers | null;
  dispatcher: Dispatcher;
  stop(): Promise<void>;
}

/** Chain followers (one per network) and the delivery dispatcher. */
export function startWebhookWorker(opts: {
  config: Config;
  db: Db;
  logger: Logger;
  mailer: Mailer;
  chains: LocalChains;
  metrics?: Metrics;
  /** The chain each network's follower reads (default: webhookSources(config, chains)). */
  sources?: Map<number, ChainSource>;
  /** The devnets' registry of this process: each active devnet with webhooks or open tracked transactions is followed. */
  devnets?: { chains: DevnetChains; idleMs: number };
}): WebhookWorker {
  const { config, db, logger, mailer, chains, metrics } = opts;
  const dispatcher = new Dispatcher(db, logger, mailer, {
    allowlist: parseAllowlist(config.webhooks.allowlist),
    timeoutMs: config.webhooks.timeoutMs,
    retrySchedule: config.webhooks.retryScheduleMs,
    publicUrl: config.publicUrl,
    ...(metrics ? { metrics } : {}),
  });
  // The chain followers ask the database something every tick of every chain they follow: on SQLite
  // through a connection of their own, so a request's statements never wait behind theirs.
  const followerDb = ownConnection(db);
  // With several workers on one PostgreSQL database, one follows each network's chain.
  const leadership = new FollowerLeadership(followerDb, logger);
  const sources = opts.sources ?? webhookSources(config, chains);
  // Transactions are recorded at submit on the sandbox networks (server/features/txs); their followers advance them.
  const tracked = new Set(opts.sources ? [...opts.sources.keys()] : webhookNetworks.filter((n) => n.slug && sandboxOf(n.slug) && !config.gateway.upstreams[n.slug as UpstreamNetwork] && chains[sandboxOf(n.slug)!]).map((n) => n.webhookId!));
  const followers = [...sources].map(([network, source]) => {
    const slug = webhookNetworks.find((n) => n.webhookId === network)?.slug ?? String(network);
    // A follower's events go straight to this worker's dispatcher, up to one batch, written claimed for
    // it; any more are claimed by the dispatchers' lanes, this worker's woken at once, not at its next poll.
    return new ChainFollower(followerDb, logger, source, {
      network,
      pollMs: config.webhooks.chainPollMs,
      leads: () => leadership.leads(network),
      trackTxs: tracked.has(network),
      handOff: { capacity: () => dispatcher.handOffCapacity(), take: (events, targets, committed) => dispatcher.handOff(events, targets, committed) },
      onEvents: () => dispatcher.wake(),
      ...(metrics ? { onLag: (blocks: number) => metrics.followerLagged(slug, blocks) } : {}),
    });
  });
  const devnetFollowers = opts.devnets
    ? new DevnetFollowers({
        db: followerDb,
        logger,
        chains: opts.devnets.chains,
        idleMs: opts.devnets.idleMs,
        scanMs: Math.max(500, config.webhooks.chainPollMs * 2),
        follower: (key) => ({
          pollMs: config.webhooks.chainPollMs,
          leads: () => leadership.leads(key),
          handOff: { capacity: () => dispatcher.handOffCapacity(), take: (events, targets, committed) => dispatcher.handOff(events, targets, committed) },
          onEvents: () => dispatcher.wake(),
        }),
      })
    : null;
  metrics?.outboxDepth(() => pendingCount(db));
  for (const f of followers) f.start();
  devnetFollowers?.start();
  dispatcher.start();
  // Failed deliveries, warnings and disablings for the event stream (GET /api/events), read from the outbox's tables.
  const notices = startNoticeDeriver(db, logger);
  logger.info(`webhooks: following ${followers.length} network(s), delivering from the outbox`);
  return {
    followers,
    devnetFollowers,
    dispatcher,
    async stop() {
      await Promise.all(followers.map((f) => f.stop()));
      await devnetFollowers?.stop();
      await leadership.close();
      await dispatcher.stop();
      await notices.stop();
      await closeOwnConnection(followerDb, db);
    },
  };
}
