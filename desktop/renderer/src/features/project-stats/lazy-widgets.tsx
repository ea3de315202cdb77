// The project page's usage widgets. Everything heavy (recharts, d3-geo, the world atlas) sits behind
// React.lazy, so it is fetched when the project page renders these, not with the projects list.
import { lazy, Suspense } from 'react';
import { Paper, Skeleton } from '@mantine/core';
import type { ApiExamplesProps } from './api-examples';
import type { LocationsMapProps } from './locations-map';
import type { RequestsChartProps } from './requests-chart';
import type { RequestInsightProps } from './request-insight';
import type { StatsCardsProps } from './stats-cards';

export type { ApiExamplesProps, LocationsMapProps, RequestInsightProps, RequestsChartProps, StatsCardsProps };

const LazyRequestsChart = lazy(() => import('./requests-chart').then((m) => ({ default: m.RequestsChart })));
const LazyStatsCards = lazy(() => import('./stats-cards').then((m) => ({ default: m.StatsCards })));
const LazyLocationsMap = lazy(() => import('./locations-map').then((m) => ({ default: m.LocationsMap })));
const LazyRequestInsight = lazy(() => import('./request-insight').then((m) => ({ default: m.RequestInsight })));
const LazyApiExamples = lazy(() => import('./api-examples').then((m) => ({ default: m.ApiExamples })));

function Loading({ height }: { height: number }) {
  return (
    <Paper withBorder p="md" aria-busy>
      <Skeleton h={height} radius="sm" role="status" aria-label="Loading…" />
    </Paper>
  );
}

/** Requests per day over the last 30 days (refreshed every 15 s), with the plan's limit line near the limit. */
export function RequestsChart(props: RequestsChartProps) {
  return (
    <Suspense fallback={<Loading height={300} />}>
      <LazyRequestsChart {...props} />
    </Suspense>
  );
}

/** Statistics, the Locations map and the TOP 10 cards (refreshed every 15.6 s). */
export function StatsCards(props: StatsCardsProps) {
  return (
    <Suspense fallback={<Loading height={480} />}>
      <LazyStatsCards {...props} />
    </Suspense>
  );
}

/** Latency percentiles, errors by status class, today by the hour and the recent failed requests (refreshed with the stats). */
export function RequestInsight(props: RequestInsightProps) {
  return (
    <Suspense fallback={<Loading height={640} />}>
      <LazyRequestInsight {...props} />
    </Suspense>
  );
}

/** The world map of the top 10 countries with its legend (already part of StatsCards' Locations card). */
export function LocationsMap(props: LocationsMapProps) {
  return (
    <Suspense fallback={<Skeleton h={240} radius="sm" aria-label="Loading the world map" />}>
      <LazyLocationsMap {...props} />
    </Suspense>
  );
}

/** curl and JavaScript SDK snippets with the project's key and this gateway's URL. */
export function ApiExamples(props: ApiExamplesProps) {
  return (
    <Suspense fallback={<Loading height={180} />}>
      <LazyApiExamples {...props} />
    </Suspense>
  );
}
