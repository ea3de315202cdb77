// npm run bench:push — the push API (websocket-link) at scale, on a sandbox chain that makes a block
// every second (BENCH_PUSH_BLOCK_MS).
//
// 1. One gateway (its own process, SQLite): 10,000 connections (BENCH_PUSH_CONNECTIONS) from client
//    processes of their own (BENCH_PUSH_CLIENT_PROCS, 2), all subscribed to blocks, a tenth of them
//    also to 10 addresses each. The gateway's memory (after full collections) before and after they
//    open, divided by the connections (target ≤ 20 KB each, RSS and heap); then for 10 blocks
//    (BENCH_PUSH_BLOCKS) a payment to 20 subscribed addresses after each block: every block
//    notification's delay after the block was due (genesis + height × interval; p99 target ≤ 100 ms),
//    every subscriber receiving every block once, and the address notifications' delay (p99 ≤ 250 ms),
//    each paid address hearing of its payment once.
// 2. Two gateways on PostgreSQL sharing limits in Redis (BENCH_REDIS_URL, default database 14 of the
//    local Redis, emptied), 1,000 connections on each (BENCH_PUSH_TWO_CONNECTIONS in all), payments
//    submitted through the first: every subscriber on either gateway receives every block once, the
//    same block on both, and the address subscribers of both hear of the payments.
//
// The clients stand in for wallets on other machines, but here they share the gateway's two cores,
// and reading 10,000 notifications a block costs a client process well over 100 ms of processor
// time. A notification timed when the client reads it would count the clients' turn on the cores
// as the gateway's delay, so by default (BENCH_PUSH_CLIENT=python) the clients are
// lib/push-clients.py, which times each notification by when the kernel delivered it into the
// subscriber's socket (SO_TIMESTAMPNS: on loopback, the moment the gateway's write put it there),
// and they run under Linux's SCHED_IDLE policy (`chrt --idle`; at nice 19 where chrt is missing),
// so they use only the processor time the gateway leaves, as on machines of their own: at nice 19
// the scheduler still gave them slices in the middle of a fan-out, a block in four or five twice as
// long. They still read every notification well within the block's second. The judged p99 is on the
// kernel's time; the same by the clients' reading time is printed beside it, not judged.
// BENCH_PUSH_CLIENT=node runs lib/push-clients.ts instead, timed at the read.
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { Redis } from 'ioredis';
import { createDb, migrateLatest, type Db } from '../../server/db/index';
import { SERVER_NODE_FLAGS } from '../../server/node-flags';
import { makeUser } from '../helpers/workspace-fixture';
import { keysOf } from '../unit/server/sandbox/chain/tx-builder';
import { insertProjects } from './lib/fixtures';
import { machine, percentile, ratio, row } from './lib/report';
import { advanceTracked, type FollowedBlock } from '../../server/features/txs/index';
import { postgresEngine, sqliteEngine } from './lib/scratch-db';
import type { CpuReading, MemoryReading, PushGatewayInfo } from './lib/push-gateway';
import type { ClientConnection, ClientReport } from './lib/push-clients';

const CONNECTIONS = Number(process.env.BENCH_PUSH_CONNECTIONS ?? 10_000);
const TWO_CONNECTIONS = Number(process.env.BENCH_PUSH_TWO_CONNECTIONS ?? 2000);
const BLOCKS = Number(process.env.BENCH_PUSH_BLOCKS ?? 10);
const BLOCK_MS = Number(process.env.BENCH_PUSH_BLOCK_MS ?? 1000);
const CLIENT_PROCS = Number(process.env.BENCH_PUSH_CLIENT_PROCS ?? 2);
const CLIENT = process.env.BENCH_PUSH_CLIENT ?? 'python';
if (CLIENT !== 'python' && CLIENT !== 'node') throw new Error(`BENCH_PUSH_CLIENT is 'python' or 'node', not '${CLIENT}'`);
const TRACKED = Number(process.env.BENCH_PUSH_TRACKED ?? 100_000);
const TRACKER_BLOCKS = 40;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/14';
/** Connections per project: their subscriptions stay well inside the plan's burst of 500 requests. */
const PER_PROJECT = 200;
const ADDRESSES_EACH = 10;
const PAID_PER_BLOCK = 20;
const KB = 1024;

