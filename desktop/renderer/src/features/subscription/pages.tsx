import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Anchor, Badge, Box, Button, Group, Paper, Progress, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { messages } from '../../../../../shared/messages';
import { can } from '../../../../../shared/permissions';
import { boosts, boostTypes, isPlanName, monthlyRequests, planNames, yearlySavings, type PlanName } from '../../../../../shared/plans';
import { formatCount, formatEur, storageText } from '../../../../../shared/pricing';
import { PAY_AS_YOU_GO_AVAILABLE, hasPaidSubscription, logTypeLabels, type BillingInfoDto, type BillingPeriod, type BillingPlanDto, type WorkspaceBillingDto } from '../../../../../shared/billing';
import type { QuotaDto, WorkspaceDto } from '../../../../../shared/workspaces';
import { errorMessage } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { ModalDialog } from '../../components/modal-dialog';
import { PageLayout, type Crumb } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { PlansGrid } from '../../components/plans-grid';
import { formatDate, formatDateTime } from '../../lib/format';
import { planFeatures, planTitles } from '../pricing/plan-card';
import { enterpriseContact } from '../pricing/targets';
import { siteQueries } from '../shell/queries';
import { WithSelectedWorkspace } from '../workspaces/selected-workspace';
import { workspaceQueries } from '../workspaces/queries';
import { CheckoutDialog, type CheckoutItem } from './checkout-dialog';
import { billingQueries, useCancelSubscription, useUpdateSubscription } from './queries';

const SUBSCRIPTION: Crumb = { label: 'Subscription', to: '/dashboard/subscription' };
const PLANS: Crumb = { label: 'Subscription plans', to: '/dashboard/subscription/plans' };

const statusColors: Record<string, string> = {
  active: 'green',
  trialing: 'green',
  past_due: 'orange',
  unpaid: 'red',
  incomplete: 'orange',
  incomplete_expired: 'red',
  canceled: 'gray',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={statusColors[status] ?? 'gray'} variant="light" data-testid="subscription-status">
      {status.replace(/_/g, ' ')}
    </Badge>
  );
}

/** A redirect from a link target (billing portal, log download) that could not go on says why here. */
function BillingErrorFromLink() {
  const [params] = useSearchParams();
  const message = params.get('billing_error');
  if (!message) return null;
  return (
    <Alert color="red" role="alert" title="That did not work">
      {message}
    </Alert>
  );
}

function TestBillingNotice({ info }: { info: Pick<BillingInfoDto, 'provider' | 'testBilling'> | undefined }) {
  if (!info) return null;
  if (info.testBilling) {
    return (
      <Alert color="yellow" variant="light" title="Built-in test billing" data-testid="test-billing-notice">
        This Cairn runs the operator&apos;s built-in test billing: checkout and payments are simulated and no money moves.
      </Alert>
    );
  }
  if (info.provider === 'none') {
    return (
      <Alert color="gray" variant="light" title="No billing on this Cairn">
        Plans cannot be bought here. The operator changes plans on request.
      </Alert>
    );
  }
  return null;
}

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
  if (billing.error || quota.error) return <ErrorView error={billing.error ?? quota.error} withRefresh />;
  if (!billing.data || !quota.data) return <PageLoader label="Loading the subscription…" />;
  return (
    <Stack gap="lg">
      <TestBillingNotice info={info.data} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <CurrentPlanPanel workspace={workspace} billing={billing.data} />
        <UsagePanel quota={quota.data} />
      </SimpleGrid>
      <BoostsPanel workspace={workspace} info={info.data} />
    </Stack>
  );
}

export function SubscriptionPage() {
  return (
    <PageLayout title="Subscription" description="The plan this workspace runs on, what it uses, and its boosts.">
      <BillingErrorFromLink />
      <WithSelectedWorkspace missing="Subscriptions belong to workspace owners.">{(workspace) => <SubscriptionBody workspace={workspace} />}</WithSelectedWorkspace>
    </PageLayout>
  );
}

