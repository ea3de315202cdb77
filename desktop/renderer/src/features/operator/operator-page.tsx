import { useState } from 'react';
import { Alert, Badge, Button, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { boostTypes, planNames, type BoostType, type PlanName, type SubscriptionStatus } from '../../../../../shared/plans';
import { type OperatorUserDto } from '../../../../../shared/billing';
import { errorMessage } from '../../api/client';
import { DataList } from '../../components/data-list';
import { PageLayout } from '../../components/page-layout';
import { formatDate } from '../../lib/format';
import { meQueries } from '../account/index';
import { StatusBadge } from '../subscription/index';
import { operatorQueries, useGrantBoost, useSetPlan } from './queries';

const statuses: SubscriptionStatus[] = ['active', 'past_due', 'unpaid', 'incomplete', 'incomplete_expired', 'canceled'];

function UserCard({ user }: { user: OperatorUserDto }) {
  const [plan, setPlan] = useState<PlanName>(user.plan);
  const [status, setStatus] = useState<SubscriptionStatus>(user.status === 'trialing' ? 'active' : user.status);
  const [boost, setBoost] = useState<BoostType>('REQUESTS_BOOST_300K');
  const [workspaceId, setWorkspaceId] = useState<number | undefined>(user.workspaces[0]?.id);
  const setPlanM = useSetPlan();
  const grant = useGrantBoost();
  const fail = (err: unknown) => notifications.show({ color: 'red', title: 'Not changed', message: errorMessage(err, 'The change failed.') });
  return (
    <Paper withBorder p="md" radius="md" data-testid={`operator-user-${user.id}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {user.email}
          </Text>
          <Group gap="xs">
            <Badge variant="light">{user.plan}</Badge>
            <StatusBadge status={user.status} />
            {user.provider && <Badge variant="outline">{user.provider}</Badge>}
          </Group>
        </Group>
        <Text size="xs" c="dimmed">
          Joined {formatDate(user.created_at)} · owns {user.workspaces.length} workspace{user.workspaces.length === 1 ? '' : 's'}
        </Text>
        {user.workspaces.map((w) => (
          <Text key={w.id} size="sm">
            {w.name}: {w.projects} project{w.projects === 1 ? '' : 's'}, {w.members} member{w.members === 1 ? '' : 's'}
            {w.boosts.length > 0 && ` · boosts: ${w.boosts.map((b) => `${b.type} until ${formatDate(b.expires_at)}`).join(', ')}`}
          </Text>
        ))}
        <Group gap="sm" align="flex-end" wrap="wrap">
          <NativeSelect label="Plan" value={plan} onChange={(e) => setPlan(e.currentTarget.value as PlanName)} data={planNames} />
          <NativeSelect label="Status" value={status} onChange={(e) => setStatus(e.currentTarget.value as SubscriptionStatus)} data={statuses} />
          <Button
            loading={setPlanM.isPending}
            onClick={() =>
              setPlanM.mutate(
                { userId: user.id, plan, status },
                { onSuccess: () => notifications.show({ color: 'green', title: 'Plan set', message: `${user.email} is now on ${plan} (${status}).` }), onError: fail },
              )
            }
          >
            Set plan
          </Button>
        </Group>
        {user.workspaces.length > 0 && (
          <Group gap="sm" align="flex-end" wrap="wrap">
            <NativeSelect label="Boost" value={boost} onChange={(e) => setBoost(e.currentTarget.value as BoostType)} data={boostTypes} />
            <NativeSelect
              label="Workspace"
              value={String(workspaceId ?? '')}
              onChange={(e) => setWorkspaceId(Number(e.currentTarget.value))}
              data={user.workspaces.map((w) => ({ value: String(w.id), label: w.name }))}
            />
            <Button
              variant="light"
              loading={grant.isPending}
              onClick={() =>
                grant.mutate(
                  { userId: user.id, type: boost, workspaceId },
                  { onSuccess: () => notifications.show({ color: 'green', title: 'Boost granted', message: `${boost} for ${user.email}.` }), onError: fail },
                )
              }
            >
              Grant boost
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** The operator page (OPERATOR_EMAILS): every user with plan and status, set a plan, grant a boost. */
export function OperatorPage() {
  const me = useQuery(meQueries.me());
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const users = useQuery({ ...operatorQueries.users(debounced), enabled: me.data?.is_operator === true });
  if (me.data && !me.data.is_operator) {
    return (
      <PageLayout title="Operator">
        <Alert color="gray">This page is for the operators of this Cairn (OPERATOR_EMAILS).</Alert>
      </PageLayout>
    );
  }
  return (
    <PageLayout
      title="Operator"
      description="Users with their plan and status, their workspaces and boosts. Changes here are logged in the user's subscription logs."
      actions={
        <Button component={Link} to="/dashboard/operator/endpoints" variant="default">
          Review submitted endpoints
        </Button>
      }
    >
      <DataList<OperatorUserDto>
        records={users.data}
        error={users.error}
        label="Users"
        loadingLabel="Loading users…"
        search={{ value: search, onChange: setSearch, query: debounced, label: 'Search users by e-mail', placeholder: 'E-mail' }}
        empty={<Text c="dimmed">No users match.</Text>}
        card={(u) => <UserCard user={u} />}
        cardGap="md"
      />
    </PageLayout>
  );
}
