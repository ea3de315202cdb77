import { Button, Stack, Title } from '@mantine/core';
import { IconServer } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { ErrorView } from '../../components/error-view';
import { EmptyState } from '../../components/empty-state';
import { endpointQueries } from './queries';
import { meQueries } from '../account/index';
import { SubmitEndpointForm } from './submit-endpoint-form';
import { EndpointTable } from './endpoint-table';

export function SubmitEndpointPage() {
  const mine = useQuery(endpointQueries.mine());
  const me = useQuery(meQueries.me());
  // Only operators may review; nobody else asks (the review call answers them 404).
  const operator = useQuery({ ...endpointQueries.review(), enabled: me.data?.is_operator === true });
  return (
    <PageLayout
      title="Submit an endpoint"
      description="Run a Blockfrost-compatible backend? Submit it to serve this Cairn's traffic. It is checked now, and an operator enables it as an upstream of its network; the requests it serves are counted for paying your address."
      actions={
        operator.isSuccess ? (
          <Button component={Link} to="/dashboard/operator/endpoints" variant="default">
            Review submitted endpoints
          </Button>
        ) : null
      }
    >
      <Stack gap="lg">
        <SubmitEndpointForm />
        <Stack gap="xs">
          <Title order={2} size="h4">
            Your endpoints
          </Title>
          {mine.isPending ? (
            <PageLoader label="Loading your endpoints…" minHeight={80} />
          ) : mine.isError ? (
            <ErrorView error={mine.error} withRefresh />
          ) : mine.data.length === 0 ? (
            <EmptyState title="No endpoint submitted yet" icon={IconServer}>
              Endpoints you submit are listed here with their status.
            </EmptyState>
          ) : (
            <EndpointTable endpoints={mine.data} />
          )}
        </Stack>
      </Stack>
    </PageLayout>
  );
}
