// The public face of transaction tracking (the life of a transaction submitted through the gateway):
// the only module of this folder that the rest of the server imports.
export { advanceTracked, rollBackTracked, type FollowedBlock, type TxChange } from './tracker';
export { devnetCursorKey, pruneTrackedTxs, recentSubmissions, recordSubmission, txStatus, UPSTREAM_CURSOR_DEPTH } from './store';
export { UpstreamTxFollower, UpstreamTxFollowers } from './upstream-follower';
export { landedOn, trackingSubmissions, txStatusBackend, CAIRN_TX_STATUS_TEMPLATE } from './gateway';
export { registerTxRoutes } from './routes';
