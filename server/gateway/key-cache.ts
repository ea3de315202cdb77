import type { Db } from '../db/index';
import { SerialTicker } from '../ticker';
import type { Logger } from '../logger';
import { networks } from '../../shared/networks';
import type { GatewayChangeKind } from '../db/gateway-changes';
import { compileAllowList, readStoredList, type CompiledAllowList } from '../../shared/allow-list';
import { dailyRequestLimit, DEFAULT_PLAN, isPlanName, plans, type PlanName, type SubscriptionStatus } from '../../shared/plans';

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
  /** Websocket connections (the push API) the project may hold open at once: its owner's plan's. */
  websocketConnections: number;
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
/** Projects read per query of a load: each page is a short query, so other work on the database interleaves. */
export const LOAD_PAGE = 5_000;

/** What a subscription owner's keys share: the plan's limits and the daily quota (plan plus boosts). */
interface Account {
  ownerId: number;
  quotaKey: string;
  limitPerSecond: number;
  limitBurst: number;
  requestLimit: number;
  websocketConnections: number;
  status: SubscriptionStatus;
  workspaces: Workspace[];
}

/** What a workspace's keys share: its pay-as-you-go balance and its owner's account. */
interface Workspace {
  workspaceId: number;
  balanceKey: string;
  ppuCredited: number;
  ppuSpent: number;
  account: Account;
  keys: CachedKey[];
}

/**
 * One key in memory: what is the project's own, with what its workspace and owner share reached
 * through one reference (the getters), so a million keys cost a million small objects, not a million
 * copies of their plans.
 */
class CachedKey implements ProjectKey {
  constructor(
    readonly key: string,
    readonly projectId: number,
    readonly uuid: string,
    readonly network: string,
    readonly allow: CompiledAllowList | null,
    readonly workspace: Workspace,
    readonly expiresAt: number | undefined,
  ) {}

  get workspaceId(): number {
    return this.workspace.workspaceId;
  }
  get balanceKey(): string {
    return this.workspace.balanceKey;
  }
  get ppuCredited(): number {
    return this.workspace.ppuCredited;
  }
  get ppuSpent(): number {
    return this.workspace.ppuSpent;
  }
  get ownerId(): number {
    return this.workspace.account.ownerId;
  }
  get quotaKey(): string {
    return this.workspace.account.quotaKey;
  }
  get limitPerSecond(): number {
    return this.workspace.account.limitPerSecond;
  }
  get limitBurst(): number {
    return this.workspace.account.limitBurst;
  }
  get requestLimit(): number {
    return this.workspace.account.requestLimit;
  }
  get websocketConnections(): number {
    return this.workspace.account.websocketConnections;
  }
  get status(): SubscriptionStatus {
    return this.workspace.account.status;
  }
}

interface Affected {
  projects: Set<string>;
  workspaces: Set<number>;
  owners: Set<number>;
}

interface Tables {
  keys: Map<string, CachedKey>;
  accounts: Map<number, Account>;
  workspaces: Map<number, Workspace>;
}

/**
 * All project keys in memory. Every POLL_MS it reads the gateway_changes rows after the last one it
 * applied (written in the same transaction as any project, workspace or plan change) and reloads only
 * the owners they name (with their workspaces and keys), so a deleted key is refused on every
 * instance well within a second and a change costs a few rows, not every key. A boost that expires
 * reloads its owner when it falls due; a full reload runs at start and every ten minutes as a safety
 * net, in pages of LOAD_PAGE projects.
 */
export class KeyCache {
  private tables: Tables = { keys: new Map(), accounts: new Map(), workspaces: new Map() };
  private lastChange = -1;
  private lastFullLoad = 0;
  /** Earliest expiry of each owner's active boosts. */
  private boostExpiry = new Map<number, number>();
  /** Previous keys in their grace period (a poll drops expired ones without asking the database). */
  private expiring = new Set<CachedKey>();
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
  /** Told after the keys changed (a reload, owners reloaded, a rolled key's grace ended): long-lived connections look their key up again. */
  private readonly changeListeners = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  lookup(key: string): ProjectKey | undefined {
    return this.tables.keys.get(key);
  }

  get size(): number {
    return this.tables.keys.size;
  }

