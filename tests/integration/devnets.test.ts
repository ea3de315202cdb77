// Devnets: a cardano-devnet project's own chain answers its key's Blockfrost calls, and no other
// key's; each steering call (gateway /cairn/v1/devnet… and the project page's routes) changes the
// chain as /api/v0 then shows, answers bad input with a 400, and is recorded in the audit log; a
// devnet survives a restart and an unload, and two processes holding it agree.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { call, rawRequest, startTestGateway } from '../helpers/gateway';
import type { RunningGateway } from '../../server/gateway-app';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import type { AuditEntryDto } from '../../shared/audit';
import type { DevnetStateDto } from '../../shared/devnets';
import { DevnetRegistry, NOT_A_DEVNET_KEY, pruneDevnetLedgers } from '../../server/features/devnets/index';
import { STEERED_ELSEWHERE } from '../../server/features/devnets/registry';
import { sandboxDevnetEngine } from '../../server/sandbox/devnet-engine';
import { dbHistorySumsStore } from '../../server/sandbox/store';
import { createLogger } from '../../server/logger';
import { makeUser } from '../helpers/workspace-fixture';
import { deniedMessages } from '../../shared/permissions';
import { stakeAddressOf } from '../../shared/cardano/address';

const app = useTestApp();
let gw: RunningGateway;
let client: Client;
let ws: number;
let key: string;
let uuid: string;
let otherKey: string;
let preprodKey: string;
/** The wall clock of the gateway's devnets: time passes when a test moves it (a paused chain stands, a running one grows). */
const clock = { now: Date.now() };
/** The gateway's devnets, on the test's clock; `idleMs` 1 s so a test can make one idle. */
const devnetsOnClock = () =>
  new DevnetRegistry({ db: app.db, logger: createLogger('silent'), idleMs: 1000, now: () => clock.now, engine: sandboxDevnetEngine({ db: app.db, publicUrl: 'http://127.0.0.1', version: 'test', now: () => clock.now }) });
let devnets: DevnetRegistry;
const ADDRESS = 'addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs68faae';

/** One call through node:http with any method and a JSON body. */
const send = (method: string, path: string, body?: unknown, k = key, raw?: string) => {
  const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
  return rawRequest(gw.url, method, path, { project_id: k, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) }, payload).then(({ status, body }) => ({ status, body }));
};
const steer = (method: string, sub: string, body?: unknown, k = key) => send(method, `/cairn/v1/devnet${sub}`, body, k);
const latest = async (k = key) => (await call(`${gw.url}/api/v0/blocks/latest`, k)).body as { height: number; hash: string; slot: number; epoch: number };
const audit = async (): Promise<AuditEntryDto[]> => (await client.get(`/api/workspaces/${ws}/audit?limit=100`)).body.data.entries;

beforeAll(async () => {
  client = new Client(app.url);
  await signIn(client, app.mailer, 'devnets@example.com');
  const me = (await client.get('/api/me')).body.data.id;
  await setSubscription(app.db, me, 'DEVELOPER', 'active');
  ws = (await client.get('/api/workspaces')).body.data[0].id;
  const created = await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'my devnet', networkId: 8 });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  key = created.body.data.project.project_id;
  uuid = created.body.data.uuid;
  expect(key.startsWith('devnet')).toBe(true);
  otherKey = (await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'other devnet', networkId: 8 })).body.data.project.project_id;
  preprodKey = (await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'preprod', networkId: 6 })).body.data.project.project_id;
  devnets = devnetsOnClock();
  gw = await startTestGateway(app, {}, undefined, { devnets });
});
afterAll(async () => {
  await gw?.close();
  devnets?.close();
});

