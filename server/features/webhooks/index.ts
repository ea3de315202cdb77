// The public face of webhooks: CRUD, chain followers, the outbox, signed delivery, notices and the event stream: the only module of this folder that the rest of the server imports.
export { httpSource, sandboxSource, type ChainSource } from './chain-source';
export { registerWebhookEventPayloadRoute } from './event-payload-routes';
export { EventStreams, registerEventRoutes } from './event-stream-routes';
export { FollowerLeadership } from './leadership';
export { pruneOutbox } from './outbox';
export { registerWebhookRoutes } from './routes';
export { checkLiteralHost, guardedLookup, parseAllowlist, type Allowlist } from './ssrf';
export { findWebhook, ownedWebhookCount, type WebhookRow } from './webhooks';
export { startWebhookWorker, webhookSources } from './workers';
export { writeTxStatusEvents } from './tx-status-events';
export { pruneDevnetCursors } from './devnet-followers';
