import { useId } from 'react';
import { Box, Button, Center, Group, Paper, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconChartBar, IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { AXIS_TICK, GRID_PROPS, X_AXIS_LINE } from './chart-style';
import { messages } from '../../../../../shared/messages';
import { LIMIT_LINE_THRESHOLD, type ProjectHistory } from '../../../../../shared/usage';
import { formatNumber } from '../../lib/format';
import { workspaceQueries } from '../workspaces/index';
import { statsQueries } from './queries';

export interface RequestsChartProps {
  projectUuid: string;
  workspaceId: number;
}

const CHART_HEIGHT = 260;
const REQUESTS_CHART_TITLE = 'Requests in the last 30 days';

// History days are UTC day starts: label them in UTC, or a viewer west of Greenwich sees yesterday's date.
const dayTick = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayFull = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

type ChartState = 'loading' | 'error' | 'empty' | 'ready';

/** Requests per day over the last 30 days, with the plan's daily limit drawn once the busiest day nears it. */
export function RequestsChart({ projectUuid, workspaceId }: RequestsChartProps) {
  const titleId = useId();
  const history = useQuery(statsQueries.history(projectUuid));
  const quota = useQuery(workspaceQueries.quota(workspaceId));
  const data = history.data;
  const total = data?.data.reduce((sum, d) => sum + d.requestCount, 0) ?? 0;
  // A failed refresh keeps the last good graph on screen; the error shows only when there is nothing to draw.
  const state: ChartState = data ? (total === 0 ? 'empty' : 'ready') : history.isError ? 'error' : 'loading';
  const limit = quota.data?.quota.requestLimit;
  const limitLine = data && limit !== undefined && limit > 0 && data.max > LIMIT_LINE_THRESHOLD * limit ? limit : null;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" align="baseline">
          <Title order={2} size="h4" id={titleId}>
            {REQUESTS_CHART_TITLE}
          </Title>
          {state === 'ready' && data && <Summary history={data} total={total} />}
        </Group>
        <Box h={CHART_HEIGHT} data-testid="requests-chart" data-state={state} aria-busy={state === 'loading'} pos="relative">
          {state === 'loading' && (
            <>
              <Skeleton h="100%" radius="sm" aria-hidden />
              <VisuallyHidden role="status">Loading the request graph…</VisuallyHidden>
            </>
          )}
          {state === 'error' && (
            <Center h="100%">
              <Stack align="center" gap="xs" ta="center" role="alert">
                <IconAlertTriangle size={32} aria-hidden color="var(--mantine-color-red-8)" />
                <Text c="red.8" fw={500}>
                  {messages.stats.graphError}
                </Text>
                <Button
                  size="xs"
                  variant="default"
                  leftSection={<IconRefresh size={14} aria-hidden />}
                  loading={history.isFetching}
                  onClick={() => void history.refetch()}
                >
                  Try again
                </Button>
              </Stack>
            </Center>
          )}
          {state === 'empty' && (
            <Center h="100%">
              <Stack align="center" gap="xs" ta="center">
                <IconChartBar size={32} aria-hidden color="var(--mantine-color-dimmed)" />
                <Text c="dimmed">{messages.stats.waiting}</Text>
              </Stack>
            </Center>
          )}
          {state === 'ready' && data && <HistoryBars history={data} limit={limitLine} />}
        </Box>
      </Stack>
    </Paper>
  );
}

function Summary({ history, total }: { history: ProjectHistory; total: number }) {
  const busiest = history.data.reduce((best, d) => (d.requestCount > best.requestCount ? d : best), history.data[0]!);
  return (
    <Text size="sm" c="dimmed">
      {formatNumber(total)} requests · busiest day {dayTick.format(busiest.time)}: {formatNumber(busiest.requestCount)}
    </Text>
  );
}

function HistoryBars({ history, limit }: { history: ProjectHistory; limit: number | null }) {
  const description =
    `Requests per day from ${dayFull.format(history.data[0]!.time)} to ${dayFull.format(history.data.at(-1)!.time)}; ` +
    `the busiest day had ${formatNumber(history.max)} requests` +
    (limit !== null ? `, the plan allows ${formatNumber(limit)} a day.` : '.');
  return (
    <ResponsiveContainer width="100%" height="100%" minWidth={0}>
      <BarChart data={history.data} margin={{ top: 16, right: 8, bottom: 0, left: 0 }} title={REQUESTS_CHART_TITLE} desc={description}>
        <CartesianGrid {...GRID_PROPS} />
        <XAxis
          dataKey="time"
          tickFormatter={(t: number) => dayTick.format(t)}
          minTickGap={24}
          tick={AXIS_TICK}
          tickLine={false}
          axisLine={X_AXIS_LINE}
        />
        <YAxis
          allowDecimals={false}
          tickFormatter={(n: number) => compact.format(n)}
          width={44}
          tick={AXIS_TICK}
          tickLine={false}
          axisLine={false}
        />
        <Tooltip
          labelFormatter={(t) => dayFull.format(Number(t))}
          formatter={(value) => [formatNumber(Number(value)), 'Requests']}
          separator=": "
          contentStyle={{ borderRadius: 'var(--mantine-radius-sm)', borderColor: 'var(--mantine-color-gray-3)' }}
          cursor={{ fill: 'var(--mantine-color-gray-1)' }}
        />
        {limit !== null && (
          <ReferenceLine
            y={limit}
            ifOverflow="extendDomain"
            stroke="var(--mantine-color-red-7)"
            strokeDasharray="6 4"
            label={{
              value: `Daily limit ${formatNumber(limit)}`,
              position: 'insideTopLeft',
              fill: 'var(--mantine-color-red-8)',
              fontSize: 12,
            }}
          />
        )}
        <Bar dataKey="requestCount" name="Requests" fill="var(--mantine-color-indigo-6)" radius={[3, 3, 0, 0]} maxBarSize={28} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
