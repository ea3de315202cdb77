import { useId, useState } from 'react';
import { Badge, Box, Center, Group, Paper, Progress, SimpleGrid, Stack, Text, Title, Tooltip as MantineTooltip } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { AXIS_TICK, GRID_PROPS, X_AXIS_LINE } from './chart-style';
import { messages } from '../../../../../shared/messages';
import { RECENT_FAILURES_KEPT, STATUS_CLASSES, formatLatency, type FailedRequest, type ProjectInsight, type StatusClass } from '../../../../../shared/insight';
import { ErrorView } from '../../components/error-view';
import { DataList, type DataListColumn } from '../../components/data-list';
import { pageCount, paginate } from '../../components/pagination';
import { ValueCard } from '../../components/value-card';
import { formatNumber } from '../../lib/format';
import { statsQueries } from './queries';

export interface RequestInsightProps {
  workspaceId: number;
  projectUuid: string;
}

const INSIGHT_TITLE = 'Request insight';
const HOURLY_TITLE = 'Today by the hour (UTC)';
const FAILURES_PER_PAGE = 10;
const HOURLY_CHART_HEIGHT = 240;

const CLASS_COLORS: Record<StatusClass, string> = { '2xx': 'teal.6', '3xx': 'blue.5', '4xx': 'orange.6', '5xx': 'red.7' };
const CLASS_NAMES: Record<StatusClass, string> = { '2xx': 'Success', '3xx': 'Redirect', '4xx': 'Client error', '5xx': 'Server error' };

const hourTick = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', timeZone: 'UTC', hourCycle: 'h23' });
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 });
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
// A failure log wants the second it happened.
const failureTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** The latency axis: short enough never to wrap (80 ms, 0.5 ms, 1.2 s). */
const latencyTick = (ms: number): string => {
  if (ms === 0) return '0';
  if (ms < 1) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
};

const latencyText = (ms: number | null | undefined) => (ms === null || ms === undefined ? '–' : formatLatency(ms));
const rateText = (rate: number | null | undefined) => (rate === null || rate === undefined ? '–' : percent.format(rate));

/**
 * Latency percentiles and errors by status class over the last 30 days, today's requests, errors
 * and p95 by the hour, and the most recent failed requests, refreshed with the statistics.
 */
export function RequestInsight({ workspaceId, projectUuid }: RequestInsightProps) {
  const titleId = useId();
  const query = useQuery(statsQueries.insight(workspaceId, projectUuid));
  const insight = query.data;
  const loading = !insight;
  const errors = insight ? insight.statusClasses['4xx'] + insight.statusClasses['5xx'] : 0;

  return (
    <Stack gap="md" component="section" aria-labelledby={titleId} data-testid="request-insight">
      <div>
        <Title order={2} size="h4" id={titleId}>
          {INSIGHT_TITLE}
        </Title>
        <Text size="sm" c="dimmed">
          Latency and errors over the last 30 days, measured at the gateway from a request's arrival until its answer has gone out.
        </Text>
      </div>
      {!insight && query.isError ? (
        <ErrorView error={query.error} withRefresh />
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md" data-testid="insight-figures">
            <ValueCard label="Latency p50" value={<span data-testid="insight-p50">{latencyText(insight?.latency.p50Ms)}</span>} loading={loading} />
            <ValueCard label="Latency p95" value={<span data-testid="insight-p95">{latencyText(insight?.latency.p95Ms)}</span>} loading={loading} />
            <ValueCard label="Latency p99" value={<span data-testid="insight-p99">{latencyText(insight?.latency.p99Ms)}</span>} loading={loading} />
            <ValueCard
              label="Error rate"
              value={<span data-testid="insight-error-rate">{rateText(insight?.errorRate)}</span>}
              description={insight ? `${formatNumber(errors)} of ${formatNumber(insight.requests)} answers were 4xx or 5xx${refusedText(insight.refused)}` : undefined}
              loading={loading}
            />
          </SimpleGrid>
          <StatusClasses insight={insight} />
          <HourlyChart insight={insight} />
          <RecentFailures insight={insight} />
          <Text size="xs" c="dimmed">
            Percentiles are read from log-scale histograms and are within {percent.format(insight?.latency.resolution ?? 0.0443)} of the exact value.
            The log keeps the last {RECENT_FAILURES_KEPT} failed requests of the 30 days.
          </Text>
        </>
      )}
    </Stack>
  );
}