  /** Calls `listener` after every change of the keys; answers the function that stops it. */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.changeListeners) {
      try {
        listener();
      } catch (err) {
        this.logger.error({ err: { message: (err as Error).message } }, 'gateway key cache: a change listener failed');
      }
    }
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
      // A timer measures from the event loop's cached clock, which lags behind a busy tick: it can
      // fire early by that lag, so the wait is checked again against the real clock.
      const left = () => this.lastPollStart + CATCH_UP_MS - performance.now();
      while (left() > 0) await new Promise((resolve) => setTimeout(resolve, Math.ceil(left())));
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
    const dropped = this.expiring.size > 0 && this.dropExpiredKeys(now);
    if (affected.projects.size + affected.workspaces.size + affected.owners.size === 0) {
      if (changes.length) this.lastChange = Number(changes.at(-1)!.id);
      if (dropped) this.changed();
      return;
    }
    await this.reloadSome(affected, now);
    if (changes.length) this.lastChange = Number(changes.at(-1)!.id);
    this.changed();
  }

  /** Reads every key with its owner's plan, page by page. `latest` is the change id read before the load began. */
  async reload(latest?: number): Promise<void> {
    const changeId = latest ?? Number((await this.db('gateway_changes').max({ id: 'id' }).first())?.id ?? 0);
    const now = this.now();
    const boostExpiry = new Map<number, number>();
    const tables: Tables = { keys: new Map(), accounts: new Map(), workspaces: new Map() };
    const expiring = new Set<CachedKey>();
    await this.loadAccounts(tables, null, now, boostExpiry);
    await this.loadProjects(tables, null, now, expiring);
    this.tables = tables;
    this.boostExpiry = boostExpiry;
    this.expiring = expiring;
    this.lastChange = changeId;
    this.lastFullLoad = now;
    this.changed();
  }

  /** The owners the changes touch, before and after: every key of theirs is dropped, then loaded again. */
  private async reloadSome(a: Affected, now: number): Promise<void> {
    const owners = new Set(a.owners);
    const { keys, accounts, workspaces } = this.tables;
    // The owners these workspaces and projects have now (a workspace that moves takes its boosts
    // from its old owner's total to its new one's), and had until now.
    for (const id of a.workspaces) {
      const cached = workspaces.get(id);
      if (cached) owners.add(cached.account.ownerId);
    }
    const uuids = [...a.projects].filter((u) => UUID.test(u));
    const [movedTo, current] = (await Promise.all([
      this.db('workspaces').whereIn('id', [...a.workspaces, -1]).select('owner_id'),
      this.db('projects as p').join('workspaces as w', 'w.id', 'p.workspace_id').whereIn('p.uuid', [...uuids, NO_UUID]).select('w.owner_id', 'p.uuid'),
    ])) as [Array<{ owner_id: number }>, Array<{ owner_id: number; uuid: string }>];
    for (const r of [...movedTo, ...current]) owners.add(r.owner_id);
    // A project no longer in the database (deleted): its owner is found among the keys, once per change.
    const found = new Set(current.map((r) => r.uuid));
    const gone = new Set(uuids.filter((u) => !found.has(u)));
    if (gone.size) for (const k of keys.values()) if (gone.has(k.uuid)) owners.add(k.ownerId);

    // Read what these owners have now, then swap it in at once: a key of theirs is never missing
    // while the reads run.
    const ownerList = [...owners];
    const fresh: Tables = { keys: new Map(), accounts: new Map(), workspaces: new Map() };
    const freshBoosts = new Map<number, number>();
    const freshExpiring = new Set<CachedKey>();
    await this.loadAccounts(fresh, ownerList, now, freshBoosts);
    this.lastPartialReload = await this.loadProjects(fresh, ownerList, now, freshExpiring);
    for (const owner of owners) {
      const account = accounts.get(owner);
      this.boostExpiry.delete(owner);
      if (!account) continue;
      for (const w of account.workspaces) {
        for (const k of w.keys) {
          keys.delete(k.key);
          this.expiring.delete(k);
        }
        workspaces.delete(w.workspaceId);
      }
      accounts.delete(owner);
    }
    for (const [id, account] of fresh.accounts) accounts.set(id, account);
    for (const [id, workspace] of fresh.workspaces) workspaces.set(id, workspace);
    for (const [key, k] of fresh.keys) keys.set(key, k);
    for (const k of freshExpiring) this.expiring.add(k);
    for (const [owner, expiry] of freshBoosts) this.boostExpiry.set(owner, expiry);
  }

  /** Every project (of these owners, or of everyone) in pages of LOAD_PAGE by id; answers how many. */
  private async loadProjects(into: Tables, owners: number[] | null, now: number, expiring: Set<CachedKey>): Promise<number> {
    let after = 0;
    let count = 0;
    for (;;) {
      let q = this.projectQuery().where('p.id', '>', after);
      if (owners) q = q.whereIn('w.owner_id', owners.length ? owners : [-1]);
      const rows = await q.orderBy('p.id', 'asc').limit(LOAD_PAGE);
      for (const r of rows) this.putProject(into, r, now, expiring);
      count += rows.length;
      if (rows.length < LOAD_PAGE) return count;
      after = Number(rows.at(-1)!.id);
    }
  }

  /** Accounts (plan, boosts) and workspaces (balance) of these owners, or of everyone. */
  private async loadAccounts(into: Tables, owners: number[] | null, now: number, boostExpiry: Map<number, number>): Promise<void> {
    let q = this.db('workspaces as w')
      .leftJoin('subscriptions as s', 's.user_id', 'w.owner_id')
      .leftJoin('ppu_balances as b', 'b.workspace_id', 'w.id')
      .select('w.id', 'w.owner_id', 's.plan', 's.status', 'b.credited as ppu_credited', 'b.spent as ppu_spent');
    if (owners) q = q.whereIn('w.owner_id', owners.length ? owners : [-1]);
    let boostQuery = this.db('addons as a').join('workspaces as w', 'w.id', 'a.workspace_id').where('a.expires_at', '>', now);
    if (owners) boostQuery = boostQuery.whereIn('w.owner_id', owners.length ? owners : [-1]);
    const [rows, boosts] = await Promise.all([q, boostQuery.select('w.owner_id', 'a.type', 'a.expires_at')]);
    const boostsByOwner = new Map<number, string[]>();
    for (const b of boosts) {
      boostsByOwner.set(b.owner_id, [...(boostsByOwner.get(b.owner_id) ?? []), b.type]);
      const expiry = Number(b.expires_at);
      boostExpiry.set(b.owner_id, Math.min(boostExpiry.get(b.owner_id) ?? Infinity, expiry));
    }
    for (const r of rows) {
      const ownerId = r.owner_id as number;
      let account = into.accounts.get(ownerId);
      if (!account) {
        const plan = plans[isPlanName(r.plan) ? (r.plan as PlanName) : DEFAULT_PLAN];
        account = {
          ownerId,
          quotaKey: String(ownerId),
          limitPerSecond: plan.limitPerSecond,
          limitBurst: plan.limitBurst,
          requestLimit: dailyRequestLimit(plan, boostsByOwner.get(ownerId) ?? []),
          websocketConnections: plan.websocketConnections,
          status: (r.status as SubscriptionStatus) ?? 'active',
          workspaces: [],
        };
        into.accounts.set(ownerId, account);
      }
      const workspace: Workspace = {
        workspaceId: r.id as number,
        balanceKey: String(r.id),
        ppuCredited: Number(r.ppu_credited ?? 0),
        ppuSpent: Number(r.ppu_spent ?? 0),
        account,
        keys: [],
      };
      account.workspaces.push(workspace);
      into.workspaces.set(workspace.workspaceId, workspace);
    }
  }

  private projectQuery() {
    return this.db('projects as p')
      .join('workspaces as w', 'w.id', 'p.workspace_id')
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
      );
  }

  /** A project row as its key (and its previous key while that works), under its workspace. */
  private putProject(into: Tables, r: ProjectRow, now: number, expiring: Set<CachedKey>): void {
    const network = slugByNetworkId.get(r.network_id);
    const workspace = into.workspaces.get(r.workspace_id);
    // A workspace created after its accounts were read waits for the change that created it.
    if (!network || !workspace) return;
    const allow = r.allowed_origins === null && r.allowed_ips === null && r.allowed_methods === null
      ? null
      : compileAllowList({ origins: readStoredList(r.allowed_origins), ips: readStoredList(r.allowed_ips), methods: readStoredList(r.allowed_methods) });
    const k = new CachedKey(r.key, r.id, r.uuid, network, allow, workspace, undefined);
    into.keys.set(k.key, k);
    workspace.keys.push(k);
    // After 'Roll key' the old key works until its grace ends: the same project under a second key.
    const previousExpiry = r.previous_key_expires_at === null ? 0 : Number(r.previous_key_expires_at);
    if (r.previous_key && previousExpiry > now) {
      const previous = new CachedKey(r.previous_key, r.id, r.uuid, network, allow, workspace, previousExpiry);
      into.keys.set(previous.key, previous);
      workspace.keys.push(previous);
      expiring.add(previous);
    }
  }

  /** A previous key whose grace period ended is refused from the first poll after it: dropped here, with no query. Answers whether one was. */
  private dropExpiredKeys(now: number): boolean {
    let dropped = false;
    for (const k of this.expiring) {
      if (k.expiresAt! > now) continue;
      dropped = true;
      this.expiring.delete(k);
      this.tables.keys.delete(k.key);
      const list = k.workspace.keys;
      const i = list.indexOf(k);
      if (i !== -1) list.splice(i, 1);
    }
    return dropped;
  }
}

interface ProjectRow {
  id: number;
  uuid: string;
  key: string;
  previous_key: string | null;
  previous_key_expires_at: number | string | null;
  allowed_origins: string | null;
  allowed_ips: string | null;
  allowed_methods: string | null;
  network_id: number;
  workspace_id: number;
}

const toId = (ref: string): number => (/^\d{1,10}$/.test(ref) ? Number(ref) : -1);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NO_UUID = '00000000-0000-0000-0000-000000000000';
const KINDS = new Set<string>(['project', 'workspace', 'subscription', 'addon'] satisfies GatewayChangeKind[]);
