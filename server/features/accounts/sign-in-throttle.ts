import type { Db } from '../../db/index';

export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

export interface ThrottleLimit {
  key: string;
  max: number;
}

/**
 * Counts one sign-in mail against every limit, all or none: each count is raised by one
 * conditional UPDATE (… WHERE count < max), so parallel requests cannot both pass the last slot
 * (a read-then-insert let them). Answers the first limit that is full, or null when counted.
 */
export async function takeSignInSlot(db: Db, limits: ThrottleLimit[], now = Date.now()): Promise<ThrottleLimit | null> {
  const windowStart = now - (now % SIGN_IN_WINDOW_MS);
  try {
    await db.transaction(async (trx) => {
      for (const limit of limits) {
        await trx('sign_in_throttle').insert({ key: limit.key, window_start: windowStart, count: 0 }).onConflict(['key', 'window_start']).ignore();
        const raised = await trx('sign_in_throttle')
          .where({ key: limit.key, window_start: windowStart })
          .andWhere('count', '<', limit.max)
          .increment('count', 1);
        // Throwing rolls back the counts already raised: a refused request costs nothing.
        if (raised !== 1) throw new LimitReached(limit);
      }
    });
    return null;
  } catch (err) {
    if (err instanceof LimitReached) return err.limit;
    throw err;
  }
}

class LimitReached extends Error {
  constructor(readonly limit: ThrottleLimit) {
    super(`limit ${limit.key} reached`);
  }
}

/** Windows that ended are of no use; the retention job drops them. */
export const pruneSignInThrottle = (db: Db, now = Date.now()): Promise<number> =>
  db('sign_in_throttle').where('window_start', '<', now - SIGN_IN_WINDOW_MS).delete();
