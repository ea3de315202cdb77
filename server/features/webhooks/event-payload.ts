import type { Db } from '../../db/index';
import { NotFound } from '../../errors';
import type { WebhookEventPayloadDto } from '../../../shared/webhooks-sandbox';

/** One event of a webhook's outbox with the payload its body carries (the JSONPath sandbox loads it). */
export async function webhookEventPayload(db: Db, webhookId: string, eventId: string): Promise<WebhookEventPayloadDto> {
  const row = await db('webhook_events').where({ id: eventId, webhook_id: webhookId }).first('id', 'type', 'created', 'body');
  if (!row) throw new NotFound('Event not found.');
  const body = JSON.parse(String(row.body)) as { payload?: unknown };
  return { id: row.id, type: row.type, created: Number(row.created), payload: body.payload ?? null };
}
