// npm run bench:ipfs-size — IPFS at size: a 1 GiB file added and read through the gateway, against
// the IPFS project's bare libraries on the same disk in the same run.
//   add: the file (AES-CTR pseudo-random, written under the OS temporary folder once per round and
//     streamed from there, never held in memory) POSTed to /ipfs/add with a project key (multipart
//     through busboy, auth, limits, metering, bookkeeping) vs the bare ipfs-unixfs-importer reading
//     the same file into a blockstore-fs next to the gateway's. Targets: the gateway's resident
//     memory grows by less than 64 MB during the add; its MB/s ≥ 0.8× the bare importer's.
//   read: GET /ipfs/gateway/{cid} of the whole file vs the bare ipfs-unixfs-exporter reading the
//     same blocks. Target: ≥ 0.8× the bare exporter's MB/s.
//   ranges: seeks as a video player makes them (1 MiB at random offsets, open and suffix ranges),
//     each checked byte for byte against the file. Target: every one answered 206 with its bytes.
//   pin: POST /ipfs/pin/add of the file just added, timed (target: 200).
// The gateway runs in a process of its own (lib/ipfs-size-server.ts) whose resident size this
// process reads from /proc every 25 ms (and its high-water mark); the server samples its own heap.
// Client and baselines run in processes of their own (lib/ipfs-size-client.ts).
// Environment: BENCH_SIZE_MIB (1024), BENCH_SIZE_ROUNDS (3), BENCH_RANGES (40), BENCH_PROFILE (a folder
// for the server's CPU profile).
import { fork, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { pseudoRandom } from '../helpers/ipfs';
import { machine, ratio, row, table, percentile } from './lib/report';
import type { HeapSample } from './lib/ipfs-size-server';

const SIZE = Number(process.env.BENCH_SIZE_MIB ?? 1024) * 1024 * 1024;
const LABEL = SIZE === 2 ** 30 ? '1 GiB' : `${SIZE / 2 ** 20} MiB`;
const ROUNDS = Number(process.env.BENCH_SIZE_ROUNDS ?? 3);
const RANGES = Number(process.env.BENCH_RANGES ?? 40);
const RANGE_BYTES = 1 << 20;
const MEMORY_LIMIT = 64 * 1024 * 1024;
const TARGET = 0.8;

setTimeout(() => {
  console.error('bench:ipfs-size: gave up after 840 s');
  process.exit(2);
}, 840_000).unref();

const lib = (name: string) => path.join(import.meta.dirname, 'lib', name);

/** Runs lib/ipfs-size-client.ts in a process of its own and reads the JSON line it prints last. */
const client = <T>(args: string[]) =>
  new Promise<T>((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, lib('ipfs-size-client.ts'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', () => {
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? ''));
      } catch {
        reject(new Error(`ipfs-size-client ${args[0]} answered: ${out}`));
      }
    });
  });

/** A resident-size field of /proc/<pid>/status, in bytes. */
const procKib = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

interface Server {
  url: string;
  key: string;
  pid: number;
  blocks: string;
  child: ChildProcess;
}

function startServer(dataDir: string): Promise<Server> {
  // BENCH_PROFILE=<folder>: the server writes a V8 CPU profile there when it ends.
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = fork(lib('ipfs-size-server.ts'), [], {
    execArgv: [...process.execArgv, ...profile],
    env: { ...process.env, BENCH_DATA_DIR: dataDir, BENCH_MAX_ADD_MB: String(Math.ceil(SIZE / 1e6) + 1) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`ipfs-size-server exited (${code}) before it was ready`)));
    child.once('message', (m: Omit<Server, 'child'>) => resolve({ ...m, child }));
  });
}

/** Runs both, first one then the other, in an order that alternates by round, so neither side always runs on the warmer machine. */
async function inTurn<A, B>(round: number, a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> {
  if (round % 2 === 0) {
    const first = await a();
    return [first, await b()];
  }
  const second = await b();
  return [await a(), second];
}

/** The server's memory while `run` runs: resident growth over the settled size before, and its heap's. */
async function measured<T>(server: Server, run: () => Promise<T>): Promise<{ result: T; rss: number; heap: number; external: number }> {
  // The baseline once the resident size settles: two readings 50 ms apart within 256 KiB.
  let before = procKib(server.pid, 'VmRSS');
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const now = procKib(server.pid, 'VmRSS');
    if (Math.abs(now - before) < 256 * 1024) break;
    before = now;
  }
  const hwmBefore = procKib(server.pid, 'VmHWM');
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, procKib(server.pid, 'VmRSS'))), 25);
  server.child.send({ heap: 'start' });
  const result = await run();
  clearInterval(sampler);
  const heap = await new Promise<HeapSample>((resolve) => {
    server.child.once('message', (m: { heap: HeapSample }) => resolve(m.heap));
    server.child.send({ heap: 'stop' });
  });
  // The high-water mark catches a peak between two samples, when it is above every earlier one.
  const hwm = procKib(server.pid, 'VmHWM');
  if (hwm > hwmBefore) peak = Math.max(peak, hwm);
  return { result, rss: peak - before, heap: heap.peakHeapUsed - heap.heapUsed, external: heap.peakExternal - heap.external };
}

