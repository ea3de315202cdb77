import { FeatureUnavailable } from '../../components/feature-unavailable';
import { PageLayout } from '../../components/page-layout';

export function WorkspaceInvitePage() {
  return (
    <PageLayout title="Workspace invitation">
      <FeatureUnavailable>Accepting workspace invitations is not available yet.</FeatureUnavailable>
    </PageLayout>
  );
}
