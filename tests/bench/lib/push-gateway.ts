// A gateway for bench:push, in a process of its own, as `--role gateway` runs it: the sandbox
// chains kept in the database the bench seeded (BENCH_DATA_DIR's SQLite file, or BENCH_DATABASE_URL),
// accepted transactions read from it every 250 ms (each read followed by the chain's preparation of
// what its answers will need), a block every BENCH_BLOCK_MS, limits in Redis when
// BENCH_REDIS_URL names one. Answers {type: 'memory'} with its memory after two full collections
// (started with --expose-gc), {type: 'cpu'} with its processor time so far.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../../server/config';
import { createDb } from '../../../server/db/index';
import { createLogger } from '../../../server/logger';
import { startGateway } from '../../../server/gateway-app';
import { createSandboxChains, startSandboxSync } from '../../../server/sandbox/chains';
import { serveUntilDisconnected } from './child-server';

export interface PushGatewayInfo {
  genesisTime: number;
  blockIntervalMs: number;
  wallets: Array<{ address: string; mnemonic: string }>;
}

/** Processor time so far (ms): the main thread's, with how long it waited for a core (Linux), and the whole process's. */
export interface CpuReading {
  mainMs: number;
  mainWaitMs: number;
  processMs: number;
}

export interface MemoryReading {
  rss: number;
  heapUsed: number;
  external: number;
}

const databaseUrl = process.env.BENCH_DATABASE_URL;
const dataDir = process.env.BENCH_DATA_DIR!;
const db = createDb(databaseUrl ? { databaseUrl } : { sqliteFile: path.join(dataDir, 'cairn.sqlite') });
const config = loadConfig({
  // Not production: the sandbox's development wallets pay the bench's address notifications.
  NODE_ENV: 'development',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  // Only Cardano: no embedded IPFS store or EVM development chain in the gateway measured.
  DISABLED_NETWORKS: 'ipfs,milkomeda-mainnet',
  SANDBOX_BLOCK_INTERVAL_MS: process.env.BENCH_BLOCK_MS ?? '1000',
  // The bench's connections send nothing once subscribed.
  PUSH_IDLE_TIMEOUT_MS: '3600000',
  METERING_FLUSH_MS: '5000',
  // PUSH_WRITER_THREAD=false: the fan-out in the main thread alone, for comparison.
  ...(process.env.PUSH_WRITER_THREAD ? { PUSH_WRITER_THREAD: process.env.PUSH_WRITER_THREAD } : {}),
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
});
const logger = createLogger('warn');
const chains = createSandboxChains(config, db);
const stopSync = await startSandboxSync(chains, (err) => logger.error({ err }, 'sandbox chain: reading accepted transactions failed'));
const chain = chains.preprod!;
// Measured as a gateway that has run a while: the network its clients use warmed whole (its UTXO set
// built, the next segments simulated), which the sync loop then keeps at the tip; the memory
// baseline includes it.
await chain.prepare({ build: true });
const gateway = await startGateway({ config, db, logger, version: 'bench', port: 0, host: '127.0.0.1', chains });

/** The main thread's processor time and run-queue wait from /proc (null elsewhere). */
function mainThread(): { cpu: number; wait: number } | null {
  try {
    const [cpu, wait] = fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { cpu: cpu! / 1e6, wait: wait! / 1e6 };
  } catch {
    return null;
  }
}

process.on('message', (m: { type: string }) => {
  if (m.type === 'cpu') {
    const u = process.cpuUsage();
    const processMs = (u.user + u.system) / 1000;
    const main = mainThread();
    process.send!({ type: 'cpu', mainMs: main?.cpu ?? processMs, mainWaitMs: main?.wait ?? NaN, processMs } satisfies CpuReading & { type: string });
    return;
  }
  if (m.type !== 'memory') return;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const u = process.memoryUsage();
  process.send!({ type: 'memory', rss: u.rss, heapUsed: u.heapUsed, external: u.external } satisfies MemoryReading & { type: string });
});

const info: PushGatewayInfo = {
  genesisTime: chain.params.genesisTime,
  blockIntervalMs: chain.params.blockIntervalMs,
  wallets: chain.devWallets().map((w) => ({ address: w.address, mnemonic: w.mnemonic })),
};
serveUntilDisconnected({ url: gateway.url, ...info }, async () => {
  stopSync();
  await gateway.close();
  await db.destroy();
});
