// The webhook followers of devnets: a deleted devnet's cursors (chain_cursors, chain_blocks under
// minus its id) go with it, deleted by its follower as it stops or by the retention pass.
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

const steer = async (key: string, method: string, sub: string, body?: unknown) => {
  const res = await fetch(`${gw.url}/cairn/v1/devnet${sub}`, { method, headers: { project_id: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
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

async function blockWebhook(p: DevnetProject): Promise<void> {
  const created = await client.post(`/api/workspaces/${ws}/webhooks`, { name: `blocks of ${p.uuid}`, description: '', network: devnetNetwork.webhookId, project: p.uuid, type: 'block', target_url: 'http://127.0.0.1:9/hook', confirmations: 0, status: 'enabled', conditions: [], api_version: 1 });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

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
