// Statements with bound values run in one transaction straight through a pooled connection's
// driver, for a hot batch writer (the gateway's metering flush). A knex transaction builds a whole
// knex instance (its transactor) and a query object per statement: garbage that, in a gateway
// serving thousands of requests a second, outlives young-generation collections and makes each of
// them slower. The pool is still knex's, so the batch waits its turn like any other query.
import { type Db, isPostgres } from './index';

/** One statement in the driver's own placeholders: `?` on SQLite, `$1`, `$2` … on PostgreSQL. */
export interface BoundStatement {
  sql: string;
  bindings: readonly unknown[];
}

interface PooledClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
}
interface SqliteConnection {
  run(sql: string, params: readonly unknown[], done: (err: Error | null) => void): void;
}
interface PgConnection {
  query(text: string, values: readonly unknown[]): Promise<unknown>;
}

type Exec = (sql: string, bindings: readonly unknown[]) => Promise<unknown>;

const sqliteExec =
  (conn: SqliteConnection): Exec =>
  (sql, bindings) =>
    new Promise<void>((resolve, reject) => conn.run(sql, bindings, (err) => (err ? reject(err) : resolve())));

const pgExec =
  (conn: PgConnection): Exec =>
  (sql, bindings) =>
    conn.query(sql, bindings);

/**
 * Runs `statements` in order in one transaction on one of `db`'s pooled connections: written whole,
 * or, when one fails, rolled back and rejected with its error.
 */
export async function runBatch(db: Db, statements: readonly BoundStatement[]): Promise<void> {
  const client = db.client as PooledClient;
  const conn = await client.acquireConnection();
  const exec = isPostgres(db) ? pgExec(conn as PgConnection) : sqliteExec(conn as SqliteConnection);
  try {
    await exec('begin', []);
    try {
      for (const s of statements) await exec(s.sql, s.bindings);
      await exec('commit', []);
    } catch (err) {
      await exec('rollback', []).catch(() => undefined);
      throw err;
    }
  } finally {
    await client.releaseConnection(conn);
  }
}
