// Prometheus metrics, as an operator runs them: server/main.ts in a process of its own. Off by default
// (no listener at all); on with METRICS_PORT, answering loopback clients and a bearer token; the
// values move with gateway calls, metering flushes and webhook deliveries; and every metric the
// Grafana dashboard in docs/grafana names is one the server exports.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, serverData, spawnServerProcess, stopServerProcess, stopServerProcesses, type ServerData } from '../helpers/server-process';
import { makeUser } from '../helpers/workspace-fixture';
import { insertProjects } from '../bench/lib/fixtures';
import { startReceiver } from '../helpers/receiver';
import { parseMetrics, type ParsedMetrics } from '../helpers/metrics-text';
import { call } from '../helpers/gateway';

const TOKEN = 'metrics-token-' + crypto.randomBytes(12).toString('hex');

/** The TCP ports process `pid` listens on (Linux: its socket inodes matched against /proc/net/tcp{,6}). */
function listeningPorts(pid: number): Set<number> {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const ports = new Set<number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // st 0A is LISTEN; column 9 is the inode.
      if (cols[3] === '0A' && inodes.has(cols[9]!)) ports.add(parseInt(cols[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

/** Metric names a PromQL expression reads: identifiers that are neither functions, keywords, label names nor strings. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/(?<![a-zA-Z0-9_:])\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi, '0')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names: string[] = [];
  for (const m of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const after = bare.slice(m.index! + m[0].length).trimStart();
    if (after.startsWith('(')) continue; // a function or aggregation
    if (/^(and|or|unless|bool|offset)$/.test(m[0])) continue;
    names.push(m[0]);
  }
  return names;
}

const dashboard = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/grafana/cairn.json'), 'utf8')) as {
  panels: Array<{ title: string; targets: Array<{ expr: string }> }>;
};

describe('metrics are off by default', () => {
  let data: ServerData;
  let child: ChildProcess;
  let port: number;
  beforeAll(async () => {
    data = await serverData('metrics-off');
    port = await freePort();
    child = await spawnServerProcess({ role: 'api', env: { ...data.env, HOST: '127.0.0.1', PORT: String(port) }, readyUrl: `http://127.0.0.1:${port}/healthz`, readyTimeoutMs: 60_000 });
  }, 90_000);
  afterAll(async () => {
    if (child) await stopServerProcess(child);
    await data?.remove();
  });

  it('opens no listener but the web port without METRICS_PORT', () => {
    expect(listeningPorts(child.pid!)).toEqual(new Set([port]));
  });
});

describe('metrics on (METRICS_PORT), every role in one process', () => {
  let data: ServerData;
  let child: ChildProcess;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let key: string;
  let metricsUrl: string;
  let gatewayUrl: string;
  let ports: { web: number; gateway: number; metrics: number };

  const scrape = async (headers: Record<string, string> = {}): Promise<ParsedMetrics> => {
    const res = await fetch(metricsUrl, { headers });
    expect(res.status).toBe(200);
    return parseMetrics(await res.text());
  };
  /** Scrapes until `ok` holds (the workers tick on their own clock), then answers that scrape. */
  const scrapeUntil = async (ok: (m: ParsedMetrics) => boolean, what: string | ((m: ParsedMetrics) => string)): Promise<ParsedMetrics> => {
    const end = Date.now() + 20_000;
    for (;;) {
      const m = await scrape();
      if (ok(m)) return m;
      if (Date.now() > end) throw new Error(`metrics did not show ${typeof what === 'string' ? what : what(m)} within 20 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    data = await serverData('metrics-on');
    receiver = await startReceiver();
    const owner = await makeUser(data.db, `metrics-${crypto.randomBytes(4).toString('hex')}@example.com`, 'ENTERPRISE');
    const workspace = (await data.db('workspaces').where({ owner_id: owner.id }).first('id')) as { id: number };
    key = (await insertProjects(data.db, workspace.id, 1))[0]!.key;
    const now = Date.now();
    await data.db('webhooks').insert({ id: crypto.randomUUID(), workspace_id: workspace.id, name: 'metrics', network: 0, type: 'block', target_url: receiver.url, confirmations: 0, status: 'enabled', conditions: '[]', auth_token: 'm'.repeat(64), created_at: now, updated_at: now });
    ports = { web: await freePort(), gateway: await freePort(), metrics: await freePort() };
    metricsUrl = `http://127.0.0.1:${ports.metrics}/metrics`;
    gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
    child = await spawnServerProcess({
      role: 'all',
      env: {
        ...data.env,
        HOST: '127.0.0.1',
        PORT: String(ports.web),
        GATEWAY_PORT: String(ports.gateway),
        METRICS_PORT: String(ports.metrics),
        METRICS_TOKEN: TOKEN,
        SANDBOX_BLOCK_INTERVAL_MS: '250',
        CHAIN_POLL_MS: '250',
        METERING_FLUSH_MS: '250',
        WEBHOOK_ALLOWLIST: '127.0.0.1/32',
        DISABLED_NETWORKS: 'milkomeda-mainnet',
      },
      readyUrl: `${gatewayUrl}/health`,
      readyTimeoutMs: 60_000,
    });
  }, 90_000);
  afterAll(async () => {
    await stopServerProcesses();
    await receiver?.close();
    await data?.remove();
  });

  it('listens on its own port, beside the web app and the gateway', () => {
    expect(listeningPorts(child.pid!)).toEqual(new Set([ports.web, ports.gateway, ports.metrics]));
  });

  it('answers a loopback client without a token', async () => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const m = parseMetrics(await res.text());
    expect(m.find('process_resident_memory_bytes', { role: 'all' })).toHaveLength(1);
  });

  it('keeps idle connections to the app and the gateway open longer than a load balancer keeps its own', async () => {
    // Closing first, a server races its clients: a request sent as the connection closes reads ECONNRESET.
    for (const url of [`http://127.0.0.1:${ports.web}/healthz`, `${gatewayUrl}/readyz`]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('keep-alive'), url).toBe('timeout=65');
    }
  });

  it('answers the right bearer token and refuses a wrong one with 401', async () => {
    expect((await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    const wrong = await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer realm="cairn-metrics"');
    expect(await wrong.text()).not.toContain('cairn_');
    expect((await fetch(metricsUrl, { headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` } })).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${ports.metrics}/other`)).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(405);
  });

  it("leaves the gateway's /metrics to the Blockfrost API", async () => {
    const res = await call(`${gatewayUrl}/api/v0/metrics`);
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toContain('cairn_');
  });

  it('counts gateway answers by network, status class and backend, with their latency', async () => {
    const labels = { role: 'gateway', network: 'cardano-mainnet', status_class: '2xx', backend: 'sandbox' };
    const before = await scrape();
    for (let i = 0; i < 5; i++) expect((await call(`${gatewayUrl}/api/v0/blocks/latest`, key)).status).toBe(200);
    expect((await call(`${gatewayUrl}/api/v0/blocks/latest`, 'mainnet' + 'x'.repeat(32))).status).toBe(403);
    const after = await scrape();
    expect(after.sum('cairn_gateway_requests_total', labels) - before.sum('cairn_gateway_requests_total', labels)).toBe(5);
    const refused = { role: 'gateway', network: 'unknown', status_class: '4xx', backend: 'gateway' };
    expect(after.sum('cairn_gateway_requests_total', refused) - before.sum('cairn_gateway_requests_total', refused)).toBe(1);
    const latency = { role: 'gateway', network: 'cardano-mainnet', backend: 'sandbox' };
    expect(after.sum('cairn_gateway_request_duration_seconds_count', latency) - before.sum('cairn_gateway_request_duration_seconds_count', latency)).toBe(5);
    expect(after.sum('cairn_gateway_request_duration_seconds_sum', latency)).toBeGreaterThan(before.sum('cairn_gateway_request_duration_seconds_sum', latency));
    expect(after.sum('cairn_gateway_key_cache_keys')).toBeGreaterThanOrEqual(1);
  });

  it('counts metering flushes and the rows they write', async () => {
    const before = await scrape();
    expect((await call(`${gatewayUrl}/api/v0/epochs/latest`, key)).status).toBe(200);
    await scrapeUntil((m) => m.sum('cairn_metering_flush_rows_total') > before.sum('cairn_metering_flush_rows_total'), 'metering rows written');
    const m = await scrape();
    expect(m.sum('cairn_metering_flushes_total', { result: 'ok' })).toBeGreaterThan(0);
    expect(m.sum('cairn_metering_flush_duration_seconds_count')).toBeGreaterThan(0);
  });

  it('counts webhook deliveries, their latency, the outbox and the follower', async () => {
    await receiver.waitFor((r) => r.length >= 1, 30_000);
    const m = await scrapeUntil((x) => x.sum('cairn_webhook_delivery_attempts_total', { result: 'delivered' }) >= 1, 'a delivered attempt');
    expect(m.sum('cairn_webhook_delivery_duration_seconds_count', { role: 'worker' })).toBeGreaterThanOrEqual(1);
    expect(m.sum('cairn_webhook_event_delivery_seconds_count', { role: 'worker' })).toBeGreaterThanOrEqual(1);
    expect(m.find('cairn_webhook_outbox_pending_events', { role: 'worker' })).toHaveLength(1);
    expect(m.find('cairn_webhook_follower_lag_blocks', { role: 'worker', network: 'cardano-mainnet' })).toHaveLength(1);
  });

  it('reads metric names out of PromQL', () => {
    expect(metricNames('histogram_quantile(0.99, sum by (le, network) (rate(cairn_a_bucket{x="y z"}[5m]))) / clamp_min(sum(cairn_b_total), 1e-9)')).toEqual(['cairn_a_bucket', 'cairn_b_total']);
  });

  it('exports every metric the Grafana dashboard reads', async () => {
    const wanted = new Set(dashboard.panels.flatMap((p) => p.targets.flatMap((t) => metricNames(t.expr))));
    expect(wanted.size).toBeGreaterThan(15);
    // Gauges set by the workers' first passes appear once those have run.
    const m = await scrapeUntil(
      (x) => [...wanted].every((n) => x.find(n).length > 0),
      (x) => `every metric of the dashboard (missing: ${[...wanted].filter((n) => x.find(n).length === 0).join(', ')})`,
    );
    for (const name of wanted) expect(m.find(name).length, name).toBeGreaterThan(0);
  });
});
