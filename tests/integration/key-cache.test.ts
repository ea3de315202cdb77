import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { makeProject, makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { KeyCache, LOAD_PAGE } from '../../server/gateway/key-cache';
import { insertProjects } from '../bench/lib/fixtures';
import { createLogger } from '../../server/logger';
import { deleteProject, rollProjectKey, setAllowLists } from '../../server/features/projects/projects';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { recordGatewayChange } from '../../server/db/gateway-changes';
import { boosts, plans } from '../../shared/plans';

// The key cache reloads only the keys a change names, so a change costs a few rows, not every key.
const app = useTestApp();

const keyOf = async (uuid: string) => (await app.db('projects').where({ uuid }).first('project_id')).project_id as string;

describe('KeyCache', () => {
  it('applies each change to the keys it names, and only to them', async () => {
    let now = Date.now();
    const cache = new KeyCache(app.db, createLogger('silent'), () => now);
    // Many keys of other owners that no change below touches.
    const bystander = await makeUser(app.db, 'bystander@keys.example', 'ENTERPRISE');
    const bws = await makeWorkspace(app.db, bystander.id, []);
    for (let i = 0; i < 8; i++) await makeProject(app.db, bws, `b${i}`);
    const owner = await makeUser(app.db, 'owner@keys.example', 'STARTER');
    const ws = await makeWorkspace(app.db, owner.id, []);
    const first = await makeProject(app.db, ws, 'first');
    await cache.reload();
    const total = cache.size;
    expect(total).toBeGreaterThanOrEqual(9);

    // A new project: one owner's keys reloaded.
    const second = await makeProject(app.db, ws, 'second');
    await recordGatewayChange(app.db, 'project', second);
    await cache.poll();
    expect(cache.lookup(await keyOf(second))).toBeTruthy();
    expect(cache.lastPartialReload).toBe(2);
    expect(cache.size).toBe(total + 1);

    // A plan change: that owner's keys carry the new limit.
    await setSubscription(app.db, owner.id, 'ENTERPRISE', 'active');
    await cache.poll();
    expect(cache.lookup(await keyOf(first))!.requestLimit).toBe(plans.ENTERPRISE.requestLimit);
    expect(cache.lastPartialReload).toBe(2);

    // A boost: counted while active, dropped when it expires, without any change row.
    await app.db('addons').insert({ workspace_id: ws, type: 'REQUESTS_BOOST_300K', expires_at: now + 60_000, created_at: now });
    await recordGatewayChange(app.db, 'addon', ws);
    await cache.poll();
    expect(cache.lookup(await keyOf(first))!.requestLimit).toBe(plans.ENTERPRISE.requestLimit + boosts.REQUESTS_BOOST_300K.requests);
    now += 61_000;
    await cache.poll();
    expect(cache.lookup(await keyOf(first))!.requestLimit).toBe(plans.ENTERPRISE.requestLimit);

    // A deleted project is gone at the next poll; the bystander's keys were never reloaded.
    const firstKey = await keyOf(first);
    await deleteProject(app.db, ws, first);
    await cache.poll();
    expect(cache.lookup(firstKey)).toBeUndefined();
    expect(cache.size).toBe(total);
    expect(cache.lastPartialReload).toBe(1);
  });

  it('a workspace that changes owner takes its keys to the new owner', async () => {
    const cache = new KeyCache(app.db, createLogger('silent'));
    const a = await makeUser(app.db, 'a@keys.example', 'STARTER');
    const b = await makeUser(app.db, 'b@keys.example', 'ENTERPRISE');
    const ws = await makeWorkspace(app.db, a.id, []);
    const p = await makeProject(app.db, ws);
    await cache.reload();
    expect(cache.lookup(await keyOf(p))!.ownerId).toBe(a.id);
    await app.db('workspaces').where({ id: ws }).update({ owner_id: b.id });
    await recordGatewayChange(app.db, 'workspace', ws);
    await cache.poll();
    expect(cache.lookup(await keyOf(p))).toMatchObject({ ownerId: b.id, requestLimit: plans.ENTERPRISE.requestLimit });
  });

  it("holds a rolled project under both keys, drops the old one at the first poll after its grace without a query, and compiles the allow-lists once", async () => {
    let now = Date.now();
    const cache = new KeyCache(app.db, createLogger('silent'), () => now);
    const u = await makeUser(app.db, 'roll@keys.example', 'STARTER');
    const ws = await makeWorkspace(app.db, u.id, []);
    const p = await makeProject(app.db, ws);
    const old = await keyOf(p);
    await setAllowLists(app.db, ws, p, { origins: ['*.example.com'], ips: ['203.0.113.0/24'], methods: [] });
    // Rolled with an hour's grace 59 minutes ago: a minute left.
    const previous = await rollProjectKey(app.db, ws, p, '1h', now - 59 * 60_000);
    expect(previous).toEqual({ project_id: old, expires_at: now + 60_000 });
    await cache.reload();
    const fresh = cache.lookup(await keyOf(p))!;
    const kept = cache.lookup(old)!;
    expect(kept).toMatchObject({ projectId: fresh.projectId, uuid: p, expiresAt: now + 60_000 });
    expect(fresh.expiresAt).toBeUndefined();
    expect(kept.allow).toBe(fresh.allow);
    expect(fresh.allow!.origin!('https://a.example.com')).toBe(true);
    expect(fresh.allow!.ip!('198.51.100.1')).toBe(false);
    expect(fresh.allow!.methods).toBeNull();
    const size = cache.size;
    now += 60_001;
    // No change row names the project, yet the old key is gone after one poll.
    await cache.poll();
    expect(cache.lookup(old)).toBeUndefined();
    expect(cache.lookup(fresh.key)).toBeTruthy();
    expect(cache.size).toBe(size - 1);
  });

  it('loads every key across its pages, and one owner\'s keys share one plan: a change to it reaches them all', async () => {
    const cache = new KeyCache(app.db, createLogger('silent'));
    const u = await makeUser(app.db, 'pages@keys.example', 'STARTER');
    const ws = await makeWorkspace(app.db, u.id, []);
    // Past a page boundary, with ids that need not be dense.
    const made = await insertProjects(app.db, ws, LOAD_PAGE + 3);
    await cache.reload();
    for (const p of [made[0]!, made[LOAD_PAGE - 1]!, made[LOAD_PAGE]!, made.at(-1)!]) expect(cache.lookup(p.key)).toMatchObject({ uuid: p.uuid, workspaceId: ws, ownerId: u.id, requestLimit: plans.STARTER.requestLimit });
    expect(made.filter((p) => !cache.lookup(p.key))).toEqual([]);

    await setSubscription(app.db, u.id, 'ENTERPRISE', 'active');
    await cache.poll();
    expect(cache.lastPartialReload).toBe(LOAD_PAGE + 3);
    expect(made.filter((p) => cache.lookup(p.key)!.requestLimit !== plans.ENTERPRISE.requestLimit)).toEqual([]);
    expect(cache.lookup(made[7]!.key)).toMatchObject({ limitPerSecond: plans.ENTERPRISE.limitPerSecond, limitBurst: plans.ENTERPRISE.limitBurst, status: 'active' });
  });
});
