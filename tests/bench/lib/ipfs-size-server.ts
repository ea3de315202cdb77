// bench:ipfs-size's server: the gateway (startGateway, as production runs it) in a process of its
// own, on a migrated SQLite database in BENCH_DATA_DIR holding one DEVELOPER owner (50 GB of
// storage) with one IPFS project, taking adds up to BENCH_MAX_ADD_MB. Its first message is
// {url, key, pid, blocks}; then it answers {heap: 'start'} by sampling its own heap (v8's figures) every 20 ms and
// {heap: 'stop'} with what it saw: the bench reads the resident size from /proc itself.
import crypto from 'node:crypto';
import path from 'node:path';
import v8 from 'node:v8';
import { loadConfig } from '../../../server/config';
import { createDb, sqliteFileIn, migrateLatest } from '../../../server/db/index';
import { createLogger } from '../../../server/logger';
import { startGateway } from '../../../server/gateway-app';
import { makeUser, makeWorkspace } from '../../helpers/workspace-fixture';
import { serveUntilDisconnected } from './child-server';

export interface HeapSample {
  /** process.memoryUsage() when sampling started, in bytes. */
  heapUsed: number;
  external: number;
  /** The most seen while sampling. */
  peakHeapUsed: number;
  peakExternal: number;
}

const dataDir = process.env.BENCH_DATA_DIR!;
const db = createDb({ sqliteFile: sqliteFileIn(dataDir) });
await migrateLatest(db);
const user = await makeUser(db, 'bench-ipfs-size@example.com', 'DEVELOPER');
const ws = await makeWorkspace(db, user.id, []);
const key = `ipfs${crypto.randomBytes(16).toString('hex')}`;
const now = Date.now();
await db('projects').insert({ uuid: crypto.randomUUID(), workspace_id: ws, name: 'bench', project_id: key, network_id: 2, created_at: now, updated_at: now });
const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(40), LOG_LEVEL: 'warn', IPFS_MAX_ADD_MB: process.env.BENCH_MAX_ADD_MB ?? '100' });
const gw = await startGateway({ config, db, logger: createLogger('warn'), version: 'bench', port: 0, host: '127.0.0.1' });

let sampler: NodeJS.Timeout | null = null;
let sample: HeapSample | null = null;
process.on('message', (m: { heap?: 'start' | 'stop' }) => {
  if (m.heap === 'start') {
    // v8's own figures: process.memoryUsage() reads /proc as well, which costs the server more.
    const u = v8.getHeapStatistics();
    sample = { heapUsed: u.used_heap_size, external: u.external_memory, peakHeapUsed: u.used_heap_size, peakExternal: u.external_memory };
    sampler = setInterval(() => {
      const v = v8.getHeapStatistics();
      sample!.peakHeapUsed = Math.max(sample!.peakHeapUsed, v.used_heap_size);
      sample!.peakExternal = Math.max(sample!.peakExternal, v.external_memory);
    }, 20);
  } else if (m.heap === 'stop') {
    if (sampler) clearInterval(sampler);
    process.send!({ heap: sample });
  }
});

serveUntilDisconnected({ url: gw.url, key, pid: process.pid, blocks: path.join(dataDir, 'ipfs', 'blocks') }, async () => {
  await gw.close();
  await db.destroy();
});
