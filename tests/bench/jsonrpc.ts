// npm run bench:jsonrpc — what the gateway's Milkomeda JSON-RPC path costs on top of a bare reverse
// proxy to the same EVM chain, on loopback, in one run:
//   (a) the embedded EVM development chain (Hardhat EDR) answering JSON-RPC directly,
//   (b) a minimal node:http reverse proxy in front of (a),
//   (c) the Cairn gateway in front of (a) as UPSTREAM_MILKOMEDA_MAINNET_URL: key lookup, token
//       bucket, daily quota, JSON parse and method allow-list, metering with the method as endpoint.
// Each server and the load generator run in processes of their own. A closed loop (fixed
// connections, as fast as the target answers) measures each target alone in turn, in 1 s slices
// round after round, with single eth_blockNumber calls (the cheapest call, so the gateway's own
// share is the largest). Target: c ≥ 85 % of b's throughput.
//
// Environment: BENCH_CONCURRENCY (default 32), BENCH_CLOSED_ROUNDS (5), BENCH_SLICE_MS (1000),
// BENCH_WARMUP_MS (1000), BENCH_PROJECTS (2000), BENCH_PROF_DIR (write --cpu-prof profiles of the proxy and gateway there).
import fs from 'node:fs';
import http from 'node:http';
import { plans } from '../../shared/plans';
import { forkServer } from './lib/child-server';
import { SERVER_NODE_FLAGS } from '../../server/node-flags';
import type { GatewayServerInfo } from './lib/gateway-server';
import { LoadGenerator, type LoadResult, type LoadTarget } from './lib/load-protocol';
import { machine, ms, table, verdicts } from './lib/report';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.BENCH_CLOSED_ROUNDS ?? 5);
const SLICE_MS = Number(process.env.BENCH_SLICE_MS ?? 1000);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1000);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 2000);
const PROF_DIR = process.env.BENCH_PROF_DIR;
const THROUGHPUT_TARGET = 0.85;
const REQUEST_CAP = 2_000_000;
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });

setTimeout(() => {
  console.error('bench:jsonrpc: gave up after 120 s');
  process.exit(2);
}, 120_000).unref();

/** One call, to check a target answers a JSON-RPC result from chain 2001 before loading it. */
const probe = (url: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }));
  });

async function main() {
  console.log(`bench:jsonrpc on ${machine()}`);
  // (b) and (c) run with the server's own V8 flags (server/node-flags.ts), as bench:gateway's do.
  const profiled = [...process.execArgv, ...SERVER_NODE_FLAGS, ...(PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROF_DIR}`] : [])];
  if (PROF_DIR) fs.mkdirSync(PROF_DIR, { recursive: true });
  const stops: Array<() => Promise<void>> = [];
  try {
    const chain = await forkServer('evm-upstream.ts');
    stops.push(chain.stop);
    const [proxy, gateway] = await Promise.all([
      forkServer('minimal-proxy.ts', { BENCH_UPSTREAM: chain.url }, profiled),
      forkServer<GatewayServerInfo>('gateway-server.ts', { BENCH_UPSTREAM: chain.url, BENCH_PROJECTS: String(PROJECTS), BENCH_EVM: '1' }, profiled),
    ]);
    stops.push(proxy.stop, gateway.stop);
    const { keys } = gateway.info;
    const plan = plans.ENTERPRISE;
    const gatewayCap = Math.min(keys.length * Math.floor(plan.limitBurst / 2), plan.requestLimit / 2, REQUEST_CAP);
    const targets: Array<LoadTarget & { name: string }> = [
      { name: '(a) EVM chain direct', url: `${chain.url}/`, maxRequests: REQUEST_CAP, body: BODY },
      { name: '(b) minimal proxy', url: `${proxy.url}/`, maxRequests: REQUEST_CAP, body: BODY },
      { name: '(c) Cairn gateway', url: `${gateway.url}/api/v0/`, keys, maxRequests: gatewayCap, body: BODY },
    ];
    for (const t of targets) {
      const res = await probe(t.url, t.keys ? { project_id: t.keys[0]! } : {});
      if (res.status !== 200 || !res.body.includes('"result":"0x7d1"')) throw new Error(`${t.name} answered ${res.status} ${res.body} to ${t.url}`);
    }
    console.log(
      `POST eth_blockNumber (JSON-RPC 2.0) on loopback, closed loop with ${CONCURRENCY} keep-alive connections; each target warmed up for ${WARMUP_MS / 1000} s, ` +
        `then ${ROUNDS} rounds of one ${SLICE_MS / 1000} s slice per target.\n(c) ENTERPRISE plan limits, ${keys.length} Milkomeda projects in rotation ` +
        `(≤ ${Math.floor(plan.limitBurst / 2)} calls per key), metering on, flushed to SQLite.`,
    );
    const load = new LoadGenerator();
    stops.push(() => load.close());
    const closed = await load.run({ targets, warmupMs: WARMUP_MS, sliceMs: SLICE_MS, rounds: ROUNDS, mode: 'closed', concurrency: CONCURRENCY });
    const row = (i: number, r: LoadResult) => [targets[i]!.name, r.rps.toFixed(0), ms(r.latency.p50), ms(r.latency.p99), String(r.latency.count)];
    console.log(table(['target', 'req/s', 'p50', 'p99', 'samples'], closed.map((r, i) => row(i, r))));
    const [a, b, c] = closed as [LoadResult, LoadResult, LoadResult];
    const ratio = c.rps / b.rps;
    console.log(`\nc/b throughput ${(ratio * 100).toFixed(1)} %   (b/a ${((b.rps / a.rps) * 100).toFixed(1)} %, c/a ${((c.rps / a.rps) * 100).toFixed(1)} %)\n`);
    const problems = closed.flatMap((r, i) => [
      ...Object.entries(r.statuses)
        .filter(([s]) => s !== '200')
        .map(([s, n]) => `${targets[i]!.name}: ${n}× status ${s === '0' ? 'network error' : s}`),
      ...(r.capped ? [`${targets[i]!.name}: request cap reached`] : []),
    ]);
    verdicts([
      { name: 'valid run (every answer 200, no cap reached)', ok: problems.length === 0, detail: problems.length ? problems.join('; ') : 'yes' },
      { name: `c ≥ ${THROUGHPUT_TARGET * 100} % of b's throughput`, ok: ratio >= THROUGHPUT_TARGET, detail: `${(ratio * 100).toFixed(1)} % (${c.rps.toFixed(0)} vs ${b.rps.toFixed(0)} req/s)` },
    ]);
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