const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - Date.now())));

/** Waits for the first message of `type` from a child. */
function reply<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`a child exited (${code}) while waiting for '${type}'`));
    const onMessage = (m: { type: string; message?: string }) => {
      if (m.type === 'error') return reject(new Error(m.message));
      if (m.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(m as T);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

interface Gateway {
  child: ChildProcess;
  url: string;
  info: PushGatewayInfo;
  memory(): Promise<MemoryReading>;
  cpu(): Promise<CpuReading>;
  stop(): Promise<void>;
}

async function startGateway(env: Record<string, string>): Promise<Gateway> {
  const child = fork(path.join(import.meta.dirname, 'lib/push-gateway.ts'), [], {
    execArgv: [...process.execArgv, ...SERVER_NODE_FLAGS, '--expose-gc', ...(process.env.BENCH_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF_DIR}`] : [])],
    env: { ...process.env, BENCH_BLOCK_MS: String(BLOCK_MS), ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<{ url: string } & PushGatewayInfo>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the gateway exited (${code}) before it was ready`)));
    child.once('message', (m: { url: string } & PushGatewayInfo) => resolve(m));
  });
  return {
    child,
    url: ready.url,
    info: ready,
    memory: () => {
      const r = reply<MemoryReading>(child, 'memory');
      child.send({ type: 'memory' });
      return r;
    },
    cpu: () => {
      const r = reply<CpuReading>(child, 'cpu');
      child.send({ type: 'cpu' });
      return r;
    },
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || !child.connected) return done();
        child.once('exit', () => done());
        child.disconnect();
      }),
  };
}

interface Clients {
  report(from: number, to: number): Promise<ClientReport[]>;
  /** The client processes' processor time so far, in all (ms). */
  cpu(): Promise<number>;
  stop(): Promise<void>;
}

/** Whether `chrt` can start a process under SCHED_IDLE (util-linux). */
const CHRT = spawnSync('chrt', ['--version']).status === 0;

/** A client process: Python's, using only what the gateway leaves of the cores (see the header), or Node's. */
function clientProcess(): ChildProcess {
  if (CLIENT === 'node') return fork(path.join(import.meta.dirname, 'lib/push-clients.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const script = path.join(import.meta.dirname, 'lib/push-clients.py');
  const child = CHRT ? spawn('chrt', ['--idle', '0', 'python3', script], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }) : spawn('python3', [script], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  if (child.pid === undefined) throw new Error('python3 could not be started (BENCH_PUSH_CLIENT=node runs the Node clients instead)');
  if (!CHRT) os.setPriority(child.pid, 19);
  return child;
}

/** Opens `connections` on the gateway from `procs` client processes; resolves once all are subscribed. */
async function openClients(gw: Gateway, connections: ClientConnection[], procs: number): Promise<Clients> {
  const children = Array.from({ length: procs }, clientProcess);
  await Promise.all(children.map((c) => reply(c, 'ready')));
  await Promise.all(
    children.map((c, p) => {
      const opened = reply(c, 'opened');
      c.send({ type: 'open', url: gw.url, connections: connections.filter((_, i) => i % procs === p), genesisTime: gw.info.genesisTime, blockIntervalMs: gw.info.blockIntervalMs });
      return opened;
    }),
  );
  return {
    report: (from, to) =>
      Promise.all(
        children.map((c) => {
          const r = reply<ClientReport>(c, 'report');
          c.send({ type: 'report', from, to });
          return r;
        }),
      ),
    cpu: async () => {
      const all = await Promise.all(
        children.map((c) => {
          const r = reply<{ ms: number }>(c, 'cpu');
          c.send({ type: 'cpu' });
          return r;
        }),
      );
      return all.reduce((n, r) => n + r.ms, 0);
    },
    stop: async () => {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((done) => {
              if (c.exitCode !== null) return done();
              c.once('exit', () => done());
              c.send({ type: 'close' });
            }),
        ),
      );
    },
  };
}

