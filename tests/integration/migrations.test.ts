import { afterAll, describe, expect, inject, it } from 'vitest';
import { emptyDatabase, testEngine, type TestDatabase } from '../helpers/db-template';
import { isMigrated, migrateLatest, migrateRollbackAll } from '../../server/db/index';
import { migrations } from '../../server/db/migrations/index';

const tables = async (t: TestDatabase): Promise<string[]> => {
  const rows =
    testEngine() === 'postgres'
      ? ((await t.db.raw(`select table_name as name from information_schema.tables where table_schema = 'public'`)).rows as { name: string }[])
      : ((await t.db.raw(`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`)) as { name: string }[]);
  return rows.map((r) => r.name).filter((n) => !n.startsWith('knex_')).sort();
};

describe(`migrations on ${testEngine()}`, () => {
  let t: TestDatabase;
  afterAll(async () => t?.drop());

  it('migrates an empty database up, down and up again', async () => {
    t = await emptyDatabase(inject('dbTemplate'));
    expect(await isMigrated(t.db)).toBe(false);

    await migrateLatest(t.db);
    expect(await isMigrated(t.db)).toBe(true);
    const first = await tables(t);
    expect(first).toEqual(expect.arrayContaining(['users', 'sessions', 'magic_link_tokens', 'oauth_accounts']));

    await migrateRollbackAll(t.db);
    expect(await tables(t)).toEqual([]);
    expect(await isMigrated(t.db)).toBe(false);

    const [, applied] = (await migrateLatest(t.db)) as [number, string[]];
    expect(applied).toEqual(migrations.map(([name]) => name));
    expect(await tables(t)).toEqual(first);
  });

  it.skipIf(testEngine() !== 'postgres')('compresses webhook event bodies with lz4 where PostgreSQL has it', async () => {
    const has = (await t.db.raw(`SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)`)).rows.length > 0;
    const column = async () => (await t.db.raw(`SELECT attcompression AS c FROM pg_attribute WHERE attrelid = 'webhook_events'::regclass AND attname = 'body'`)).rows[0].c as string;
    // 'l' is lz4; '' is the server's default (pglz unless configured).
    expect(await column()).toBe(has ? 'l' : '');
  });
});
