import type { ReactNode } from 'react';
import { Anchor, Box, Breadcrumbs, Group, Stack, Text, Title } from '@mantine/core';
import { IconChevronRight, IconHome } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { usePageTitle } from './use-page-title';

export interface Crumb {
  label: string;
  /** Link target; the last crumb (the current page) usually has none. */
  to?: string;
}

interface PageLayoutProps {
  title: string;
  /** Trail after the home icon. Defaults to just the page title. */
  breadcrumbs?: Crumb[];
  actions?: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
}

/** A dashboard page: breadcrumb (home icon first), title with optional actions, description, content. */
export function PageLayout({ title, breadcrumbs, actions, description, children }: PageLayoutProps) {
  usePageTitle(title);
  const trail = breadcrumbs ?? [{ label: title }];
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <Box component="nav" aria-label="Breadcrumb">
          <Breadcrumbs
            separator={<IconChevronRight size={14} aria-hidden />}
            separatorMargin={6}
            styles={{ root: { flexWrap: 'wrap', rowGap: 4 } }}
          >
            <Anchor component={Link} to="/dashboard" aria-label="Dashboard home" display="inline-flex">
              <IconHome size={18} aria-hidden />
            </Anchor>
            {trail.map((crumb, i) =>
              crumb.to ? (
                <Anchor key={i} component={Link} to={crumb.to} size="sm">
                  {crumb.label}
                </Anchor>
              ) : (
                <Text key={i} size="sm" c="dimmed" aria-current={i === trail.length - 1 ? 'page' : undefined}>
                  {crumb.label}
                </Text>
              ),
            )}
          </Breadcrumbs>
        </Box>
        <Group justify="space-between" align="center" gap="sm">
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          {actions && <Group gap="sm">{actions}</Group>}
        </Group>
        {description && (typeof description === 'string' ? <Text c="dimmed">{description}</Text> : description)}
      </Stack>
      {children}
    </Stack>
  );
}