describe('a devnet project', () => {
  it('is offered by Add Project, and its key reaches its own chain: magic 42, the genesis slot configuration', async () => {
    const networks = (await client.get('/api/networks')).body.data as Array<{ value: number; label: string; available: boolean }>;
    expect(networks.find((n) => n.value === 8)).toEqual({ value: 8, label: 'Cardano devnet', available: true });
    const genesis = await call(`${gw.url}/api/v0/genesis`, key);
    expect(genesis.status).toBe(200);
    expect(genesis.body).toMatchObject({ network_magic: 42, epoch_length: 600, slot_length: 1 });
    const viaSlug = await call(`${gw.url}/cardano-devnet/api/v0/blocks/latest`, key);
    expect(viaSlug.status).toBe(200);
    const state = await steer('GET', '');
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ paused: false, block_interval_ms: 1000, slot_length_ms: 1000, epoch_length: 600, network_magic: 42, snapshots: [] });
    expect(state.body.tip.height).toBeGreaterThanOrEqual(0);
  });

  it("is another project's key's never: each devnet key has its own chain, other networks' keys are refused", async () => {
    await steer('POST', '/pause');
    const before = await latest(otherKey);
    const produced = await steer('POST', '/blocks', { count: 50 });
    expect(produced.status).toBe(200);
    const other = await latest(otherKey);
    expect(other.height).toBeLessThan(before.height + 50);
    expect(other.hash).not.toBe((await latest()).hash);
    // A preprod key: its own network's chain, never this one; the devnet's path and its steering refuse it.
    expect((await call(`${gw.url}/cardano-devnet/api/v0/blocks/latest`, preprodKey)).status).toBe(403);
    const refused = await steer('POST', '/blocks', { count: 1 }, preprodKey);
    expect(refused).toEqual({ status: 403, body: { status_code: 403, error: 'Forbidden', message: NOT_A_DEVNET_KEY } });
    // No key at all.
    expect((await steer('GET', '', undefined, '')).status).toBe(403);
    await steer('POST', '/resume');
  });
});

