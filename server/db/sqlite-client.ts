// The app's knex client on SQLite: knex's own, but every transaction begins IMMEDIATE, taking the
// file's write lock before its first statement. knex begins them with a plain (deferred) BEGIN, which
// takes the lock only at the first write; when another connection (the metering worker's,
// sqlite-connection.ts) commits between a transaction's first read and that write, SQLite refuses
// the write at once with SQLITE_BUSY, without waiting out busy_timeout, since the snapshot the
// transaction read is stale. BEGIN IMMEDIATE waits its turn instead (busy_timeout), and then nothing
// another connection writes can come between what the transaction reads and what it writes.
// Nested transactions stay savepoints of their outer one.
import type { Knex } from 'knex';
import Client_SQLite3 from 'knex/lib/dialects/sqlite3/index.js';
import Transaction_Sqlite from 'knex/lib/dialects/sqlite3/execution/sqlite-transaction.js';

class ImmediateTransaction extends Transaction_Sqlite {
  override begin(conn: unknown): Promise<unknown> {
    return this.query(conn, 'BEGIN IMMEDIATE;');
  }
}

/** knex's SQLite client (`sqlite3`) whose transactions begin IMMEDIATE; given to knex as its `client`. */
export class ImmediateSqliteClient extends Client_SQLite3 {
  override transaction(container: unknown, config: unknown, outerTx: unknown): Knex.Transaction {
    // knex's transactions are its Transaction class's instances; its typings name them by the transactor they make.
    return new ImmediateTransaction(this, container, config, outerTx) as unknown as Knex.Transaction;
  }
}
