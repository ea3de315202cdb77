// The webhook followers of devnets: a devnet with webhooks is followed past DEVNET_IDLE_MS while its
// clock runs, or until its follower caught up with what a steering call made, its chain kept in
// memory meanwhile, so no block's event is lost; a paused one, idle and caught up, is let go. A
// deleted devnet's cursors (chain_cursors, chain_blocks under minus its id) go with it, deleted by its
// follower as it stops or by the retention pass.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { startTestGateway } from '../helpers/gateway';
import type { RunningGateway } from '../../server/gateway-app';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { ChainFollower } from '../../server/features/webhooks/follower';
import { DevnetFollowers, devnetCursorKey, devnetSource, pruneDevnetCursors } from '../../server/features/webhooks/devnet-followers';
import { pruneOnce } from '../../server/features/stats/retention';
import { DevnetRegistry } from '../../server/features/devnets/index';
import { sandboxDevnetEngine } from '../../server/sandbox/devnet-engine';
import { createLogger } from '../../server/logger';
import { devnetNetwork } from '../../shared/networks';

const app = useTestApp();
const logger = createLogger('silent');
let gw: RunningGateway;
let client: Client;
let ws: number;

interface DevnetProject {
  key: string;
  uuid: string;
  projectId: number;
  devnetId: number;
}

