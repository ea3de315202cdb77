import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import pg from 'pg';
import { migrations } from './migrations/index';
import { ImmediateSqliteClient } from './sqlite-client';
import { setUpSqlite } from './sqlite-connection';

// bigint columns hold epoch milliseconds and counters, all far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

export type Db = Knex;

export interface DbOptions {
  databaseUrl?: string | undefined;
  /** SQLite file path, used when no databaseUrl is given. */
  sqliteFile?: string;
}

export const sqliteFileIn = (dataDir: string) => path.join(dataDir, 'cairn.sqlite');

export function createDb(opts: DbOptions): Db {
  if (opts.databaseUrl) {
    return knex({
      client: 'pg',
      connection: opts.databaseUrl,
      pool: { min: 0, max: 10 },
      acquireConnectionTimeout: 10_000,
    });
  }
  const file = opts.sqliteFile ?? sqliteFileIn('./data');
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  // One connection for the app keeps its transactions in order. The metering worker thread and the
  // webhook worker's chain followers write through connections of their own; every transaction of
  // any of them begins IMMEDIATE and waits its turn (sqlite-client.ts, sqlite-connection.ts).
  return sqliteKnex(file);
}

function sqliteKnex(filename: string): Db {
  return knex({
    client: ImmediateSqliteClient,
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate: (conn: Parameters<typeof setUpSqlite>[0], done: (err: Error | null, c: unknown) => void) => {
        setUpSqlite(conn).then(
          () => done(null, conn),
          (err: Error) => done(err, conn),
        );
      },
    },
  });
}

/**
 * The database for a background part that asks it something every moment (the webhook worker's
 * chain followers): on SQLite a connection of its own to the same file, set up as the app's, so the
 * part's statements never queue on the app's one connection ahead of requests, nor requests behind
 * them (a statement there holds the connection until the main thread takes its answer); writers of
 * both connections take the file's lock in turn (BEGIN IMMEDIATE, busy_timeout). On PostgreSQL (a
 * pool already) and for an in-memory SQLite database, which a second connection would not see, `db`
 * itself. Whoever opens it closes it with closeOwnConnection when the part stops.
 */
export function ownConnection(db: Db): Db {
  const file = sqliteFileOf(db);
  return file === null || file.endsWith(':memory:') ? db : sqliteKnex(file);
}

/** Closes what ownConnection(db) opened (nothing when it answered `db` itself). */
export async function closeOwnConnection(own: Db, db: Db): Promise<void> {
  if (own !== db) await own.destroy();
}

export const isPostgres = (db: Db) => db.client.config.client === 'pg';

/** The SQLite file `db` opens, as an absolute path (null on PostgreSQL). */
export const sqliteFileOf = (db: Db): string | null => (isPostgres(db) ? null : path.resolve((db.client.config.connection as { filename: string }).filename));

class ListMigrationSource implements Knex.MigrationSource<string> {
  getMigrations() {
    return Promise.resolve(migrations.map(([name]) => name));
  }
  getMigrationName(name: string) {
    return name;
  }
  getMigration(name: string) {
    const found = migrations.find(([n]) => n === name);
    if (!found) throw new Error(`Unknown migration ${name}`);
    return Promise.resolve(found[1]);
  }
}

const migrationConfig: Knex.MigratorConfig = {
  migrationSource: new ListMigrationSource(),
  tableName: 'knex_migrations',
};

export const migrateLatest = (db: Db) => db.migrate.latest(migrationConfig);
export const migrateRollbackAll = (db: Db) => db.migrate.rollback(migrationConfig, true);

/** True when every known migration has been applied. */
export async function isMigrated(db: Db): Promise<boolean> {
  const [, pending] = (await db.migrate.list(migrationConfig)) as [unknown[], unknown[]];
  return pending.length === 0;
}
