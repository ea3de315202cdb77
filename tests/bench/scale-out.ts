// npm run bench:scale-out — the scale-out path: two gateway processes sharing their limits through
// Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379/14, a database this bench empties), against
// two minimal Node proxies, in front of the same sandbox upstream on the same cores. Requests take
// the two processes of a target in turn.
//
//   exactness: one key's burst sent through both gateways at once (900 requests, 16 at a time): the
//     shared bucket must admit what one bucket would, burst + rate × elapsed, within ±2 %.
//   throughput: closed loop, the gateways against the proxies, alternating rounds. Target ≥ 0.85×.
//   latency: open loop at half the slower target's throughput, both targets at once, p99 difference
//     as the median of the rounds' differences. Target ≤ +1 ms.
//
// Environment: BENCH_REDIS_URL, BENCH_CLOSED_ROUNDS (3), BENCH_OPEN_ROUNDS (30), BENCH_CONCURRENCY (32).
import fs from 'node:fs';
import http from 'node:http';
import { Redis } from 'ioredis';
import { SERVER_NODE_FLAGS } from '../../server/node-flags';
import { plans } from '../../shared/plans';
import { forkServer } from './lib/child-server';
import type { GatewayServerInfo } from './lib/gateway-server';
import { seedKeys } from './lib/keys-seed';
import { LoadGenerator, type LoadTarget } from './lib/load-protocol';
import { machine, ms, percentile, ratio, row, table } from './lib/report';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/14';
const KEYS = 2_000;
const CLOSED_ROUNDS = Number(process.env.BENCH_CLOSED_ROUNDS ?? 3);
const OPEN_ROUNDS = Number(process.env.BENCH_OPEN_ROUNDS ?? 30);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const PATH = '/blocks/latest';
const BURST_REQUESTS = 900;

setTimeout(() => {
  console.error('bench:scale-out: gave up after 10 minutes');
  process.exit(2);
}, 10 * 60_000).unref();

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
const get = (url: string, headers: Record<string, string>) =>
  new Promise<number>((resolve, reject) => {
    http
      .get(url, { headers, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });

/** One key's burst through both gateways, 16 requests at a time: how many were admitted, over how long. */
async function burst(urls: string[], key: string): Promise<{ admitted: number; refused: number; other: number; seconds: number }> {
  let sent = 0;
  const counts = { admitted: 0, refused: 0, other: 0 };
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (sent < BURST_REQUESTS) {
        const url = urls[sent++ % urls.length]!;
        const status = await get(url, { project_id: key });
        if (status === 200) counts.admitted++;
        else if (status === 429) counts.refused++;
        else counts.other++;
      }
    }),
  );
  return { ...counts, seconds: (performance.now() - t0) / 1000 };
}