/** A database with an ENTERPRISE owner's preprod projects, enough for `connections` at PER_PROJECT each; answers their keys. */
async function seed(db: Db, connections: number): Promise<string[]> {
  await migrateLatest(db);
  const owner = await makeUser(db, `bench-push-${crypto.randomBytes(3).toString('hex')}@example.com`, 'ENTERPRISE');
  const workspace = (await db('workspaces').where({ owner_id: owner.id }).first('id')) as { id: number };
  const projects = await insertProjects(db, workspace.id, Math.ceil(connections / PER_PROJECT), 200, { id: 6, prefix: 'preprod' });
  return projects.map((p) => p.key);
}

/** `n` preprod enterprise addresses of keys nobody holds: nothing but the bench's payments touch them. */
function freshAddresses(n: number): string[] {
  return Array.from({ length: n }, () =>
    CSL.EnterpriseAddress.new(0, CSL.Credential.from_keyhash(CSL.Ed25519KeyHash.from_bytes(crypto.randomBytes(28)))).to_address().to_bech32(undefined),
  );
}

interface Utxo {
  tx_hash: string;
  output_index: number;
  amount: Array<{ unit: string; quantity: string }>;
}

const big = (n: bigint) => CSL.BigNum.from_str(String(n));

/** A signed payment of `each` lovelace to every address of `to`, change back to the wallet. */
function payment(input: Utxo, to: string[], each: bigint, change: string, key: CSL.PrivateKey): Uint8Array {
  const total = BigInt(input.amount.find((a) => a.unit === 'lovelace')!.quantity);
  const build = (fee: bigint) => {
    const inputs = CSL.TransactionInputs.new();
    inputs.add(CSL.TransactionInput.new(CSL.TransactionHash.from_hex(input.tx_hash), input.output_index));
    const outputs = CSL.TransactionOutputs.new();
    for (const a of to) outputs.add(CSL.TransactionOutput.new(CSL.Address.from_bech32(a), CSL.Value.new(big(each))));
    outputs.add(CSL.TransactionOutput.new(CSL.Address.from_bech32(change), CSL.Value.new(big(total - each * BigInt(to.length) - fee))));
    const tx = CSL.FixedTransaction.new(CSL.TransactionBody.new_tx_body(inputs, outputs, big(fee)).to_bytes(), CSL.TransactionWitnessSet.new().to_bytes(), true);
    tx.sign_and_add_vkey_signature(key);
    return tx.to_bytes();
  };
  let fee = 0n;
  for (let i = 0; i < 4; i++) {
    const needed = 44n * BigInt(build(fee).length) + 155_381n + 1000n;
    if (needed <= fee) break;
    fee = needed;
  }
  return build(fee);
}

/** Pays through the gateway's REST API from the development wallets in turn, never spending an output twice. */
function payer(gw: Gateway, key: string) {
  const spent = new Set<string>();
  let turn = 0;
  return async (to: string[]): Promise<string> => {
    const wallet = gw.info.wallets[turn++ % gw.info.wallets.length]!;
    const res = await fetch(`${gw.url}/api/v0/addresses/${wallet.address}/utxos?count=100`, { headers: { project_id: key } });
    if (!res.ok) throw new Error(`reading ${wallet.address}'s outputs answered ${res.status}`);
    const utxos = (await res.json()) as Utxo[];
    const input = utxos.find((u) => u.amount.length === 1 && BigInt(u.amount[0]!.quantity) > 200_000_000n && !spent.has(`${u.tx_hash}#${u.output_index}`));
    if (!input) throw new Error(`no output left to spend at ${wallet.address}`);
    spent.add(`${input.tx_hash}#${input.output_index}`);
    const cbor = payment(input, to, 2_000_000n, wallet.address, keysOf(wallet.mnemonic).payment);
    const submitted = await fetch(`${gw.url}/api/v0/tx/submit`, { method: 'POST', headers: { project_id: key, 'content-type': 'application/cbor' }, body: Buffer.from(cbor) });
    if (submitted.status !== 200) throw new Error(`/tx/submit answered ${submitted.status}: ${await submitted.text()}`);
    return (await submitted.json()) as string;
  };
}

