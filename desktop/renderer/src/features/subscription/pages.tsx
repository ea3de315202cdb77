import { FeatureUnavailable } from '../../components/feature-unavailable';
import { PageLayout, type Crumb } from '../../components/page-layout';

const SUBSCRIPTION: Crumb = { label: 'Subscription', to: '/dashboard/subscription' };
const PLANS: Crumb = { label: 'Subscription plans', to: '/dashboard/subscription/plans' };
const PPU_HISTORY: Crumb = { label: 'Pay as you go history', to: '/dashboard/subscription/ppu/history' };

export function SubscriptionPage() {
  return (
    <PageLayout title="Subscription">
      <FeatureUnavailable />
    </PageLayout>
  );
}

export function SubscriptionPlansPage() {
  return (
    <PageLayout title="Subscription plans" breadcrumbs={[SUBSCRIPTION, { label: 'Subscription plans' }]}>
      <FeatureUnavailable />
    </PageLayout>
  );
}

export function FixedPlansPage() {
  return (
    <PageLayout title="Fixed plans" breadcrumbs={[SUBSCRIPTION, PLANS, { label: 'Fixed plans' }]}>
      <FeatureUnavailable />
    </PageLayout>
  );
}

export function SubscriptionLogsPage() {
  return (
    <PageLayout title="Subscription logs" breadcrumbs={[SUBSCRIPTION, { label: 'Subscription logs' }]}>
      <FeatureUnavailable />
    </PageLayout>
  );
}

export function PayAsYouGoOrderPage() {
  return (
    <PageLayout title="Order" breadcrumbs={[SUBSCRIPTION, { label: 'Order' }]}>
      <FeatureUnavailable />
    </PageLayout>
  );
}

export function PayAsYouGoOrderDetailPage() {
  return (
    <PageLayout title="Order" breadcrumbs={[SUBSCRIPTION, PPU_HISTORY, { label: 'Order' }]}>
      <FeatureUnavailable />
    </PageLayout>
  );
}

export function PayAsYouGoHistoryPage() {
  return (
    <PageLayout title="Pay as you go history" breadcrumbs={[SUBSCRIPTION, { label: 'Pay as you go history' }]}>
      <FeatureUnavailable />
    </PageLayout>
  );
}
