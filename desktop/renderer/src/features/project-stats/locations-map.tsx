import { useMemo } from 'react';
import { Box, ColorSwatch, Grid, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { messages } from '../../../../../shared/messages';
import { TOP_N, type ProjectStats } from '../../../../../shared/usage';
import { formatNumber } from '../../lib/format';
import { CountryLabel } from './country-label';
import { countryName, isCountryCode } from './country';
import { statsQueries } from './queries';
import { formatShare } from './share';

export interface LocationsMapProps {
  /** The project's stats; undefined while they load. */
  stats: ProjectStats | undefined;
}

/** Map size before the atlas arrives (Equal Earth is about 2.05 times as wide as tall). */
const ASPECT = '960 / 468';
const NO_DATA_FILL = 'var(--mantine-color-gray-2)';

/** Indigo shades 3 to 8 by share of the busiest country, so the busiest stands out and the tenth stays visible. */
const shade = (requests: number, busiest: number): string => {
  const ratio = busiest > 0 ? requests / busiest : 0;
  return `var(--mantine-color-indigo-${3 + Math.round(ratio * 5)})`;
};

interface Located {
  code: string;
  name: string;
  requests: number;
  fill: string;
}

/** Top countries by requests, most first: the gateway answers at most ten; keep the map to those. */
function topCountries(stats: ProjectStats | undefined): Located[] {
  if (!stats) return [];
  const rows = [...stats.countries].filter((c) => c.requests > 0).sort((a, b) => b.requests - a.requests).slice(0, TOP_N);
  const busiest = rows[0]?.requests ?? 0;
  return rows.map((r) => ({ code: r.user_country, name: countryName(r.user_country), requests: r.requests, fill: shade(r.requests, busiest) }));
}

function summary(top: Located[], total: number): string {
  if (top.length === 0) return 'World map of requests by country: no requests yet.';
  const list = top.map((c) => `${c.name} ${formatNumber(c.requests)} requests (${formatShare(c.requests, total)})`).join(', ');
  return `World map of requests by country. Top ${top.length === 1 ? 'country' : `${top.length} countries`}: ${list}.`;
}

/** A world map shading the top 10 countries by requests, with the same countries as a legend list. */
export function LocationsMap({ stats }: LocationsMapProps) {
  const atlas = useQuery(statsQueries.worldAtlas());
  const top = useMemo(() => topCountries(stats), [stats]);
  const total = stats?.total ?? 0;
  const byCode = useMemo(() => new Map(top.filter((c) => isCountryCode(c.code)).map((c) => [c.code.toUpperCase(), c])), [top]);
  const label = stats ? summary(top, total) : 'World map of requests by country, loading.';

  const map = atlas.data ? (
    <svg
      viewBox={`0 0 ${atlas.data.width} ${atlas.data.height}`}
      role="img"
      aria-label={label}
      data-testid="locations-map"
      style={{ width: '100%', height: 'auto', display: 'block', filter: stats ? undefined : 'blur(3px)' }}
    >
      <path d={atlas.data.sphere} fill="var(--mantine-color-blue-0)" stroke="var(--mantine-color-gray-4)" strokeWidth={0.75} />
      {atlas.data.countries.map((shape, i) => {
        const located = shape.code ? byCode.get(shape.code) : undefined;
        return (
          <path
            key={`${shape.code ?? shape.name}-${i}`}
            d={shape.d}
            fill={located?.fill ?? NO_DATA_FILL}
            stroke="var(--mantine-color-white)"
            strokeWidth={0.5}
            data-country={shape.code ?? undefined}
            data-requests={located?.requests}
          >
            {located && <title>{`${located.name}: ${formatNumber(located.requests)} requests`}</title>}
          </path>
        );
      })}
    </svg>
  ) : atlas.isError ? (
    <Box role="img" aria-label={label} style={{ aspectRatio: ASPECT }} bg="gray.0" display="flex">
      <Text size="sm" c="dimmed" m="auto" p="md" ta="center">
        The world map could not be loaded. The list shows the top countries.
      </Text>
    </Box>
  ) : (
    <Skeleton style={{ aspectRatio: ASPECT }} h="auto" radius="sm" role="status" aria-label="Loading the world map" />
  );

  if (top.length === 0) {
    return (
      <Stack gap="sm" maw={720} mx="auto">
        {map}
        {stats && (
          <Text size="sm" c="dimmed" ta="center">
            {messages.stats.waiting}
          </Text>
        )}
      </Stack>
    );
  }
  // Wide screens: the map with its legend beside it; narrow ones: the legend below.
  return (
    <Grid gap="md" align="center">
      <Grid.Col span={{ base: 12, md: 8 }}>{map}</Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Box component="ol" aria-label="Top countries by requests" m={0} p={0} style={{ listStyle: 'none' }}>
          {top.map((c) => (
            <Group key={c.code} component="li" gap="xs" wrap="nowrap" justify="space-between" py={4}>
              <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                {/* No swatch for 'unknown': it has no shape on the map. */}
                {isCountryCode(c.code) ? (
                  <ColorSwatch color={c.fill} size={12} withShadow={false} aria-hidden />
                ) : (
                  <Box w={12} style={{ flexShrink: 0 }} aria-hidden />
                )}
                <CountryLabel code={c.code} />
              </Group>
              <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
                {formatNumber(c.requests)}{' '}
                <Text span size="xs" c="dimmed">
                  ({formatShare(c.requests, total)})
                </Text>
              </Text>
            </Group>
          ))}
        </Box>
      </Grid.Col>
    </Grid>
  );
}
