// The project page's usage widgets (each fetched when it first renders) and the stats queries.
export { ApiExamples, LocationsMap, RequestInsight, RequestsChart, StatsCards } from './lazy-widgets';
export type { ApiExamplesProps, LocationsMapProps, RequestInsightProps, RequestsChartProps, StatsCardsProps } from './lazy-widgets';
export { SandboxBadge } from './sandbox-badge';
export { gatewayUrlOf, statsQueries } from './queries';
