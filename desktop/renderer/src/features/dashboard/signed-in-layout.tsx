import { Anchor, AppShell, Container, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, Outlet } from 'react-router-dom';
import { CairnLogo } from '../../components/cairn-logo';
import { meQueries } from '../account/queries';
import { AccountMenu } from './account-menu';
import { RequireAuth } from './require-auth';

function AppHeader() {
  const { data: me } = useQuery(meQueries.me());
  return (
    <Container size="lg" h="100%" px="md">
      <Group h="100%" justify="space-between" wrap="nowrap" gap="sm">
        <Anchor component={Link} to="/dashboard" underline="never" c="inherit" aria-label="Cairn dashboard">
          <Group gap={8} wrap="nowrap">
            <CairnLogo />
            <Text fw={700} size="xl">
              Cairn
            </Text>
          </Group>
        </Anchor>
        {me && <AccountMenu email={me.email} />}
      </Group>
    </Container>
  );
}

/** The frame of every signed-in page (/dashboard/*, /workspace-invite/:id). */
export function SignedInLayout() {
  return (
    <RequireAuth>
      <AppShell header={{ height: 60 }} padding={0}>
        <AppShell.Header>
          <AppHeader />
        </AppShell.Header>
        <AppShell.Main bg="gray.0">
          <Container size="lg" px="md" py="lg">
            <Outlet />
          </Container>
        </AppShell.Main>
      </AppShell>
    </RequireAuth>
  );
}
