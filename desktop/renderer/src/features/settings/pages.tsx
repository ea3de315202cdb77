import { FeatureUnavailable } from '../../components/feature-unavailable';
import { PageLayout } from '../../components/page-layout';

export function SettingsPage() {
  return (
    <PageLayout title="Settings">
      <FeatureUnavailable />
    </PageLayout>
  );
}
