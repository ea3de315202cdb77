import { Button, Menu, Text } from '@mantine/core';
import { IconChevronDown, IconCreditCard, IconLogout, IconSettings, IconUserCircle, IconUsersGroup } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

/** The signed-in user's e-mail with the account links. */
export function AccountMenu({ email }: { email: string }) {
  return (
    <Menu position="bottom-end" width={240} shadow="md">
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          aria-label="Account menu"
          leftSection={<IconUserCircle size={20} aria-hidden />}
          rightSection={<IconChevronDown size={16} aria-hidden />}
          styles={{ label: { minWidth: 0 } }}
          maw="min(60vw, 320px)"
          px="xs"
        >
          <Text span size="sm" fw={500} truncate="end" c="var(--mantine-color-text)">
            {email}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label style={{ overflowWrap: 'anywhere' }}>Signed in as {email}</Menu.Label>
        <Menu.Item component={Link} to="/dashboard/subscription" leftSection={<IconCreditCard size={16} aria-hidden />}>
          My Subscription
        </Menu.Item>
        <Menu.Item component={Link} to="/dashboard/workspaces" leftSection={<IconUsersGroup size={16} aria-hidden />}>
          Manage Workspaces
        </Menu.Item>
        <Menu.Item component={Link} to="/dashboard/settings" leftSection={<IconSettings size={16} aria-hidden />}>
          Settings
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item component={Link} to="/auth/signout" leftSection={<IconLogout size={16} aria-hidden />}>
          Sign Out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
