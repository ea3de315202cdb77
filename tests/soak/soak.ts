// npm run soak — the whole server (server/main.ts, every role in one process, as `npm start` runs it)
// under steady load for a long run, with its memory sampled: does it level off, or grow?
//   gateway: SOAK_RPS requests a second over a few sandbox endpoints (blocks, addresses, txs), with
//     a project key, metered and limited as in production;
//   webhooks: one 'block' webhook on cardano-mainnet with 0 confirmations, so every block becomes an
//     outbox event, delivered signed to a receiver in this process;
//   sandbox: the chain makes a block every SOAK_BLOCK_MS (SANDBOX_BLOCK_INTERVAL_MS), and the faucet
//     adds a transaction every 2 s, so blocks carry transactions the follower reads.
// The server's RSS and V8 heap are read from its own /metrics (METRICS_PORT) every SOAK_SAMPLE_S; after
// SOAK_WARMUP_MIN the level and the least-squares slope are printed (per hour and per 1,000 blocks).
//
// Time is accelerated for the chain only: a day of Cardano blocks (86,400 s / 20 s = 4,320 blocks)
// passes in 7.2 min at 100 ms a block, so the default 25 min makes about 15,000 blocks, three and a
// half days of chain; the gateway and webhook load run in real time.
//
// Environment: SOAK_MINUTES (25), SOAK_WARMUP_MIN (5), SOAK_BLOCK_MS (100), SOAK_RPS (100),
// SOAK_SAMPLE_S (10), SOAK_JSON (a file to write the samples to).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createDb, migrateLatest, sqliteFileIn } from '../../server/db/index';
import { SERVER_NODE_FLAGS } from '../../server/node-flags';
import { makeUser } from '../helpers/workspace-fixture';
import { freePort } from '../helpers/server-process';
import { insertProjects } from '../bench/lib/fixtures';
import { parseMetrics } from '../helpers/metrics-text';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 25);
const WARMUP_MIN = Number(process.env.SOAK_WARMUP_MIN ?? 5);
const BLOCK_MS = Number(process.env.SOAK_BLOCK_MS ?? 100);
const RPS = Number(process.env.SOAK_RPS ?? 100);
const SAMPLE_S = Number(process.env.SOAK_SAMPLE_S ?? 10);
const root = path.resolve(import.meta.dirname, '../..');
const PATHS = ['/blocks/latest', '/blocks/latest/txs', '/epochs/latest', '/network', '/txs/{tx}', '/addresses/{address}'];

