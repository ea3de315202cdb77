// The public face of transaction tracking (the life of a transaction submitted through the gateway):
// the only module of this folder that the rest of the server imports.
export { advanceTracked, mayAdvanceTracked, rollBackTracked, type FollowedBlock, type TxChange } from './tracker';
export { devnetCursorKey, landPassed, openTracked, pruneTrackedTxs, recentSubmissions, recordSubmission, txStatus, UPSTREAM_CURSOR_DEPTH, type LandedIn } from './store';
export { UpstreamTxFollower, UpstreamTxFollowers } from './upstream-follower';
export { landedOn, trackingSubmissions, txStatusBackend, CAIRN_TX_STATUS_TEMPLATE } from './gateway';
export { registerTxRoutes } from './routes';
