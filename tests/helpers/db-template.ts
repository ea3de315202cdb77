import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import knex from 'knex';
import { createDb, migrateLatest, type Db } from '../../server/db/index';

export const ARTIFACTS = path.resolve(import.meta.dirname, '../.artifacts');

export interface DbTemplate {
  engine: 'sqlite' | 'postgres';
  /** SQLite: template file. PostgreSQL: template database name. */
  template: string;
  /** PostgreSQL admin URL (the DATABASE_URL the suite was started with). */
  adminUrl?: string;
}

export const testEngine = (): 'sqlite' | 'postgres' => (process.env.DATABASE_URL ? 'postgres' : 'sqlite');

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

const adminDb = (url: string) => knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });

/** Migrates one template database for the whole run. */
export async function createTemplate(): Promise<DbTemplate> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const tag = `${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const name = `cairn_tpl_${tag}`;
    const admin = adminDb(adminUrl);
    await admin.raw(`CREATE DATABASE ${name}`);
    await admin.destroy();
    const db = createDb({ databaseUrl: withDatabase(adminUrl, name) });
    await migrateLatest(db);
    await db.destroy();
    return { engine: 'postgres', template: name, adminUrl };
  }
  const file = path.join(ARTIFACTS, `template-${tag}.sqlite`);
  const db = createDb({ sqliteFile: file });
  await migrateLatest(db);
  await db.destroy();
  return { engine: 'sqlite', template: file };
}

export async function dropTemplate(t: DbTemplate): Promise<void> {
  if (t.engine === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(t.template + suffix, { force: true });
    return;
  }
  const admin = adminDb(t.adminUrl!);
  await admin.raw(`DROP DATABASE IF EXISTS ${t.template} WITH (FORCE)`);
  await admin.destroy();
}

export interface TestDatabase {
  /** A knex handle on the fresh copy. */
  db: Db;
  /** What a Cairn config needs to reach this copy: DATABASE_URL, or a SQLite file. */
  databaseUrl?: string;
  sqliteFile?: string;
  /** Opens another handle on the same database (e.g. for a restarted app). */
  reopen(): Db;
  drop(): Promise<void>;
}

/** A fresh, migrated database copied from the template. */
export const freshDatabase = (t: DbTemplate) => newDatabase(t, true);

/** An empty (unmigrated) database, for migration tests. */
export const emptyDatabase = (t: DbTemplate) => newDatabase(t, false);

async function newDatabase(t: DbTemplate, fromTemplate: boolean): Promise<TestDatabase> {
  const tag = crypto.randomBytes(5).toString('hex');
  if (t.engine === 'sqlite') {
    const file = path.join(ARTIFACTS, `test-${process.pid}-${tag}.sqlite`);
    if (fromTemplate) fs.copyFileSync(t.template, file);
    const open = () => createDb({ sqliteFile: file });
    const db = open();
    return {
      db,
      sqliteFile: file,
      reopen: open,
      drop: async () => {
        await db.destroy();
        for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
      },
    };
  }
  const name = `cairn_t_${tag}`;
  const admin = adminDb(t.adminUrl!);
  await admin.raw(fromTemplate ? `CREATE DATABASE ${name} TEMPLATE ${t.template}` : `CREATE DATABASE ${name}`);
  await admin.destroy();
  const url = withDatabase(t.adminUrl!, name);
  const open = () => createDb({ databaseUrl: url });
  const db = open();
  return {
    db,
    databaseUrl: url,
    reopen: open,
    drop: async () => {
      await db.destroy();
      const a = adminDb(t.adminUrl!);
      await a.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.destroy();
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dbTemplate: DbTemplate;
  }
}
