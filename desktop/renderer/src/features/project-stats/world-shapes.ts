import { geoEqualEarth, geoPath } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { alpha2ByFeatureName, numericToAlpha2 } from './iso-countries';

interface CountryShape {
  /** ISO 3166-1 alpha-2, or null for areas without a code of their own (N. Cyprus, Somaliland). */
  code: string | null;
  name: string;
  /** SVG path data in the map's viewBox. */
  d: string;
}

interface WorldShapes {
  width: number;
  height: number;
  /** The globe's outline. */
  sphere: string;
  countries: CountryShape[];
}

const WIDTH = 960;

/**
 * Projects Natural Earth's 1:110m countries once (Equal Earth keeps areas comparable) into SVG paths.
 * This module, d3-geo, topojson-client and the atlas form a chunk of their own, fetched only when a map is shown.
 */
export async function loadWorldShapes(): Promise<WorldShapes> {
  const atlas = (await import('world-atlas/countries-110m.json')).default as unknown as Topology<{
    countries: GeometryCollection<{ name: string }>;
  }>;
  const collection = feature(atlas, atlas.objects.countries);
  const sphere = { type: 'Sphere' } as const;
  const projection = geoEqualEarth().fitWidth(WIDTH, sphere);
  const path = geoPath(projection).digits(1);
  const height = Math.ceil(path.bounds(sphere)[1][1]);
  const countries: CountryShape[] = [];
  for (const f of collection.features) {
    const name = f.properties?.name ?? '';
    const code = (f.id !== undefined ? numericToAlpha2.get(String(f.id)) : undefined) ?? alpha2ByFeatureName[name] ?? null;
    const d = path(f);
    if (d) countries.push({ code, name, d });
  }
  return { width: WIDTH, height, sphere: path(sphere) ?? '', countries };
}
