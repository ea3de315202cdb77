import crypto from 'node:crypto';
import knex from 'knex';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { FollowerLeadership } from '../../server/features/webhooks/leadership';
import { createLogger } from '../../server/logger';
import type { Db } from '../../server/db/index';

// Which worker follows a network when several share one PostgreSQL database: each asks for the
// network's advisory lock on a connection of its own; the one that holds it leads until it stops.

const PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgDb = knex({ client: 'pg', connection: PG_URL, pool: { min: 0, max: 1 } }) as unknown as Db;
const sqliteDb = knex({ client: 'sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true }) as unknown as Db;
const logger = createLogger('silent');
// Networks of this test only (locks are per database, and other tests may lead networks 0–2 here).
const network = 10_000 + crypto.randomInt(1_000_000);

afterAll(async () => {
  await pgDb.destroy();
  await sqliteDb.destroy();
});

describe('follower leadership', () => {
  it('lets one worker lead each network, and another take it over once the first stops', async () => {
    const a = new FollowerLeadership(pgDb, logger);
    const b = new FollowerLeadership(pgDb, logger);
    try {
      expect(await a.leads(network)).toBe(true);
      expect(await b.leads(network)).toBe(false);
      // Asked again, the answer holds (and a held lock is not taken twice).
      expect(await a.leads(network)).toBe(true);
      expect(await b.leads(network)).toBe(false);
      // Another network is anyone's.
      expect(await b.leads(network + 1)).toBe(true);
      expect(await a.leads(network + 1)).toBe(false);
      await a.close();
      expect(await a.leads(network)).toBe(false);
      await vi.waitFor(async () => expect(await b.leads(network)).toBe(true), { timeout: 5_000, interval: 50 });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("asks for a worker's networks one at a time on its one connection", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const a = new FollowerLeadership(pgDb, logger);
    try {
      // A worker's followers (one per network) tick at once.
      expect(await Promise.all([a.leads(network + 10), a.leads(network + 11), a.leads(network + 12)])).toEqual([true, true, true]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((m) => m.includes('client.query'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await a.close();
    }
  });

  it('lets every follower lead on SQLite, where a database has one worker', async () => {
    const a = new FollowerLeadership(sqliteDb, logger);
    const b = new FollowerLeadership(sqliteDb, logger);
    expect(await a.leads(network)).toBe(true);
    expect(await b.leads(network)).toBe(true);
    await a.close();
    await b.close();
  });
});
