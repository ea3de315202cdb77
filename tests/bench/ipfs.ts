// npm run bench:ipfs — the embedded IPFS store through the gateway, against baselines measured in the
// same run on the same disk:
//   add: a 64 MB file POSTed to /ipfs/add (multipart through busboy, auth, limits, metering,
//     bookkeeping) vs the bare ipfs-unixfs-importer (its own chunker and leaf writer) writing a file
//     of the same size into a blockstore-fs in the same folder; rounds alternate between the two.
//     Target: ≥ 80 % of the bare importer's MB/s.
//   gateway: GET /ipfs/gateway/{cid} of a 1 KB object, 32 connections, for BENCH_READ_MS; reported
//     as reads per second (no target; the gateway's own overhead is bench:gateway's business).
// The gateway runs in this process (long-running, as in production); the uploading client and the
// bare importer each run in a process of their own, the importer warmed up on 16 MB first. Both
// sides generate their file (AES-CTR) in memory before their clock starts. The bare importer has a
// process of its own because the garbage it would leave in the gateway's process costs the next upload a third.
// Environment: BENCH_ADD_MB (64), BENCH_ADD_ROUNDS (3), BENCH_READ_MS (5000).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/config';
import { createDb, migrateLatest, sqliteFileIn } from '../../server/db/index';
import { createLogger } from '../../server/logger';
import { startGateway } from '../../server/gateway-app';
import { makeUser, makeWorkspace } from '../helpers/workspace-fixture';
import { ipfsAdd, ipfsCall } from '../helpers/ipfs';
import { machine, table, verdicts } from './lib/report';

const ADD_BYTES = Number(process.env.BENCH_ADD_MB ?? 64) * 1_000_000;
const ROUNDS = Number(process.env.BENCH_ADD_ROUNDS ?? 3);
const READ_MS = Number(process.env.BENCH_READ_MS ?? 5000);
const CONNECTIONS = 32;
const PROJECTS = 40; // each has its own token bucket (burst 500): enough keys that the limiter never answers 429 here
const ADD_TARGET = 0.8;

setTimeout(() => {
  console.error('bench:ipfs: gave up after 300 s');
  process.exit(2);
}, 300_000).unref();

/**
 * Runs a script of lib/ in a process of its own and reads the JSON line it prints last. The client
 * uploads from its own process, as a remote one would; the bare importer runs in one of its own
 * too, so neither side inherits the other's garbage or warm caches in the gateway's process.
 */
const runLib = <T>(script: string, args: string[]) =>
  new Promise<T>((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, path.join(import.meta.dirname, 'lib', script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', () => {
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? ''));
      } catch {
        reject(new Error(`${script} answered: ${out}`));
      }
    });
  });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);

async function main() {
  console.log(`bench:ipfs on ${machine()}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-ipfs-'));
  const db = createDb({ sqliteFile: sqliteFileIn(dataDir) });
  await migrateLatest(db);
  const user = await makeUser(db, 'bench-ipfs@example.com', 'DEVELOPER');
  const ws = await makeWorkspace(db, user.id, []);
  const keys = Array.from({ length: PROJECTS }, () => `ipfs${crypto.randomBytes(16).toString('hex')}`);
  const now = Date.now();
  await db('projects').insert(keys.map((key, i) => ({ uuid: crypto.randomUUID(), workspace_id: ws, name: `bench ${i}`, project_id: key, network_id: 2, created_at: now, updated_at: now })));
  const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(40), LOG_LEVEL: 'warn' });
  const gw = await startGateway({ config, db, logger: createLogger('warn'), version: 'bench', port: 0, host: '127.0.0.1' });
  const key = keys[0]!;

  const bareDir = path.join(dataDir, 'bare-importer-blocks');
  const addRows: string[][] = [];
  const cairn: number[] = [];
  const baseline: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // A new file every round on both sides, so neither skips blocks it already has.
    const bare = await runLib<{ ms: number }>('ipfs-bare-import.ts', [bareDir, String(ADD_BYTES), `bare-${round}`]);
    baseline.push(mbps(ADD_BYTES, bare.ms));
    const res = await runLib<{ ms: number; status: number; body: unknown }>('ipfs-upload.ts', [gw.url, key, String(ADD_BYTES), `cairn-${round}`]);
    if (res.status !== 200) throw new Error(`add answered ${res.status}: ${JSON.stringify(res.body)}`);
    cairn.push(mbps(ADD_BYTES, res.ms));
    addRows.push([String(round + 1), `${baseline[round]!.toFixed(1)} MB/s`, `${cairn[round]!.toFixed(1)} MB/s`, `${((cairn[round]! / baseline[round]!) * 100).toFixed(1)} %`]);
  }
  console.log(`\nadd of ${ADD_BYTES / 1e6} MB (CIDv0, 256 KiB chunks, balanced), ${ROUNDS} rounds:`);
  console.log(table(['round', 'bare importer → blockstore-fs', 'POST /ipfs/add through the gateway', 'ratio'], addRows));
  const ratio = median(cairn) / median(baseline);

  // Gateway reads of a 1 KB object.
  const small = await ipfsAdd(gw.url, key, Buffer.from(crypto.randomBytes(500).toString('hex')), 'small.txt');
  const cid = small.body.ipfs_hash as string;
  await ipfsCall('POST', `${gw.url}/api/v0/ipfs/pin/add/${cid}`, key);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  let done = 0;
  let failed = 0;
  let k = 0;
  const until = performance.now() + READ_MS;
  const read = () =>
    new Promise<void>((resolve) => {
      http
        .get(`${gw.url}/api/v0/ipfs/gateway/${cid}`, { agent, headers: { project_id: keys[k++ % keys.length]! } }, (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) done++;
            else failed++;
            resolve();
          });
        })
        .on('error', () => (failed++, resolve()));
    });
  const start = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => { while (performance.now() < until) await read(); }));
  const readsPerSecond = done / ((performance.now() - start) / 1000);
  agent.destroy();
  console.log(`\ngateway reads of a 1 KB object, ${CONNECTIONS} connections, ${READ_MS / 1000} s: ${readsPerSecond.toFixed(0)} reads/s (${failed} not 200)`);

  await gw.close();
  await db.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const ok = verdicts([
    { name: `add throughput ≥ ${ADD_TARGET * 100} % of the bare importer (median ${median(cairn).toFixed(1)} vs ${median(baseline).toFixed(1)} MB/s)`, ok: ratio >= ADD_TARGET, detail: `${(ratio * 100).toFixed(1)} %` },
    { name: 'every gateway read answered 200', ok: failed === 0, detail: `${failed} failed` },
  ]);
  process.exitCode = ok ? 0 : 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
