import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../server/db/index';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { freePort, serverData, spawnServerProcess, stopServerProcess, stopServerProcesses, type ServerData } from '../helpers/server-process';

// Two gateway PROCESSES behind a small round-robin load balancer of the test's own (which, as one
// does, tries the other gateway when a connection is refused or reset before an answer) are restarted one after the other with
// SIGTERM, twice each, under load: not one request fails, and every answered request is metered (the
// metering flushes only on the way out here, so each restart's last flush is what counts).

const PROJECTS = 20;
let data: ServerData;
let db: Db;
let keys: string[];
let projectIds: number[];
let upstream: http.Server;
let upstreamUrl: string;
/** Answers of the upstream that wait for the test (GET …/blocks/held), released by calling these. */
const held: Array<() => void> = [];

beforeAll(async () => {
  // A Blockfrost-compatible upstream that takes 20 to 150 ms per answer, so requests are in flight at every SIGTERM.
  upstream = http.createServer((req, res) => {
    const answer = () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ hash: crypto.randomBytes(32).toString('hex'), height: 1 }));
    };
    if (req.url?.endsWith('/blocks/held')) held.push(answer);
    else setTimeout(answer, 20 + Math.random() * 130);
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as net.AddressInfo).port}/api/v0`;
  data = await serverData('rolling-restart');
  db = data.db;
  // ENTERPRISE, with the load spread over 20 projects: no token bucket refuses (each sees about 5 requests a second).
  const owner = await makeUser(db, 'rolling@example.com', 'ENTERPRISE');
  const ws = await makeWorkspace(db, owner.id, []);
  const now = Date.now();
  keys = [];
  projectIds = [];
  for (let i = 0; i < PROJECTS; i++) {
    const key = `mainnet${crypto.randomBytes(16).toString('hex')}`;
    const [row] = await db('projects').insert({ uuid: crypto.randomUUID(), workspace_id: ws, name: `p${i}`, project_id: key, network_id: 0, created_at: now, updated_at: now }).returning('id');
    keys.push(key);
    projectIds.push(typeof row === 'object' ? (row as { id: number }).id : (row as number));
  }
}, 60_000);
afterAll(async () => {
  await stopServerProcesses();
  await data?.remove();
  for (const release of held.splice(0)) release();
  await new Promise((r) => upstream?.close(r));
});

interface Gateway {
  port: number;
  child: ChildProcess;
  lines: string[];
}

async function startGateway(port: number): Promise<Gateway> {
  const lines: string[] = [];
  const env = {
    ...data.env,
    HOST: '127.0.0.1',
    GATEWAY_PORT: String(port),
    UPSTREAM_CARDANO_MAINNET_URL: upstreamUrl,
    // Counts reach the database only on the way out: a restart that did not flush would lose them.
    METERING_FLUSH_MS: '600000',
    SHUTDOWN_TIMEOUT_MS: '10000',
    LOG_LEVEL: 'info',
    UPSTREAM_IPFS_URL: 'http://127.0.0.1:9',
    UPSTREAM_MILKOMEDA_MAINNET_URL: 'http://127.0.0.1:9',
  };
  const child = await spawnServerProcess({ role: 'gateway', env, readyUrl: `http://127.0.0.1:${port}/readyz`, readyTimeoutMs: 60_000, lines });
  return { port, child, lines };
}

/** The test's load balancer: round robin, and the other gateway when one refuses the connection. */
function balancer(ports: number[]) {
  let next = 0;
  let retried = 0;
  const server = http.createServer((req, res) => {
    const first = next++ % ports.length;
    const attempt = (n: number) => {
      const port = ports[(first + n) % ports.length]!;
      const out = http.request({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers, agent: false }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', (err: NodeJS.ErrnoException) => {
        // Refused, or (as nginx's proxy_next_upstream does for a GET) reset before any answer: a
        // connection the kernel had queued when the gateway closed its listener was never read, so
        // another gateway may take the request. Were it read, it would be metered twice below.
        const retry = err.code === 'ECONNREFUSED' || (req.method === 'GET' && (err.code === 'ECONNRESET' || err.message === 'socket hang up'));
        if (retry && !res.headersSent && n < 50) {
          retried++;
          setTimeout(() => attempt(n + 1), n < ports.length ? 0 : 20);
        } else if (!res.headersSent) {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(`balancer: ${err.message}`);
        } else res.destroy();
      });
      out.end();
    };
    attempt(0);
  });
  return { server, retried: () => retried };
}

