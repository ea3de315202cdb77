import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { can } from '../../../../../shared/permissions';
import { QUOTA_WARNING_FRACTION, bannersFor, nearlyExhausted, type BannerKind } from '../../../../../shared/billing';
import type { QuotaDto, WorkspaceDto } from '../../../../../shared/workspaces';
import type { WorkspaceBillingDto } from '../../../../../shared/billing';
import { useSelectedWorkspace, workspaceQueries } from '../workspaces/index';
import { billingQueries } from './queries';
import { LOW_BALANCE_REQUESTS, formatRequests } from '../../../../../shared/ppu';

function Banner({ kind, workspace, quota, billing }: { kind: BannerKind; workspace: WorkspaceDto; quota: QuotaDto; billing: WorkspaceBillingDto }) {
  const billingRole = can(workspace.role_name, 'billing.manage');
  const portal = workspace.is_creator ? '/api/customer-portal' : `/api/workspaces/${workspace.id}/billing-portal`;
  if (kind === 'initial-payment') {
    return (
      <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title="The first payment failed" data-testid="banner-initial-payment">
        <Text size="sm">
          {billing.status === 'incomplete_expired'
            ? 'The first payment of the subscription failed and was not completed within 23 hours: API access is restricted and new projects cannot be added.'
            : 'The first payment of the subscription failed. New projects cannot be added until it is paid; after 23 hours API access is restricted.'}{' '}
          {workspace.is_creator ? (
            <>
              <Anchor href={portal}>Pay it in billing</Anchor> or <Anchor component={Link} to="/dashboard/subscription/plans/fixed">choose a plan again</Anchor>.
            </>
          ) : (
            `Contact the workspace owner, ${billing.owner_email}.`
          )}
        </Text>
      </Alert>
    );
  }
  if (kind === 'unpaid-own') {
    return (
      <Alert color="orange" icon={<IconAlertTriangle aria-hidden />} title="You have an unpaid invoice" data-testid="banner-unpaid-own">
        <Text size="sm">
          Pay it to keep your {billing.plan} plan; until then the plan cannot be changed or canceled. <Anchor href={portal}>Manage Billing</Anchor>
        </Text>
      </Alert>
    );
  }
  if (kind === 'unpaid-owner') {
    return (
      <Alert color="orange" icon={<IconAlertTriangle aria-hidden />} title="The workspace owner has an unpaid invoice" data-testid="banner-unpaid-owner">
        <Text size="sm">
          The subscription of {billing.owner_email}, which this workspace runs on, has an unpaid invoice.{' '}
          {billingRole ? (
            <>
              Pay it or upgrade to keep the workspace&apos;s limits. <Anchor href={portal}>Manage Billing</Anchor>
            </>
          ) : (
            'The owner has been told.'
          )}
        </Text>
      </Alert>
    );
  }
  const over = nearlyExhausted(quota);
  return (
    <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} title="Quota nearly exhausted" data-testid="banner-quota">
      <Text size="sm">
        {over.join(', ')} {over.length === 1 ? 'is' : 'are'} at {Math.round(QUOTA_WARNING_FRACTION * 100)}% or more of the {quota.subscription.currentPlan.name} plan.{' '}
        {workspace.is_creator ? (
          <Anchor component={Link} to="/dashboard/subscription/plans">
            Upgrade the plan or buy a boost
          </Anchor>
        ) : billingRole ? (
          <Anchor component={Link} to="/dashboard/subscription">
            Buy a boost, or ask the owner to upgrade
          </Anchor>
        ) : (
          'Ask the workspace owner to upgrade.'
        )}
      </Text>
    </Alert>
  );
}

/** The dashboard's warning banners for the selected workspace, above every signed-in page. */
export function BillingBanners() {
  const { workspace } = useSelectedWorkspace();
  const quota = useQuery({ ...workspaceQueries.quota(workspace?.id ?? 0), enabled: !!workspace });
  const billing = useQuery({ ...billingQueries.workspace(workspace?.id ?? 0), enabled: !!workspace });
  if (!workspace || !quota.data || !billing.data) return null;
  const kinds = bannersFor(workspace.is_creator, quota.data, billing.data);
  // Pay as you go: a workspace that bought requests and has fewer than LOW_BALANCE_REQUESTS left.
  const ppu = quota.data.ppu;
  const lowBalance = ppu.active && ppu.balance.requests < LOW_BALANCE_REQUESTS;
  if (kinds.length === 0 && !lowBalance) return null;
  return (
    <Stack gap="sm" mb="lg">
      {kinds.map((k) => (
        <Banner key={k} kind={k} workspace={workspace} quota={quota.data} billing={billing.data} />
      ))}
      {lowBalance && (
        <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} title="Pay-as-you-go balance running low" data-testid="banner-ppu-low">
          <Text size="sm">
            {workspace.name} has {formatRequests(ppu.balance.requests)} pay-as-you-go requests left.{' '}
            {can(workspace.role_name, 'workspace.payg_new_order') ? (
              <Anchor component={Link} to={`/dashboard/workspaces/${workspace.id}/order`}>
                New order
              </Anchor>
            ) : (
              'Ask the owner or an administrator to order more.'
            )}
          </Text>
        </Alert>
      )}
    </Stack>
  );
}
