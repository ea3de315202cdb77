// Scratch databases for the benches that measure both engines: a SQLite file in a temporary folder,
// and a database of its own on the PostgreSQL server (DATABASE_URL, else the local default), each
// with a drop() that removes it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';

export const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

export interface Engine {
  name: 'SQLite' | 'PostgreSQL';
  databaseUrl?: string;
  sqliteFile?: string;
  drop(): Promise<void>;
}

/** `prefix` names the temporary folder and the PostgreSQL database, e.g. 'stats'. */
export function sqliteEngine(prefix: string): Engine {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `cairn-bench-${prefix}-`));
  return { name: 'SQLite', sqliteFile: path.join(dir, 'cairn.sqlite'), drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A scratch database on the PostgreSQL server, or null when none is reachable (and none was asked for). */
export async function postgresEngine(prefix: string): Promise<Engine | null> {
  const adminUrl = process.env.DATABASE_URL ?? DEFAULT_PG;
  const admin = knex({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 }, acquireConnectionTimeout: 3000 });
  try {
    await admin.raw('select 1');
  } catch (err) {
    await admin.destroy();
    if (process.env.DATABASE_URL) throw new Error(`DATABASE_URL is set but PostgreSQL is not reachable: ${(err as Error).message}`);
    console.log(`\nSKIP PostgreSQL: nothing reachable at ${DEFAULT_PG} and DATABASE_URL is not set.`);
    return null;
  }
  const name = `cairn_bench_${prefix}_${crypto.randomBytes(4).toString('hex')}`;
  await admin.raw(`CREATE DATABASE ${name}`);
  await admin.destroy();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name: 'PostgreSQL',
    databaseUrl: url.toString(),
    drop: async () => {
      const a = knex({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
      await a.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.destroy();
    },
  };
}
