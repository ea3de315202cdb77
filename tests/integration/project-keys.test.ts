// Key rotation with a grace period and per-project allow-lists, through the dashboard API and a real
// gateway on the same database: the gateway's clock is the test's, so a grace period ends when the
// test says, and the old key is refused from the key cache's next poll on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp, useTestGateway } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { call, startTestGateway } from '../helpers/gateway';
import { ipfsAdd, ipfsCall } from '../helpers/ipfs';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { ALLOW_LIST_MESSAGES, KEY_GRACE_PERIODS, MAX_ALLOW_LIST_ENTRIES, type KeyGrace } from '../../shared/allow-list';
import { plans } from '../../shared/plans';
import { dayStartOf } from '../../shared/time';

const app = useTestApp();
let now = Date.now();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-keys-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
// TRUST_PROXY=loopback: the test is the proxy, so X-Forwarded-For says which client is calling.
const gw = useTestGateway(app, { TRUST_PROXY: 'loopback', DATA_DIR: dataDir }, { now: () => now });

const INVALID = { status_code: 403, error: 'Forbidden', message: 'Invalid project token.' };
const refusedBy = (list: keyof typeof ALLOW_LIST_MESSAGES) => ({ status_code: 403, error: 'Forbidden', message: ALLOW_LIST_MESSAGES[list] });

let owner: Client;
let ws: number;
let collaborator: Client;

interface Project {
  id: number;
  uuid: string;
  project_id: string;
}