/** Requests by status class: one bar in four sections, with each class's count and share. */
function StatusClasses({ insight }: { insight: ProjectInsight | undefined }) {
  const total = insight?.requests ?? 0;
  const share = (n: number) => (total > 0 ? n / total : 0);
  return (
    <Paper withBorder p="md" component="section" aria-label="Requests by status class" aria-busy={!insight}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" style={{ letterSpacing: '0.04em' }} aria-hidden>
        Status classes
      </Text>
      <Title order={3} size="h5" mb="sm">
        Answers by status class
      </Title>
      <Progress.Root size={14} radius="xl" aria-hidden>
        {total === 0 ? (
          <Progress.Section value={100} color="gray.2" />
        ) : (
          STATUS_CLASSES.map((c) => <Progress.Section key={c} value={share(insight!.statusClasses[c]) * 100} color={CLASS_COLORS[c]} />)
        )}
      </Progress.Root>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" mt="sm" mb={0} component="dl">
        {STATUS_CLASSES.map((c) => (
          <div key={c} data-testid={`insight-class-${c}`}>
            <Group gap={6} wrap="nowrap" component="dt">
              <Box w={10} h={10} bg={CLASS_COLORS[c]} style={{ borderRadius: 2, flex: 'none' }} aria-hidden />
              <Text size="sm" fw={600}>
                {c}
              </Text>
              <Text size="sm" c="dimmed" truncate>
                {CLASS_NAMES[c]}
              </Text>
            </Group>
            <Text component="dd" size="sm" m={0} style={{ fontVariantNumeric: 'tabular-nums' }}>
              {insight ? `${formatNumber(insight.statusClasses[c])} · ${percent.format(share(insight.statusClasses[c]))}` : '…'}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Paper>
  );
}

/** Today's 24 hours: requests and errors as bars, p95 latency as a line on its own axis. */
function HourlyChart({ insight }: { insight: ProjectInsight | undefined }) {
  const titleId = useId();
  const hours = insight?.today.hours ?? [];
  const requests = hours.reduce((n, h) => n + h.requests, 0);
  const state = !insight ? 'loading' : requests === 0 ? 'empty' : 'ready';
  const data = hours.map((h) => ({ time: h.time, requests: h.requests, errors: h.errors4xx + h.errors5xx, p95: h.p95Ms }));
  const errors = data.reduce((n, h) => n + h.errors, 0);
  const description = `Requests, errors and p95 latency per hour today (UTC): ${formatNumber(requests)} requests, ${formatNumber(errors)} errors.`;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId}>
      <Group justify="space-between" gap="xs" align="baseline" mb="xs">
        <Title order={3} size="h5" id={titleId}>
          {HOURLY_TITLE}
        </Title>
        {state === 'ready' && (
          <Text size="sm" c="dimmed">
            {formatNumber(requests)} requests · {formatNumber(errors)} errors
          </Text>
        )}
      </Group>
      <Box h={HOURLY_CHART_HEIGHT} data-testid="insight-hourly-chart" data-state={state} aria-busy={state === 'loading'}>
        {state === 'empty' && (
          <Center h="100%">
            <Stack align="center" gap="xs" ta="center">
              <IconChartBar size={32} aria-hidden color="var(--mantine-color-dimmed)" />
              <Text c="dimmed">{messages.stats.waiting}</Text>
            </Stack>
          </Center>
        )}
        {state === 'ready' && (
          <ResponsiveContainer width="100%" height="100%" minWidth={0}>
            <ComposedChart data={data} margin={{ top: 8, right: 0, bottom: 0, left: 0 }} title={HOURLY_TITLE} desc={description}>
              <CartesianGrid {...GRID_PROPS} />
              <XAxis
                dataKey="time"
                tickFormatter={(t: number) => hourTick.format(t)}
                minTickGap={16}
                tick={AXIS_TICK}
                tickLine={false}
                axisLine={X_AXIS_LINE}
              />
              <YAxis
                yAxisId="requests"
                allowDecimals={false}
                tickFormatter={(n: number) => compact.format(n)}
                width={40}
                tick={AXIS_TICK}
                tickLine={false}
                axisLine={false}
              />
              <YAxis
                yAxisId="latency"
                orientation="right"
                tickFormatter={latencyTick}
                width={52}
                tick={AXIS_TICK}
                tickLine={false}
                axisLine={false}
              />
              <Tooltip
                labelFormatter={(t) => `${hourTick.format(Number(t))} UTC`}
                formatter={(value, name) => (name === 'p95 latency' ? [value === null || value === undefined ? '–' : formatLatency(Number(value)), name] : [formatNumber(Number(value)), name])}
                separator=": "
                contentStyle={{ borderRadius: 'var(--mantine-radius-sm)', borderColor: 'var(--mantine-color-gray-3)' }}
                cursor={{ fill: 'var(--mantine-color-gray-1)' }}
              />
              <Legend iconSize={10} wrapperStyle={{ fontSize: 12 }} />
              <Bar yAxisId="requests" dataKey="requests" name="Requests" fill="var(--mantine-color-indigo-6)" radius={[3, 3, 0, 0]} maxBarSize={16} isAnimationActive={false} />
              <Bar yAxisId="requests" dataKey="errors" name="Errors" fill="var(--mantine-color-red-7)" radius={[3, 3, 0, 0]} maxBarSize={16} isAnimationActive={false} />
              <Line yAxisId="latency" dataKey="p95" name="p95 latency" stroke="var(--mantine-color-orange-7)" strokeWidth={2} dot={{ r: 2 }} connectNulls isAnimationActive={false} />
            </ComposedChart>
          </ResponsiveContainer>
        )}
      </Box>
    </Paper>
  );
}

const statusColor = (status: number) => (status >= 500 ? 'red' : 'orange');

function StatusBadge({ status }: { status: number }) {
  return (
    <Badge color={statusColor(status)} variant="light" radius="sm" style={{ flex: 'none' }}>
      {status}
    </Badge>
  );
}

/** When the failed request arrived, in the viewer's time zone; the exact UTC instant on hover. */
function FailureTime({ time }: { time: number }) {
  return (
    <MantineTooltip label={new Date(time).toISOString()} withArrow>
      <Text span inherit>
        {failureTime.format(time)}
      </Text>
    </MantineTooltip>
  );
}

type ShownFailure = FailedRequest & { key: string };

/** A value read as code (an endpoint, an address), wrapped anywhere on narrow screens. */
function MonoText({ value }: { value: string }) {
  return (
    <Text span size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
      {value}
    </Text>
  );
}

const failureColumns: DataListColumn<ShownFailure>[] = [
  { accessor: 'time', title: 'Time', cellsStyle: () => ({ whiteSpace: 'nowrap' }), render: (f) => <FailureTime time={f.time} /> },
  { accessor: 'endpoint', title: 'Endpoint', render: (f) => <MonoText value={f.endpoint} /> },
  { accessor: 'status', title: 'Status', render: (f) => <StatusBadge status={f.status} /> },
  {
    accessor: 'message',
    title: 'Message',
    customCellAttributes: () => ({ 'data-testid': 'failed-request-message' }),
    render: (f) => (
      <Text span size="sm" c={f.message ? undefined : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
        {f.message ?? 'No message'}
      </Text>
    ),
  },
  { accessor: 'ip', title: 'IP address', render: (f) => <MonoText value={f.ip} /> },
];

/** The most recent failed requests, newest first, ten to a page. */
function RecentFailures({ insight }: { insight: ProjectInsight | undefined }) {
  const [page, setPage] = useState(1);
  const failures: FailedRequest[] = insight?.recentFailures ?? [];
  const shown = paginate(failures, page, FAILURES_PER_PAGE);
  return (
    <Paper withBorder p="md" component="section" aria-label="Recent failed requests" aria-busy={!insight} style={{ minWidth: 0 }}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed" style={{ letterSpacing: '0.04em' }} aria-hidden>
        Failed requests
      </Text>
      <Title order={3} size="h5" mb="sm">
        Most recent failed requests
      </Title>
      <DataList<ShownFailure>
        records={insight ? shown.map((f, i) => ({ ...f, key: `${page}-${i}` })) : undefined}
        idAccessor="key"
        label="Recent failed requests, newest first"
        loadingLabel="Loading the failed requests…"
        loaderMinHeight={80}
        empty={
          <Text size="sm" c="dimmed" ta="center" py="md">
            No failed requests in the last 30 days.
          </Text>
        }
        columns={failureColumns}
        rowAttributes={() => ({ 'data-testid': 'failed-request' })}
        // On a phone each failure is three lines: status and endpoint, the message, then time and IP.
        card={(f, i) => (
          <Box py={8} style={{ borderTop: i > 0 ? '1px solid var(--mantine-color-gray-3)' : undefined }} data-testid="failed-request-compact">
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <StatusBadge status={f.status} />
              <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                {f.endpoint}
              </Text>
            </Group>
            {f.message && (
              <Text size="sm" mt={2} style={{ overflowWrap: 'anywhere' }}>
                {f.message}
              </Text>
            )}
            <Text size="xs" c="dimmed" mt={2} style={{ overflowWrap: 'anywhere' }}>
              <FailureTime time={f.time} /> · {f.ip}
            </Text>
          </Box>
        )}
        cardGap={0}
        paging={{ kind: 'pages', page, totalPages: pageCount(failures.length, FAILURES_PER_PAGE), onChange: setPage, label: 'Failed requests pages' }}
      />
    </Paper>
  );
}

/** Requests the allow-lists refused (among the 4xx), by list; nothing when none was. */
function refusedText(r: { origin: number; ip: number; method: number }): string {
  const parts = [
    ['origin', r.origin],
    ['IP', r.ip],
    ['method', r.method],
  ].filter(([, n]) => (n as number) > 0);
  if (parts.length === 0) return '';
  const total = r.origin + r.ip + r.method;
  return `; ${formatNumber(total)} refused by the allow-lists (${parts.map(([what, n]) => `${what} ${formatNumber(n as number)}`).join(', ')})`;
}
