import { Alert, Anchor } from '@mantine/core';
import { IconServer } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { ErrorView } from '../../components/error-view';
import { EmptyState } from '../../components/empty-state';
import { isApiError } from '../../api/client';
import { endpointQueries } from './queries';
import { EndpointTable } from './endpoint-table';

export function OperatorEndpointsPage() {
  const review = useQuery(endpointQueries.review());
  return (
    <PageLayout
      title="Submitted endpoints"
      breadcrumbs={[{ label: 'Submit an endpoint', to: '/dashboard/endpoints' }, { label: 'Submitted endpoints' }]}
      description="Enabled endpoints serve their network after the configured upstream, in the order shown (#1 first); each is health-checked and skipped while it does not answer."
    >
      {review.isPending ? (
        <PageLoader label="Loading submitted endpoints…" />
      ) : review.isError ? (
        isApiError(review.error, 404) ? (
          <Alert color="yellow" title="Operators only">
            Only the operators of this Cairn server (OPERATOR_EMAILS) review submitted endpoints. <Anchor component={Link} to="/dashboard/endpoints">Submit an endpoint</Anchor> instead.
          </Alert>
        ) : (
          <ErrorView error={review.error} withRefresh />
        )
      ) : review.data.length === 0 ? (
        <EmptyState title="Nothing submitted yet" icon={IconServer}>
          Endpoints submitted through the form appear here for review.
        </EmptyState>
      ) : (
        <EndpointTable endpoints={review.data} review />
      )}
    </PageLayout>
  );
}