async function newProject(networkId = 0): Promise<Project> {
  const res = await owner.post(`/api/workspaces/${ws}/projects`, { projectName: `p${Math.random()}`, networkId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.project as Project;
}

/** The plan caps projects: each test removes its own. */
const remove = async (p: Project) => expect((await owner.request('DELETE', `/api/workspaces/${ws}/projects/${p.uuid}`)).status).toBe(200);
const roll = (p: Project, grace: string, client = owner) => client.post(`/api/workspaces/${ws}/projects/${p.uuid}/roll-key`, { grace });
const setLists = (p: Project, lists: Record<string, unknown>, client = owner) => client.put(`/api/workspaces/${ws}/projects/${p.uuid}/allow-lists`, lists);
/** One poll of the gateway's key cache that starts after everything so far. */
const settle = () => gw.keys.catchUp();
const latest = (key: string, headers: Record<string, string> = {}) => call(`${gw.url}/api/v0/blocks/latest`, key, headers);

async function rpc(key: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${gw.url}/milkomeda-mainnet/api/v0/`, { method: 'POST', headers: { 'content-type': 'application/json', project_id: key, ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function insight(p: Project) {
  const res = await owner.get(`/api/workspaces/${ws}/projects/${p.uuid}/insight`);
  expect(res.status).toBe(200);
  return res.body.data as { refused: { origin: number; ip: number; method: number }; statusClasses: Record<string, number>; recentFailures: Array<{ status: number; endpoint: string }> };
}

beforeAll(async () => {
  owner = new Client(app.url);
  await signIn(owner, app.mailer, 'keys-owner@example.com');
  const me = (await owner.get('/api/me')).body.data;
  await setSubscription(app.db, me.id, 'ENTERPRISE', 'active');
  ws = (await owner.get('/api/workspaces')).body.data[0].id;
  collaborator = new Client(app.url);
  await signIn(collaborator, app.mailer, 'keys-collaborator@example.com');
  const collaboratorId = (await collaborator.get('/api/me')).body.data.id;
  await app.db('workspace_members').insert({ workspace_id: ws, user_id: collaboratorId, role: 'collaborator', created_at: Date.now() });
});

describe('Roll key', () => {
  it.each(Object.keys(KEY_GRACE_PERIODS) as KeyGrace[])('issues a new key at once and keeps the old one for grace %s, on the same project', async (grace) => {
    const p = await newProject();
    await settle();
    expect((await latest(p.project_id)).status).toBe(200);
    const before = Date.now();
    const res = await roll(p, grace);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { project_id: fresh, previous_key } = res.body.data;
    expect(fresh).toMatch(/^mainnet[A-Za-z0-9]{32}$/);
    expect(fresh).not.toBe(p.project_id);
    const ms = KEY_GRACE_PERIODS[grace].ms;
    if (ms === 0) expect(previous_key).toBeNull();
    else {
      expect(previous_key.project_id).toBe(p.project_id);
      expect(previous_key.expires_at).toBeGreaterThanOrEqual(before + ms);
      expect(previous_key.expires_at).toBeLessThanOrEqual(Date.now() + ms);
    }
    // The project page shows both keys; the uuid and the id (statistics, metering, pins) stay.
    const shown = (await owner.get(`/api/projects/${p.uuid}`)).body.data;
    expect(shown).toMatchObject({ id: p.id, uuid: p.uuid, project_id: fresh, previous_key });

    await settle();
    expect((await latest(fresh)).status).toBe(200);
    const old = await latest(p.project_id);
    if (ms === 0) expect(old).toMatchObject({ status: 403, body: INVALID });
    else expect(old.status).toBe(200);
    await remove(p);
  });

  it('refuses the old key from the first key-cache poll after its grace ends, and counts both keys on the project', async () => {
    const p = await newProject();
    const rolled = (await roll(p, '1h')).body.data;
    await settle();
    expect((await latest(p.project_id)).status).toBe(200);
    expect((await latest(rolled.project_id)).status).toBe(200);
    // Requests of either key count on the one project.
    await gw.meter.flush();
    const listed = (await owner.get(`/api/workspaces/${ws}/projects`)).body.data.find((x: Project) => x.uuid === p.uuid);
    expect(listed.requests_today).toBe(2);
    // One minute before the end it still works; just past the end, one poll later, it is refused.
    now = rolled.previous_key.expires_at - 60_000;
    await settle();
    expect((await latest(p.project_id)).status).toBe(200);
    now = rolled.previous_key.expires_at + 1;
    await settle();
    expect(await latest(p.project_id)).toMatchObject({ status: 403, body: INVALID });
    expect((await latest(rolled.project_id)).status).toBe(200);
    now = Date.now();
    // Rolling again drops a previous key still in its grace: never more than two live keys.
    const second = (await roll(p, '24h')).body.data;
    const third = (await roll(p, '24h')).body.data;
    expect(third.previous_key.project_id).toBe(second.project_id);
    await settle();
    expect(await latest(rolled.project_id)).toMatchObject({ status: 403, body: INVALID });
    expect((await latest(second.project_id)).status).toBe(200);
    expect((await latest(third.project_id)).status).toBe(200);
    await remove(p);
  });

  it('keeps IPFS pins and Milkomeda basic auth working with the new key', async () => {
    const ipfs = await newProject(2);
    await settle();
    const added = await ipfsAdd(gw.url, ipfs.project_id, Buffer.from('kept across a roll\n'), 'kept.txt');
    expect(added.status).toBe(200);
    expect((await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/add/${added.body.ipfs_hash}`, ipfs.project_id)).status).toBe(200);
    const rolled = (await roll(ipfs, 'none')).body.data;
    await settle();
    const pins = await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list/${added.body.ipfs_hash}`, rolled.project_id);
    expect(pins).toMatchObject({ status: 200, body: { ipfs_hash: added.body.ipfs_hash } });
    expect((await ipfsCall('GET', `${gw.url}/api/v0/ipfs/pin/list`, ipfs.project_id)).body).toEqual(INVALID);

    const evm = await newProject(3);
    const evmRolled = (await roll(evm, '1h')).body.data;
    await settle();
    const basic = (key: string) => ({ authorization: `Basic ${Buffer.from(`project:${key}`).toString('base64')}` });
    for (const key of [evmRolled.project_id, evm.project_id]) {
      const res = await fetch(`${gw.url}/api/v0/`, { method: 'POST', headers: { 'content-type': 'application/json', ...basic(key) }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) });
      expect(await res.json()).toMatchObject({ result: '0x7d1' });
    }
    await remove(ipfs);
    await remove(evm);
  });

  it('is for roles that may update projects, answers 400 for an unknown grace and 404 outside the workspace', async () => {
    const p = await newProject();
    expect((await roll(p, '1h', collaborator)).status).toBe(403);
    expect((await roll(p, '2h')).status).toBe(400);
    expect((await roll(p, undefined as unknown as string)).status).toBe(400);
    const stranger = new Client(app.url);
    await signIn(stranger, app.mailer, 'keys-stranger@example.com');
    const strangerWs = (await stranger.get('/api/workspaces')).body.data[0].id;
    expect((await stranger.post(`/api/workspaces/${strangerWs}/projects/${p.uuid}/roll-key`, { grace: 'none' })).status).toBe(404);
    expect((await stranger.post(`/api/workspaces/${ws}/projects/${p.uuid}/roll-key`, { grace: 'none' })).status).toBe(404);
    // Nothing changed.
    expect((await owner.get(`/api/projects/${p.uuid}`)).body.data).toMatchObject({ project_id: p.project_id, previous_key: null });
    await remove(p);
  });
});

describe('allow-lists', () => {
  it('validates each list with a clear 400 and changes nothing then', async () => {
    const p = await newProject();
    const evm = await newProject(3);
    expect((await setLists(p, { origins: ['https://app.example.com'], ips: ['203.0.113.0/24'] })).body.data).toEqual({ origins: ['https://app.example.com'], ips: ['203.0.113.0/24'], methods: [] });
    const cases: Array<[Project, Record<string, unknown>, RegExp]> = [
      [p, { ips: ['10.0.0.0/33'] }, /an IPv4 prefix length is 0 to 32/],
      [p, { ips: ['10.0.0.1/8'] }, /did you mean 10\.0\.0\.0\/8\?/],
      [p, { ips: ['not-an-ip'] }, /is not an IP address or CIDR range/],
      [p, { origins: ['example.com/path'] }, /is not an origin pattern/],
      [p, { origins: ['*.com'] }, /is not an origin pattern/],
      [evm, { methods: ['eth_sign'] }, /is not a JSON-RPC method this gateway serves/],
      [p, { methods: ['eth_call'] }, /applies to Milkomeda projects only/],
      [p, { ips: Array.from({ length: MAX_ALLOW_LIST_ENTRIES + 1 }, (_, i) => `10.0.${i >> 8}.${i & 255}`) }, new RegExp(`at most ${MAX_ALLOW_LIST_ENTRIES} entries`)],
      [p, { origins: 'https://app.example.com' }, /must be a list of strings/],
    ];
    for (const [project, body, message] of cases) {
      const res = await setLists(project, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await owner.get(`/api/projects/${p.uuid}`)).body.data.allow_lists).toEqual({ origins: ['https://app.example.com'], ips: ['203.0.113.0/24'], methods: [] });
    expect((await setLists(p, { origins: [] }, collaborator)).status).toBe(403);
  });

  it('records key rolls and allow-list changes in the workspace audit log, with no key in it', async () => {
    const p = await newProject();
    expect((await roll(p, '1h')).status).toBe(200);
    expect((await setLists(p, { origins: ['https://audited.example.com'] })).status).toBe(200);
    const entries = (await app.db('audit_entries').where({ workspace_id: ws, target_id: p.uuid }).orderBy('id')) as Array<{ action: string; details: string | null; actor_label: string; ip: string | null }>;
    expect(entries.map((e) => e.action)).toEqual(['project.created', 'project.key_rolled', 'project.allowlist_changed']);
    expect(JSON.parse(entries[1]!.details!)).toMatchObject({ grace: '1h' });
    expect(entries[2]!.details).toContain('https://audited.example.com');
    const keys = (await app.db('projects').where({ uuid: p.uuid }).first('project_id', 'previous_project_id')) as { project_id: string; previous_project_id: string };
    for (const e of entries) for (const key of [keys.project_id, keys.previous_project_id, p.project_id]) expect(JSON.stringify(e)).not.toContain(key);
    await remove(p);
  });

  it('refuses calls from outside each list with a 403 naming the list, before any limit, and counts them as refused', async () => {
    const p = await newProject();
    await setLists(p, { origins: ['https://app.example.com', '*.dapp.io'], ips: ['203.0.113.0/24', '2001:db8::/32'] });
    await settle();
    const from = (ip: string, origin?: string) => ({ 'x-forwarded-for': ip, ...(origin ? { origin } : {}) });
    expect(await latest(p.project_id, from('203.0.113.5'))).toMatchObject({ status: 403, body: refusedBy('origin') });
    expect(await latest(p.project_id, from('203.0.113.5', 'https://evil.example.org'))).toMatchObject({ status: 403, body: refusedBy('origin') });
    expect(await latest(p.project_id, from('198.51.100.1', 'https://a.dapp.io'))).toMatchObject({ status: 403, body: refusedBy('ip') });
    expect(await latest(p.project_id, from('2001:db9::1', 'https://app.example.com'))).toMatchObject({ status: 403, body: refusedBy('ip') });
    expect((await latest(p.project_id, from('203.0.113.77', 'https://app.example.com'))).status).toBe(200);
    expect((await latest(p.project_id, from('2001:db8:1::5', 'https://x.y.dapp.io'))).status).toBe(200);
    // The refusal is readable by the browser that made it.
    expect((await latest(p.project_id, from('198.51.100.1', 'https://a.dapp.io'))).headers.get('access-control-allow-origin')).toBe('*');

    const evm = await newProject(3);
    await setLists(evm, { methods: ['eth_chainId', 'eth_blockNumber'] });
    await settle();
    const call1 = (method: string, id = 1) => ({ jsonrpc: '2.0', id, method, params: [] });
    expect(await rpc(evm.project_id, call1('eth_getBalance'))).toEqual({ status: 403, body: refusedBy('method') });
    expect(await rpc(evm.project_id, [call1('eth_chainId'), call1('eth_gasPrice', 2)])).toEqual({ status: 403, body: refusedBy('method') });
    expect(await rpc(evm.project_id, call1('eth_chainId'))).toMatchObject({ status: 200, body: { result: '0x7d1' } });
    const batch = await rpc(evm.project_id, [call1('eth_chainId'), call1('eth_blockNumber', 2)]);
    expect(batch.status).toBe(200);
    expect(batch.body).toHaveLength(2);

    await gw.meter.flush();
    expect((await insight(p)).refused).toEqual({ origin: 2, ip: 3, method: 0 });
    const evmInsight = await insight(evm);
    expect(evmInsight.refused).toEqual({ origin: 0, ip: 0, method: 2 });
    expect(evmInsight.recentFailures.filter((f) => f.status === 403).map((f) => f.endpoint).sort()).toEqual(['eth_gasPrice', 'eth_getBalance']);

    // Lifting the lists lets every caller in again at the next poll.
    await setLists(p, {});
    await settle();
    expect((await latest(p.project_id, from('198.51.100.1'))).status).toBe(200);
  });

  it('spends no quota on refused calls', async () => {
    const u = new Client(app.url);
    await signIn(u, app.mailer, 'keys-quota@example.com');
    const me = (await u.get('/api/me')).body.data;
    const uws = (await u.get('/api/workspaces')).body.data[0].id;
    const created = await u.post(`/api/workspaces/${uws}/projects`, { projectName: 'quota', networkId: 0 });
    const p = created.body.data.project as Project;
    expect((await u.put(`/api/workspaces/${uws}/projects/${p.uuid}/allow-lists`, { ips: ['203.0.113.0/24'] })).status).toBe(200);
    const day = dayStartOf(Date.now());
    await app.db('quota_usage').insert({ user_id: me.id, day_ms: day, requests: plans.STARTER.requestLimit - 2 });
    // A gateway started now reads the quota used so far.
    const fresh = await startTestGateway(app, { TRUST_PROXY: 'loopback' });
    try {
      const outside = await Promise.all(Array.from({ length: 20 }, () => call(`${fresh.url}/api/v0/blocks/latest`, p.project_id, { 'x-forwarded-for': '198.51.100.9' })));
      expect(outside.every((r) => r.status === 403 && r.body.message === ALLOW_LIST_MESSAGES.ip)).toBe(true);
      const inside = [];
      for (let i = 0; i < 3; i++) inside.push((await call(`${fresh.url}/api/v0/blocks/latest`, p.project_id, { 'x-forwarded-for': '203.0.113.9' })).status);
      expect(inside).toEqual([200, 200, 402]);
      await fresh.meter.flush();
    } finally {
      await fresh.close();
    }
    expect(Number((await app.db('quota_usage').where({ user_id: me.id, day_ms: day }).first()).requests)).toBe(plans.STARTER.requestLimit);
    expect((await u.get(`/api/workspaces/${uws}/projects/${p.uuid}/insight`)).body.data.refused).toEqual({ origin: 0, ip: 20, method: 0 });
  });

  it('is in the dashboard OpenAPI document, with the bodies it takes', async () => {
    const doc = (await new Client(app.url).get('/api/openapi.json')).body;
    const rollOp = doc.paths['/api/workspaces/{id}/projects/{projectId}/roll-key'].post;
    expect(rollOp.requestBody.content['application/json'].schema.properties.grace.enum).toEqual(['none', '1h', '24h', '7d']);
    expect(Object.keys(rollOp.responses['200'].content['application/json'].schema.properties.data.properties)).toEqual(['project_id', 'previous_key']);
    const listsOp = doc.paths['/api/workspaces/{id}/projects/{projectId}/allow-lists'].put;
    expect(Object.keys(listsOp.requestBody.content['application/json'].schema.properties)).toEqual(['origins', 'ips', 'methods']);
  });
});
