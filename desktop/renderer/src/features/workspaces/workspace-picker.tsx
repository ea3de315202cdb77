import { Button, Group, Menu, Text, useMatches, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconChevronDown, IconSettings, IconStack2 } from '@tabler/icons-react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { RoleBadge } from '../../components/role-badge';
import { useSelectedWorkspace } from './selected-workspace';

/** Header menu listing the user's workspaces: choosing one switches the selection; each has a manage link. */
export function WorkspacePicker() {
  const { workspace, workspaces, select } = useSelectedWorkspace();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const phone = useMatches({ base: true, xs: false }, { getInitialValueInEffect: false });
  if (!workspace) return null;

  const choose = (id: number) => {
    select(id);
    // A project page belongs to one workspace; after switching, show the new workspace's projects.
    if (pathname.startsWith('/dashboard/project/')) navigate('/dashboard');
  };

  return (
    // On a phone the list takes nearly the whole width and smaller role badges, so names keep room.
    <Menu position="bottom-start" width={phone ? 'calc(100vw - 1rem)' : 300} shadow="md" withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconStack2 size={18} aria-hidden />}
          rightSection={<IconChevronDown size={16} aria-hidden />}
          styles={{ label: { minWidth: 0 } }}
          miw={0}
          maw={{ base: 220, xs: 240, sm: 300 }}
          px="sm"
        >
          <VisuallyHidden>Workspace: </VisuallyHidden>
          <Text span size="sm" fw={500} truncate="end">
            {workspace.name}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Workspaces</Menu.Label>
        {workspaces.map((w) => {
          const current = w.id === workspace.id;
          return (
            <Group key={w.id} gap={4} wrap="nowrap">
              <Menu.Item
                onClick={() => choose(w.id)}
                aria-current={current ? 'true' : undefined}
                leftSection={current ? <IconCheck size={16} aria-label="Selected" /> : <span style={{ width: 16 }} aria-hidden />}
                rightSection={<RoleBadge role={w.role_name} size={phone ? 'sm' : undefined} />}
                style={{ flex: 1, minWidth: 0 }}
                // A long name is cut short with an ellipsis; the role badge always shows whole.
                styles={{ itemLabel: { minWidth: 0 }, itemSection: { flexShrink: 0 } }}
              >
                <Text span size="sm" truncate="end" display="block" title={w.name}>
                  {w.name}
                </Text>
              </Menu.Item>
              <Menu.Item
                component={Link}
                to={`/dashboard/workspaces/${w.id}`}
                aria-label={`Manage ${w.name}`}
                title={`Manage ${w.name}`}
                w="auto"
                px="xs"
              >
                <IconSettings size={16} aria-hidden />
              </Menu.Item>
            </Group>
          );
        })}
        <Menu.Divider />
        <Menu.Item component={Link} to="/dashboard/workspaces">
          All workspaces
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
