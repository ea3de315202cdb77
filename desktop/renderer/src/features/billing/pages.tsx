import { useState } from 'react';
import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { formatEur } from '../../../../../shared/pricing';
import { safeRedirect } from '../../../../../shared/redirect';
import { errorMessage } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { formatDate } from '../../lib/format';
import { StatusBadge } from '../subscription/pages';
import { localBillingQueries, useCompleteLocalCheckout, usePortalAction, type PortalAction } from './queries';

function TestBillingBanner() {
  return (
    <Alert color="yellow" variant="filled" title="Built-in test billing: no money moves" data-testid="test-billing-banner">
      This is the operator&apos;s built-in test billing of this Cairn, not a real payment page. Choose how the payment ends; the subscription follows
      exactly as it would with a real provider.
    </Alert>
  );
}

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

/** The local provider's customer portal: pay the open invoice, renew now (paid or failed), cancel. */
export function LocalPortalPage() {
  const [params] = useSearchParams();
  const workspace = Number(params.get('workspace')) || null;
  const portal = useQuery(localBillingQueries.portal(workspace));
  const act = usePortalAction(workspace);
  const [error, setError] = useState<string | null>(null);
  const run = (a: PortalAction) => act.mutate(a, { onSuccess: () => setError(null), onError: (err) => setError(errorMessage(err, 'That did not work.')) });
  const sub = portal.data?.customer.subscriptions.data[0];
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
                  {!owes && sub.status !== 'canceled' && (
                    <>
                      <Button variant="light" onClick={() => run('renew_paid')} disabled={act.isPending}>
                        Renew now (payment succeeds)
                      </Button>
                      <Button variant="light" color="orange" onClick={() => run('renew_failed')} disabled={act.isPending}>
                        Renew now (payment fails)
                      </Button>
                    </>
                  )}
                  {sub.status !== 'canceled' && (
                    <Button variant="outline" color="red" onClick={() => run('cancel')} disabled={act.isPending}>
                      Cancel subscription
                    </Button>
                  )}
                </Group>
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
