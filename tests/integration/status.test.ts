import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/use-test-app';
import { Client } from '../helpers/http-client';
import { loadConfig } from '../../server/config';
import { createLogger } from '../../server/logger';
import { startHeartbeat } from '../../server/features/status/heartbeats';
import { defaultProbes, statusReporter } from '../../server/features/status/status';
import { forgetComponentState, reportComponentState } from '../../server/features/status/components';
import { createSandboxChains } from '../../server/sandbox/chains';

const app = useTestApp();
let upstream: http.Server;
let upstreamUrl: string;
let upstreamUp = true;
const SECRET = 'upstream-secret-value-123';

beforeAll(async () => {
  // The block's time is fixed before any test reads its clock, so its age is at least 42 s however
  // long the probe takes to reach the upstream on a busy machine.
  const blockTime = Math.floor(Date.now() / 1000) - 42;
  upstream = http.createServer((req, res) => {
    if (!upstreamUp || req.headers['x-upstream-key'] !== SECRET) {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"status_code":503}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ time: blockTime, hash: 'ab', height: 1 }));
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/api/v0`;
});
afterAll(async () => {
  upstream.close();
});

describe('GET /api/status', () => {
  it('answers anyone: the database, the parts without a heartbeat as down, sandboxed networks with their latest block', async () => {
    const res = await new Client(app.url).get('/api/status');
    expect(res.status).toBe(200);
    const report = res.body.data;
    expect(report.services).toEqual([
      { name: 'Gateway', state: 'down' },
      { name: 'Webhook worker', state: 'down' },
      { name: 'Database', state: 'operational' },
    ]);
    expect(report.overall).toBe('degraded');
    const mainnet = report.networks.find((n: any) => n.slug === 'cardano-mainnet');
    expect(mainnet).toMatchObject({ backend: 'sandbox', state: 'operational' });
    expect(mainnet.latestBlockAgeSeconds).toBeGreaterThanOrEqual(0);
    // Milkomeda runs on the EVM development chain inside the gateway, which has no heartbeat here.
    expect(report.networks.find((n: any) => n.slug === 'milkomeda-mainnet')).toMatchObject({ backend: 'development', state: 'down', latestBlockAgeSeconds: null });
    expect(report.networks.some((n: any) => n.slug === 'milkomeda-testnet')).toBe(false); // disabled networks are not listed
    // The embedded IPFS store lives in the gateway: with no gateway heartbeat it does not answer.
    expect(report.networks.find((n: any) => n.slug === 'ipfs')).toMatchObject({ backend: 'embedded', state: 'down' });
  });
});

describe('the status report', () => {
  const config = () =>
    loadConfig({ NODE_ENV: 'test', SESSION_SECRET: 'x'.repeat(40), UPSTREAM_CARDANO_PREPROD_URL: upstreamUrl, UPSTREAM_CARDANO_PREPROD_AUTH: `X-Upstream-Key: ${SECRET}` });

  it('sees a gateway and a worker by their heartbeats, and a stopped one as down', async () => {
    let clock = Date.now();
    const report = statusReporter({ db: app.db, probes: new Map(), now: () => clock });
    const gateway = startHeartbeat(app.db, 'gateway', createLogger('silent'));
    const worker = startHeartbeat(app.db, 'worker', createLogger('silent'));
    await expect.poll(async () => Number((await app.db('service_heartbeats').count({ n: '*' }))[0]!.n)).toBe(2);
    expect((await report()).services.map((s) => s.state)).toEqual(['operational', 'operational', 'operational']);
    await worker.stop();
    clock += 6_000; // past the cache
    expect((await report()).services.map((s) => s.state)).toEqual(['operational', 'down', 'operational']);
    clock += 60_000; // the gateway's last beat is now stale
    expect((await report()).services[0]!.state).toBe('down');
    await gateway.stop();
  });

  it("lists the gateways' shared rate limits as they report them, and as down while no gateway answers", async () => {
    let clock = Date.now();
    const report = statusReporter({ db: app.db, probes: new Map(), now: () => clock });
    const gateway = startHeartbeat(app.db, 'gateway', createLogger('silent'));
    try {
      await expect.poll(async () => Number((await app.db('service_heartbeats').where({ role: 'gateway' }).count({ n: '*' }))[0]!.n)).toBe(1);
      const since = clock - 1_000;
      await reportComponentState(app.db, { name: 'Shared rate limits', state: 'down', since });
      // Reported by the gateways: shown while a gateway answers, whatever the worker does.
      expect((await report()).services).toContainEqual({ name: 'Shared rate limits', state: 'down', since });
      await reportComponentState(app.db, { name: 'Shared rate limits', state: 'operational', since: clock });
      clock += 6_000; // past the cache
      expect((await report()).services).toContainEqual({ name: 'Shared rate limits', state: 'operational', since: clock - 6_000 });
      clock += 60_000; // the gateway's last beat is now stale
      expect((await report()).services).toContainEqual({ name: 'Shared rate limits', state: 'down' });
    } finally {
      await gateway.stop();
      await forgetComponentState(app.db, 'Shared rate limits');
    }
  });

  it('asks a configured upstream with its credentials, reports its block age, and never shows its address or secret', async () => {
    const cfg = config();
    let clock = Date.now();
    const report = statusReporter({ db: app.db, probes: defaultProbes(cfg, createSandboxChains(cfg)), now: () => clock });
    const up = await report();
    const preprod = up.networks.find((n) => n.slug === 'cardano-preprod')!;
    expect(preprod).toMatchObject({ backend: 'upstream', state: 'operational' });
    expect(preprod.latestBlockAgeSeconds).toBeGreaterThanOrEqual(41);
    const text = JSON.stringify(up);
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain(SECRET);

    upstreamUp = false;
    expect((await report()).networks.find((n) => n.slug === 'cardano-preprod')!.state).toBe('operational'); // cached
    clock += 6_000;
    const down = await report();
    expect(down.networks.find((n) => n.slug === 'cardano-preprod')).toMatchObject({ state: 'down', latestBlockAgeSeconds: null });
    expect(down.overall).toBe('degraded');
    upstreamUp = true;
  });
});
