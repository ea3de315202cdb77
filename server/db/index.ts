import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import pg from 'pg';
import { migrations } from './migrations/index';

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
  return knex({
    client: 'sqlite3',
    connection: { filename: file },
    useNullAsDefault: true,
    // SQLite allows one writer; one connection keeps transactions serialised instead of failing with SQLITE_BUSY.
    pool: {
      min: 1,
      max: 1,
      afterCreate: (conn: { run: (sql: string, cb: (err: Error | null) => void) => void }, done: (err: Error | null, c: unknown) => void) => {
        conn.run('PRAGMA foreign_keys = ON', (e1) => {
          if (e1) return done(e1, conn);
          conn.run('PRAGMA journal_mode = WAL', (e2) => {
            if (e2) return done(e2, conn);
            conn.run('PRAGMA busy_timeout = 5000', (e3) => done(e3, conn));
          });
        });
      },
    },
  });
}

export const isPostgres = (db: Db) => db.client.config.client === 'pg';

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
