// The key cache's memory per key: a process of its own (run with --expose-gc) loads every key of the
// seeded database in BENCH_DATA_DIR into a KeyCache, and reports the heap it grew by, after garbage
// collection, divided by the keys it holds.
import path from 'node:path';
import { createDb } from '../../../server/db/index';
import { KeyCache } from '../../../server/gateway/key-cache';
import { createLogger } from '../../../server/logger';

export interface KeyCacheHeap {
  keys: number;
  bytesPerKey: number;
  loadMs: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const db = createDb({ sqliteFile: path.join(process.env.BENCH_DATA_DIR!, 'cairn.sqlite') });
// The connection and its first query are not the cache's: open them before the first reading.
await db('projects').first('id');
gc();
gc();
const before = process.memoryUsage().heapUsed;
const cache = new KeyCache(db, createLogger('warn'));
const t0 = performance.now();
await cache.start();
const loadMs = performance.now() - t0;
await cache.stop();
gc();
gc();
const after = process.memoryUsage().heapUsed;
const result: KeyCacheHeap = { keys: cache.size, bytesPerKey: (after - before) / cache.size, loadMs };
process.send!(result);
await db.destroy();
process.disconnect();