describe('the steering calls', () => {
  it('produce blocks, pause and resume, change the interval: seen through /api/v0', async () => {
    const paused = await steer('POST', '/pause');
    expect(paused.status).toBe(200);
    expect(paused.body.paused).toBe(true);
    const tip = await latest();
    const produced = (await steer('POST', '/blocks', { count: 5 })).body as DevnetStateDto;
    expect(produced.tip.height).toBe(tip.height + 5);
    expect((await latest()).height).toBe(tip.height + 5);
    clock.now += 10_000;
    expect((await latest()).height).toBe(tip.height + 5);
    const interval = await steer('PUT', '/interval', { ms: 2000 });
    expect(interval.status).toBe(200);
    expect(interval.body.block_interval_ms).toBe(2000);
    const resumed = await steer('POST', '/resume');
    expect(resumed.body.paused).toBe(false);
    // Running again, a block every 2 s of wall time from the tip.
    clock.now += 6_000;
    expect((await latest()).height).toBe(tip.height + 8);
    await steer('POST', '/pause');
  });

  it('fund an address in the next block, with a token', async () => {
    const funded = await steer('POST', '/fund', { address: ADDRESS, lovelace: '25000000', assets: [{ assetName: '544f4b454e', quantity: 7 }] });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
    expect(funded.body.tx_hash).toMatch(/^[0-9a-f]{64}$/);
    await steer('POST', '/blocks', { count: 1 });
    const utxos = await call(`${gw.url}/api/v0/addresses/${ADDRESS}/utxos`, key);
    expect(utxos.status).toBe(200);
    const paid = (utxos.body as Array<{ tx_hash: string; amount: Array<{ unit: string; quantity: string }> }>).find((u) => u.tx_hash === funded.body.tx_hash)!;
    expect(paid.amount).toContainEqual({ unit: 'lovelace', quantity: '25000000' });
    expect(paid.amount).toContainEqual({ unit: `${funded.body.policy_id}544f4b454e`, quantity: '7' });
  });

  it('snapshot, then restore: the chain is back where it was; delete', async () => {
    const taken = await steer('POST', '/snapshots', { name: 'funded' });
    expect(taken.status).toBe(201);
    const at = taken.body.tip.height;
    expect(taken.body.snapshots).toEqual([{ name: 'funded', height: at, created_at: expect.any(Number) }]);
    expect((await steer('POST', '/snapshots', { name: 'funded' })).status).toBe(409);
    await steer('POST', '/fund', { address: ADDRESS, lovelace: 3_000_000 });
    await steer('POST', '/blocks', { count: 4 });
    expect((await latest()).height).toBe(at + 4);
    const restored = await steer('POST', '/snapshots/funded/restore');
    expect(restored.status).toBe(200);
    expect((await latest()).height).toBe(at);
    const utxos = (await call(`${gw.url}/api/v0/addresses/${ADDRESS}/utxos`, key)).body as unknown[];
    expect(utxos).toHaveLength(1);
    expect((await steer('POST', '/snapshots/nope/restore')).status).toBe(404);
    const deleted = await steer('DELETE', '/snapshots/funded');
    expect(deleted.status).toBe(200);
    expect(deleted.body.snapshots).toEqual([]);
    expect((await steer('DELETE', '/snapshots/funded')).status).toBe(404);
  });

  it('roll back onto a new branch, travel in time, reset', async () => {
    const before = await latest();
    const rolled = await steer('POST', '/rollback', { blocks: 3, txs: 'drop' });
    expect(rolled.status, JSON.stringify(rolled.body)).toBe(200);
    expect(rolled.body.tip.height).toBe(before.height - 3);
    expect(rolled.body).toMatchObject({ requeued: [], dropped: expect.any(Array) });
    await steer('POST', '/blocks', { count: 3 });
    const regrown = await latest();
    expect(regrown.height).toBe(before.height);
    expect(regrown.hash).not.toBe(before.hash);

    const epoch = (await latest()).epoch;
    const next = await steer('POST', '/time', { to: 'next-epoch' });
    expect(next.status).toBe(200);
    expect(next.body.tip.epoch).toBe(epoch + 1);
    expect((await latest()).epoch).toBe(epoch + 1);
    const slot = (await latest()).slot;
    const skipped = await steer('POST', '/time', { slots: 120 });
    expect(skipped.body.tip.slot).toBeGreaterThanOrEqual(slot + 119);

    const reset = await steer('POST', '/reset');
    expect(reset.status).toBe(200);
    expect(reset.body.tip.height).toBeLessThan(5);
    expect((await call(`${gw.url}/api/v0/addresses/${ADDRESS}/utxos`, key)).status).toBe(404);
  });

  it('create from a genesis of your own', async () => {
    const created = await steer('POST', '', { genesis: { slotLengthMs: 200, epochLength: 100, blockIntervalMs: 200 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ slot_length_ms: 200, epoch_length: 100, block_interval_ms: 200 });
    const genesis = (await call(`${gw.url}/api/v0/genesis`, key)).body;
    expect(genesis).toMatchObject({ epoch_length: 100, slot_length: 0.2, network_magic: 42 });
  });

  it("create from a genesis with a committee of your own, and refuse a bad one whole: nothing is created", async () => {
    const cold = 'c0'.repeat(28);
    const created = await steer('POST', '', { genesis: { epochLength: 120, committee: { members: [{ coldCredential: cold, expiryEpoch: 30 }], threshold: 0.5 } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const committee = (await call(`${gw.url}/api/v0/governance/committee`, key)).body;
    expect(committee).toMatchObject({ quorum: { numerator: 500_000, denominator: 1_000_000 }, members: [{ cc_cold_hex: cold, status: 'not_authorized', expiration_epoch: 30 }] });
    expect((await audit()).find((e) => e.action === 'devnet.created')?.details).toMatchObject({ epoch_length: 120, committee_members: 1, initial_pools: 0 });
    const refusals: Array<[unknown, RegExp]> = [
      [{ members: [{ coldCredential: 'not-a-hash', expiryEpoch: 30 }] }, /^genesis\.committee\.members\.0\.coldCredential: 28 bytes in hex/],
      [{ members: [{ coldCredential: cold, expiryEpoch: 0 }] }, /^genesis\.committee\.members\.0\.expiryEpoch: an epoch after the genesis epoch 0/],
      [{ members: [{ coldCredential: cold, expiryEpoch: 30 }], threshold: 0 }, /^genesis\.committee\.threshold: a share above 0 and at most 1/],
      [{ members: [{ coldCredential: cold, expiryEpoch: 30 }], threshold: { numerator: 3, denominator: 2 } }, /^genesis\.committee\.threshold: a share above 0 and at most 1/],
    ];
    for (const [bad, message] of refusals) {
      const res = await steer('POST', '', { genesis: { epochLength: 60, committee: bad } });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    // The chain is still the one created above.
    expect((await call(`${gw.url}/api/v0/genesis`, key)).body).toMatchObject({ epoch_length: 120 });
    expect((await call(`${gw.url}/api/v0/governance/committee`, key)).body.members).toHaveLength(1);
  });

  it('create from a genesis with a stake distribution of your own, and refuse a bad one whole: nothing is created', async () => {
    const stake = stakeAddressOf(ADDRESS)!;
    const created = await steer('POST', '', {
      genesis: { epochLength: 90, initialFunds: [{ address: ADDRESS, lovelace: '3000000000' }], initialPools: [{ pledge: '500000000', cost: '170000000', margin: 0.01, ticker: 'OWN' }], initialDelegations: [{ stakeAddress: stake, pool: 0 }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const account = (await call(`${gw.url}/api/v0/accounts/${stake}`, key)).body;
    expect(account).toMatchObject({ active: true, active_epoch: 0, controlled_amount: '3000000000', pool_id: expect.stringMatching(/^pool1/) });
    expect((await call(`${gw.url}/api/v0/pools/${account.pool_id}`, key)).body).toMatchObject({ live_stake: '3000000000', active_stake: '3000000000', live_delegators: 1, declared_pledge: '500000000' });
    expect((await call(`${gw.url}/api/v0/pools/${account.pool_id}/delegators`, key)).body).toEqual([{ address: stake, live_stake: '3000000000' }]);
    const refusals: Array<[unknown, RegExp]> = [
      [{ initialPools: [{ poolKeyHash: 'xyz', pledge: '0', cost: '170000000', margin: 0 }] }, /^genesis\.initialPools\.0\.poolKeyHash: 28 bytes in hex/],
      [{ initialFunds: [{ address: ADDRESS, lovelace: '3000000000' }], initialPools: [{ pledge: '0', cost: '170000000', margin: 0 }], initialDelegations: [{ stakeAddress: stake, pool: 3 }] }, /^genesis\.initialDelegations\.0\.pool: a pool of initialPools/],
      [{ initialPools: [{ pledge: '0', cost: '170000000', margin: 0 }], initialDelegations: [{ stakeAddress: stake, pool: 0 }] }, /^genesis\.initialDelegations\.0\.stakeAddress: the stake address of a base address of initialFunds/],
    ];
    for (const [bad, message] of refusals) {
      const res = await steer('POST', '', { genesis: { epochLength: 60, ...(bad as object) } });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect((await call(`${gw.url}/api/v0/genesis`, key)).body).toMatchObject({ epoch_length: 90 });
    expect((await call(`${gw.url}/api/v0/accounts/${stake}`, key)).body).toMatchObject({ pool_id: account.pool_id });
  });

  it('answer bad input with a clear 400, never a 500', async () => {
    const cases: Array<[string, string, unknown, string?]> = [
      ['POST', '/blocks', { count: 0 }],
      ['POST', '/blocks', { count: 'five' }],
      ['POST', '/blocks', {}],
      ['POST', '/blocks', { count: 10_001 }],
      ['PUT', '/interval', { ms: 50 }],
      ['POST', '/rollback', { blocks: 2, txs: 'keep' }],
      ['POST', '/rollback', { blocks: 10_000 }],
      ['POST', '/time', {}],
      ['POST', '/time', { to: 'tomorrow' }],
      ['POST', '/snapshots', { name: 'no spaces please' }],
      ['POST', '/fund', { address: 'addr1qxyz', lovelace: '5000000' }],
      ['POST', '/fund', { address: ADDRESS, lovelace: '5' }],
      ['POST', '', { genesis: { slotLengthMs: 150 } }],
      ['POST', '', { genesis: { blockIntervalMs: 1500 } }],
    ];
    for (const [method, sub, body] of cases) {
      const res = await steer(method, sub, body);
      expect(res.status, `${method} ${sub} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body).toMatchObject({ status_code: 400, error: 'Bad Request', message: expect.any(String) });
    }
    const notJson = await send('POST', '/cairn/v1/devnet/blocks', undefined, key, '{count: 1');
    expect(notJson.status).toBe(400);
    expect((await steer('POST', '/snapshots/%E0%A4%A/restore')).status).toBe(400);
    expect((await steer('PATCH', '/blocks', { count: 1 })).status).toBe(404);
    expect((await steer('POST', '/nothing')).status).toBe(404);
  });

  it('are each recorded in the audit log under the key of the project', async () => {
    const entries = await audit();
    const actions = new Set(entries.filter((e) => e.action.startsWith('devnet.')).map((e) => e.action));
    expect([...actions].sort()).toEqual(
      ['devnet.blocks_produced', 'devnet.created', 'devnet.funded', 'devnet.interval_changed', 'devnet.paused', 'devnet.reset', 'devnet.resumed', 'devnet.rolled_back', 'devnet.snapshot_deleted', 'devnet.snapshot_restored', 'devnet.snapshot_taken', 'devnet.time_advanced'].sort(),
    );
    const produced = entries.find((e) => e.action === 'devnet.blocks_produced')!;
    expect(produced).toMatchObject({ actor: { kind: 'key', userId: null, label: 'Key of my devnet' }, target: { type: 'project', id: uuid, label: 'my devnet' }, ip: expect.any(String) });
    for (const e of entries) expect(JSON.stringify(e)).not.toContain(key);
  });
});

describe('the project page', () => {
  it('reads the devnet and steers it: the gateway, holding the chain too, sees the change', async () => {
    const state = await client.get(`/api/projects/${uuid}/devnet`);
    expect(state.status).toBe(200);
    const h = (await latest()).height;
    await steer('POST', '/pause');
    const produced = await client.post(`/api/projects/${uuid}/devnet/blocks`, { count: 7 });
    expect(produced.status, JSON.stringify(produced.body)).toBe(200);
    expect((await latest()).height).toBeGreaterThanOrEqual(h + 7);
    const bad = await client.post(`/api/projects/${uuid}/devnet/blocks`, { count: -1 });
    expect(bad.status).toBe(400);
    const entry = (await audit()).find((e) => e.action === 'devnet.blocks_produced')!;
    expect(entry.actor).toMatchObject({ kind: 'user', label: 'devnets@example.com' });
    // A project of another network has no devnet.
    const preprod = (await client.get(`/api/workspaces/${ws}/projects`)).body.data.find((p: { project_name: string }) => p.project_name === 'preprod');
    expect((await client.get(`/api/projects/${preprod.uuid}/devnet`)).status).toBe(404);
  });
});

describe('roles', () => {
  it('a collaborator reads the devnet and may not steer it: 403 with the permission\'s reason', async () => {
    const user = await makeUser(app.db, 'devnet-collaborator@example.com');
    await app.db('workspace_members').insert({ workspace_id: ws, user_id: user.id, role: 'collaborator', created_at: Date.now() });
    const reader = new Client(app.url);
    await signIn(reader, app.mailer, 'devnet-collaborator@example.com');
    expect((await reader.get(`/api/projects/${uuid}/devnet`)).status).toBe(200);
    const refused = await reader.post(`/api/projects/${uuid}/devnet/blocks`, { count: 1 });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(deniedMessages['projects.update']);
  });
});

describe('two gateways', () => {
  it('serve one devnet alike: a change through one is what the other answers next', async () => {
    const second = await startTestGateway(app);
    try {
      const via = (g: RunningGateway, path: string) => call(`${g.url}${path}`, key);
      await steer('POST', '/pause');
      // Both hold the chain now.
      expect((await via(second, '/api/v0/blocks/latest')).body.hash).toBe((await latest()).hash);
      await steer('POST', '/blocks', { count: 3 });
      const tip = await latest();
      expect((await via(second, '/api/v0/blocks/latest')).body).toMatchObject({ height: tip.height, hash: tip.hash });
      const back = await new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = http.request(`${second.url}/cairn/v1/devnet/rollback`, { method: 'POST', headers: { project_id: key, 'content-type': 'application/json' } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.end(JSON.stringify({ blocks: 2 }));
      });
      expect(back.status).toBe(200);
      expect(await latest()).toMatchObject({ height: tip.height - 2, hash: back.body.tip.hash });

      // Calls through both at once take turns (PostgreSQL's advisory lock, SQLite's lease).
      const start = (await latest()).height;
      const both = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          new Promise<{ status: number; body: any }>((resolve, reject) => {
            const req = http.request(`${(i % 2 ? second : gw).url}/cairn/v1/devnet/blocks`, { method: 'POST', headers: { project_id: key, 'content-type': 'application/json' } }, (res) => {
              let text = '';
              res.on('data', (c: Buffer) => (text += c));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
            });
            req.on('error', reject);
            req.end(JSON.stringify({ count: 1 }));
          }),
        ),
      );
      expect(both.map((r) => r.status)).toEqual(Array(8).fill(200));
      expect((await latest()).height).toBe(start + 8);
      expect((await via(second, '/api/v0/blocks/latest')).body.height).toBe(start + 8);
    } finally {
      await second.close();
    }
  });
});

describe('two processes steering one devnet at the same instant', () => {
  it('take turns; on SQLite a call refused after waiting for the lease wrote nothing, no ledger row either', async () => {
    const projectId = Number((await app.db('projects').where({ uuid }).first('id')).id);
    const devnetId = Number((await app.db('devnets').where({ project_id: projectId }).first('id')).id);
    const aProcess = () => new DevnetRegistry({ db: app.db, logger: createLogger('silent'), idleMs: 60_000, steeringWaitMs: 300, now: () => clock.now, engine: sandboxDevnetEngine({ db: app.db, publicUrl: 'http://127.0.0.1', version: 'test', now: () => clock.now }) });
    const [a, b] = [aProcess(), aProcess()];
    const ledger = async () => (await app.db('sandbox_ledger').where({ network: `devnet:${devnetId}` }).orderBy('seq').pluck('hash')) as string[];
    try {
      const before = await ledger();
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      let inside!: () => void;
      const holding = new Promise<void>((resolve) => (inside = resolve));
      // A's call has written its payment to the ledger and is not done yet when B's arrives.
      const first = a.steer(projectId, async (chain) => {
        const paid = await chain.steering.fund(ADDRESS, 2_000_000n);
        inside();
        await gate;
        return paid;
      });
      await holding;
      const second = b.steer(projectId, (chain) => chain.steering.fund(ADDRESS, 3_000_000n));
      if (app.database.databaseUrl) {
        // The advisory lock: B waits for A, then runs.
        open();
        const [pa, pb] = await Promise.all([first, second]);
        expect(await ledger()).toEqual([...before, pa.txHash, pb.txHash]);
      } else {
        await expect(second).rejects.toMatchObject({ status: 409, message: STEERED_ELSEWHERE });
        open();
        const pa = await first;
        expect(await ledger()).toEqual([...before, pa.txHash]);
        // The lease given back, B's call goes through, on the chain A left.
        const pb = await b.steer(projectId, (chain) => chain.steering.fund(ADDRESS, 3_000_000n));
        expect(await ledger()).toEqual([...before, pa.txHash, pb.txHash]);
      }
      const row = await app.db('devnets').where({ id: devnetId }).first('steering_by', 'steering_until');
      expect(row).toEqual({ steering_by: null, steering_until: null });
    } finally {
      a.close();
      b.close();
    }
  });

  it('a lease left by a process that died expires', async () => {
    if (app.database.databaseUrl) return;
    const projectId = Number((await app.db('projects').where({ uuid }).first('id')).id);
    await app.db('devnets').where({ project_id: projectId }).update({ steering_by: 'gone', steering_until: Date.now() + 200 });
    const state = await steer('POST', '/pause');
    expect(state.status, JSON.stringify(state.body)).toBe(200);
  });
});

describe('a deleted devnet project', () => {
  it('takes its devnet, snapshots and history\'s sums with it, and the retention pass its ledger entries', async () => {
    const created = (await client.post(`/api/workspaces/${ws}/projects`, { projectName: 'short-lived devnet', networkId: 8 })).body.data;
    const k = created.project.project_id as string;
    await gw.keys.catchUp();
    const funded = await steer('POST', '/fund', { address: ADDRESS, lovelace: '2000000' }, k);
    expect(funded.status).toBe(200);
    await steer('POST', '/snapshots', { name: 'gone' }, k);
    const devnet = (await app.db('devnets').join('projects', 'projects.id', 'devnets.project_id').where('projects.uuid', created.uuid).first('devnets.id')) as { id: number };
    const ledger = () => app.db('sandbox_ledger').where({ network: `devnet:${devnet.id}` });
    expect((await ledger()).length).toBeGreaterThan(0);
    // Its history's sums as a long-lived devnet keeps them between loads: one row, the last saved read back byte for byte.
    const sums = dbHistorySumsStore(app.db, devnet.id);
    const record = (epoch: number) => new Uint8Array(new Float64Array([epoch, 10 + epoch, 0, 5e9 + epoch, 0, 170_000 + epoch]).buffer);
    await sums.save('a'.repeat(40), record(3));
    await sums.save('b'.repeat(40), record(4));
    expect(await sums.load()).toEqual({ identity: 'b'.repeat(40), sums: record(4) });
    expect((await client.delete(`/api/workspaces/${ws}/projects/${created.uuid}`)).status).toBe(200);
    expect(await app.db('devnets').where({ id: devnet.id })).toEqual([]);
    expect(await app.db('devnet_snapshots').where({ devnet_id: devnet.id })).toEqual([]);
    expect(await app.db('devnet_history_sums').where({ devnet_id: devnet.id })).toEqual([]);
    expect(await pruneDevnetLedgers(app.db)).toBeGreaterThan(0);
    expect(await ledger()).toEqual([]);
    // The devnets that exist keep theirs.
    expect((await call(`${gw.url}/api/v0/blocks/latest`, key)).status).toBe(200);
    expect(await pruneDevnetLedgers(app.db)).toBe(0);
  });
});

describe('a devnet over time', () => {
  it('survives a restart and an unload: it wakes where it was, snapshots kept', async () => {
    await steer('POST', '/pause');
    await steer('POST', '/snapshots', { name: 'kept' });
    const before = await latest();
    await gw.close();
    devnets.close();
    devnets = devnetsOnClock();
    gw = await startTestGateway(app, {}, undefined, { devnets });
    const after = await latest();
    expect(after).toMatchObject({ height: before.height, hash: before.hash });
    expect((await steer('GET', '')).body.snapshots.map((s: { name: string }) => s.name)).toEqual(['kept']);
    // Idle past its idle time (1 s here, DEVNET_IDLE_MS): out of memory, and back where it was on the next request.
    expect(devnets.loaded()).toHaveLength(1);
    clock.now += 500;
    expect(devnets.unloadIdle()).toBe(0);
    clock.now += 1_000;
    expect(devnets.unloadIdle()).toBe(1);
    expect(devnets.loaded()).toEqual([]);
    expect(await latest()).toMatchObject({ height: before.height, hash: before.hash });
    expect(devnets.loaded()).toHaveLength(1);
  });

  it('holds at most DEVNET_MAX_LOADED devnets: another one loaded unloads the least recently used, which wakes where it was; a followed one stays', async () => {
    const [mine, other] = await Promise.all([key, otherKey].map(async (k) => Number((await app.db('projects').where({ project_id: k }).first('id')).id)));
    const capped = new DevnetRegistry({ db: app.db, logger: createLogger('silent'), idleMs: 60_000, maxLoaded: 1, now: () => clock.now, engine: sandboxDevnetEngine({ db: app.db, publicUrl: 'http://127.0.0.1', version: 'test', now: () => clock.now }) });
    try {
      const tip = (await capped.chainOf(mine!)).chain.local.latestBlock();
      expect(capped.loaded()).toEqual([mine]);
      await capped.chainOf(other!);
      expect(capped.loaded()).toEqual([other]);
      expect((await capped.chainOf(mine!)).chain.local.latestBlock()).toMatchObject({ height: tip.height, hash: tip.hash });
      expect(capped.loaded()).toEqual([mine]);
      // A webhook worker's devnet is not the cap's to unload: both stay until the worker lets it go.
      capped.hold([mine!]);
      await capped.chainOf(other!);
      expect(capped.loaded().sort()).toEqual([mine, other].sort());
    } finally {
      capped.close();
    }
  });
});
