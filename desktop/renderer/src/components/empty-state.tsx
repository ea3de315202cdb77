import type { ReactNode } from 'react';
import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import type { Icon as TablerIcon } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

interface EmptyStateProps {
  title: string;
  /** What the emptiness means, or what to do about it. */
  children: ReactNode;
  /** An icon above the title. */
  icon?: TablerIcon;
  /** 2 when the empty state is a page's whole content; 3 (the default) for an empty section of a page. */
  order?: 2 | 3;
  /** A call to action below the text. */
  action?: ReactNode;
}

/** A bordered, centred message where content is not there (yet): no projects, no webhooks, no workspace. */
export function EmptyState({ title, children, icon: Icon, order = 3, action }: EmptyStateProps) {
  const whole = order === 2;
  return (
    <Paper withBorder p="xl">
      <Stack align="center" ta="center" gap={whole ? 'sm' : 'xs'}>
        {Icon && <Icon size={40} aria-hidden color="var(--mantine-color-dimmed)" />}
        <Title order={order} size={whole ? 'h3' : 'h4'}>
          {title}
        </Title>
        <Text c="dimmed">{children}</Text>
        {action}
      </Stack>
    </Paper>
  );
}

/** A dashboard page's content for someone in no workspace at all: what lives in workspaces, and the way to them. */
export function NotInAnyWorkspace({ children }: { children: ReactNode }) {
  return (
    <EmptyState
      order={2}
      title="You are not in any workspace"
      action={
        <Button component={Link} to="/dashboard/workspaces">
          Manage Workspaces
        </Button>
      }
    >
      {children}
    </EmptyState>
  );
}