const steer = async (key: string, method: string, sub: string, body?: unknown, via = gw) => {
  const res = await fetch(`${via.url}/cairn/v1/devnet${sub}`, { method, headers: { project_id: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const parsed = (await res.json()) as any;
  expect(res.status, JSON.stringify(parsed)).toBeLessThan(300);
  return parsed;
};

async function devnetProject(name: string): Promise<DevnetProject> {
  const created = await client.post(`/api/workspaces/${ws}/projects`, { projectName: name, networkId: devnetNetwork.value });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const key = created.body.data.project.project_id as string;
  const uuid = created.body.data.uuid as string;
  const projectId = Number((await app.db('projects').where({ uuid }).first('id')).id);
  await gw.keys.catchUp();
  await steer(key, 'POST', '/pause');
  const devnetId = Number((await app.db('devnets').where({ project_id: projectId }).first('id')).id);
  return { key, uuid, projectId, devnetId };
}

async function blockWebhook(p: DevnetProject): Promise<string> {
  const created = await client.post(`/api/workspaces/${ws}/webhooks`, { name: `blocks of ${p.uuid}`, description: '', network: devnetNetwork.webhookId, project: p.uuid, type: 'block', target_url: 'http://127.0.0.1:9/hook', confirmations: 0, status: 'enabled', conditions: [], api_version: 1 });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.webhook.id as string;
}

/** The heights of the blocks a webhook has events of, ascending. */
const eventHeights = async (webhookId: string) => ((await app.db('webhook_events').where({ webhook_id: webhookId }).orderBy('block_height').pluck('block_height')) as Array<number | string>).map(Number);
const contiguous = (hs: number[]) => hs.every((h, i) => i === 0 || h === hs[i - 1]! + 1);

const cursorRows = async (devnetId: number) => Number((await app.db('chain_cursors').where({ network: devnetCursorKey(devnetId) }).count({ n: '*' }))[0]!.n);
const blockRows = async (devnetId: number) => Number((await app.db('chain_blocks').where({ network: devnetCursorKey(devnetId) }).count({ n: '*' }))[0]!.n);

/** One follower tick of a devnet, as the worker's would make: its cursors are written. */
const tickOnce = (p: DevnetProject) => new ChainFollower(app.db, logger, devnetSource(gw.devnets!, p.projectId), { network: devnetNetwork.webhookId, chain: { key: devnetCursorKey(p.devnetId), projectId: p.projectId }, trackTxs: true }).tick();

beforeAll(async () => {
  client = new Client(app.url);
  await signIn(client, app.mailer, 'devnet-followers@example.com');
  const me = (await client.get('/api/me')).body.data.id;
  await setSubscription(app.db, me, 'DEVELOPER', 'active');
  ws = (await client.get('/api/workspaces')).body.data[0].id;
  gw = await startTestGateway(app);
});
afterAll(async () => {
  await gw?.close();
});

describe('a devnet with webhooks, idle past DEVNET_IDLE_MS', () => {
  /**
   * A gateway whose devnets are idle after 5 s (DEVNET_IDLE_MS) of its registry's clock, and the
   * worker's followers over that registry, on the same clock: `idle()` moves it past the idle time.
   * The chains themselves run on the wall clock.
   */
  const idleSoon = async (follower: { pollMs: number; maxBlocksPerTick?: number }) => {
    let skipped = 0;
    const now = () => Date.now() + skipped;
    const registry = new DevnetRegistry({ db: app.db, logger, idleMs: 5000, now, engine: sandboxDevnetEngine({ db: app.db, publicUrl: 'http://127.0.0.1', version: 'test' }) });
    const g = await startTestGateway(app, {}, undefined, { devnets: registry });
    const followers = new DevnetFollowers({ db: app.db, logger, chains: registry, idleMs: 5000, now, follower: () => follower });
    return {
      g,
      followers,
      idle: () => void (skipped += 6000),
      close: async () => {
        await followers.stop();
        await g.close();
        registry.close();
      },
    };
  };

  it('is followed on while its clock runs, kept in memory: every block has its event', async () => {
    const { g, followers, idle, close } = await idleSoon({ pollMs: 50 });
    try {
      const p = await devnetProject('running, idle');
      const hook = await blockWebhook(p);
      // Five blocks a second, running.
      await steer(p.key, 'POST', '', { genesis: { slotLengthMs: 200, blockIntervalMs: 200, epochLength: 100 } }, g);
      await followers.scan();
      await expect.poll(() => cursorRows(p.devnetId), { timeout: 5000 }).toBe(1);
      idle();
      // Nobody used it for longer than its idle time: still held (its follower reads it), still followed.
      expect(g.devnets!.inUse()).not.toContain(p.projectId);
      g.devnets!.unloadIdle();
      expect(g.devnets!.loaded()).toContain(p.projectId);
      await followers.scan();
      expect(followers.followed()).toContain(p.projectId);
      const idleAt = (await g.devnets!.readChainOf(p.projectId)).chain.tip().height;
      await expect.poll(async () => (await eventHeights(hook)).at(-1) ?? 0, { timeout: 10_000 }).toBeGreaterThanOrEqual(idleAt + 5);
      const heights = await eventHeights(hook);
      expect(contiguous(heights), heights.join(',')).toBe(true);
      await steer(p.key, 'POST', '/pause', undefined, g);
    } finally {
      await close();
    }
  });

  it('paused, is followed on until its follower caught up with what a steering call made, then let go and unloaded', async () => {
    // Ten blocks a tick: 400 blocks take the follower far longer than the idle time.
    const { g, followers, idle, close } = await idleSoon({ pollMs: 50, maxBlocksPerTick: 10 });
    try {
      const p = await devnetProject('paused, idle');
      const hook = await blockWebhook(p);
      await followers.scan();
      await expect.poll(() => cursorRows(p.devnetId), { timeout: 5000 }).toBe(1);
      const from = (await g.devnets!.readChainOf(p.projectId)).chain.tip().height;
      await steer(p.key, 'POST', '/blocks', { count: 400 }, g);
      idle();
      expect(g.devnets!.inUse()).not.toContain(p.projectId);
      g.devnets!.unloadIdle();
      await followers.scan();
      expect((await eventHeights(hook)).length).toBeLessThan(400);
      expect(followers.followed()).toContain(p.projectId);
      expect(g.devnets!.loaded()).toContain(p.projectId);
      await expect.poll(async () => (await eventHeights(hook)).length, { timeout: 30_000 }).toBe(400);
      const heights = await eventHeights(hook);
      expect([heights[0], heights.at(-1)]).toEqual([from + 1, from + 400]);
      expect(contiguous(heights)).toBe(true);
      // Caught up, paused, idle: nothing can happen on it but a steering call. Let go, then unloaded.
      await expect.poll(async () => {
        await followers.scan();
        return followers.followed().includes(p.projectId);
      }, { timeout: 5000 }).toBe(false);
      g.devnets!.unloadIdle();
      expect(g.devnets!.loaded()).not.toContain(p.projectId);
      // A steering call wakes it; its follower resumes at its cursor.
      await steer(p.key, 'POST', '/blocks', { count: 2 }, g);
      await followers.scan();
      expect(followers.followed()).toContain(p.projectId);
      await expect.poll(async () => (await eventHeights(hook)).at(-1), { timeout: 5000 }).toBe(from + 402);
    } finally {
      await close();
    }
  });
});

describe("a deleted devnet's follower cursors", () => {
  it('are deleted by its follower as it stops', async () => {
    const p = await devnetProject('followed then deleted');
    await blockWebhook(p);
    const followers = new DevnetFollowers({ db: app.db, logger, chains: gw.devnets!, idleMs: 60_000, follower: () => ({ pollMs: 20 }) });
    try {
      await followers.scan();
      expect(followers.followed()).toContain(p.projectId);
      // Its first tick puts its cursor at the tip; the blocks after it are matched.
      await expect.poll(() => cursorRows(p.devnetId), { timeout: 5000 }).toBe(1);
      await steer(p.key, 'POST', '/blocks', { count: 3 });
      await expect.poll(() => blockRows(p.devnetId), { timeout: 5000 }).toBeGreaterThan(1);
      expect((await cursorRows(p.devnetId))).toBe(1);
      expect((await client.delete(`/api/workspaces/${ws}/projects/${p.uuid}`)).status).toBe(200);
      await followers.scan();
      expect(followers.followed()).not.toContain(p.projectId);
      expect((await cursorRows(p.devnetId))).toBe(0);
      expect(await blockRows(p.devnetId)).toBe(0);
    } finally {
      await followers.stop();
    }
  });

  it('left behind (no worker followed it as it went) are removed by the retention pass; those of devnets that exist stay', async () => {
    const gone = await devnetProject('deleted unfollowed');
    const kept = await devnetProject('kept');
    await tickOnce(gone);
    await tickOnce(kept);
    expect((await cursorRows(gone.devnetId))).toBe(1);
    expect((await cursorRows(kept.devnetId))).toBe(1);
    expect((await client.delete(`/api/workspaces/${ws}/projects/${gone.uuid}`)).status).toBe(200);
    const report = await pruneOnce(app.db, Date.now(), { pruneDevnetCursors });
    expect(report.devnet_cursors).toBe(2);
    expect((await cursorRows(gone.devnetId))).toBe(0);
    expect(await blockRows(gone.devnetId)).toBe(0);
    expect((await cursorRows(kept.devnetId))).toBe(1);
    expect(await blockRows(kept.devnetId)).toBe(1);
    // The shared networks' cursors are not a devnet's.
    await app.db('chain_cursors').insert({ network: devnetNetwork.webhookId, confirmations: 0, height: 1, hash: 'ab'.repeat(32), epoch: 0, updated_at: Date.now() });
    expect(await pruneDevnetCursors(app.db)).toBe(0);
    await app.db('chain_cursors').where({ network: devnetNetwork.webhookId }).delete();
  });
});
