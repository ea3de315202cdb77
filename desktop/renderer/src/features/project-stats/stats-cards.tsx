import { useId, type ReactNode } from 'react';
import { Box, Button, Paper, Progress, SimpleGrid, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { messages } from '../../../../../shared/messages';
import type { ProjectStats } from '../../../../../shared/usage';
import { ErrorView } from '../../components/error-view';
import { ValueCard } from '../../components/value-card';
import { formatNumber } from '../../lib/format';
import { CountryLabel } from './country-label';
import { countryName } from './country';
import { LocationsMap } from './locations-map';
import { statsQueries } from './queries';
import { formatShare, shareOf } from './share';

export interface StatsCardsProps {
  workspaceId: number;
  projectUuid: string;
}

/** Texts of the stats cards (spec section 2), exported for the tests. */
const statsTexts = {
  top: messages.stats.top,
  count: 'Count',
  locked: messages.stats.locked,
  upgrade: messages.stats.upgrade,
  subscriptionPath: '/dashboard/subscription',
} as const;

interface Row {
  key: string;
  label: ReactNode;
  /** The row's name as text, for the share's accessible description. */
  text: string;
  requests: number;
}

const mono = (value: string) => (
  <Text span size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
    {value}
  </Text>
);
const plain = (value: string) => (
  <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
    {value}
  </Text>
);

const countryRows = (s: ProjectStats): Row[] =>
  s.countries.map((c) => ({ key: c.user_country, label: <CountryLabel code={c.user_country} />, text: countryName(c.user_country), requests: c.requests }));
const ipRows = (s: ProjectStats): Row[] => s.ips.map((r) => ({ key: r.ip, label: mono(r.ip), text: r.ip, requests: r.requests }));
const endpointRows = (s: ProjectStats): Row[] =>
  s.endpoints.map((r) => ({ key: r.endpoint, label: mono(r.endpoint), text: r.endpoint, requests: r.requests }));
const browserRows = (s: ProjectStats): Row[] =>
  s.browsers.map((r) => ({ key: r.user_agent_browser, label: plain(r.user_agent_browser), text: r.user_agent_browser, requests: r.requests }));

/**
 * The project's statistics over the last 30 days: totals, the locations map and the TOP 10 cards by country,
 * IP address, endpoint and browser. On plans without detailed statistics the last three invite an upgrade.
 */
export function StatsCards({ workspaceId, projectUuid }: StatsCardsProps) {
  const titleId = useId();
  const query = useQuery(statsQueries.stats(workspaceId, projectUuid));
  const stats = query.data;
  const loading = !stats;
  const topCountry = stats?.countries[0];

  return (
    <Stack gap="md" component="section" aria-labelledby={titleId} data-testid="stats-cards">
      <div>
        <Title order={2} size="h4" id={titleId}>
          Statistics
        </Title>
        <Text size="sm" c="dimmed">
          The last 30 days, refreshed every few seconds.
        </Text>
      </div>
      {!stats && query.isError ? (
        <ErrorView error={query.error} withRefresh />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <ValueCard label="Requests (30 days)" value={formatNumber(stats?.projectRequests ?? 0)} loading={loading} />
            <ValueCard
              label="Top country"
              value={topCountry ? <CountryLabel code={topCountry.user_country} size="xl" /> : stats ? '–' : 'Country'}
              loading={loading}
            />
          </SimpleGrid>
          <TopCard name="Locations" loading={loading}>
            <LocationsMap stats={stats} />
          </TopCard>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <TopTable name="Countries" column="Country" stats={stats} rows={countryRows} />
            <TopTable name="IP addresses" column="IP address" stats={stats} rows={ipRows} detailed />
            <TopTable name="Requests by endpoint" column="Endpoint" stats={stats} rows={endpointRows} detailed />
            <TopTable name="Browsers" column="Browser" stats={stats} rows={browserRows} detailed />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}

/** A card named by its overline (Countries, …) under the spec's 'TOP 10' heading. */
function TopCard({ name, loading, children }: { name: string; loading: boolean; children: ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={name} aria-busy={loading} style={{ minWidth: 0 }}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" style={{ letterSpacing: '0.04em' }} aria-hidden>
        {name}
      </Text>
      <Title order={3} size="h5" mb="sm">
        {statsTexts.top}
      </Title>
      {children}
    </Paper>
  );
}

interface TopTableProps {
  name: string;
  column: string;
  stats: ProjectStats | undefined;
  rows: (stats: ProjectStats) => Row[];
  /** IP addresses, endpoints and browsers: locked on STARTER and HOBBY. */
  detailed?: boolean;
}

function TopTable({ name, column, stats, rows, detailed = false }: TopTableProps) {
  const list = stats ? rows(stats) : [];
  const locked = detailed && stats?.locked === true;
  return (
    <TopCard name={name} loading={!stats}>
      <Table layout="fixed" verticalSpacing={6} horizontalSpacing={0} aria-label={`${name}, TOP 10 by requests`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{column}</Table.Th>
            <Table.Th ta="right" w={88}>
              {statsTexts.count}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {!stats ? (
            <LoadingRows />
          ) : locked ? (
            <FullRow>
              <LockedNotice />
            </FullRow>
          ) : list.length === 0 ? (
            <FullRow>
              <Text size="sm" c="dimmed" ta="center" py="md">
                {messages.stats.waiting}
              </Text>
            </FullRow>
          ) : (
            list.map((row) => (
              <Table.Tr key={row.key} data-testid="stats-row">
                <Table.Td pr="sm">
                  <Stack gap={4}>
                    <Box style={{ minWidth: 0 }}>
                      {row.label}
                      <VisuallyHidden>, {formatShare(row.requests, stats.total)} of requests</VisuallyHidden>
                    </Box>
                    <Progress value={shareOf(row.requests, stats.total) * 100} size={6} radius="xl" aria-hidden />
                  </Stack>
                </Table.Td>
                <Table.Td ta="right" style={{ verticalAlign: 'top', fontVariantNumeric: 'tabular-nums' }}>
                  <Text span size="sm" fw={500}>
                    {formatNumber(row.requests)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </TopCard>
  );
}

function FullRow({ children }: { children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Td colSpan={2}>{children}</Table.Td>
    </Table.Tr>
  );
}

function LoadingRows() {
  return (
    <>
      {[0, 1, 2].map((i) => (
        <Table.Tr key={i} aria-hidden>
          <Table.Td pr="sm">
            <Skeleton h={12} w={`${70 - i * 15}%`} mb={6} />
            <Skeleton h={6} w={`${60 - i * 15}%`} />
          </Table.Td>
          <Table.Td>
            <Skeleton h={12} w={40} ml="auto" />
          </Table.Td>
        </Table.Tr>
      ))}
    </>
  );
}

function LockedNotice() {
  return (
    <Stack align="center" gap="xs" py="md" ta="center">
      <IconLock size={24} aria-hidden color="var(--mantine-color-dimmed)" />
      <Text size="sm">{statsTexts.locked}</Text>
      <Button component={Link} to={statsTexts.subscriptionPath} size="xs" variant="light">
        {statsTexts.upgrade}
      </Button>
    </Stack>
  );
}