interface Sample {
  t: number;
  rss: number;
  heap: number;
  external: number;
  height: number;
  delivered: number;
  requests: number;
  outbox: number;
  followerLag: number;
}

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-soak-'));
  const [port, gatewayPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  // Seed an ENTERPRISE owner with a few mainnet projects and one webhook before the server starts.
  const seed = createDb({ sqliteFile: sqliteFileIn(dir) });
  await migrateLatest(seed);
  const owner = await makeUser(seed, 'soak-owner@example.com', 'ENTERPRISE');
  const workspace = (await seed('workspaces').where({ owner_id: owner.id }).first('id')) as { id: number };
  const projects = await insertProjects(seed, workspace.id, 20);

  let delivered = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered++;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const now = Date.now();
  await seed('webhooks').insert({ id: crypto.randomUUID(), workspace_id: workspace.id, name: 'soak', network: 0, type: 'block', target_url: receiverUrl, confirmations: 0, status: 'enabled', conditions: '[]', auth_token: 's'.repeat(64), created_at: now, updated_at: now });
  await seed.destroy();

  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'error',
      HOST: '127.0.0.1',
      PORT: String(port),
      GATEWAY_PORT: String(gatewayPort),
      METRICS_PORT: String(metricsPort),
      DATA_DIR: dir,
      SANDBOX_BLOCK_INTERVAL_MS: String(BLOCK_MS),
      WEBHOOK_ALLOWLIST: '127.0.0.1/32',
      // The followers look for blocks every 500 ms, so at 100 ms a block each tick has about 5 to match.
      CHAIN_POLL_MS: '500',
      SESSION_SECRET: 's'.repeat(48),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stopChild = () => child.exitCode === null && child.kill('SIGTERM');
  process.on('SIGINT', () => {
    stopChild();
    process.exit(130);
  });
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  for (let i = 0; ; i++) {
    if (await fetch(metricsUrl).then((r) => r.ok, () => false)) break;
    if (child.exitCode !== null || i > 1200) throw new Error('the server did not start');
    await sleep(100);
  }
  const gw = `http://127.0.0.1:${gatewayPort}/api/v0`;
  console.log(`soak: ${MINUTES} min, a block every ${BLOCK_MS} ms, ${RPS} gateway req/s, a faucet transaction every 2 s, one block webhook; memory sampled every ${SAMPLE_S} s, warm-up ${WARMUP_MIN} min`);

  // Addresses and transactions to ask for come from the chain itself.
  const funded: string[] = [];
  const txs: string[] = [];
  const wallets = (await (await fetch(`http://127.0.0.1:${port}/dev/wallets`)).json()) as { data: Array<{ network: string; wallets: Array<{ address: string }> }> };
  for (const w of wallets.data.find((n) => n.network === 'cardano-mainnet')?.wallets ?? []) funded.push(w.address);

  let requests = 0;
  let failures = 0;
  const statuses = new Map<string, number>();
  const tally = (status: string) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  let stopped = false;
  const end = Date.now() + MINUTES * 60_000;
  // Gateway: an open loop at RPS, rotating keys and paths.
  const gatewayLoad = (async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    let i = 0;
    const tick = 50;
    while (!stopped) {
      const started = Date.now();
      const n = Math.round((RPS * tick) / 1000);
      for (let k = 0; k < n; k++, i++) {
        let p = PATHS[i % PATHS.length]!;
        if (p.includes('{tx}')) p = txs.length ? p.replace('{tx}', txs[i % txs.length]!) : '/blocks/latest';
        if (p.includes('{address}')) p = p.replace('{address}', funded[i % funded.length] ?? 'addr1');
        http
          .get(`${gw}${p}`, { agent, headers: { project_id: projects[i % projects.length]!.key } }, (res) => {
            res.resume();
            res.on('end', () => {
              requests++;
              tally(String(res.statusCode));
              if (res.statusCode !== 200 && res.statusCode !== 404) failures++;
            });
          })
          .on('error', () => {
            failures++;
            tally('network error');
          });
      }
      await sleep(Math.max(0, tick - (Date.now() - started)));
    }
    agent.destroy();
  })();
  // Sandbox: a faucet transaction every 2 s to one of the development wallets.
  const faucetLoad = (async () => {
    while (!stopped) {
      const r = await fetch(`http://127.0.0.1:${port}/dev/faucet`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ network: 'cardano-mainnet', address: funded[txs.length % Math.max(1, funded.length)], lovelace: '1000000' }),
        signal: AbortSignal.timeout(10_000),
      }).catch(() => null);
      const body = r?.ok ? ((await r.json()) as { data?: { txHash?: string; tx_hash?: string; hash?: string } }) : null;
      const hash = body?.data?.txHash ?? body?.data?.tx_hash ?? body?.data?.hash;
      if (hash) {
        txs.push(hash);
        if (txs.length > 200) txs.shift();
      }
      await sleep(2000);
    }
  })();

  const samples: Sample[] = [];
  const t0 = Date.now();
  while (Date.now() < end && child.exitCode === null) {
    await sleep(SAMPLE_S * 1000);
    const text = await fetch(metricsUrl, { signal: AbortSignal.timeout(30_000) }).then((r) => r.text(), () => '');
    const m = parseMetrics(text);
    const height = await fetch(`${gw}/blocks/latest`, { headers: { project_id: projects[0]!.key }, signal: AbortSignal.timeout(10_000) })
      .then((r) => r.json() as Promise<{ height?: number }>)
      .then((b) => b.height ?? 0, () => 0);
    const s: Sample = {
      t: (Date.now() - t0) / 1000,
      rss: m.sum('process_resident_memory_bytes'),
      heap: m.sum('nodejs_heap_size_used_bytes'),
      external: m.sum('nodejs_external_memory_bytes'),
      height,
      delivered,
      requests,
      outbox: m.sum('cairn_webhook_outbox_pending_events'),
      followerLag: m.max('cairn_webhook_follower_lag_blocks'),
    };
    samples.push(s);
    console.log(
      `${(s.t / 60).toFixed(1).padStart(5)} min  rss ${mb(s.rss).padStart(9)}  heap ${mb(s.heap).padStart(9)}  external ${mb(s.external).padStart(8)}  block ${s.height}  gateway ${s.requests} (${failures} failed)  webhooks delivered ${s.delivered}  outbox ${s.outbox}  follower lag ${s.followerLag}`,
    );
  }
  stopped = true;
  const crashed = child.exitCode !== null;
  // The server goes first, so a request it never answers cannot hold the run open.
  stopChild();
  await Promise.all([gatewayLoad, faucetLoad]);
  await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  receiver.close();
  if (process.env.SOAK_JSON) fs.writeFileSync(process.env.SOAK_JSON, JSON.stringify(samples, null, 1));
  fs.rmSync(dir, { recursive: true, force: true });
  if (crashed) throw new Error(`the server exited during the run (code ${child.exitCode})`);

  const after = samples.filter((s) => s.t >= WARMUP_MIN * 60);
  if (after.length < 3) throw new Error('too few samples after the warm-up: run longer');
  const xs = after.map((s) => s.t);
  const blocks = after.at(-1)!.height - after[0]!.height;
  const seconds = xs.at(-1)! - xs[0]!;
  const report = (name: string, ys: number[]) => {
    const perSecond = slope(xs, ys);
    const mean = ys.reduce((a, b) => a + b, 0) / ys.length;
    const perBlock = blocks > 0 ? (perSecond * seconds) / blocks : 0;
    console.log(`${name.padEnd(9)} level ${mb(mean)} after warm-up (from ${mb(Math.min(...ys))} to ${mb(Math.max(...ys))}); slope ${mb(perSecond * 3600)}/hour, ${(perBlock / 1024).toFixed(2)} KB per block, ${mb(perBlock * 1000)} per 1,000 blocks`);
  };
  console.log(`\nafter the ${WARMUP_MIN} min warm-up: ${after.length} samples over ${(seconds / 60).toFixed(1)} min, ${blocks} blocks, ${after.at(-1)!.requests - after[0]!.requests} gateway requests, ${after.at(-1)!.delivered - after[0]!.delivered} webhook deliveries`);
  report('rss', after.map((s) => s.rss));
  report('heap used', after.map((s) => s.heap));
  report('external', after.map((s) => s.external));
  // The heap is a saw (garbage collections): its floor, the lowest sample of each window, is what is kept.
  const windows = 4;
  const floors = Array.from({ length: windows }, (_, w) => after.slice(Math.floor((w * after.length) / windows), Math.floor(((w + 1) * after.length) / windows))).filter((x) => x.length > 0);
  const floorOf = (xs: Sample[]) => xs.reduce((a, x) => (x.heap < a.heap ? x : a));
  const lows = floors.map(floorOf);
  const floorSlope = slope(lows.map((x) => x.t), lows.map((x) => x.heap));
  const floorBlocks = lows.at(-1)!.height - lows[0]!.height;
  console.log(
    `heap floor (lowest sample of each of ${lows.length} windows): ${lows.map((x) => `${mb(x.heap)} at ${(x.t / 60).toFixed(1)} min`).join(', ')}; ` +
      `slope ${mb(floorSlope * 3600)}/hour, ${floorBlocks > 0 ? (((lows.at(-1)!.heap - lows[0]!.heap) / floorBlocks) / 1024).toFixed(2) : '0'} KB per block`,
  );
  console.log(`gateway answers: ${[...statuses].map(([k, v]) => `${v}× ${k}`).join(', ')} (${failures} failed of ${requests})`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
