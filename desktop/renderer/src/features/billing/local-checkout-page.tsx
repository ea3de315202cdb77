import { useState } from 'react';
import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { formatEur } from '../../../../../shared/pricing';
import { safeRedirect } from '../../../../../shared/redirect';
import { errorMessage } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { localBillingQueries, useCompleteLocalCheckout } from './queries';
import { TestBillingBanner } from './test-billing-banner';

/** Cairn's own checkout page (the local provider): pay, let the payment fail, or cancel. */
export function LocalCheckoutPage() {
  const { id = '' } = useParams();
  const session = useQuery(localBillingQueries.checkout(id));
  const complete = useCompleteLocalCheckout(id);
  const [error, setError] = useState<string | null>(null);
  const finish = (outcome: 'paid' | 'failed' | 'canceled') =>
    complete.mutate(outcome, {
      onSuccess: ({ redirect }) => {
        const path = safeRedirect(redirect, '/dashboard/subscription');
        window.location.assign(outcome === 'paid' ? `${path}${path.includes('?') ? '&' : '?'}checkout=success` : path);
      },
      onError: (err) => setError(errorMessage(err, 'The checkout could not be completed.')),
    });
  return (
    <PageLayout title="Checkout" breadcrumbs={[{ label: 'Subscription', to: '/dashboard/subscription' }, { label: 'Checkout' }]}>
      <TestBillingBanner />
      {session.error ? (
        <ErrorView error={session.error} />
      ) : !session.data ? (
        <PageLoader label="Loading the checkout…" />
      ) : (
        <Paper withBorder p="xl" radius="md" maw={560}>
          <Stack gap="md">
            <Title order={2} size="h3" data-testid="checkout-item">
              {session.data.mode === 'subscription' ? `${session.data.plan} plan, billed every ${session.data.period}` : `${session.data.boost} for workspace ${session.data.workspace_id}`}
            </Title>
            <Text size="xl" fw={700}>
              {formatEur(session.data.amount)}
            </Text>
            {session.data.status !== 'open' ? (
              <Alert color="gray">
                This checkout is already closed ({session.data.status}). <Anchor component={Link} to="/dashboard/subscription">Back to the subscription</Anchor>
              </Alert>
            ) : (
              <Group gap="sm">
                <Button color="green" onClick={() => finish('paid')} loading={complete.isPending} data-testid="local-pay">
                  Pay {formatEur(session.data.amount)}
                </Button>
                <Button color="red" variant="outline" onClick={() => finish('failed')} disabled={complete.isPending} data-testid="local-fail">
                  Let the payment fail
                </Button>
                <Button variant="subtle" onClick={() => finish('canceled')} disabled={complete.isPending}>
                  Cancel
                </Button>
              </Group>
            )}
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
          </Stack>
        </Paper>
      )}
    </PageLayout>
  );
}
