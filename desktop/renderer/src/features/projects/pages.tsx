import { useParams } from 'react-router-dom';
import { FeatureUnavailable } from '../../components/feature-unavailable';
import { PageLayout } from '../../components/page-layout';

export function ProjectsPage() {
  return (
    <PageLayout title="Projects">
      <FeatureUnavailable />
    </PageLayout>
  );
}

export function ProjectPage() {
  return (
    <PageLayout title="Project">
      <FeatureUnavailable />
    </PageLayout>
  );
}

export function ProjectSettingsPage() {
  const { id = '' } = useParams();
  return (
    <PageLayout
      title="Project settings"
      breadcrumbs={[{ label: 'Project', to: `/dashboard/project/${encodeURIComponent(id)}` }, { label: 'Project settings' }]}
    >
      <FeatureUnavailable />
    </PageLayout>
  );
}
