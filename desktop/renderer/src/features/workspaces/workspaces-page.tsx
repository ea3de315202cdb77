import { useState } from 'react';
import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSettings } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { pagedItems } from '../../api/pages';
import { DataList } from '../../components/data-list';
import { ModalDialog } from '../../components/modal-dialog';
import { PageLayout } from '../../components/page-layout';
import { RoleBadge } from '../../components/role-badge';
import { SectionHeading } from '../../components/section-heading';
import { createWorkspaceBlockedReason } from './limits';
import { workspaceQueries } from './queries';
import { useSelectedWorkspace } from './selected-workspace';
import { CreateWorkspaceForm } from './create-workspace-form';

export function WorkspacesPage() {
  const { workspaces, workspace: selected, select } = useSelectedWorkspace();
  const [creating, setCreating] = useState(false);
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), 300)[0];
  const pages = useInfiniteQuery(workspaceQueries.pages(q));
  const shown = pagedItems(pages.data);
  const { error } = pages;
  // The user's own plan, read from the quota of a workspace they own.
  const owned = workspaces.find((w) => w.is_creator);
  const quota = useQuery({ ...workspaceQueries.quota(owned?.id ?? 0), enabled: !!owned });
  const reason = createWorkspaceBlockedReason(workspaces, quota.data?.subscription.currentPlan.name);

  return (
    <PageLayout title="Workspaces" description="Workspaces group projects and the people who work on them.">
      <SectionHeading title="Your workspaces" create={{ label: 'Create Workspace', onClick: () => setCreating(true), disabledReason: reason }} />
      <DataList<WorkspaceDto>
        records={pages.data ? shown : undefined}
        error={error}
        label="Your workspaces"
        loadingLabel="Loading workspaces…"
        search={{ value: search, onChange: setSearch, query: q, list: pages, label: 'Search workspaces', placeholder: 'Workspace name' }}
        empty={
          q !== '' ? (
            <Text c="dimmed">No workspace name contains “{q}”.</Text>
          ) : (
            <Paper withBorder p="xl">
              <Text ta="center" c="dimmed">
                You are not in any workspace. Create one to start adding projects.
              </Text>
            </Paper>
          )
        }
        card={(w) => (
          <Paper withBorder p="md">
            <Group justify="space-between" gap="sm">
              <Stack gap={4} miw={0} style={{ flex: '1 1 220px' }}>
                <Group gap="xs">
                  <Anchor component={Link} to={`/dashboard/workspaces/${w.id}`} fw={600} size="lg" style={{ overflowWrap: 'anywhere' }}>
                    {w.name}
                  </Anchor>
                  <RoleBadge role={w.role_name} />
                  {selected?.id === w.id && (
                    <Badge variant="outline" color="gray" radius="sm">
                      Selected
                    </Badge>
                  )}
                </Group>
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  Owner: {w.creator_email}
                </Text>
              </Stack>
              <Group gap="xs">
                {selected?.id !== w.id && (
                  <Button variant="default" size="sm" onClick={() => select(w.id)} aria-label={`Select ${w.name}`}>
                    Select
                  </Button>
                )}
                <Button
                  component={Link}
                  to={`/dashboard/workspaces/${w.id}`}
                  variant="light"
                  size="sm"
                  leftSection={<IconSettings size={16} aria-hidden />}
                  aria-label={`Manage ${w.name}`}
                >
                  Manage
                </Button>
              </Group>
            </Group>
          </Paper>
        )}
        paging={{
          kind: 'cursor',
          hasMore: pages.hasNextPage,
          loading: pages.isFetchingNextPage,
          onLoad: () => void pages.fetchNextPage(),
          label: 'Load more workspaces',
          ...(pages.hasNextPage ? { shown: `${shown.length} workspaces shown` } : {}),
        }}
      />
      <ModalDialog opened={creating} onClose={() => setCreating(false)} title="Create Workspace">
        <CreateWorkspaceForm onDone={() => setCreating(false)} />
      </ModalDialog>
    </PageLayout>
  );
}
