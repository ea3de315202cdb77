export { SUBSCRIPTION } from './crumbs';
export { StatusBadge } from './status-badge';
export { BillingBanners } from './banners';

/** Its pages, each loaded when its route is visited. */
export const subscriptionPages = {
  SubscriptionPage: () => import('./subscription-page').then((m) => m.SubscriptionPage),
  SubscriptionPlansPage: () => import('./subscription-plans-page').then((m) => m.SubscriptionPlansPage),
  FixedPlansPage: () => import('./fixed-plans-page').then((m) => m.FixedPlansPage),
  SubscriptionLogsPage: () => import('./subscription-logs-page').then((m) => m.SubscriptionLogsPage),
};
