import type { Db } from '../db/index';
import { SerialTicker } from '../ticker';
import type { Logger } from '../logger';
import { networks } from '../../shared/networks';
import type { GatewayChangeKind } from '../db/gateway-changes';
import { compileAllowList, readStoredList, type CompiledAllowList } from '../../shared/allow-list';
import { boostRequests, DEFAULT_PLAN, isPlanName, plans, type PlanName, type SubscriptionStatus } from '../../shared/plans';

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
  /** Pay as you go: requests ever credited to the workspace's balance (0: none) and spent of them when loaded. */
  ppuCredited: number;
  ppuSpent: number;
  /** The balance's counter key (the workspace id), made once at load, not per request. */
  balanceKey: string;
  /** The project's allow-lists compiled once at load (shared/allow-list.ts); null when none restricts anything. */
  allow: CompiledAllowList | null;
  /** A previous key in its grace period after 'Roll key': when it stops (epoch ms); the current key never does. */
  expiresAt?: number;
}

const slugByNetworkId = new Map(networks.filter((n) => n.slug).map((n) => [n.value, n.slug!]));

export const POLL_MS = 250;
/**
 * A key the cache does not know may be one created a moment ago, before the next poll: the gateway
 * then waits for a poll that starts after the request came (catchUp). Polls start at least this far
 * apart, so keys that do not exist cost at most one small query per CATCH_UP_MS, not one each.
 */
export const CATCH_UP_MS = 50;
/** What a project key looks like: a network's prefix and 32 letters or digits (services/projects.ts). */
const KEY_SHAPE = new RegExp(`^(?:${networks.flatMap((n) => (n.prefix ? [n.prefix] : [])).join('|')})[A-Za-z0-9]{32}$`);
/** A safety net only: changes are applied from gateway_changes, boost expiries when they fall due. */
const FULL_RELOAD_MS = 10 * 60_000;

interface Affected {
  projects: Set<string>;
  workspaces: Set<number>;
  owners: Set<number>;
}

/**
 * All project keys in memory. Every POLL_MS it reads the gateway_changes rows after the last one it
 * applied (written in the same transaction as any project, workspace or plan change) and reloads only
 * the keys they name, so a deleted key is refused on every instance well within a second and a change
 * costs a few rows, not every key. A boost that expires reloads its owner's keys when it falls due; a
 * full reload runs at start and every ten minutes as a safety net.
 */
export class KeyCache {
  private keys = new Map<string, ProjectKey>();
  private lastChange = -1;
  private lastFullLoad = 0;
  /** Earliest expiry of each owner's active boosts. */
  private boostExpiry = new Map<number, number>();
  /** Earliest expiry of a previous key in the map (a poll drops expired ones without asking the database). */
  private keyExpiry = Infinity;
  private ticker: SerialTicker | undefined;
  /** Keys reloaded by the last partial refresh (tests and logs). */
  lastPartialReload = 0;
  /** The poll running or last run, so polls never overlap. */
  private chain: Promise<void> = Promise.resolve();
  /** A poll waiting to start: a caller that comes before it starts shares it. */
  private queued: Promise<void> | null = null;
  private lastPollStart = -Infinity;
  /** Date.now() when the change feed was last read successfully (the metrics' poll lag). */
  lastPolledAt = 0;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  lookup(key: string): ProjectKey | undefined {
    return this.keys.get(key);
  }

  get size(): number {
    return this.keys.size;
  }

  async start(): Promise<void> {
    await this.reload();
    this.lastPolledAt = Date.now();
    this.ticker = new SerialTicker(
      () => this.catchUp(),
      POLL_MS,
      (err) => this.logger.warn({ err: { message: err.message } }, 'gateway key cache: refresh failed, keeping the previous keys'),
    );
    this.ticker.start();
  }

  /** Stops polling and waits for a refresh in progress. */
  async stop(): Promise<void> {
    await this.ticker?.stop();
    await this.chain;
  }

  /** Whether `key` has the shape of a project key (only those are worth a catch-up). */
  static looksLikeKey(key: string): boolean {
    return KEY_SHAPE.test(key);
  }

