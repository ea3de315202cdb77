import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { signIn } from '../helpers/sign-in';
import { makeProject, makeUser, makeWorkspace } from '../helpers/workspace-fixture';

// Malformed bodies across every POST and PUT route of /api and /auth, found by
// walking the app's own routers (so routes added later are fuzzed too), on this run's engine. None
// may answer 500, and every refusal is the JSON error shape without a stack.
// Thousands of writes from one user: past the write limit they would all be 429 and reach no route.
const app = useTestApp({ env: { DASHBOARD_WRITE_BURST: '100000' } });
let client: Client;
const fill: Record<string, string> = {};

beforeAll(async () => {
  const owner = await makeUser(app.db, 'fuzz-owner@fuzz.example', 'ENTERPRISE');
  const member = await makeUser(app.db, 'fuzz-member@fuzz.example', 'ENTERPRISE');
  client = new Client(app.url);
  await signIn(client, app.mailer, 'fuzz-owner@fuzz.example');
  const ws = await makeWorkspace(app.db, owner.id, [{ userId: member.id, role: 'collaborator' }]);
  const project = await makeProject(app.db, ws);
  const webhook = crypto.randomUUID();
  const now = Date.now();
  await app.db('webhooks').insert({ id: webhook, workspace_id: ws, name: 'fuzz', network: 0, type: 'block', target_url: 'https://hooks.example/f', confirmations: 0, status: 'enabled', conditions: '[]', auth_token: 'f'.repeat(64), created_at: now, updated_at: now });
  const event = crypto.randomUUID();
  await app.db('webhook_events').insert({ id: event, webhook_id: webhook, type: 'block', network: 0, block_height: 1, block_hash: 'ab'.repeat(32), body: '{}', created: Math.floor(now / 1000), status: 'delivered', attempts: 1, next_attempt_at: now, test: false, created_at: now });
  Object.assign(fill, {
    id: String(ws),
    workspaceId: String(ws),
    projectId: project,
    projectUuid: project,
    webhookId: webhook,
    eventId: event,
    userId: String(member.id),
    invitationId: crypto.randomUUID(),
    token: crypto.randomBytes(24).toString('base64url'),
  });
});

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  matchers?: Array<(path: string) => unknown>;
}

/** POST and PUT routes under /api and /auth, read from the app's routers. Signing out would end the session. */
function writeRoutes(): Array<{ method: 'POST' | 'PUT'; path: string }> {
  const out: Array<{ method: 'POST' | 'PUT'; path: string }> = [];
  const top = (app.express as unknown as { router: { stack: Layer[] } }).router.stack;
  for (const layer of top) {
    if (!layer.handle.stack) continue;
    const prefix = ['/api', '/auth'].find((p) => layer.matchers?.some((m) => m(`${p}/x`)));
    if (!prefix) continue;
    for (const l of layer.handle.stack) {
      if (!l.route) continue;
      for (const method of ['post', 'put'] as const) {
        if (l.route.methods[method] && l.route.path !== '/signout') out.push({ method: method.toUpperCase() as 'POST' | 'PUT', path: prefix + l.route.path });
      }
    }
  }
  return out;
}

/** A small deterministic generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const FIELDS = ['name', 'projectName', 'networkId', 'workspaceId', 'workspace_id', 'email', 'role', 'newOwnerId', 'marketing_consent', 'target_url', 'network', 'type', 'confirmations', 'status', 'conditions', 'description', 'api_version', 'callbackUrl', 'captchaToken', 'value', 'selector', 'operator', '__proto__', 'constructor'];

function malformedValue(r: () => number, depth = 0): unknown {
  const pick = <T,>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const kinds: Array<() => unknown> = [
    () => null,
    () => pick([true, false]),
    () => pick([0, -1, 1.5, 2147483648, 2 ** 53 + 1, -(2 ** 63), 1e308, -0]),
    () => pick(['', ' ', 'a\u0000b', '\u0000', 'x'.repeat(5000), '😀'.repeat(300), '0x9', '9e0', ' 9', 'NaN', 'Infinity', '<script>', "'; drop table users; --", '../../etc/passwd', '%00', '\ud800']),
    () => pick(['administrator', 'owner', 'collaborator', 'enabled', 'block', 'transaction', 'jsonPath', 'https://', 'http://127.0.0.1/x', 'a@b.c', 'x@y']),
    () => (depth < 3 ? Array.from({ length: Math.floor(r() * 4) }, () => malformedValue(r, depth + 1)) : []),
    () => (depth < 3 ? Object.fromEntries(Array.from({ length: Math.floor(r() * 4) }, () => [pick(FIELDS), malformedValue(r, depth + 1)])) : {}),
    () => (depth < 2 ? Array.from({ length: 1 + Math.floor(r() * 7) }, () => ({ type: pick(['recipient', 'policyId', 'jsonPath', 'txCount', 1, null]), operator: pick(['=', '>', '~', 3]), value: malformedValue(r, 3), selector: pick(['$..*..*', '$[?(@.a)]', '$', 7]) })) : null),
  ];
  return pick(kinds)();
}

/** One malformed request body: broken JSON, the wrong JSON type, or an object of wrong or odd fields. */
function malformedBody(r: () => number): { raw: string; type: string } {
  const roll = r();
  const json = 'application/json';
  if (roll < 0.12) {
    const broken = ['{', '{"name":', '[1,2', 'nul', '{"a":1}}', '\u0000', '{"name":"x",}', "{'name':'x'}", '"unterminated', '{"a":' + '['.repeat(50), '1e999999', ''];
    return { raw: broken[Math.floor(r() * broken.length)]!, type: json };
  }
  if (roll < 0.2) return { raw: JSON.stringify(malformedValue(r)), type: json };
  if (roll < 0.24) return { raw: '['.repeat(2000) + ']'.repeat(2000), type: json };
  if (roll < 0.28) return { raw: 'name=x&email=y', type: r() < 0.5 ? 'application/x-www-form-urlencoded' : 'text/plain' };
  if (roll < 0.29) return { raw: JSON.stringify({ name: 'x'.repeat(1_100_000) }), type: json };
  const fields = Object.fromEntries(Array.from({ length: 1 + Math.floor(r() * 6) }, () => [FIELDS[Math.floor(r() * FIELDS.length)]!, malformedValue(r)]));
  return { raw: JSON.stringify(fields), type: r() < 0.9 ? json : 'application/json; charset=utf-16' };
}

describe('fuzzed request bodies', () => {
  it('never answer 500 on any POST or PUT route', async () => {
    const routes = writeRoutes();
    // Sanity: the walk found the routes this test exists for.
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['POST /api/workspaces', 'PUT /api/workspaces/:id/webhooks/:webhookId', 'POST /auth/signin/email', 'PUT /api/customer/settings']),
    );
    const perRoute = Math.ceil(2000 / routes.length);
    const r = rng(11);
    const jobs = routes.flatMap((route) =>
      Array.from({ length: perRoute }, () => ({ method: route.method, path: route.path.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(fill[name] ?? 'x')), body: malformedBody(r) })),
    );
    expect(jobs.length).toBeGreaterThanOrEqual(2000);
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        const res = await client.request(job.method, job.path, { rawBody: job.body.raw, headers: { 'content-type': job.body.type } });
        if (res.status >= 500 || !/^\{"(data|error)"/.test(res.text) || /at .*\.(ts|js):\d+/.test(res.text)) {
          failures.push(`${job.method} ${job.path} ${res.status} ${job.body.raw.slice(0, 120)} -> ${res.text.slice(0, 200)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(failures).toEqual([]);
  }, 120_000);
});
