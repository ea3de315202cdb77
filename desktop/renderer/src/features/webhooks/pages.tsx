import { FeatureUnavailable } from '../../components/feature-unavailable';
import { PageLayout } from '../../components/page-layout';

export function AddWebhookPage() {
  return (
    <PageLayout title="Add webhook">
      <FeatureUnavailable />
    </PageLayout>
  );
}

export function WebhookPage() {
  return (
    <PageLayout title="Webhook">
      <FeatureUnavailable />
    </PageLayout>
  );
}
