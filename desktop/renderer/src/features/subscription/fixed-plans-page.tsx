import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Anchor, Badge, Button, Group, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { messages } from '../../../../../shared/messages';
import { isPlanName, monthlyRequests, planNames, yearlySavings, type PlanName } from '../../../../../shared/plans';
import { formatCount, formatEur } from '../../../../../shared/pricing';
import { hasPaidSubscription, type BillingPeriod, type BillingPlanDto, type PlanChangePreviewDto } from '../../../../../shared/billing';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { errorMessage } from '../../api/client';
import { ErrorView } from '../../components/error-view';
import { ModalDialog } from '../../components/modal-dialog';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { PlansGrid } from '../../components/plans-grid';
import { formatDate } from '../../lib/format';
import { enterpriseContact, planFeatures, planTitles } from '../pricing/index';
import { siteQueries } from '../site/index';
import { WithSelectedWorkspace } from '../workspaces/index';
import { CheckoutDialog, type CheckoutItem } from './checkout-dialog';
import { billingQueries, useCancelSubscription, usePreviewPlanChange, useUpdateSubscription } from './queries';
import { SUBSCRIPTION, PLANS } from './crumbs';
import { TestBillingNotice } from './test-billing-notice';

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
  const [confirming, setConfirming] = useState<{ plan: BillingPlanDto; preview: PlanChangePreviewDto } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateSubscription();
  const cancel = useCancelSubscription();
  const preview = usePreviewPlanChange();
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

  // Upgrade or downgrade: the server checks the rules and prices the change first, so a change the
  // counts forbid is refused here, and the confirmation says what is charged now and from the next period.
  const ask = (plan: BillingPlanDto) => {
    setError(null);
    preview.mutate(plan.name === 'STARTER' ? null : plan.stripePriceId[period].id!, {
      onSuccess: (p) => setConfirming({ plan, preview: p }),
      onError: (err) => setError(errorMessage(err, 'The plan could not be changed.')),
    });
  };
  const asking = (plan: BillingPlanDto) => preview.isPending && preview.variables === (plan.name === 'STARTER' ? null : plan.stripePriceId[period].id);

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
      <Button fullWidth onClick={() => ask(plan)} loading={asking(plan) || (update.isPending && update.variables === plan.stripePriceId[period].id)} data-testid={`upgrade-plan-${plan.name}`}>
        Upgrade plan
      </Button>
    ) : (
      <Button fullWidth variant="outline" onClick={() => ask(plan)} loading={asking(plan)} data-testid={`downgrade-plan-${plan.name}`}>
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
      <PlanChangeDialog
        change={confirming}
        onClose={() => setConfirming(null)}
        onConfirm={(plan) => {
          setConfirming(null);
          change(plan);
        }}
      />
    </Stack>
  );
}

/** The confirmation of an upgrade or a downgrade, with what it charges now and from the next period on. */
function PlanChangeDialog({ change, onClose, onConfirm }: { change: { plan: BillingPlanDto; preview: PlanChangePreviewDto } | null; onClose: () => void; onConfirm: (plan: BillingPlanDto) => void }) {
  const up = change?.preview.direction === 'upgrade';
  return (
    <ModalDialog opened={change !== null} onClose={onClose} title={up ? 'Upgrade the subscription' : 'Downgrade the subscription'}>
      {change && (
        <Stack gap="md">
          <Text>{up ? messages.billing.upgradeText(change.plan.name) : messages.billing.downgradeText(change.plan.name)}</Text>
          <Table withRowBorders={false} verticalSpacing={4} data-testid="plan-change-charges">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row" fw={500}>Charged now</Table.Th>
                <Table.Td ta="right" data-testid="plan-change-now">{formatEur(change.preview.amount_now)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row" fw={500}>
                  {change.preview.next_period_start ? `From ${formatDate(change.preview.next_period_start)}` : 'From the next period'}
                </Table.Th>
                <Table.Td ta="right" data-testid="plan-change-next">
                  {change.preview.next_amount === 0 ? 'Free' : `${formatEur(change.preview.next_amount)} / ${change.preview.period ?? 'month'}`}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          {up && change.preview.amount_now > 0 && (
            <Text size="sm" c="dimmed">
              The amount charged now is the new plan's price for the rest of the current period, less what is unused of the old one.
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {messages.billing.downgradeCancel}
            </Button>
            <Button color={up ? undefined : 'red'} onClick={() => onConfirm(change.plan)}>
              {up ? messages.billing.upgradeConfirm : messages.billing.downgradeConfirm}
            </Button>
          </Group>
        </Stack>
      )}
    </ModalDialog>
  );
}

export function FixedPlansPage() {
  return (
    <PageLayout title="Fixed plans" breadcrumbs={[SUBSCRIPTION, PLANS, { label: 'Fixed plans' }]}>
      <WithSelectedWorkspace missing="Subscriptions belong to workspace owners.">{(workspace) => <FixedPlansBody workspace={workspace} />}</WithSelectedWorkspace>
    </PageLayout>
  );
}