function CrossroadCard({ title, text, to, action, testId }: { title: string; text: string; to: string; action: string; testId: string }) {
  return (
    <Paper withBorder p="xl" radius="md" data-testid={testId}>
      <Stack gap="sm">
        <Title order={2} size="h3">
          {title}
        </Title>
        <Text c="dimmed">{text}</Text>
        <Button component={Link} to={to} mt="sm" w="fit-content">
          {action}
        </Button>
      </Stack>
    </Paper>
  );
}

/** The plans crossroad: fixed plans, and pay as you go once that feature exists (shared flag). */
export function SubscriptionPlansPage() {
  return (
    <PageLayout title="Subscription plans" breadcrumbs={[SUBSCRIPTION, { label: 'Subscription plans' }]}>
      <SimpleGrid cols={{ base: 1, sm: PAY_AS_YOU_GO_AVAILABLE ? 2 : 1 }} spacing="lg" maw={PAY_AS_YOU_GO_AVAILABLE ? undefined : 560}>
        <CrossroadCard
          testId="crossroad-fixed"
          title="Fixed plans"
          text="A monthly or yearly plan with a daily request limit, projects, webhooks and workspaces. Yearly plans are 15% off."
          to="/dashboard/subscription/plans/fixed"
          action="See fixed plans"
        />
        {PAY_AS_YOU_GO_AVAILABLE && (
          <CrossroadCard
            testId="crossroad-payg"
            title="Pay as you go"
            text="No commitment: buy requests with ADA and use them whenever you like. They never expire."
            to="/dashboard/subscription/ppu/order"
            action="Start Building"
          />
        )}
      </SimpleGrid>
    </PageLayout>
  );
}

const rankOf = (plan: PlanName) => planNames.indexOf(plan);

function PlanPriceText({ plan, period }: { plan: BillingPlanDto; period: BillingPeriod }) {
  const cents = plan.stripePriceId[period].price;
  if (cents === null) return <Text fw={700} size="xl">Custom pricing</Text>;
  if (cents === 0) return <Text fw={700} size="xl">Free</Text>;
  const savings = period === 'year' ? yearlySavings(plan) : null;
  return (
    <Stack gap={0}>
      <Text fw={700} size="xl" data-testid={`fixed-price-${plan.name}`}>
        {formatEur(cents)} <Text span size="sm" c="dimmed">/ {period}</Text>
      </Text>
      {savings !== null && savings > 0 && (
        <Text size="sm" c="teal">
          Save {formatEur(savings)} per year
        </Text>
      )}
    </Stack>
  );
}

