import type { Trigger } from './webhooks';

/** GET /api/workspaces/:id/webhooks/:webhookId/events/:eventId: an event of the delivery history with its payload. */
export interface WebhookEventPayloadDto {
  id: string;
  type: Trigger;
  /** Unix seconds, as in the delivered body. */
  created: number;
  payload: unknown;
}