  /**
   * One poll, after any running and at least CATCH_UP_MS after the last one began; callers that come
   * before it starts share it. The ticker's polls go through here, and so does the gateway for a
   * well-formed key it does not know: this answers once a poll that started after the call has run, so
   * a key created just before the request is found; it rejects when that poll failed.
   */
  catchUp(): Promise<void> {
    if (this.queued) return this.queued;
    const run = this.chain.then(async () => {
      const delayMs = this.lastPollStart + CATCH_UP_MS - performance.now();
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      this.queued = null;
      this.lastPollStart = performance.now();
      await this.poll();
      this.lastPolledAt = Date.now();
    });
    this.queued = run;
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** One refresh: what gateway_changes names since the last one, and owners whose boost expired. */
  async poll(): Promise<void> {
    const now = this.now();
    if (now - this.lastFullLoad > FULL_RELOAD_MS) return this.reload();
    const changes = (await this.db('gateway_changes').where('id', '>', this.lastChange).orderBy('id', 'asc').limit(1000).select('id', 'kind', 'ref')) as Array<{
      id: number | string;
      kind: string;
      ref: string;
    }>;
    // Far behind (or a kind this version does not know): everything, once.
    if (changes.length === 1000 || changes.some((c) => !KINDS.has(c.kind))) return this.reload();
    const affected: Affected = { projects: new Set(), workspaces: new Set(), owners: new Set() };
    for (const c of changes) {
      if (c.kind === 'project') affected.projects.add(c.ref);
      else if (c.kind === 'workspace' || c.kind === 'addon') affected.workspaces.add(toId(c.ref));
      else if (c.kind === 'subscription') affected.owners.add(toId(c.ref));
    }
    for (const [owner, expiry] of this.boostExpiry) if (expiry <= now) affected.owners.add(owner);
    if (this.keyExpiry <= now) this.dropExpiredKeys(now);
    // The owners these keys had until now: a workspace that moves takes its boosts from their total.
    for (const k of this.keys.values()) if (affected.projects.has(k.uuid) || affected.workspaces.has(k.workspaceId)) affected.owners.add(k.ownerId);
    if (affected.projects.size + affected.workspaces.size + affected.owners.size === 0) {
      if (changes.length) this.lastChange = Number(changes.at(-1)!.id);
      return;
    }
    await this.reloadSome(affected, now);
    if (changes.length) this.lastChange = Number(changes.at(-1)!.id);
  }

  /** Reads every key with its owner's plan. `latest` is the change id read before the load began. */
  async reload(latest?: number): Promise<void> {
    const changeId = latest ?? Number((await this.db('gateway_changes').max({ id: 'id' }).first())?.id ?? 0);
    const now = this.now();
    const next = new Map<string, ProjectKey>();
    this.boostExpiry = new Map();
    this.keyExpiry = Infinity;
    for (const k of await this.load(null, now)) this.put(next, k);
    this.keys = next;
    this.lastChange = changeId;
    this.lastFullLoad = now;
  }

  private async reloadSome(a: Affected, now: number): Promise<void> {
    const fresh = await this.load(a, now);
    const owners = new Set([...a.owners, ...fresh.map((k) => k.ownerId)]);
    // Drop what the changes name (a deleted project, a workspace that moved), then put back what exists.
    for (const [key, k] of this.keys) {
      if (a.projects.has(k.uuid) || a.workspaces.has(k.workspaceId) || owners.has(k.ownerId)) this.keys.delete(key);
    }
    for (const k of fresh) this.put(this.keys, k);
    this.lastPartialReload = fresh.length;
  }

  private put(into: Map<string, ProjectKey>, k: ProjectKey): void {
    into.set(k.key, k);
    if (k.expiresAt !== undefined && k.expiresAt < this.keyExpiry) this.keyExpiry = k.expiresAt;
  }

  /** A previous key whose grace period ended is refused from the first poll after it: dropped here, with no query. */
  private dropExpiredKeys(now: number): void {
    let next = Infinity;
    for (const [key, k] of this.keys) {
      if (k.expiresAt === undefined) continue;
      if (k.expiresAt <= now) this.keys.delete(key);
      else if (k.expiresAt < next) next = k.expiresAt;
    }
    this.keyExpiry = next;
  }

  /** Keys with their owner's plan and boosts: all of them, or those the changes name. */
  private async load(a: Affected | null, now: number): Promise<ProjectKey[]> {
    let q = this.db('projects as p')
      .join('workspaces as w', 'w.id', 'p.workspace_id')
      .leftJoin('subscriptions as s', 's.user_id', 'w.owner_id')
      .leftJoin('ppu_balances as b', 'b.workspace_id', 'w.id')
      .select(
        'p.id',
        'p.uuid',
        'p.project_id as key',
        'p.previous_project_id as previous_key',
        'p.previous_key_expires_at',
        'p.allowed_origins',
        'p.allowed_ips',
        'p.allowed_methods',
        'p.network_id',
        'p.workspace_id',
        'w.owner_id',
        's.plan',
        's.status',
        'b.credited as ppu_credited',
        'b.spent as ppu_spent',
      );
    if (a) {
      // Every key of an owner whose project or workspace changed: boosts and plan are per owner.
      const owners = this.db('workspaces as w2')
        .leftJoin('projects as p2', 'p2.workspace_id', 'w2.id')
        .where((w) => {
          w.whereIn('w2.id', [...a.workspaces, -1]).orWhereIn('p2.uuid', [...[...a.projects].filter((u) => UUID.test(u)), NO_UUID]);
        })
        .select('w2.owner_id');
      q = q.where((w) => {
        w.whereIn('w.owner_id', [...a.owners, -1]).orWhereIn('w.owner_id', owners);
      });
    }
    const rows = await q;
    const ownerIds = [...new Set(rows.map((r) => r.owner_id as number))];
    let boostQuery = this.db('addons as a').join('workspaces as w', 'w.id', 'a.workspace_id').where('a.expires_at', '>', now);
    if (a) boostQuery = boostQuery.whereIn('w.owner_id', ownerIds.length ? ownerIds : [-1]);
    const boosts = await boostQuery.select('w.owner_id', 'a.type', 'a.expires_at');
    const boostByOwner = new Map<number, number>();
    for (const owner of a ? [...a.owners, ...ownerIds] : []) this.boostExpiry.delete(owner);
    for (const b of boosts) {
      boostByOwner.set(b.owner_id, (boostByOwner.get(b.owner_id) ?? 0) + boostRequests(b.type));
      const expiry = Number(b.expires_at);
      this.boostExpiry.set(b.owner_id, Math.min(this.boostExpiry.get(b.owner_id) ?? Infinity, expiry));
    }
    const out: ProjectKey[] = [];
    for (const r of rows) {
      const network = slugByNetworkId.get(r.network_id);
      if (!network) continue;
      const plan = plans[isPlanName(r.plan) ? (r.plan as PlanName) : DEFAULT_PLAN];
      const k: ProjectKey = {
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
        ppuCredited: Number(r.ppu_credited ?? 0),
        ppuSpent: Number(r.ppu_spent ?? 0),
        balanceKey: String(r.workspace_id),
        allow: compileAllowList({ origins: readStoredList(r.allowed_origins), ips: readStoredList(r.allowed_ips), methods: readStoredList(r.allowed_methods) }),
      };
      out.push(k);
      // After 'Roll key' the old key works until its grace ends: the same project under a second key.
      const previousExpiry = r.previous_key_expires_at === null ? 0 : Number(r.previous_key_expires_at);
      if (r.previous_key && previousExpiry > now) out.push({ ...k, key: r.previous_key, expiresAt: previousExpiry });
    }
    return out;
  }
}

const toId = (ref: string): number => (/^\d{1,10}$/.test(ref) ? Number(ref) : -1);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NO_UUID = '00000000-0000-0000-0000-000000000000';
const KINDS = new Set<string>(['project', 'workspace', 'subscription', 'addon'] satisfies GatewayChangeKind[]);