/** Writes SIZE pseudo-random bytes of `seed` to `file`, 1 MiB at a time. */
const writeFile = (file: string, seed: string) => pipeline(Readable.from(pseudoRandom(SIZE, seed, 1 << 20)), fs.createWriteStream(file));

function get(url: string, key: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer; ms: number }> {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { project_id: key, ...headers } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), ms: performance.now() - t }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);
const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main() {
  console.log(`bench:ipfs-size on ${machine()}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-ipfs-size-'));
  const dataDir = path.join(dir, 'data');
  fs.mkdirSync(dataDir);
  const bareDir = path.join(dataDir, 'bare-importer-blocks');
  const server = await startServer(dataDir);
  try {
    // Warm-up: modules loaded, the first add's allocations made.
    const warmFile = path.join(dir, 'warm.bin');
    await pipeline(Readable.from(pseudoRandom(16_000_000, `warm-${crypto.randomUUID()}`, 1 << 20)), fs.createWriteStream(warmFile));
    const warm = await client<{ status: number; body: string }>(['upload', server.url, server.key, warmFile]);
    if (warm.status !== 200) throw new Error(`the warm-up add answered ${warm.status}: ${warm.body}`);

    const addRows: string[][] = [];
    const adds: Array<{ bare: number; cairn: number; rss: number; heap: number; external: number; cid: string; sameCid: boolean }> = [];
    let file = '';
    let cid = '';
    for (let round = 0; round < ROUNDS; round++) {
      // A new file every round, so neither side skips blocks it already has.
      if (file) fs.rmSync(file);
      file = path.join(dir, `round-${round}.bin`);
      await writeFile(file, `ipfs-size-${round}-${crypto.randomUUID()}`);
      const runBare = () => client<{ ms: number; cid: string }>(['import', bareDir, file]);
      const runCairn = () => measured(server, () => client<{ ms: number; status: number; body: string }>(['upload', server.url, server.key, file]));
      const [bare, cairn] = await inTurn(round, runBare, runCairn);
      if (cairn.result.status !== 200) throw new Error(`the add answered ${cairn.result.status}: ${cairn.result.body}`);
      const answer = JSON.parse(cairn.result.body) as { ipfs_hash: string; size: string };
      if (answer.size !== String(SIZE)) throw new Error(`the add answered size ${answer.size}, not ${SIZE}`);
      cid = answer.ipfs_hash;
      const a = { bare: mbps(SIZE, bare.ms), cairn: mbps(SIZE, cairn.result.ms), rss: cairn.rss, heap: cairn.heap, external: cairn.external, cid, sameCid: cid === bare.cid };
      adds.push(a);
      addRows.push([String(round + 1), `${a.bare.toFixed(1)} MB/s`, `${a.cairn.toFixed(1)} MB/s`, ratio(a.cairn, a.bare), `+${mb(a.rss)}`, `+${mb(a.heap)}`, `+${mb(a.external)}`]);
    }
    console.log(`\nadd of ${LABEL} (CIDv0, 256 KiB chunks, balanced), ${ROUNDS} rounds, load average ${os.loadavg()[0]!.toFixed(2)}:`);
    console.log(table(['round', 'bare importer → blockstore-fs', 'POST /ipfs/add', 'ratio', 'server RSS', 'heap', 'external'], addRows));

    // Reads of the last round's file: whole, through the gateway and with the bare exporter, alternating.
    const readRows: string[][] = [];
    const reads: Array<{ bare: number; cairn: number; rss: number }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      const runBare = () => client<{ ms: number; bytes: number }>(['export', server.blocks, cid]);
      const runCairn = () => measured(server, () => client<{ ms: number; status: number; bytes: number }>(['download', server.url, server.key, cid]));
      const [bare, cairn] = await inTurn(round, runBare, runCairn);
      if (cairn.result.status !== 200 || cairn.result.bytes !== SIZE) throw new Error(`the gateway read answered ${cairn.result.status} with ${cairn.result.bytes} bytes`);
      if (bare.bytes !== SIZE) throw new Error(`the bare exporter read ${bare.bytes} bytes`);
      const r = { bare: mbps(SIZE, bare.ms), cairn: mbps(SIZE, cairn.result.ms), rss: cairn.rss };
      reads.push(r);
      readRows.push([String(round + 1), `${r.bare.toFixed(1)} MB/s`, `${r.cairn.toFixed(1)} MB/s`, ratio(r.cairn, r.bare), `+${mb(r.rss)}`]);
    }
    console.log(`\nread of the ${LABEL} file, load average ${os.loadavg()[0]!.toFixed(2)}:`);
    console.log(table(['round', 'bare exporter ← blockstore-fs', 'GET /ipfs/gateway/{cid}', 'ratio', 'server RSS'], readRows));

    // Seeks: 1 MiB at random offsets, an open range near the end and a suffix range, checked against the file.
    const fd = fs.openSync(file, 'r');
    const expected = (offset: number, length: number) => {
      const b = Buffer.alloc(length);
      fs.readSync(fd, b, 0, length, offset);
      return b;
    };
    const url = `${server.url}/api/v0/ipfs/gateway/${cid}`;
    const asks: Array<{ header: string; offset: number; length: number }> = [];
    for (let i = 0; i < RANGES; i++) {
      const offset = crypto.randomInt(0, SIZE - RANGE_BYTES);
      asks.push({ header: `bytes=${offset}-${offset + RANGE_BYTES - 1}`, offset, length: RANGE_BYTES });
    }
    asks.push({ header: `bytes=${SIZE - 300_000}-`, offset: SIZE - 300_000, length: 300_000 });
    asks.push({ header: `bytes=-${RANGE_BYTES}`, offset: SIZE - RANGE_BYTES, length: RANGE_BYTES });
    const latencies: number[] = [];
    let right = 0;
    for (const ask of asks) {
      const res = await get(url, server.key, { range: ask.header });
      latencies.push(res.ms);
      const ok =
        res.status === 206 &&
        res.headers['content-range'] === `bytes ${ask.offset}-${ask.offset + ask.length - 1}/${SIZE}` &&
        res.body.equals(expected(ask.offset, ask.length));
      if (ok) right++;
      else console.log(`range ${ask.header} answered ${res.status} ${res.headers['content-range'] ?? ''} with ${res.body.byteLength} bytes`);
    }
    fs.closeSync(fd);
    const sorted = latencies.sort((x, y) => x - y);
    const unsatisfiable = await get(url, server.key, { range: `bytes=${SIZE}-` });
    console.log(`\n${asks.length} range requests: p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms; past the end: ${unsatisfiable.status}`);

    // A pin of the file just added: the store checks its blocks are there (it knows them from the add).
    const pinStart = performance.now();
    const pin = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${server.url}/api/v0/ipfs/pin/add/${cid}`, { method: 'POST', headers: { project_id: server.key } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    const pinMs = performance.now() - pinStart;
    console.log(`pin of the ${LABEL} file: ${pin.status} in ${pinMs.toFixed(0)} ms`);

    console.log();
    const addRatio = median(adds.map((a) => a.cairn)) / median(adds.map((a) => a.bare));
    const maxRss = Math.max(...adds.map((a) => a.rss));
    const readRatio = median(reads.map((r) => r.cairn)) / median(reads.map((r) => r.bare));
    row({ bench: 'ipfs-size', measure: `${LABEL} add: server memory growth (RSS; heap +${mb(Math.max(...adds.map((a) => a.heap)))})`, figure: `+${mb(maxRss)}`, baseline: '', ratio: '', target: '< 64 MiB', pass: maxRss < MEMORY_LIMIT });
    row({
      bench: 'ipfs-size',
      measure: `${LABEL} add through the gateway vs the bare importer (median MB/s)`,
      figure: `${median(adds.map((a) => a.cairn)).toFixed(1)} MB/s`,
      baseline: `${median(adds.map((a) => a.bare)).toFixed(1)} MB/s`,
      ratio: ratio(addRatio, 1),
      target: `≥ ${TARGET.toFixed(2)}×`,
      pass: addRatio >= TARGET,
    });
    row({ bench: 'ipfs-size', measure: `${LABEL} add: the gateway gives the CID the bare importer gives`, figure: `${adds.filter((a) => a.sameCid).length} of ${adds.length}`, baseline: '', ratio: '', target: 'all', pass: adds.every((a) => a.sameCid) });
    row({
      bench: 'ipfs-size',
      measure: `${LABEL} read through the gateway vs the bare exporter (median MB/s)`,
      figure: `${median(reads.map((r) => r.cairn)).toFixed(1)} MB/s`,
      baseline: `${median(reads.map((r) => r.bare)).toFixed(1)} MB/s`,
      ratio: ratio(readRatio, 1),
      target: `≥ ${TARGET.toFixed(2)}×`,
      pass: readRatio >= TARGET,
    });
    row({
      bench: 'ipfs-size',
      measure: `range requests on the ${LABEL} file answered 206 with their bytes (p95 ${percentile(sorted, 95).toFixed(1)} ms); past the end 416`,
      figure: `${right} of ${asks.length}, ${unsatisfiable.status}`,
      baseline: '',
      ratio: '',
      target: 'all, 416',
      pass: right === asks.length && unsatisfiable.status === 416,
    });
    row({ bench: 'ipfs-size', measure: `pin of the ${LABEL} file just added (${pinMs.toFixed(0)} ms)`, figure: String(pin.status), baseline: '', ratio: '', target: '200', pass: pin.status === 200 });
  } finally {
    await new Promise<void>((resolve) => {
      if (server.child.exitCode !== null) return resolve();
      server.child.once('exit', () => resolve());
      server.child.disconnect();
    });
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
