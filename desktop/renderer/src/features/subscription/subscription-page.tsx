import { useEffect, useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { can } from '../../../../../shared/permissions';
import { boosts, boostTypes, isPlanName } from '../../../../../shared/plans';
import { formatCount, formatEur, storageText } from '../../../../../shared/pricing';
import { hasPaidSubscription, PAY_AS_YOU_GO_AVAILABLE, type BillingInfoDto, type WorkspaceBillingDto } from '../../../../../shared/billing';
import { formatRequests } from '../../../../../shared/ppu';
import type { QuotaDto, WorkspaceDto } from '../../../../../shared/workspaces';
import { ErrorView } from '../../components/error-view';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { formatDate, formatDateTime } from '../../lib/format';
import { WithSelectedWorkspace, workspaceQueries } from '../workspaces/index';
import { CheckoutDialog, type CheckoutItem } from './checkout-dialog';
import { billingQueries } from './queries';
import { StatusBadge } from './status-badge';
import { BillingErrorFromLink } from './billing-error-from-link';
import { TestBillingNotice } from './test-billing-notice';

function Usage({ label, used, limit, text }: { label: string; used: number; limit: number; text: string }) {
  const pct = limit > 0 ? Math.min(100, (used / limit) * 100) : 0;
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="sm" c={pct >= 85 ? 'red' : 'dimmed'} data-testid={`usage-${label.toLowerCase().replace(/\W+/g, '-')}`}>
          {text}
        </Text>
      </Group>
      <Progress value={pct} color={pct >= 85 ? 'red' : pct >= 80 ? 'orange' : 'blue'} aria-label={`${label} used`} />
    </Stack>
  );
}

function UsagePanel({ quota }: { quota: QuotaDto }) {
  const u = quota.used.subscription;
  const q = quota.quota;
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="md">
        <Title order={2} size="h4">
          Usage
        </Title>
        <Usage label="Requests today" used={u.requests} limit={q.requestLimit} text={`${formatCount(u.requests)} of ${formatCount(q.requestLimit)} per day`} />
        <Usage label="Projects" used={u.projectCount} limit={q.projectCount} text={`${u.projectCount} of ${q.projectCount}`} />
        <Usage label="Webhooks" used={u.webhookCount} limit={q.webhookCount} text={`${u.webhookCount} of ${q.webhookCount}`} />
        <Usage label="IPFS storage" used={u.storage} limit={q.storageLimit} text={`${storageText(u.storage)} of ${storageText(q.storageLimit)}`} />
      </Stack>
    </Paper>
  );
}

function BoostsPanel({ workspace, info }: { workspace: WorkspaceDto; info: BillingInfoDto | undefined }) {
  const addons = useQuery(billingQueries.addons(workspace.id));
  const [item, setItem] = useState<CheckoutItem | null>(null);
  const mayBuy = can(workspace.role_name, 'billing.manage');
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="md">
        <Title order={2} size="h4">
          Boosts
        </Title>
        <Text size="sm" c="dimmed">
          A boost adds requests to the daily limit of {workspace.is_creator ? 'your subscription' : "the owner's subscription"} until it expires.
        </Text>
        {addons.data && addons.data.length > 0 ? (
          <Stack gap={4} data-testid="active-boosts">
            {addons.data.map((a, i) => (
              <Group key={i} gap="xs">
                <Badge variant="light">{a.type}</Badge>
                <Text size="sm">
                  +{formatCount(boosts[a.type].requests)} requests per day until {formatDateTime(a.expires_at)}
                </Text>
              </Group>
            ))}
          </Stack>
        ) : (
          <Text size="sm">No active boosts in this workspace.</Text>
        )}
        {mayBuy && info && info.provider !== 'none' && (
          <Group gap="sm">
            {boostTypes.map((t) => {
              const priceId = info.boosts.find((b) => b.type === t)?.priceId;
              return (
                <Button
                  key={t}
                  variant="light"
                  disabled={!priceId}
                  onClick={() =>
                    priceId &&
                    setItem({
                      label: `${t}: +${formatCount(boosts[t].requests)} requests per day for ${boosts[t].days} days`,
                      priceId,
                      amount: boosts[t].price,
                      mode: 'payment',
                      onBehalfWorkspaceId: workspace.id,
                      successCallbackPath: '/dashboard/subscription',
                      cancelCallbackPath: '/dashboard/subscription',
                    })
                  }
                >
                  Buy {t === 'REQUESTS_BOOST_1M' ? '1M' : '300K'} boost ({formatEur(boosts[t].price)})
                </Button>
              );
            })}
          </Group>
        )}
      </Stack>
      <CheckoutDialog item={item} onClose={() => setItem(null)} />
    </Paper>
  );
}

