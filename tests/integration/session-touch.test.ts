// The session store writes a session's sliding expiry at most once a minute: express-session touches
// the session on every request and its answer waits for that write, which was a database write per
// signed-in call. Reading, replacing and destroying a session are unchanged.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type session from 'express-session';
import { freshDatabase, type TestDatabase } from '../helpers/db-template';
import { DbSessionStore, TOUCH_AFTER_MS } from '../../server/http/session-store';
import { DAY_MS } from '../../shared/time';

let database: TestDatabase;
beforeAll(async () => {
  database = await freshDatabase(inject('dbTemplate'));
});
afterAll(() => database.drop());

const sess = (expires: number) => ({ cookie: { expires: new Date(expires), originalMaxAge: 30 * DAY_MS }, passport: { user: 1 } }) as unknown as session.SessionData;
const call = <T>(fn: (cb: (err?: unknown, v?: T) => void) => void) => new Promise<T | undefined>((resolve, reject) => fn((err, v) => (err ? reject(err) : resolve(v))));
const stored = async (sid: string) => Number((await database.db('sessions').where({ sid }).first('expires_at'))?.expires_at);

describe('session store touch', () => {
  it('skips writing an expiry that moved less than a minute, writes one that moved more, and forgets destroyed sessions', async () => {
    const store = new DbSessionStore(database.db, 30 * DAY_MS);
    try {
      const start = Date.now() + 30 * DAY_MS;
      await call((cb) => store.set('s1', sess(start), cb));
      expect(await stored('s1')).toBe(start);
      // The next requests touch it with their own sliding expiry: within a minute, no write.
      await call((cb) => store.touch('s1', sess(start + 10_000), cb));
      await call((cb) => store.touch('s1', sess(start + TOUCH_AFTER_MS - 1), cb));
      expect(await stored('s1')).toBe(start);
      await call((cb) => store.touch('s1', sess(start + TOUCH_AFTER_MS + 5), cb));
      expect(await stored('s1')).toBe(start + TOUCH_AFTER_MS + 5);
      // Another process's write is what this one reads next; its own touches compare with that.
      await database.db('sessions').where({ sid: 's1' }).update({ expires_at: start + 10 * TOUCH_AFTER_MS });
      expect(await call<session.SessionData | null>((cb) => store.get('s1', cb))).not.toBeNull();
      await call((cb) => store.touch('s1', sess(start + 10 * TOUCH_AFTER_MS + 1000), cb));
      expect(await stored('s1')).toBe(start + 10 * TOUCH_AFTER_MS);
      // Signed out: gone for every later read.
      await call((cb) => store.destroy('s1', cb));
      expect(await call((cb) => store.get('s1', cb))).toBeNull();
    } finally {
      store.close();
    }
  });
});
