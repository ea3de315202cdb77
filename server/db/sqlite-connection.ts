// How a connection to Cairn's SQLite file is set up, the same for both that open one: the app's
// pooled connection (createDb in index.ts) and the gateway's metering worker thread, which writes
// the usage counts through a connection of its own (server/gateway/metering-worker.ts). Two
// connections write the file, so each waits for the other's write lock (busy_timeout) rather than
// failing at once, and every transaction of either takes the lock when it begins (BEGIN IMMEDIATE:
// sqlite-client.ts for the app's knex; the worker begins its own so):
// docs/decisions/metering-sqlite-writer.md.
// The driver is loaded only when a connection is opened, so a server on PostgreSQL never maps it.
import type sqlite3 from 'sqlite3';

/**
 * How long a statement waits for another connection's write lock before it fails with SQLITE_BUSY.
 * The wait happens in the SQLite driver on libuv's thread pool, never on a thread's event loop.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

/** Run on every new connection, in order: the wait first, so the others wait too. WAL lets readers read while one connection writes. */
const SET_UP = [`PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`, 'PRAGMA foreign_keys = ON', 'PRAGMA journal_mode = WAL'];

interface Runs {
  run(sql: string, done: (err: Error | null) => void): unknown;
}

const run = (conn: Runs, sql: string) => new Promise<void>((resolve, reject) => conn.run(sql, (err) => (err ? reject(err) : resolve())));

/** Sets a fresh connection up (the pragmas above). */
export async function setUpSqlite(conn: Runs): Promise<void> {
  for (const sql of SET_UP) await run(conn, sql);
}

/** Opens a connection of one's own to an existing SQLite file, set up as the app's. */
export async function openSqlite(filename: string): Promise<sqlite3.Database> {
  const { default: driver } = await import('sqlite3');
  const conn = await new Promise<sqlite3.Database>((resolve, reject) => {
    const c = new driver.Database(filename, driver.OPEN_READWRITE, (err) => (err ? reject(err) : resolve(c)));
  });
  try {
    await setUpSqlite(conn);
  } catch (err) {
    await closeSqlite(conn).catch(() => undefined);
    throw err;
  }
  return conn;
}

/** Runs one statement with bound values. */
export const runSqlite = (conn: sqlite3.Database, sql: string, bindings: readonly unknown[] = []) =>
  new Promise<void>((resolve, reject) => conn.run(sql, bindings, (err: Error | null) => (err ? reject(err) : resolve())));

/** Closes a connection (an open transaction is rolled back). */
export const closeSqlite = (conn: sqlite3.Database) => new Promise<void>((resolve, reject) => conn.close((err) => (err ? reject(err) : resolve())));
