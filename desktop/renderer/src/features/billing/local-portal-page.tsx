import { useState } from 'react';
import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { errorMessage } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { formatDate } from '../../lib/format';
import { StatusBadge } from '../subscription/index';
import { localBillingQueries, usePortalAction, type PortalAction } from './queries';
import { TestBillingBanner } from './test-billing-banner';

/** The local provider's customer portal: pay the open invoice, renew now (paid or failed), cancel. */
export function LocalPortalPage() {
  const [params] = useSearchParams();
  const workspace = Number(params.get('workspace')) || null;
  const portal = useQuery(localBillingQueries.portal(workspace));
  const act = usePortalAction(workspace);
  const [error, setError] = useState<string | null>(null);
  const run = (a: PortalAction) => act.mutate(a, { onSuccess: () => setError(null), onError: (err) => setError(errorMessage(err, 'That did not work.')) });
  const sub = portal.data?.customer.subscriptions.data[0];
  const full = portal.data?.scope === 'full';
  const owes = sub && ['incomplete', 'incomplete_expired', 'past_due', 'unpaid'].includes(sub.status);
  return (
    <PageLayout title="Billing portal" breadcrumbs={[{ label: 'Subscription', to: '/dashboard/subscription' }, { label: 'Billing portal' }]}>
      <TestBillingBanner />
      {portal.error ? (
        <ErrorView error={portal.error} />
      ) : !portal.data ? (
        <PageLoader label="Loading billing…" />
      ) : (
        <Paper withBorder p="xl" radius="md" maw={640}>
          <Stack gap="md">
            <Text>Customer: {portal.data.owner_email}</Text>
            {!sub ? (
              <Text>
                No paid subscription. <Anchor component={Link} to="/dashboard/subscription/plans/fixed">Choose a plan</Anchor>
              </Text>
            ) : (
              <>
                <Group gap="sm">
                  <Title order={2} size="h3">
                    {sub.plan}
                    {sub.period ? ` / ${sub.period}` : ''}
                  </Title>
                  <StatusBadge status={sub.status} />
                </Group>
                {sub.current_period_end && <Text size="sm">Current period ends {formatDate(sub.current_period_end)}.</Text>}
                <Group gap="sm">
                  {owes && (
                    <Button color="green" onClick={() => run('pay_invoice')} loading={act.isPending}>
                      Pay the open invoice
                    </Button>
                  )}
                  {full && !owes && sub.status !== 'canceled' && (
                    <>
                      <Button variant="light" onClick={() => run('renew_paid')} disabled={act.isPending}>
                        Renew now (payment succeeds)
                      </Button>
                      <Button variant="light" color="orange" onClick={() => run('renew_failed')} disabled={act.isPending}>
                        Renew now (payment fails)
                      </Button>
                    </>
                  )}
                  {full && sub.status !== 'canceled' && (
                    <Button variant="outline" color="red" onClick={() => run('cancel')} disabled={act.isPending}>
                      Cancel subscription
                    </Button>
                  )}
                </Group>
                {!full && <Text size="sm">Renewing, changing or cancelling the subscription is for its owner, {portal.data.owner_email}.</Text>}
              </>
            )}
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <Anchor component={Link} to="/dashboard/subscription">
              Back to the subscription
            </Anchor>
          </Stack>
        </Paper>
      )}
    </PageLayout>
  );
}