/**
 * Lets BLOCKS blocks pass after the connections opened, paying `paidPerBlock` of `addresses` just
 * after each block but the last (so every payment lands in the range); answers the range of heights
 * and the payments (transaction → the addresses it paid).
 */
async function runBlocks(gw: Gateway, pay: (to: string[]) => Promise<string>, addresses: string[]): Promise<{ from: number; to: number; paid: Map<string, string[]> }> {
  const { genesisTime, blockIntervalMs } = gw.info;
  const heightAt = (t: number) => Math.floor((t - genesisTime) / blockIntervalMs);
  // Two blocks after the memory readings, whose forced full collections leave the gateway's
  // collector threads sweeping for a while after they answer.
  const from = heightAt(Date.now()) + 3;
  const to = from + BLOCKS - 1;
  const paid = new Map<string, string[]>();
  let next = 0;
  for (let h = from; h < to; h++) {
    // A moment after block h is due, so the payment waits in the mempool for block h + 1.
    await sleepUntil(genesisTime + h * blockIntervalMs + Math.min(200, blockIntervalMs / 4));
    const list = Array.from({ length: Math.min(PAID_PER_BLOCK, addresses.length) }, () => addresses[next++ % addresses.length]!);
    paid.set(await pay(list), list);
  }
  // The last block, and time for its notifications to arrive.
  await sleepUntil(genesisTime + to * blockIntervalMs + 3000);
  return { from, to, paid };
}

interface Delivery {
  /** Timed by the kernel's delivery into the socket (Python clients) or the client's read (Node's). */
  blockDelays: Float64Array;
  /** The same notifications timed by the client's read (Python clients only; none from Node's). */
  readDelays: Float64Array;
  /** Heights some subscriber missed or received more than once, or announced with more than one hash. */
  badHeights: string[];
  /** What a client received that was not a message of the protocol, and connections that closed: none expected. */
  problems: string[];
  addressDelays: Float64Array;
  expectedNotes: number;
  notes: number;
  duplicateNotes: number;
  /** The hash announced per height. */
  hashes: Map<number, string>;
  /** Each block's delays, sorted. */
  perHeight: Map<number, Float64Array>;
}

/** Sums the client processes' reports: every subscriber should hold every height once, each paid address its payment once. */
function delivery(reports: ClientReport[], connections: number, from: number, to: number, paid: Map<string, string[]>): Delivery {
  const blockDelays = Float64Array.from(reports.flatMap((r) => r.blockDelays));
  const readDelays = Float64Array.from(reports.flatMap((r) => r.readDelays ?? [])).sort();
  const badHeights: string[] = [];
  const hashes = new Map<number, string>();
  for (let h = from; h <= to; h++) {
    const once = reports.reduce((n, r) => n + r.heights[h]!.once, 0);
    const more = reports.reduce((n, r) => n + r.heights[h]!.more, 0);
    const seen = new Set(reports.flatMap((r) => r.heights[h]!.hashes));
    if (once !== connections || more > 0 || seen.size !== 1) badHeights.push(`${h}: ${once} once, ${more} more than once, ${seen.size} hashes`);
    hashes.set(h, [...seen][0] ?? '');
  }
  const problems = reports.flatMap((r) => [...r.unexpected, ...(r.closed > 0 ? [`${r.closed} of ${r.connections} connections closed`] : [])]);
  const notes = reports.flatMap((r) => r.addressNotes).filter((n) => paid.has(n.txHash));
  const distinct = new Set(notes.map((n) => `${n.txHash}:${n.address}`));
  const expectedNotes = [...paid.values()].reduce((n, list) => n + new Set(list).size, 0);
  return {
    blockDelays,
    readDelays,
    badHeights,
    problems,
    addressDelays: Float64Array.from(notes.map((n) => n.delay)),
    expectedNotes,
    notes: [...distinct].filter((k) => paid.get(k.split(':')[0]!)!.includes(k.split(':')[1]!)).length,
    duplicateNotes: notes.length - distinct.size,
    hashes,
    perHeight: new Map(Array.from({ length: to - from + 1 }, (_, i) => [from + i, Float64Array.from(reports.flatMap((r) => r.heightDelays[from + i] ?? [])).sort()])),
  };
}