async function main() {
  console.log(`bench:scale-out on ${machine()}`);
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  await redis.flushdb();
  const stops: Array<() => Promise<void>> = [];
  const dir = await seedKeys(KEYS);
  try {
    const upstream = await forkServer('sandbox-upstream.ts');
    stops.push(upstream.stop);
    const flags = [...process.execArgv, ...SERVER_NODE_FLAGS, ...(process.env.BENCH_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF_DIR}`] : [])];
    const env = { BENCH_UPSTREAM: upstream.url, BENCH_DATA_DIR: dir, BENCH_REDIS_URL: REDIS_URL };
    const servers = await Promise.all([
      forkServer<GatewayServerInfo>('gateway-server.ts', env, flags),
      forkServer<GatewayServerInfo>('gateway-server.ts', env, flags),
      forkServer('minimal-proxy.ts', { BENCH_UPSTREAM: upstream.url }, flags),
      forkServer('minimal-proxy.ts', { BENCH_UPSTREAM: upstream.url }, flags),
    ]);
    for (const s of servers) stops.push(s.stop);
    const [g1, g2, p1, p2] = servers as [(typeof servers)[0], (typeof servers)[1], (typeof servers)[2], (typeof servers)[3]];
    const gatewayUrls = [g1.url, g2.url].map((u) => `${u}/api/v0${PATH}`);
    const [burstKey, ...keys] = g1.info.keys as [string, ...string[]];

    // Exactness: the bucket is shared, so both gateways together admit one burst and its refill.
    const plan = plans.ENTERPRISE;
    const b = await burst(gatewayUrls, burstKey);
    const expected = Math.min(BURST_REQUESTS, plan.limitBurst + plan.limitPerSecond * b.seconds);
    const error = (b.admitted - expected) / expected;
    console.log(`Burst of ${BURST_REQUESTS} requests with one key through both gateways in ${b.seconds.toFixed(2)} s: ${b.admitted} admitted, ${b.refused} × 429, ${b.other} other; one bucket (burst ${plan.limitBurst} + ${plan.limitPerSecond}/s) admits ${expected.toFixed(0)}.`);

    const cap = Math.min(keys.length * Math.floor(plan.limitBurst / 2), plan.requestLimit / 2);
    const targets: Array<LoadTarget & { name: string }> = [
      { name: '(b) two minimal proxies', url: p1.url + PATH, alsoUrls: [p2.url + PATH], maxRequests: 2_000_000 },
      { name: '(c) two Cairn gateways, limits in Redis', url: gatewayUrls[0]!, alsoUrls: [gatewayUrls[1]!], keys, maxRequests: cap },
    ];
    const load = new LoadGenerator();
    stops.push(() => load.close());
    const closed = await load.run({ targets, mode: 'closed', concurrency: CONCURRENCY, warmupMs: 1000, sliceMs: 1000, rounds: CLOSED_ROUNDS });
    // Half the slowest target's throughput in all, shared by the two targets loaded at once (as bench:gateway does).
    const rate = Math.max(100, Math.floor((0.5 * Math.min(...closed.map((r) => r.rps))) / targets.length / 100) * 100);
    const open = await load.run({ targets, mode: 'open', together: true, concurrency: CONCURRENCY, rate, warmupMs: 1000, sliceMs: 1000, rounds: OPEN_ROUNDS });
    const line = (r: (typeof closed)[number], i: number) => [targets[i]!.name, String(Math.round(r.rps)), ms(r.latency.p50), ms(r.latency.p99), Object.entries(r.statuses).map(([s, n]) => `${n}×${s}`).join(' ')];
    console.log(`\nThroughput: closed loop, ${CONCURRENCY} connections, ${CLOSED_ROUNDS} alternating rounds of 1 s`);
    console.log(table(['target', 'req/s', 'p50', 'p99', 'answers'], closed.map(line)));
    console.log(`\nLatency: open loop, ${rate} req/s to each target, both at once, ${OPEN_ROUNDS} rounds of 1 s`);
    console.log(table(['target', 'req/s', 'p50', 'p99', 'answers'], open.map(line)));
    const diffs = open[1]!.sliceP99.map((p, i) => p - open[0]!.sliceP99[i]!).sort((x, y) => x - y);
    const p99Diff = percentile(diffs, 50);
    const valid = [...closed, ...open].every((r) => Object.keys(r.statuses).every((s) => s === '200') && !r.capped && r.skipped === 0);

    console.log();
    row({ bench: 'scale-out', measure: 'shared bucket over two gateways: admitted vs one bucket', figure: `${b.admitted} of ${BURST_REQUESTS}`, baseline: `${expected.toFixed(0)} one bucket`, ratio: ratio(b.admitted, expected), target: '±2 %', pass: Math.abs(error) <= 0.02 && b.other === 0 });
    row({ bench: 'scale-out', measure: 'valid run (every answer 200, rate kept, no cap)', figure: valid ? 'yes' : 'no', baseline: '', ratio: '', target: 'yes', pass: valid });
    row({ bench: 'scale-out', measure: 'two gateways on Redis, throughput (closed loop)', figure: `${Math.round(closed[1]!.rps)} req/s`, baseline: `${Math.round(closed[0]!.rps)} req/s two proxies`, ratio: ratio(closed[1]!.rps, closed[0]!.rps), target: '≥ 0.85×', pass: closed[1]!.rps >= 0.85 * closed[0]!.rps });
    row({ bench: 'scale-out', measure: `two gateways on Redis, p99 − proxies' p99 at ${rate} req/s, median of ${OPEN_ROUNDS} rounds`, figure: `${p99Diff >= 0 ? '+' : ''}${ms(p99Diff)}`, baseline: `${ms(open[0]!.latency.p99)} proxies' p99`, ratio: ratio(open[1]!.latency.p99, open[0]!.latency.p99), target: '≤ +1 ms', pass: p99Diff <= 1 });
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    agent.destroy();
    await redis.flushdb().catch(() => undefined);
    redis.disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
