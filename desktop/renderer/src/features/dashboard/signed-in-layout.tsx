import { Anchor, AppShell, Container, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, Outlet } from 'react-router-dom';
import { can } from '../../../../../shared/permissions';
import { CairnLogo } from '../../components/cairn-logo';
import { meQueries } from '../account/index';
import { SelectedWorkspaceProvider, useSelectedWorkspace, WorkspacePicker } from '../workspaces/index';
import { ShellExtras } from '../shell/index';
import { WebhookNoticeToasts } from '../webhooks/index';
import { AccountMenu } from './account-menu';
import { BillingBanners } from '../subscription/index';
import { RequireAuth } from './require-auth';

function AppHeader() {
  const { data: me } = useQuery(meQueries.me());
  const { workspace } = useSelectedWorkspace();
  const billingWorkspaceId = workspace && can(workspace.role_name, 'billing.manage') ? workspace.id : null;
  const auditWorkspaceId = workspace && can(workspace.role_name, 'audit.view') ? workspace.id : null;
  return (
    <Container size="lg" h="100%" px={{ base: 'xs', xs: 'md' }}>
      <Group h="100%" justify="space-between" wrap="nowrap" gap="xs">
        <Group gap="sm" wrap="nowrap" miw={0}>
          <Anchor component={Link} to="/dashboard" underline="never" c="inherit" aria-label="Cairn dashboard">
            <Group gap={8} wrap="nowrap">
              <CairnLogo />
              <Text fw={700} size="xl" visibleFrom="xs">
                Cairn
              </Text>
            </Group>
          </Anchor>
          <WorkspacePicker />
        </Group>
        {me && <AccountMenu email={me.email} billingWorkspaceId={billingWorkspaceId} auditWorkspaceId={auditWorkspaceId} operator={me.is_operator === true} />}
      </Group>
    </Container>
  );
}

/** The frame of every signed-in page (/dashboard/*, /workspace-invite/:id). */
export function SignedInLayout() {
  return (
    <RequireAuth>
      <SelectedWorkspaceProvider>
        <WebhookNoticeToasts />
        <AppShell header={{ height: 60 }} padding={0}>
          <AppShell.Header>
            <AppHeader />
          </AppShell.Header>
          <AppShell.Main bg="gray.0">
            <Container size="lg" px="md" py="lg">
              <ShellExtras>
                <BillingBanners />
                <Outlet />
              </ShellExtras>
            </Container>
          </AppShell.Main>
        </AppShell>
      </SelectedWorkspaceProvider>
    </RequireAuth>
  );
}
