import type { Db } from '../../db/index';
import type { Logger } from '../../logger';
import { SerialTicker } from '../../ticker';
import { expireIncompleteSubscriptions } from './billing';

const SWEEP_MS = 60_000;

/**
 * The subscription sweeper (worker role): a first payment that failed and saw no success within 23
 * hours moves incomplete → incomplete_expired, for every provider (Stripe also reports it itself).
 */
export function startSubscriptionSweeper(db: Db, logger: Logger): { stop(): Promise<void> } {
  const ticker = new SerialTicker(
    async () => {
      const n = await expireIncompleteSubscriptions(db);
      if (n > 0) logger.info({ expired: n }, 'billing: incomplete subscriptions expired');
    },
    SWEEP_MS,
    (err) => logger.warn({ err: { message: err.message } }, 'billing: subscription sweep failed'),
  );
  ticker.start();
  return { stop: () => ticker.stop() };
}
