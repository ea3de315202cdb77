// The public face of plans, boosts, checkout and the billing providers: the only module of this folder that the rest of the server imports.
export { runningBoostTypes, applySubscription, grantBoost, readSubscriptionState, writeSubscriptionLog } from './billing';
export { StripeBillingProvider, billingStartupLine, createBillingProvider, type BillingProvider } from './providers';
export { cancelForAccountDeletion } from './account-closing';
export { registerBillingRoutes } from './routes';
export { startSubscriptionSweeper } from './sweeper';
