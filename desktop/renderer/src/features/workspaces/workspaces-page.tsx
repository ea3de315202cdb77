import { useState } from 'react';
import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSettings } from '@tabler/icons-react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ListSearch } from '../../components/list-search';
import { pagedItems } from '../../api/pages';
import { ErrorView } from '../../components/error-view';
import { LoadMore } from '../../components/load-more';
import { ModalDialog } from '../../components/modal-dialog';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
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
  const { isPending, error } = pages;
  // The user's own plan, read from the quota of a workspace they own.
  const owned = workspaces.find((w) => w.is_creator);
  const quota = useQuery({ ...workspaceQueries.quota(owned?.id ?? 0), enabled: !!owned });
  const reason = createWorkspaceBlockedReason(workspaces, quota.data?.subscription.currentPlan.name);

  return (
    <PageLayout title="Workspaces" description="Workspaces group projects and the people who work on them.">
      <SectionHeading title="Your workspaces" create={{ label: 'Create Workspace', onClick: () => setCreating(true), disabledReason: reason }} />
      <ListSearch value={search} onChange={setSearch} query={q} list={pages} label="Search workspaces" placeholder="Workspace name" mb="md" />
      {isPending ? (
        <PageLoader label="Loading workspaces…" />
      ) : error && shown.length === 0 ? (
        <ErrorView error={error} withRefresh />
      ) : shown.length === 0 && q !== '' ? (
        <Text c="dimmed">No workspace name contains “{q}”.</Text>
      ) : shown.length === 0 ? (
        <Paper withBorder p="xl">
          <Text ta="center" c="dimmed">
            You are not in any workspace. Create one to start adding projects.
          </Text>
        </Paper>
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {shown.map((w) => (
            <li key={w.id}>
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
            </li>
          ))}
        </Stack>
      )}
      <LoadMore
        hasMore={pages.hasNextPage}
        loading={pages.isFetchingNextPage}
        onLoad={() => void pages.fetchNextPage()}
        shown={pages.hasNextPage ? `${shown.length} workspaces shown` : undefined}
        label="Load more workspaces"
      />
      <ModalDialog opened={creating} onClose={() => setCreating(false)} title="Create Workspace">
        <CreateWorkspaceForm onDone={() => setCreating(false)} />
      </ModalDialog>
    </PageLayout>
  );
}