function FixedPlansBody({ workspace }: { workspace: WorkspaceDto }) {
  const [params] = useSearchParams();
  const wanted = params.get('plan');
  const [period, setPeriod] = useState<BillingPeriod>(params.get('period') === 'year' ? 'year' : 'month');
  const info = useQuery(billingQueries.info());
  const billing = useQuery(billingQueries.workspace(workspace.id));
  const site = useQuery(siteQueries.site());
  const [checkoutItem, setCheckoutItem] = useState<CheckoutItem | null>(null);
  const [downgradeTo, setDowngradeTo] = useState<BillingPlanDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateSubscription();
  const cancel = useCancelSubscription();
  const owner = workspace.is_creator;

  const startCheckout = (plan: BillingPlanDto) => {
    const priceId = plan.stripePriceId[period].id;
    if (!priceId) return;
    setCheckoutItem({
      label: `${plan.name} plan, billed every ${period}`,
      priceId,
      amount: plan.stripePriceId[period].price ?? 0,
      mode: 'subscription',
      successCallbackPath: '/dashboard/subscription',
      cancelCallbackPath: '/dashboard/subscription/plans/fixed',
    });
  };

  // From the pricing page's button: open the checkout of the plan it named, once.
  const [opened, setOpened] = useState(false);
  const ready = info.data && billing.data;
  useEffect(() => {
    if (opened || !ready || !owner || !isPlanName(wanted) || hasPaidSubscription(billing.data!)) return;
    const plan = info.data!.plans.find((p) => p.name === wanted);
    setOpened(true);
    if (plan?.purchasable) startCheckout(plan);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, opened, owner, wanted]);

  if (info.error || billing.error) return <ErrorView error={info.error ?? billing.error} withRefresh />;
  if (!info.data || !billing.data) return <PageLoader label="Loading plans…" />;
  const b = billing.data;
  const paid = hasPaidSubscription(b);
  const contact = enterpriseContact(site.data);

  const change = (plan: BillingPlanDto) => {
    setError(null);
    const done = { onSuccess: () => notifications.show({ color: 'green', title: 'Subscription changed', message: `You are now on the ${plan.name} plan.` }), onError: (err: unknown) => setError(errorMessage(err, 'The plan could not be changed.')) };
    if (plan.name === 'STARTER') cancel.mutate(undefined, done);
    else update.mutate(plan.stripePriceId[period].id!, done);
  };

  const action = (plan: BillingPlanDto): ReactNode => {
    // Operators may set a plan without a billing period (ENTERPRISE, or by hand): it is current in both views.
    const current = plan.name === b.plan && (plan.name === 'STARTER' || plan.name === 'ENTERPRISE' || (paid && (b.period === period || b.period === null)));
    if (current) {
      return (
        <Button fullWidth variant="light" color="green" leftSection={<IconCheck size={16} aria-hidden />} disabled data-testid={`plan-selected-${plan.name}`}>
          Selected
        </Button>
      );
    }
    if (plan.name === 'ENTERPRISE') {
      return (
        <Button fullWidth variant="outline" component="a" href={contact?.href ?? '#'} {...(contact?.newWindow ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
          Contact Us
        </Button>
      );
    }
    if (!owner || info.data!.provider === 'none') return null;
    if (!paid) {
      if (plan.name === 'STARTER') return null;
      return (
        <Button fullWidth disabled={!plan.purchasable} onClick={() => startCheckout(plan)} data-testid={`select-plan-${plan.name}`}>
          Select plan
        </Button>
      );
    }
    const up = rankOf(plan.name) > rankOf(b.plan) || (plan.name === b.plan && period === 'year');
    return up ? (
      <Button fullWidth onClick={() => change(plan)} loading={update.isPending} data-testid={`upgrade-plan-${plan.name}`}>
        Upgrade plan
      </Button>
    ) : (
      <Button fullWidth variant="outline" onClick={() => setDowngradeTo(plan)} data-testid={`downgrade-plan-${plan.name}`}>
        Downgrade plan
      </Button>
    );
  };

  return (
    <Stack gap="lg">
      <TestBillingNotice info={info.data} />
      {!owner && (
        <Alert color="blue" variant="light">
          <Stack gap={6}>
            <Text size="sm">
              This workspace runs on the subscription of its owner, {b.owner_email}. Contact the owner to upgrade.
            </Text>
            <Anchor component={Link} to={`/dashboard/workspaces/${workspace.id}`} size="sm">
              Manage workspace
            </Anchor>
          </Stack>
        </Alert>
      )}
      <Group justify="space-between">
        <SegmentedControl
          aria-label="Billing period"
          value={period}
          onChange={(v) => setPeriod(v as BillingPeriod)}
          data={[
            { value: 'month', label: 'Monthly' },
            { value: 'year', label: 'Yearly (15% off)' },
          ]}
        />
        {owner && paid && (
          <Anchor href="/api/customer-portal" size="sm">
            Manage subscription
          </Anchor>
        )}
      </Group>
      {error && (
        <Alert color="red" role="alert" data-testid="plan-change-error">
          {error}
        </Alert>
      )}
      <PlansGrid>
        {info.data.plans.map((plan) => (
          <Paper key={plan.name} withBorder p="lg" radius="md" data-plan={plan.name} data-current={plan.name === b.plan || undefined}>
            <Stack gap="sm" h="100%">
              <Group justify="space-between">
                <Title order={2} size="h4">
                  {planTitles[plan.name]}
                </Title>
                {plan.name === b.plan && <Badge color="green">Current</Badge>}
              </Group>
              <PlanPriceText plan={plan} period={period} />
              <Text size="sm">{formatCount(plan.requestLimit)} requests / day ({formatCount(monthlyRequests(plan))} / month)</Text>
              <Stack gap={2} style={{ flex: 1 }}>
                {planFeatures(plan).slice(1).map((f) => (
                  <Text key={f} size="sm" c="dimmed">
                    {f}
                  </Text>
                ))}
              </Stack>
              {action(plan)}
            </Stack>
          </Paper>
        ))}
      </PlansGrid>
      <CheckoutDialog item={checkoutItem} onClose={() => setCheckoutItem(null)} />
      <ModalDialog opened={downgradeTo !== null} onClose={() => setDowngradeTo(null)} title="Downgrade the subscription">
        {downgradeTo && (
          <Stack gap="md">
            <Text>{messages.billing.downgradeText(downgradeTo.name)}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDowngradeTo(null)}>
                {messages.billing.downgradeCancel}
              </Button>
              <Button
                color="red"
                onClick={() => {
                  const plan = downgradeTo;
                  setDowngradeTo(null);
                  change(plan);
                }}
              >
                {messages.billing.downgradeConfirm}
              </Button>
            </Group>
          </Stack>
        )}
      </ModalDialog>
    </Stack>
  );
}

export function FixedPlansPage() {
  return (
    <PageLayout title="Fixed plans" breadcrumbs={[SUBSCRIPTION, PLANS, { label: 'Fixed plans' }]}>
      <WithSelectedWorkspace missing="Subscriptions belong to workspace owners.">{(workspace) => <FixedPlansBody workspace={workspace} />}</WithSelectedWorkspace>
    </PageLayout>
  );
}

export function SubscriptionLogsPage() {
  const logs = useQuery(billingQueries.logs());
  return (
    <PageLayout title="Subscription logs" breadcrumbs={[SUBSCRIPTION, { label: 'Subscription logs' }]} description="Every event of your subscription: checkouts, plan changes, renewals, payments, cancellations and boosts.">
      <BillingErrorFromLink />
      {logs.error ? (
        <ErrorView error={logs.error} withRefresh />
      ) : !logs.data ? (
        <PageLoader label="Loading logs…" />
      ) : logs.data.length === 0 ? (
        <Text c="dimmed">No subscription events yet.</Text>
      ) : (
        <>
          {/* Phones get one card per entry; wider screens the table. */}
          <Stack gap="sm" hiddenFrom="sm">
            {logs.data.map((l) => (
              <Paper key={l.id} withBorder p="sm" radius="md">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={2} miw={0}>
                    <Text fw={600} size="sm">
                      {logTypeLabels[l.type]}
                      {l.boost ? ` (${l.boost})` : ''}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(l.created_at)} · {l.plan}
                      {l.period ? ` / ${l.period}` : ''} · {l.amount === null ? '—' : formatEur(l.amount)}
                    </Text>
                  </Stack>
                  <StatusBadge status={l.status} />
                </Group>
                <Anchor href={`/api/logs/${l.id}/download`} size="sm" mt={6} display="inline-flex">
                  <IconDownload size={14} aria-hidden /> Download
                </Anchor>
              </Paper>
            ))}
          </Stack>
          <Box visibleFrom="sm">
        <Table.ScrollContainer minWidth={640}>
            <Table striped data-testid="subscription-logs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Plan</Table.Th>
                  <Table.Th>Amount</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>
                    <span className="visually-hidden">Download</span>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {logs.data.map((l) => (
                  <Table.Tr key={l.id}>
                    <Table.Td>{formatDateTime(l.created_at)}</Table.Td>
                    <Table.Td>
                      {logTypeLabels[l.type]}
                      {l.boost ? ` (${l.boost})` : ''}
                    </Table.Td>
                    <Table.Td>
                      {l.plan}
                      {l.period ? ` / ${l.period}` : ''}
                    </Table.Td>
                    <Table.Td>{l.amount === null ? '—' : formatEur(l.amount)}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={l.status} />
                    </Table.Td>
                    <Table.Td>
                      <Anchor href={`/api/logs/${l.id}/download`} size="sm" aria-label={`Download log entry ${l.id}`}>
                        <Group gap={4} wrap="nowrap">
                          <IconDownload size={14} aria-hidden /> Download
                        </Group>
                      </Anchor>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          </Box>
        </>
      )}
    </PageLayout>
  );
}
