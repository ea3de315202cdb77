import crypto from 'node:crypto';
import type { Db } from '../../server/db/index';
import { eventBody } from '../../server/features/webhooks/follower';

/** Queues one pending block event for `webhookId`, due at `now`, as the follower writes it; returns its id. */
export async function enqueueBlockEvent(db: Db, webhookId: string, now: number): Promise<string> {
  const id = crypto.randomUUID();
  const created = Math.floor(now / 1000);
  await db('webhook_events').insert({
    id,
    webhook_id: webhookId,
    type: 'block',
    network: 0,
    block_height: 1,
    block_hash: 'ab'.repeat(32),
    body: eventBody(id, webhookId, created, 'block', { hash: 'ab'.repeat(32) }),
    created,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    test: false,
    created_at: now,
  });
  return id;
}