const p99 = (a: Float64Array) => percentile(a.sort(), 99);
const fmt = (v: number) => `${v.toFixed(1)} ms`;
/** The line on the clients' reading time, when they time it apart from the kernel's delivery. */
const readLine = (d: Delivery) =>
  d.readDelays.length ? `  by the clients' reading time (not judged): p50 ${fmt(percentile(d.readDelays, 50))}, p99 ${fmt(percentile(d.readDelays, 99))}, max ${fmt(d.readDelays.at(-1)!)}` : '';
const timedBy = CLIENT === 'python' ? "the kernel's delivery into the socket" : "the clients' read";

/** Connection i: a project key in turn; the first `withAddresses` also subscribe to 10 addresses of their own. */
function connectionsOf(keys: string[], n: number, withAddresses: number, addresses: string[]): ClientConnection[] {
  return Array.from({ length: n }, (_, i) => ({ key: keys[Math.floor(i / PER_PROJECT)]!, ...(i < withAddresses ? { addresses: addresses.slice(i * ADDRESSES_EACH, (i + 1) * ADDRESSES_EACH) } : {}) }));
}

async function oneGateway(): Promise<void> {
  const engine = sqliteEngine('push');
  const db = createDb({ sqliteFile: engine.sqliteFile! });
  const stops: Array<() => Promise<void>> = [];
  try {
    const keys = await seed(db, CONNECTIONS);
    await db.destroy();
    const gw = await startGateway({ BENCH_DATA_DIR: path.dirname(engine.sqliteFile!) });
    stops.push(gw.stop);
    const withAddresses = Math.floor(CONNECTIONS / 10);
    const addresses = freshAddresses(withAddresses * ADDRESSES_EACH);
    const conns = connectionsOf(keys, CONNECTIONS, withAddresses, addresses);
    // The gateway settles after start-up: the second reading, a second after the first's collections, is the baseline.
    await new Promise((r) => setTimeout(r, 2000));
    await gw.memory();
    await new Promise((r) => setTimeout(r, 1000));
    const before = await gw.memory();
    const t0 = performance.now();
    const clients = await openClients(gw, conns, CLIENT_PROCS);
    stops.unshift(clients.stop);
    console.log(`${CONNECTIONS} connections open and subscribed (${withAddresses} of them to ${ADDRESSES_EACH} addresses each) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await new Promise((r) => setTimeout(r, 1000));
    const after = await gw.memory();
    // Blocks are measured once the opening's own work (metering the subscriptions, collections) is behind.
    await new Promise((r) => setTimeout(r, 3000));
    const rssEach = (after.rss - before.rss) / CONNECTIONS;
    const heapEach = (after.heapUsed + after.external - before.heapUsed - before.external) / CONNECTIONS;
    console.log(`gateway memory: RSS ${(before.rss / 2 ** 20).toFixed(1)} → ${(after.rss / 2 ** 20).toFixed(1)} MiB, heap+external ${((before.heapUsed + before.external) / 2 ** 20).toFixed(1)} → ${((after.heapUsed + after.external) / 2 ** 20).toFixed(1)} MiB`);

    const [gwBefore, clientsBefore] = await Promise.all([gw.cpu(), clients.cpu()]);
    const { from, to, paid } = await runBlocks(gw, payer(gw, keys[0]!), addresses);
    const [gwAfter, clientsAfter] = await Promise.all([gw.cpu(), clients.cpu()]);
    const d = delivery(await clients.report(from, to), CONNECTIONS, from, to, paid);
    const blockP99 = p99(d.blockDelays);
    const addressP99 = p99(d.addressDelays);
    console.log(`blocks ${from}–${to}: ${d.blockDelays.length} block notifications timed by ${timedBy}, p50 ${fmt(percentile(d.blockDelays, 50))}, p99 ${fmt(blockP99)}, max ${fmt(d.blockDelays.at(-1) ?? NaN)}; ${d.notes} of ${d.expectedNotes} address notifications, p50 ${fmt(percentile(d.addressDelays.sort(), 50))}, p99 ${fmt(addressP99)}`);
    if (readLine(d)) console.log(readLine(d));
    for (const b of d.badHeights) console.log(`  not delivered once to every subscriber: ${b}`);
    for (const p of d.problems) console.log(`  ${p}`);
    for (const [h, delays] of d.perHeight) console.log(`  block ${h}: p50 ${fmt(percentile(delays, 50))}, p99 ${fmt(percentile(delays, 99))}`);
    // Processor time per block over the blocks' stretch (the payments and their answers included):
    // what the gateway and the clients ask of the machine's cores, whatever else runs on them.
    const perBlock = (ms: number) => fmt(ms / BLOCKS);
    console.log(
      `processor time per block: gateway main thread ${perBlock(gwAfter.mainMs - gwBefore.mainMs)} (waiting for a core ${perBlock(gwAfter.mainWaitMs - gwBefore.mainWaitMs)}), gateway process ${perBlock(gwAfter.processMs - gwBefore.processMs)}, client processes ${perBlock(clientsAfter - clientsBefore)}`,
    );
    const n = CONNECTIONS.toLocaleString('en-US');
    row({ bench: 'push', measure: `gateway memory per idle connection (RSS), ${n} connections`, figure: `${(rssEach / KB).toFixed(1)} KB`, baseline: '', ratio: '', target: '≤ 20 KB', pass: rssEach <= 20 * KB });
    row({ bench: 'push', measure: `gateway memory per idle connection (heap + external), ${n} connections`, figure: `${(heapEach / KB).toFixed(1)} KB`, baseline: '', ratio: '', target: '≤ 20 KB', pass: heapEach <= 20 * KB });
    row({ bench: 'push', measure: `every block delivered once to every one of ${n} subscribers, ${BLOCKS} blocks`, figure: d.badHeights.length + d.problems.length === 0 ? 'yes' : `no (${d.badHeights.length} blocks, ${d.problems.length} other problems)`, baseline: '', ratio: '', target: 'yes', pass: d.badHeights.length + d.problems.length === 0 });
    row({ bench: 'push', measure: `block added → notification delivered, p99 over ${n} subscribers × ${BLOCKS} blocks`, figure: fmt(blockP99), baseline: '', ratio: '', target: '≤ 100 ms', pass: blockP99 <= 100 });
    row({ bench: 'push', measure: `address notifications delivered once (${PAID_PER_BLOCK} paid addresses per block)`, figure: `${d.notes} of ${d.expectedNotes}${d.duplicateNotes ? `, ${d.duplicateNotes} repeated` : ''}`, baseline: '', ratio: '', target: 'all, once', pass: d.notes === d.expectedNotes && d.duplicateNotes === 0 && d.expectedNotes > 0 });
    row({ bench: 'push', measure: 'block added → address notification delivered, p99', figure: fmt(addressP99), baseline: '', ratio: '', target: '≤ 250 ms', pass: addressP99 <= 250 });
  } finally {
    for (const stop of stops) await stop();
    await engine.drop();
  }
}

async function twoGateways(): Promise<void> {
  const scratch = await postgresEngine('push');
  if (!scratch) return;
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const stops: Array<() => Promise<void>> = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-push2-'));
  try {
    await redis.connect();
    await redis.flushdb();
    const db = createDb({ databaseUrl: scratch.databaseUrl! });
    const keys = await seed(db, TWO_CONNECTIONS);
    await db.destroy();
    const env = { BENCH_DATABASE_URL: scratch.databaseUrl!, BENCH_DATA_DIR: dir, BENCH_REDIS_URL: REDIS_URL };
    const gateways = [await startGateway(env), await startGateway(env)];
    for (const g of gateways) stops.push(g.stop);
    const half = Math.floor(TWO_CONNECTIONS / 2);
    const withAddresses = Math.max(1, Math.floor(half / 10));
    const addresses = freshAddresses(withAddresses * ADDRESSES_EACH);
    // Both gateways' address subscribers watch the same addresses: a payment is heard of on both.
    const conns = connectionsOf(keys, TWO_CONNECTIONS, 0, []);
    const sides = await Promise.all(
      gateways.map((g, side) =>
        openClients(
          g,
          conns.slice(side * half, (side + 1) * half).map((c, i) => (i < withAddresses ? { ...c, addresses: addresses.slice(i * ADDRESSES_EACH, (i + 1) * ADDRESSES_EACH) } : c)),
          1,
        ),
      ),
    );
    for (const s of sides) stops.unshift(s.stop);
    console.log(`two gateways on PostgreSQL and Redis: ${half} connections on each`);
    const { from, to, paid } = await runBlocks(gateways[0]!, payer(gateways[0]!, keys[0]!), addresses);
    const results = await Promise.all(sides.map((s) => s.report(from, to).then((r) => delivery(r, half, from, to, paid))));
    const sameBlocks = [...results[0]!.hashes].every(([h, hash]) => hash !== '' && results[1]!.hashes.get(h) === hash);
    results.forEach((d, i) => {
      console.log(`gateway ${i + 1}: p99 ${fmt(p99(d.blockDelays))} over ${d.blockDelays.length} block notifications timed by ${timedBy}; ${d.notes} of ${d.expectedNotes} address notifications, p99 ${fmt(p99(d.addressDelays))}`);
      if (readLine(d)) console.log(readLine(d));
      for (const b of d.badHeights) console.log(`  not delivered once to every subscriber: ${b}`);
      for (const p of d.problems) console.log(`  ${p}`);
    });
    const once = results.every((d) => d.badHeights.length + d.problems.length === 0) && sameBlocks;
    row({ bench: 'push', measure: `two gateways (PostgreSQL, Redis): every block delivered once to every subscriber of either, ${BLOCKS} blocks`, figure: once ? 'yes' : `no${sameBlocks ? '' : ' (the gateways announced different blocks)'}`, baseline: '', ratio: '', target: 'yes', pass: once });
    const notesOk = results.every((d) => d.notes === d.expectedNotes && d.duplicateNotes === 0 && d.expectedNotes > 0);
    row({ bench: 'push', measure: 'two gateways: payments submitted through one heard of once on both', figure: results.map((d) => `${d.notes} of ${d.expectedNotes}`).join(', '), baseline: '', ratio: '', target: 'all, once', pass: notesOk });
    row({ bench: 'push', measure: 'two gateways: block added → notification delivered, p99', figure: results.map((d) => fmt(p99(d.blockDelays))).join(', '), baseline: '', ratio: '', target: '≤ 100 ms', pass: results.every((d) => p99(d.blockDelays) <= 100) });
  } finally {
    for (const stop of stops) await stop();
    redis.disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
    await scratch.drop();
  }
}

/**
 * The tracker's cost per block (advanceTracked in the follower's transaction) with TRACKED pending
 * transactions, against the same blocks with 1,000 pending: each block of 300 transactions lands 10
 * of the tracked ones, and its slot moves on (the expiry check runs on every block).
 */
async function trackerCost(db: Db, engine: string): Promise<void> {
  const network = 3;
  const [keys] = [await seed(db, 1)];
  const projectId = Number((await db('projects').where({ project_id: keys[0] }).first('id')).id);
  const hash = () => crypto.randomBytes(32).toString('hex');
  const whole: number[] = [];
  const run = async (pending: number): Promise<number[]> => {
    whole.length = 0;
    await db('tracked_txs').delete();
    const now = Date.now();
    const hashes = Array.from({ length: pending }, hash);
    // Validity ends spread over the next days of slots, as wallets set them (a few hours ahead).
    for (let i = 0; i < hashes.length; i += 500) {
      await db('tracked_txs').insert(hashes.slice(i, i + 500).map((h, j) => ({ project_id: projectId, network, tx_hash: h, state: 'pending', ttl_slot: 1_000_000 + ((i + j) % 100_000), confirmations_needed: 10, submitted_at: now, updated_at: now })));
    }
    // The table as autovacuum keeps one that grew to this size: vacuumed and with its statistics (the
    // planner's choices depend on them); and the bulk insert's pages written out by a checkpoint of
    // its own (a superuser's or pg_checkpoint's right; skipped without it), so the timed blocks do not
    // pay for the bench's insert, or for the earlier parts' writes, as a tracker in its steady state does not.
    if (engine === 'PostgreSQL') {
      await db.raw('VACUUM ANALYZE tracked_txs');
      await db.raw('CHECKPOINT').catch(() => undefined);
    }
    const times: number[] = [];
    for (let b = 0; b < TRACKER_BLOCKS; b++) {
      const txHashes = [...Array.from({ length: 290 }, hash), ...hashes.slice(b * 10, b * 10 + 10)];
      const block: FollowedBlock = { height: 1000 + b, hash: hash(), slot: 900_000 + b, txHashes };
      // Timed inside the transaction: the follower runs advanceTracked in the transaction it opens and
      // commits for every batch of blocks anyway (its cursor, events and block hashes), so what tracking
      // adds to a block is its statements, not a BEGIN and a COMMIT of its own. The whole transaction is
      // timed too, and printed.
      const t = performance.now();
      await db.transaction(async (trx) => {
        // knex calls this once BEGIN has answered.
        const inside = performance.now();
        await advanceTracked(trx, network, [block], now);
        times.push(performance.now() - inside);
      });
      whole.push(performance.now() - t);
    }
    const landed = Number((await db('tracked_txs').whereIn('state', ['in_block', 'confirmed']).count({ n: '*' }).first())?.n);
    if (landed !== TRACKER_BLOCKS * 10) throw new Error(`${landed} tracked transactions landed, expected ${TRACKER_BLOCKS * 10}`);
    return times.sort((a, b) => a - b);
  };
  const base = await run(1000);
  const many = await run(TRACKED);
  const median = percentile(many, 50);
  const baseMedian = percentile(base, 50);
  console.log(`${engine}: tracker per block of 300 txs landing 10, ${TRACKED} pending: median ${median.toFixed(2)} ms, p95 ${percentile(many, 95).toFixed(2)} ms (with a transaction of its own, BEGIN to COMMIT: median ${percentile(whole.sort((a, b) => a - b), 50).toFixed(2)} ms); 1,000 pending: median ${baseMedian.toFixed(2)} ms`);
  row({ bench: 'push', measure: `${engine} tracker per block, ${TRACKED.toLocaleString('en-US')} pending transactions, median of ${TRACKER_BLOCKS}`, figure: `${median.toFixed(2)} ms (p95 ${percentile(many, 95).toFixed(2)})`, baseline: `${baseMedian.toFixed(2)} ms 1,000 pending`, ratio: ratio(median, baseMedian), target: '≤ 5 ms', pass: median <= 5 });
}

async function tracker(): Promise<void> {
  const sqlite = sqliteEngine('push-tracker');
  const db = createDb({ sqliteFile: sqlite.sqliteFile! });
  try {
    await trackerCost(db, 'SQLite');
  } finally {
    await db.destroy();
    await sqlite.drop();
  }
  const scratch = await postgresEngine('push_tracker');
  if (!scratch) return;
  const pg = createDb({ databaseUrl: scratch.databaseUrl! });
  try {
    await trackerCost(pg, 'PostgreSQL');
  } finally {
    await pg.destroy();
    await scratch.drop();
  }
}

console.log(`bench:push on ${machine()}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
const parts = (process.env.BENCH_PUSH_PARTS ?? 'one,two,tracker').split(',');
if (parts.includes('one')) await oneGateway();
if (parts.includes('two')) await twoGateways();
if (parts.includes('tracker')) await tracker();
console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
