import { Box, Button, Menu, Text } from '@mantine/core';
import {
  IconBraces,
  IconListDetails,
  IconChevronDown,
  IconCreditCard,
  IconLogout,
  IconReceipt,
  IconServer,
  IconSettings,
  IconShieldCog,
  IconTerminal2,
  IconUserCircle,
  IconUsersGroup,
} from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { desktopBridge } from '../../lib/desktop';

interface AccountMenuProps {
  email: string;
  /**
   * The workspace whose billing portal Manage Billing opens; null hides the item (no workspace, or a
   * role without billing.manage).
   */
  billingWorkspaceId?: number | null;
  /** Named in OPERATOR_EMAILS: the menu links the operator page. */
  operator?: boolean;
  /** The selected workspace whose audit log the user may read (audit.view); null hides the item. */
  auditWorkspaceId?: number | null;
}

/** The signed-in user's e-mail with the account links. */
export function AccountMenu({ email, billingWorkspaceId = null, operator = false, auditWorkspaceId = null }: AccountMenuProps) {
  return (
    // No focus placeholder: a role=presentation child is not allowed in role=menu (axe); focus goes to the first item.
    <Menu position="bottom-end" width={240} shadow="md" withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          aria-label="Account menu"
          leftSection={<IconUserCircle size={20} aria-hidden />}
          rightSection={<IconChevronDown size={16} aria-hidden />}
          styles={{ label: { minWidth: 0 }, section: { marginInline: 0 } }}
          miw={0}
          maw="min(40vw, 320px)"
          px="xs"
        >
          {/* Below the xs breakpoint only the icon shows; the e-mail is in the menu. */}
          <Box component="span" visibleFrom="xs" miw={0} ml={6} mr={4}>
            <Text span size="sm" fw={500} truncate="end" display="block" c="var(--mantine-color-text)">
              {email}
            </Text>
          </Box>
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
        {billingWorkspaceId !== null && (
          // A plain link: the billing portal is a server redirect, not a client route.
          <Menu.Item
            component="a"
            href={`/api/workspaces/${billingWorkspaceId}/billing-portal`}
            leftSection={<IconReceipt size={16} aria-hidden />}
          >
            Manage Billing
          </Menu.Item>
        )}
        {auditWorkspaceId !== null && (
          <Menu.Item component={Link} to={`/dashboard/workspaces/${auditWorkspaceId}/audit`} leftSection={<IconListDetails size={16} aria-hidden />}>
            Audit log
          </Menu.Item>
        )}
        <Menu.Item component={Link} to="/dashboard/jsonpath-sandbox" leftSection={<IconBraces size={16} aria-hidden />}>
          JSONPath sandbox
        </Menu.Item>
        {desktopBridge() !== null && (
          <Menu.Item component={Link} to="/dashboard/api-console" leftSection={<IconTerminal2 size={16} aria-hidden />}>
            API console
          </Menu.Item>
        )}
        <Menu.Item component={Link} to="/dashboard/settings" leftSection={<IconSettings size={16} aria-hidden />}>
          Settings
        </Menu.Item>
        <Menu.Item component={Link} to="/dashboard/endpoints" leftSection={<IconServer size={16} aria-hidden />}>
          Submit an Endpoint
        </Menu.Item>
        {operator && (
          <Menu.Item component={Link} to="/dashboard/operator" leftSection={<IconShieldCog size={16} aria-hidden />}>
            Operator
          </Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Item component={Link} to="/auth/signout" leftSection={<IconLogout size={16} aria-hidden />}>
          Sign Out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
