export { WebhooksSection } from './webhooks-section';
export { WebhookNoticeToasts } from './notice-toasts';
export { webhookQueries } from './queries';
export { newCondition, withConditionType, type ConditionDraft } from './form-model';

/** Its pages, each loaded when its route is visited. */
export const webhooksPages = {
  AddWebhookPage: () => import('./add-webhook-page').then((m) => m.AddWebhookPage),
  WebhookPage: () => import('./webhook-page').then((m) => m.WebhookPage),
};