describe('rolling restarts of the gateway', () => {
  it('answer every request during SIGTERM restarts and meter each one', { timeout: 240_000 }, async () => {
    const ports = [await freePort(), await freePort()];
    const gateways = [await startGateway(ports[0]!), await startGateway(ports[1]!)];
    const lb = balancer(ports);
    await new Promise<void>((r) => lb.server.listen(0, '127.0.0.1', r));
    const lbUrl = `http://127.0.0.1:${(lb.server.address() as net.AddressInfo).port}`;

    const statuses = new Map<number | string, number>();
    const okPerKey = new Map<string, number>();
    let sent = 0;
    let loading = true;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    const load = Promise.all(
      Array.from({ length: 16 }, async () => {
        while (loading) {
          const key = keys[sent++ % PROJECTS]!;
          const status = await new Promise<number | string>((resolve) => {
            const req = http.get(`${lbUrl}/api/v0/blocks/latest`, { headers: { project_id: key }, agent }, (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            });
            req.on('error', (err) => resolve(err.message));
          });
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status === 200) okPerKey.set(key, (okPerKey.get(key) ?? 0) + 1);
        }
      }),
    );
    const answered = () => [...statuses.values()].reduce((a, b) => a + b, 0);

    for (let round = 0; round < 2; round++) {
      for (const i of [0, 1]) {
        const before = answered();
        await vi.waitFor(() => expect(answered()).toBeGreaterThan(before + 100), { timeout: 30_000, interval: 20 });
        const g = gateways[i]!;
        await stopServerProcess(g.child, 'SIGTERM');
        expect(g.child.exitCode).toBe(0);
        gateways[i] = await startGateway(g.port);
      }
    }
    const before = answered();
    await vi.waitFor(() => expect(answered()).toBeGreaterThan(before + 100), { timeout: 30_000, interval: 20 });
    loading = false;
    await load;
    for (const g of gateways) {
      await stopServerProcess(g.child, 'SIGTERM');
      expect(g.child.exitCode).toBe(0);
    }
    await new Promise((r) => lb.server.close(r));
    agent.destroy();

    const rows = (await db('usage_rollups').whereIn('project_id', projectIds).andWhere({ granularity: 'd' }).select('project_id').sum({ n: 'requests' }).groupBy('project_id')) as Array<{ project_id: number; n: number | string }>;
    const metered = new Map(rows.map((r) => [Number(r.project_id), Number(r.n)]));
    const ok = okPerKey.size === 0 ? 0 : [...okPerKey.values()].reduce((a, b) => a + b, 0);
    const meteredTotal = [...metered.values()].reduce((a, b) => a + b, 0);
    console.info(`rolling restarts: ${answered()} requests, ${JSON.stringify(Object.fromEntries(statuses))}, ${lb.retried()} connections refused or reset and sent to the other gateway, ${meteredTotal} metered`);
    expect(Object.fromEntries(statuses)).toEqual({ 200: ok });
    // Each project's metered count is exactly what the client got answered.
    for (const [i, key] of keys.entries()) expect(metered.get(projectIds[i]!) ?? 0, `project ${i}`).toBe(okPerKey.get(key) ?? 0);
  });

  it('finishes a request in flight after SIGTERM, and answers /readyz with 503 while it drains', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const g = await startGateway(port);
    // One connection carries a request the upstream holds, then, once the gateway drains, a readiness check.
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (piece: string) => (text += piece));
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    const waiting = held.length;
    socket.write(`GET /api/v0/blocks/held HTTP/1.1\r\nHost: x\r\nproject_id: ${keys[0]}\r\n\r\n`);
    await vi.waitFor(() => expect(held.length).toBe(waiting + 1), { timeout: 10_000, interval: 20 });
    const exited = stopServerProcess(g.child, 'SIGTERM');
    await vi.waitFor(() => expect(g.lines.some((l) => l.includes('shutting down'))).toBe(true), { timeout: 10_000, interval: 20 });
    // No new connection is taken while it drains.
    await vi.waitFor(
      () =>
        new Promise<void>((resolve, reject) => {
          const probe = net.connect(port, '127.0.0.1');
          probe.on('connect', () => (probe.destroy(), reject(new Error('still accepting'))));
          probe.on('error', () => resolve());
        }),
      { timeout: 10_000, interval: 20 },
    );
    socket.write('GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n');
    held.pop()!();
    await closed;
    await exited;
    expect(g.child.exitCode).toBe(0);
    const answers = text.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 503/);
    expect(answers[1]).toMatch(/connection: close/i);
    expect(answers[1]).toContain('{"ready":false}');
  });
});
