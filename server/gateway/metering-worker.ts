// The gateway's metering worker thread (started by metering.ts): it counts the requests the
// gateway's thread sends as packed records, turns each flush into parts of statements with bound
// values and writes them itself, through a database connection of its own (PostgreSQL, or the
// SQLite file), so a flush goes one way and the gateway's thread only hears that it is over.
// Counting, grouping, geolocation, user-agent parsing, building the statements and writing them, the
// bulk of the metering's work and most of what it allocates, never hold up the gateway's event loop
// or its garbage collections; the drivers run the statements on libuv's thread pool, where a wait for
// SQLite's write lock happens too (docs/decisions/metering-sqlite-writer.md).
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import type sqlite3 from 'sqlite3';
import { closeSqlite, openSqlite, runSqlite } from '../db/sqlite-connection';
import { MeterCore, type RunFlush, type Statement } from './metering-core';
import { FIELD, FIELDS, type MeteringWorkerData, type ToMain, type ToWorker } from './metering-protocol';

const port = parentPort!;
const data = workerData as MeteringWorkerData;
const core = new MeterCore(data.engine, data.flushMs);
/** The strings the records refer to by number (endpoints, IPs, user agents), as the gateway's thread numbered them. */
let strings: string[] = [];
/** Rows written by the flush under way. */
let rowsWritten = 0;

const send = (m: ToMain) => port.postMessage(m);

/** Runs one part in one transaction and answers null, or why nothing of it was written. */
type RunPart = (statements: Statement[]) => Promise<string | null>;

const reason = (err: unknown) => (err as Error).message || String(err);

/** PostgreSQL: the worker's own connection, opened at the first part and again after it failed. */
let client: pg.Client | null = null;

async function connected(connection: string | Record<string, unknown>): Promise<pg.Client> {
  if (client) return client;
  const c = new pg.Client(typeof connection === 'string' ? { connectionString: connection, application_name: 'cairn-metering' } : { ...connection, application_name: 'cairn-metering' });
  // A connection that drops between flushes is let go; the next part opens another.
  c.on('error', () => {
    if (client === c) client = null;
  });
  await c.connect();
  client = c;
  return c;
}

const pgPart =
  (connection: string | Record<string, unknown>): RunPart =>
  async (statements) => {
    let c: pg.Client | null = null;
    try {
      c = await connected(connection);
      await c.query('begin');
      try {
        for (const s of statements) await c.query(s.sql, s.bindings);
        await c.query('commit');
      } catch (err) {
        await c.query('rollback').catch(() => {
          // A connection that cannot even roll back is broken: the next part opens another.
          if (client === c) client = null;
          void c?.end().catch(() => undefined);
        });
        throw err;
      }
      return null;
    } catch (err) {
      return reason(err);
    }
  };

/** SQLite: the worker's own connection to the gateway's file, opened at the first part and again after one could not roll back. */
let sqlite: sqlite3.Database | null = null;

/**
 * SQLite: each part in a transaction begun IMMEDIATE, which waits (busy_timeout) while the app's
 * connection holds the write lock, as the app's transactions wait for the worker's.
 */
const sqlitePart =
  (file: string): RunPart =>
  async (statements) => {
    try {
      const c = (sqlite ??= await openSqlite(file));
      // A part that cannot begin (the lock stayed taken past the wait) has nothing to roll back.
      await runSqlite(c, 'begin immediate');
      try {
        for (const s of statements) await runSqlite(c, s.sql, s.bindings);
        await runSqlite(c, 'commit');
      } catch (err) {
        await runSqlite(c, 'rollback').catch(() => {
          // SQLite rolled it back itself, or the connection is broken: the next part opens another.
          if (sqlite === c) sqlite = null;
          void closeSqlite(c).catch(() => undefined);
        });
        throw err;
      }
      return null;
    } catch (err) {
      return reason(err);
    }
  };

const runPart: RunPart = data.engine === 'pg' ? pgPart(data.connection) : sqlitePart(data.file);

/** Closes the worker's database connection, whichever it is. */
async function closeConnection(): Promise<void> {
  const c = client;
  const s = sqlite;
  client = null;
  sqlite = null;
  await c?.end().catch(() => undefined);
  if (s) await closeSqlite(s).catch(() => undefined);
}

const runFlush: RunFlush = async ({ parts, gapMs }) => {
  let sent = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.length === 0) continue;
    if (sent && gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    sent = true;
    const error = await runPart(part);
    if (error !== null) return { written: i, error };
    for (const s of part) rowsWritten += s.rows ?? 0;
  }
  return { written: parts.length, error: null };
};

const flushed = (id: number, error: string | null) => {
  const rows = rowsWritten;
  rowsWritten = 0;
  send({ t: 'flushed', id, rows, error });
};

port.on('message', (m: ToWorker) => {
  switch (m.t) {
    case 'records': {
      if (m.restart) strings = [];
      for (const s of m.strings) strings.push(s);
      const r = new Float64Array(m.buffer);
      for (let i = 0; i < m.count; i++) {
        const o = i * FIELDS;
        core.count({
          projectId: r[o + FIELD.projectId]!,
          ownerId: r[o + FIELD.ownerId]!,
          endpoint: strings[r[o + FIELD.endpoint]!]!,
          status: r[o + FIELD.status]!,
          ip: strings[r[o + FIELD.ip]!]!,
          userAgent: strings[r[o + FIELD.userAgent]!]!,
          admitted: r[o + FIELD.admitted] === 1,
          refused: r[o + FIELD.refused]!,
          at: r[o + FIELD.at]!,
          latencyMs: r[o + FIELD.latencyMs]!,
          message: strings[r[o + FIELD.message]!]!,
        });
      }
      return;
    }
    case 'flush':
      void core.flush(runFlush, m.now, m.paced).then(
        (error) => flushed(m.id, error),
        (err: unknown) => flushed(m.id, (err as Error).message),
      );
      return;
    case 'close':
      void closeConnection().then(() => send({ t: 'closed' }));
      return;
  }
});
