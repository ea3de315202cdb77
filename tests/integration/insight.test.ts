// Request insight end to end on this engine: real requests through the gateway (the sandbox chain
// and a local upstream that answers slowly, 404 or falls over), the metering flush, and the
// dashboard API that reads the rollups back: latency percentiles, status classes, today by the
// hour and the bounded log of failed requests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { call, startTestGateway } from '../helpers/gateway';
import type { RunningGateway } from '../../server/gateway-app';
import { setSubscription } from '../../server/features/workspaces/subscriptions';
import { LATENCY_BINS, LATENCY_BINS_PER_ROW, LATENCY_RESOLUTION, RECENT_FAILURES_KEPT, projectInsightSchema, type ProjectInsight } from '../../shared/insight';

const SLOW_MS = 60;
const HOUR = 3_600_000;

let gw: RunningGateway;
let upstream: http.Server;
let owner: { client: Client; ws: number };

beforeAll(async () => {
  // A Blockfrost-compatible backend for preprod: fast, slow, not found, and falling over.
  upstream = http.createServer((req, res) => {
    const path = req.url ?? '';
    if (path.endsWith('/blocks/latest')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"height":1}');
    if (path.endsWith('/epochs/latest')) return void setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"epoch":1}'), SLOW_MS);
    if (path.includes('/assets/')) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"status_code":404,"error":"Not Found","message":"The requested component has not been found."}');
    res.writeHead(503).end('down');
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
});
afterAll(() => {
  upstream?.closeAllConnections();
  upstream?.close();
});
const app = useTestApp();
beforeAll(async () => {
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/bf/api/v0`;
  owner = { client: new Client(app.url), ws: 0 };
  await signIn(owner.client, app.mailer, 'insight-owner@example.com');
  const id = (await owner.client.get('/api/me')).body.data.id as number;
  owner.ws = (await owner.client.get('/api/workspaces')).body.data[0].id;
  await setSubscription(app.db, id, 'ENTERPRISE', 'active');
  gw = await startTestGateway(app, { UPSTREAM_CARDANO_PREPROD_URL: upstreamUrl });
});
afterAll(async () => {
  await gw?.close();
});

async function newProject(networkId: number) {
  const res = await owner.client.post(`/api/workspaces/${owner.ws}/projects`, { projectName: `insight ${networkId}`, networkId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const project = res.body.data.project as { uuid: string; project_id: string };
  const dbId = (await app.db('projects').where({ uuid: project.uuid }).first('id')).id as number;
  // A key-cache poll that began after the project was made.
  await gw.keys.catchUp();
  return { ...project, dbId };
}

async function readInsight(uuid: string, client = owner.client, ws = owner.ws): Promise<{ status: number; body: { data: ProjectInsight } }> {
  const res = await client.get(`/api/workspaces/${ws}/projects/${uuid}/insight`);
  return res as { status: number; body: { data: ProjectInsight } };
}

describe('request insight through the gateway', () => {
  it('measures latency, counts status classes and hours, and logs the failures of real requests', async () => {
    const p = await newProject(6); // Cardano preprod: the local upstream above
    const before = Date.now();
    const send = async (path: string, times: number, expected: number) => {
      for (let i = 0; i < times; i++) expect((await call(`${gw.url}/api/v0${path}`, p.project_id)).status).toBe(expected);
    };
    await send('/blocks/latest', 20, 200);
    await send('/epochs/latest', 10, 200);
    await send('/assets/asset1xyz', 5, 404);
    await send('/network', 3, 500); // the upstream's 503 becomes the gateway's Blockfrost 500
    await gw.meter.flush();

    const res = await readInsight(p.uuid);
    expect(res.status).toBe(200);
    const insight = projectInsightSchema.parse(res.body.data);

    expect(insight.statusClasses).toEqual({ '2xx': 30, '3xx': 0, '4xx': 5, '5xx': 3 });
    expect(insight.requests).toBe(38);
    expect(insight.errorRate).toBeCloseTo(8 / 38, 10);

    // 28 of 38 answers were immediate, 10 waited SLOW_MS for the backend: the median is fast, p95 and p99 are slow.
    expect(insight.latency.requests).toBe(38);
    expect(insight.latency.resolution).toBe(LATENCY_RESOLUTION);
    expect(insight.latency.p50Ms).toBeLessThan(SLOW_MS * (1 - LATENCY_RESOLUTION));
    expect(insight.latency.p95Ms).toBeGreaterThanOrEqual(SLOW_MS * (1 - LATENCY_RESOLUTION));
    expect(insight.latency.p99Ms).toBeGreaterThanOrEqual(insight.latency.p95Ms!);
    expect(insight.latency.p99Ms).toBeLessThan(5_000);

    // Today by the hour: the requests and errors land in the hour they were made.
    expect(insight.today.hours).toHaveLength(24);
    expect(insight.today.day).toBe(before - (before % 86_400_000));
    const hour = insight.today.hours.find((h) => h.time === before - (before % HOUR))!;
    const after = Date.now();
    if (after - (after % HOUR) === hour.time) {
      expect(hour).toMatchObject({ requests: 38, errors4xx: 5, errors5xx: 3 });
      expect(hour.p95Ms).toBeGreaterThanOrEqual(SLOW_MS * (1 - LATENCY_RESOLUTION));
    }
    expect(insight.today.hours.reduce((n, h) => n + h.requests, 0)).toBe(38);
    expect(insight.today.hours.reduce((n, h) => n + h.errors4xx + h.errors5xx, 0)).toBe(8);
    expect(insight.today.hours.filter((h) => h.requests === 0).every((h) => h.p95Ms === null)).toBe(true);

    // The failed requests, newest first: endpoint templates, statuses, what the answer said and the client's address.
    expect(insight.recentFailures).toHaveLength(8);
    expect(insight.recentFailures.slice(0, 3).map((f) => [f.endpoint, f.status, f.message])).toEqual(Array(3).fill(['/network', 500, 'An unexpected response was received from the backend.']));
    expect(insight.recentFailures.slice(3).map((f) => [f.endpoint, f.status, f.message])).toEqual(Array(5).fill(['/assets/{asset}', 404, 'The requested component has not been found.']));
    for (const f of insight.recentFailures) {
      expect(f.ip).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
      expect(f.time).toBeGreaterThanOrEqual(before);
      expect(f.time).toBeLessThanOrEqual(after);
    }
    const times = insight.recentFailures.map((f) => f.time);
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    // Rollups, not a row per request: one day and one hour histogram (two if the hour turned) of a few rows each.
    const rows = Number((await app.db('usage_latency').where({ project_id: p.dbId }).count({ n: '*' }).first())?.n);
    expect(rows).toBeGreaterThan(0);
    expect(rows).toBeLessThanOrEqual(3 * (LATENCY_BINS / LATENCY_BINS_PER_ROW));
    expect(rows).toBeLessThan(38);
  });

  it("names each endpoint as Blockfrost's document does, groups unknown paths as such, and keeps each failure's message", async () => {
    const p = await newProject(0); // Cardano mainnet: the sandbox chain
    const submitted = await fetch(`${gw.url}/api/v0/tx/submit`, { method: 'POST', headers: { project_id: p.project_id, 'content-type': 'application/cbor' }, body: Buffer.from('00', 'hex') });
    expect(submitted.status).toBe(400);
    const { message: submitMessage } = (await submitted.json()) as { message: string };
    expect((await call(`${gw.url}/api/v0/txs/${'ab'.repeat(32)}/utxos`, p.project_id)).status).toBe(404);
    expect((await call(`${gw.url}/api/v0/no/such/path`, p.project_id)).status).toBe(400);
    expect((await call(`${gw.url}/api/v0/whatever`, p.project_id)).status).toBe(400);
    // A method the path does not have is Blockfrost's 400 'Invalid path', answered before the key is metered.
    const wrongMethod = await fetch(`${gw.url}/api/v0/blocks/latest`, { method: 'DELETE', headers: { project_id: p.project_id } });
    expect(wrongMethod.status).toBe(400);
    await gw.meter.flush();
    const insight = projectInsightSchema.parse((await readInsight(p.uuid)).body.data);
    // A failure's message is kept up to 200 characters (the submit API's decode error is longer).
    expect(insight.recentFailures.map((f) => [f.endpoint, f.status, f.message])).toEqual([
      ['(unknown path)', 400, 'Invalid path. Please check https://docs.blockfrost.io/'],
      ['(unknown path)', 400, 'Invalid path. Please check https://docs.blockfrost.io/'],
      ['/txs/{hash}/utxos', 404, 'The requested component has not been found.'],
      ['/tx/submit', 400, submitMessage.slice(0, 200)],
    ]);
    const endpoints = (await app.db('usage_dimensions').where({ project_id: p.dbId, dimension: 'endpoint' }).select('value')).map((r: { value: string }) => r.value);
    expect(endpoints.sort()).toEqual(['(unknown path)', '/tx/submit', '/txs/{hash}/utxos']);
  });

  it('keeps only the newest failed requests of a project, trimmed at every flush', async () => {
    const p = await newProject(0); // Cardano mainnet: the sandbox chain
    expect((await call(`${gw.url}/api/v0/blocks/latest`, p.project_id)).status).toBe(200);
    // A ticker no nut.link oracle publishes answers the Blockfrost 404.
    for (let i = 0; i < 70; i++) expect((await call(`${gw.url}/api/v0/nutlink/tickers/NOTICKER${i}`, p.project_id)).status).toBe(404);
    await gw.meter.flush();
    // A malformed pool id answers Blockfrost's 400.
    for (let i = 0; i < 60; i++) expect((await call(`${gw.url}/api/v0/pools/pool${i}/history`, p.project_id)).status).toBe(400);
    await gw.meter.flush();

    expect(Number((await app.db('failed_requests').where({ project_id: p.dbId }).count({ n: '*' }).first())?.n)).toBe(RECENT_FAILURES_KEPT);
    const insight = projectInsightSchema.parse((await readInsight(p.uuid)).body.data);
    expect(insight.recentFailures).toHaveLength(RECENT_FAILURES_KEPT);
    // The 60 of the last flush and the newest 40 of the first.
    expect(insight.recentFailures.filter((f) => f.endpoint === '/pools/{pool_id}/history')).toHaveLength(60);
    expect(insight.recentFailures.filter((f) => f.endpoint.startsWith('/nutlink/'))).toHaveLength(40);
    expect(insight.recentFailures.at(0)!.endpoint).toBe('/pools/{pool_id}/history');
    expect(insight.statusClasses).toEqual({ '2xx': 1, '3xx': 0, '4xx': 130, '5xx': 0 });
    expect(insight.errorRate).toBeCloseTo(130 / 131, 10);
  });

  it('answers a project without requests with empty figures', async () => {
    const p = await newProject(0);
    const insight = projectInsightSchema.parse((await readInsight(p.uuid)).body.data);
    expect(insight).toMatchObject({
      latency: { requests: 0, p50Ms: null, p95Ms: null, p99Ms: null },
      statusClasses: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 },
      requests: 0,
      errorRate: null,
      recentFailures: [],
    });
    expect(insight.today.hours.every((h) => h.requests === 0 && h.p95Ms === null)).toBe(true);
  });

  it("answers 404 for someone else's project, an unknown project, and 400 for a malformed id", async () => {
    const p = await newProject(0);
    const stranger = new Client(app.url);
    await signIn(stranger, app.mailer, 'insight-stranger@example.com');
    const theirWs = (await stranger.get('/api/workspaces')).body.data[0].id as number;
    expect((await readInsight(p.uuid, stranger, owner.ws)).status).toBe(404);
    expect((await readInsight(p.uuid, stranger, theirWs)).status).toBe(404);
    expect((await readInsight('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await readInsight('not-a-uuid')).status).toBe(400);
    expect((await new Client(app.url).get(`/api/workspaces/${owner.ws}/projects/${p.uuid}/insight`)).status).toBe(401);
  });

  it('is described in the dashboard OpenAPI document with its answer', async () => {
    const doc = (await new Client(app.url).get('/api/openapi.json')).body;
    const op = doc.paths['/api/workspaces/{workspaceId}/projects/{projectUuid}/insight']?.get;
    expect(op).toBeDefined();
    const data = op.responses['200'].content['application/json'].schema.properties.data;
    expect(Object.keys(data.properties)).toEqual(expect.arrayContaining(['latency', 'statusClasses', 'errorRate', 'today', 'recentFailures']));
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '404']));
  });
});
