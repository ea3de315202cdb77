import type { Db } from '../db/index';
import { SerialTicker } from '../ticker';
import type { Logger } from '../logger';
import { networks } from '../../shared/networks';
import { boostRequests } from '../../shared/billing';
import { DEFAULT_PLAN, isPlanName, plans, type PlanName, type SubscriptionStatus } from '../../shared/plans';

/** Everything the gateway needs to admit a request for one project key, without asking the database. */
export interface ProjectKey {
  key: string;
  projectId: number;
  uuid: string;
  workspaceId: number;
  ownerId: number;
  /** The daily quota's counter key (the subscription owner). */
  quotaKey: string;
  /** Gateway slug of the key's network, e.g. cardano-mainnet. */
  network: string;
  limitPerSecond: number;
  limitBurst: number;
  /** Requests per UTC day for the whole subscription: plan plus active boosts. */
  requestLimit: number;
  status: SubscriptionStatus;
}

const slugByNetworkId = new Map(networks.filter((n) => n.slug).map((n) => [n.value, n.slug!]));

export const POLL_MS = 250;
const FULL_RELOAD_MS = 60_000;

/**
 * All project keys in memory. Every POLL_MS it asks for the newest id of gateway_changes (written in
 * the same transaction as any project, workspace or plan change) and reloads when it moved, so a
 * deleted key is refused on every instance well within a second. A full reload every minute also
 * picks up boosts that expired.
 */
export class KeyCache {
  private keys = new Map<string, ProjectKey>();
  private lastChange = -1;
  private lastFullLoad = 0;
  private ticker: SerialTicker | undefined;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  lookup(key: string): ProjectKey | undefined {
    return this.keys.get(key);
  }

  get size(): number {
    return this.keys.size;
  }

  async start(): Promise<void> {
    await this.reload();
    this.ticker = new SerialTicker(
      () => this.poll(),
      POLL_MS,
      (err) => this.logger.warn({ err: { message: err.message } }, 'gateway key cache: refresh failed, keeping the previous keys'),
    );
    this.ticker.start();
  }

  /** Stops polling and waits for a refresh in progress. */
  stop(): Promise<void> {
    return this.ticker?.stop() ?? Promise.resolve();
  }

  private async poll(): Promise<void> {
    const row = await this.db('gateway_changes').max({ id: 'id' }).first();
    const latest = Number(row?.id ?? 0);
    if (latest !== this.lastChange || Date.now() - this.lastFullLoad > FULL_RELOAD_MS) await this.reload(latest);
  }

  /** Reads every key with its owner's plan. `latest` is the change id read before the load began. */
  async reload(latest?: number): Promise<void> {
    const changeId = latest ?? Number((await this.db('gateway_changes').max({ id: 'id' }).first())?.id ?? 0);
    const now = Date.now();
    const [rows, boosts] = await Promise.all([
      this.db('projects as p')
        .join('workspaces as w', 'w.id', 'p.workspace_id')
        .leftJoin('subscriptions as s', 's.user_id', 'w.owner_id')
        .select('p.id', 'p.uuid', 'p.project_id as key', 'p.network_id', 'p.workspace_id', 'w.owner_id', 's.plan', 's.status'),
      this.db('addons as a').join('workspaces as w', 'w.id', 'a.workspace_id').where('a.expires_at', '>', now).select('w.owner_id', 'a.type'),
    ]);
    const boostByOwner = new Map<number, number>();
    for (const b of boosts) boostByOwner.set(b.owner_id, (boostByOwner.get(b.owner_id) ?? 0) + boostRequests(b.type));
    const next = new Map<string, ProjectKey>();
    for (const r of rows) {
      const network = slugByNetworkId.get(r.network_id);
      if (!network) continue;
      const plan = plans[isPlanName(r.plan) ? (r.plan as PlanName) : DEFAULT_PLAN];
      next.set(r.key, {
        key: r.key,
        projectId: r.id,
        uuid: r.uuid,
        workspaceId: r.workspace_id,
        ownerId: r.owner_id,
        quotaKey: String(r.owner_id),
        network,
        limitPerSecond: plan.limitPerSecond,
        limitBurst: plan.limitBurst,
        requestLimit: plan.requestLimit + (boostByOwner.get(r.owner_id) ?? 0),
        status: (r.status as SubscriptionStatus) ?? 'active',
      });
    }
    this.keys = next;
    this.lastChange = changeId;
    this.lastFullLoad = now;
  }
}
