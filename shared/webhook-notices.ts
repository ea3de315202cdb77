// What the event stream (GET /api/events, Server-Sent Events) says about webhooks, and how the dashboard's
// toasts and the desktop app's native notifications word it.

export const webhookNoticeKinds = ['delivery_failed', 'warning', 'disabled'] as const;
export type WebhookNoticeKind = (typeof webhookNoticeKinds)[number];

export const EVENTS_PATH = '/api/events';

/** The SSE event name of each kind (`event:` line). */
export const noticeEventName = (kind: WebhookNoticeKind): string => `webhook.${kind}`;

export interface WebhookNotice {
  /** The stream's event id (Last-Event-ID resumes after it). */
  id: number;
  kind: WebhookNoticeKind;
  webhookId: string;
  webhookName: string;
  workspaceId: number;
  /** Epoch milliseconds of what happened (the attempt, the disabling). */
  at: number;
  /** For delivery_failed and warning: the event that failed and what the endpoint answered. */
  eventId?: string;
  statusCode?: number | null;
  error?: string | null;
}

/** The webhook's page, where its delivery history is. */
export const webhookPagePath = (n: Pick<WebhookNotice, 'webhookId'>): string => `/dashboard/webhooks/${encodeURIComponent(n.webhookId)}`;

const answer = (n: WebhookNotice): string =>
  n.statusCode ? `the endpoint answered HTTP ${n.statusCode}` : n.error ? `the endpoint could not be reached (${n.error})` : 'the endpoint did not answer';

export function noticeText(n: WebhookNotice): { title: string; message: string } {
  switch (n.kind) {
    case 'delivery_failed':
      return { title: `Webhook delivery failed: ${n.webhookName}`, message: `A delivery failed: ${answer(n)}. Cairn retries on its schedule.` };
    case 'warning':
      return {
        title: `Problems detected with ${n.webhookName}`,
        message: `A delivery failed (${answer(n)}). Repeated failure may disable the webhook automatically.`,
      };
    case 'disabled':
      return { title: `Webhook disabled: ${n.webhookName}`, message: 'Every delivery attempt failed for 5 days, so the webhook was disabled. Fix the endpoint and enable it again.' };
  }
}
