import { useState } from 'react';
import { Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconDownload, IconFilterOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { auditActionLabels, auditActions, AUDIT_DEFAULT_PAGE_SIZE, type AuditAction, type AuditEntryDto, type AuditFilter } from '../../../../../shared/audit';
import type { WorkspaceDto } from '../../../../../shared/workspaces';
import { EmptyState } from '../../components/empty-state';
import { ErrorView } from '../../components/error-view';
import { PageLayout } from '../../components/page-layout';
import { DataList, type DataListColumn } from '../../components/data-list';
import { formatDateTime } from '../../lib/format';
import { WithWorkspace, workspaceQueries, WORKSPACES } from '../workspaces/index';
import { auditQueries, exportUrl } from './queries';

const TITLE = 'Audit log';
const actionOptions = [{ value: '', label: 'Any action' }, ...auditActions.map((a) => ({ value: a, label: auditActionLabels[a] }))];

export function AuditPage() {
  return (
    <WithWorkspace title={TITLE} crumbs={() => [WORKSPACES, { label: 'Workspace' }, { label: TITLE }]}>
      {(workspace) => (
        <PageLayout
          title={TITLE}
          breadcrumbs={[WORKSPACES, { label: workspace.name, to: `/dashboard/workspaces/${workspace.id}` }, { label: TITLE }]}
          description={`Who did what in ${workspace.name}, newest first: sign-ins, members, projects, webhooks, purchases and the operator's changes.`}
        >
          <AuditLog key={workspace.id} workspace={workspace} />
        </PageLayout>
      )}
    </WithWorkspace>
  );
}

function AuditLog({ workspace }: { workspace: WorkspaceDto }) {
  const [filter, setFilter] = useState<AuditFilter>({});
  // The cursors of the pages walked so far: the last one is the page shown (undefined: the newest).
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const before = cursors[cursors.length - 1];
  const page = useQuery(auditQueries.page(workspace.id, filter, before, AUDIT_DEFAULT_PAGE_SIZE));
  const members = useQuery(workspaceQueries.members(workspace.id));

  const change = (next: AuditFilter) => {
    setFilter(next);
    setCursors([undefined]);
  };
  const actorOptions = [
    { value: '', label: 'Anyone' },
    ...(members.data ?? []).map((m) => ({ value: `user:${m.user_id}`, label: m.email })),
    { value: 'operator', label: 'The operator' },
    { value: 'key', label: 'A project key (devnet steering)' },
    { value: 'system', label: 'Cairn (automatic)' },
  ];
  const badRange = filter.from && filter.to && filter.from > filter.to;

  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          <NativeSelect label="Actor" data={actorOptions} value={filter.actor ?? ''} onChange={(e) => change({ ...filter, actor: e.currentTarget.value || undefined })} />
          <NativeSelect
            label="Action"
            data={actionOptions}
            value={filter.action ?? ''}
            onChange={(e) => change({ ...filter, action: (e.currentTarget.value as AuditAction) || undefined })}
          />
          <TextInput label="From" type="date" value={filter.from ?? ''} onChange={(e) => change({ ...filter, from: e.currentTarget.value || undefined })} />
          <TextInput
            label="To (inclusive)"
            type="date"
            value={filter.to ?? ''}
            onChange={(e) => change({ ...filter, to: e.currentTarget.value || undefined })}
            error={badRange ? 'The end is before the start.' : undefined}
          />
        </SimpleGrid>
        <Group justify="space-between" mt="sm" gap="xs">
          <Button variant="subtle" size="compact-sm" leftSection={<IconFilterOff size={14} aria-hidden />} onClick={() => change({})} disabled={Object.values(filter).every((v) => !v)}>
            Clear filters
          </Button>
          <Button component="a" href={exportUrl(workspace.id, filter)} download variant="default" size="sm" leftSection={<IconDownload size={16} aria-hidden />} disabled={!!badRange}>
            Export CSV
          </Button>
        </Group>
      </Paper>

      {badRange ? null : page.error ? (
        <ErrorView error={page.error} withRefresh />
      ) : (
        <DataList
          records={page.data?.entries}
          label="Audit log"
          loadingLabel="Loading the audit log…"
          testId="audit-table"
          cardsTestId="audit-cards"
          minWidth={760}
          fetching={page.isFetching && !page.isPending}
          empty={<EmptyState title="No entries">{Object.values(filter).some(Boolean) ? 'Nothing matches these filters.' : 'Nothing has been recorded in this workspace yet.'}</EmptyState>}
          columns={columns}
          card={entryCard}
          paging={{
            kind: 'steps',
            page: cursors.length,
            hasNewer: cursors.length > 1,
            hasOlder: !!page.data?.next,
            busy: page.isFetching,
            onNewer: () => setCursors(cursors.slice(0, -1)),
            onOlder: () => setCursors([...cursors, page.data?.next ?? undefined]),
            label: 'Audit log pages',
          }}
        />
      )}
    </Stack>
  );
}

const label = (e: AuditEntryDto) => auditActionLabels[e.action] ?? e.action;
const when = (e: AuditEntryDto) => formatDateTime(Date.parse(e.at));
const origin = (e: AuditEntryDto) => [e.ip, e.userAgent].filter(Boolean).join(' · ') || '—';

const columns: DataListColumn<AuditEntryDto>[] = [
  { accessor: 'at', title: 'Time', noWrap: true, render: when },
  { accessor: 'actor', title: 'Actor', cellsStyle: () => ({ overflowWrap: 'anywhere' }), render: (e) => e.actor.label },
  { accessor: 'action', title: 'Action', render: label },
  {
    accessor: 'target',
    title: 'Target',
    cellsStyle: () => ({ overflowWrap: 'anywhere' }),
    render: (e) => (
      <>
        <Text size="sm">{e.target.label}</Text>
        <Text size="xs" c="dimmed">
          {e.target.type}
        </Text>
      </>
    ),
  },
  {
    accessor: 'origin',
    title: 'IP and user agent',
    cellsStyle: () => ({ maxWidth: 280 }),
    render: (e) => (
      <Text size="xs" c="dimmed" lineClamp={2} title={origin(e)} style={{ overflowWrap: 'anywhere' }}>
        {origin(e)}
      </Text>
    ),
  },
];

/** Phones get one card per entry; wider screens the table. */
function entryCard(e: AuditEntryDto) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Text fw={600} size="sm">
          {label(e)}
        </Text>
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {when(e)}
        </Text>
      </Group>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {e.target.label}
      </Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        by {e.actor.label}
      </Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {origin(e)}
      </Text>
    </Paper>
  );
}