/** The workspace's pay-as-you-go balance: the requests its projects use once the plan's daily quota is used up. */
function PayAsYouGoPanel({ workspace, quota }: { workspace: WorkspaceDto; quota: QuotaDto }) {
  const { active, balance } = quota.ppu;
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Pay as you go
        </Title>
        <Text size="sm" data-testid="subscription-ppu-balance">
          Balance of {workspace.name}: <b>{formatRequests(balance.requests)} requests</b>
        </Text>
        <Text size="sm" c="dimmed">
          {active
            ? "Its projects use these requests once the plan's daily quota is used up. They never expire."
            : 'No requests bought for this workspace yet. Bought requests are used once the plan\'s daily quota is used up, and never expire.'}
        </Text>
        <Group gap="sm">
          {can(workspace.role_name, 'workspace.payg_new_order') && (
            <Button component={Link} to={`/dashboard/workspaces/${workspace.id}/order`} variant="light">
              New order
            </Button>
          )}
          <Button component={Link} to="/dashboard/subscription/ppu/history" variant="subtle">
            Order history
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function CurrentPlanPanel({ workspace, billing }: { workspace: WorkspaceDto; billing: WorkspaceBillingDto }) {
  const owner = workspace.is_creator;
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Current plan
          </Title>
          <StatusBadge status={billing.status} />
        </Group>
        <Text size="xl" fw={700} data-testid="current-plan">
          {billing.plan}
        </Text>
        {billing.period && <Text size="sm">Billed every {billing.period}.</Text>}
        {billing.current_period_end && hasPaidSubscription(billing) && <Text size="sm">Current period ends {formatDate(billing.current_period_end)}.</Text>}
        {billing.incomplete_expires_at && (
          <Text size="sm" c="orange">
            The first payment failed. Pay it before {formatDateTime(billing.incomplete_expires_at)} or the subscription expires.
          </Text>
        )}
        {!owner && (
          <Text size="sm" c="dimmed">
            This workspace runs on the subscription of its owner, {billing.owner_email}. Contact the owner to upgrade.
          </Text>
        )}
        <Group gap="sm" mt="xs">
          {owner ? (
            <>
              <Button component={Link} to="/dashboard/subscription/plans">
                Change plan
              </Button>
              {billing.provider !== 'none' && (
                <Button component="a" href="/api/customer-portal" variant="default">
                  Manage subscription
                </Button>
              )}
            </>
          ) : (
            <Button component={Link} to={`/dashboard/workspaces/${workspace.id}`} variant="default">
              Manage workspace
            </Button>
          )}
          <Button component={Link} to="/dashboard/subscription/logs" variant="subtle">
            Subscription logs
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * A plan chosen on the pricing page (?plan=HOBBY&period=month): its checkout opens at once for an owner
 * without a paid plan; anyone else is told how to get it (a change of plan, or the owner's decision).
 */
function ChosenPlan({ workspace, billing, info }: { workspace: WorkspaceDto; billing: WorkspaceBillingDto; info: BillingInfoDto | undefined }) {
  const [params] = useSearchParams();
  const wanted = params.get('plan');
  const period = params.get('period') === 'year' ? 'year' : 'month';
  const plan = isPlanName(wanted) ? info?.plans.find((p) => p.name === wanted) : undefined;
  const paid = hasPaidSubscription(billing);
  const buyable = plan !== undefined && workspace.is_creator && !paid && plan.purchasable && plan.stripePriceId[period].id !== null;
  const [item, setItem] = useState<CheckoutItem | null>(null);
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    if (opened || !plan || !buyable) return;
    setOpened(true);
    setItem({
      label: `${plan.name} plan, billed every ${period}`,
      priceId: plan.stripePriceId[period].id!,
      amount: plan.stripePriceId[period].price ?? 0,
      mode: 'subscription',
      successCallbackPath: '/dashboard/subscription',
      cancelCallbackPath: '/dashboard/subscription',
    });
  }, [opened, plan, buyable, period]);
  if (!plan || plan.name === billing.plan) return null;
  return (
    <>
      {!buyable && (
        <Alert color="blue" variant="light" data-testid="chosen-plan">
          <Text size="sm">
            You chose the {plan.name} plan on the pricing page.{' '}
            {!workspace.is_creator
              ? `This workspace runs on the subscription of its owner, ${billing.owner_email}: ask the owner to change it.`
              : paid
                ? 'Change to it with Upgrade plan or Downgrade plan:'
                : 'It cannot be bought here:'}{' '}
            {workspace.is_creator && (
              <Anchor component={Link} to={`/dashboard/subscription/plans/fixed?period=${period}`}>
                see the plans
              </Anchor>
            )}
          </Text>
        </Alert>
      )}
      <CheckoutDialog item={item} onClose={() => setItem(null)} />
    </>
  );
}

function SubscriptionBody({ workspace }: { workspace: WorkspaceDto }) {
  const [params] = useSearchParams();
  // Back from a checkout: read the customer from the provider once, in case its webhook is late.
  const returned = params.get('checkout') === 'success';
  const refreshed = useQuery({ ...billingQueries.customer(true), enabled: returned && workspace.is_creator });
  const billing = useQuery(billingQueries.workspace(workspace.id));
  const quota = useQuery(workspaceQueries.quota(workspace.id));
  const info = useQuery(billingQueries.info());
  const { refetch: refetchBilling } = billing;
  const { refetch: refetchQuota } = quota;
  useEffect(() => {
    if (refreshed.isSuccess) void Promise.all([refetchBilling(), refetchQuota()]);
  }, [refreshed.isSuccess, refetchBilling, refetchQuota]);
  const [thanked, setThanked] = useState(false);
  if (billing.error || quota.error) return <ErrorView error={billing.error ?? quota.error} withRefresh />;
  if (!billing.data || !quota.data) return <PageLoader label="Loading the subscription…" />;
  return (
    <Stack gap="lg">
      {returned && !thanked && (
        <Alert color="green" variant="light" title="Thank you, your payment went through" withCloseButton closeButtonLabel="Dismiss" onClose={() => setThanked(true)} role="status" data-testid="checkout-success">
          What you bought is on this page: the plan below, or the boost under Boosts.
        </Alert>
      )}
      <TestBillingNotice info={info.data} />
      <ChosenPlan workspace={workspace} billing={billing.data} info={info.data} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <CurrentPlanPanel workspace={workspace} billing={billing.data} />
        <UsagePanel quota={quota.data} />
      </SimpleGrid>
      <BoostsPanel workspace={workspace} info={info.data} />
      {PAY_AS_YOU_GO_AVAILABLE && <PayAsYouGoPanel workspace={workspace} quota={quota.data} />}
    </Stack>
  );
}

export function SubscriptionPage() {
  return (
    <PageLayout title="Subscription" description="The plan this workspace runs on, what it uses, its boosts and its pay-as-you-go balance.">
      <BillingErrorFromLink />
      <WithSelectedWorkspace missing="Subscriptions belong to workspace owners.">{(workspace) => <SubscriptionBody workspace={workspace} />}</WithSelectedWorkspace>
    </PageLayout>
  );
}
