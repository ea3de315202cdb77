// Reads Prometheus text exposition (what GET /metrics answers) into series, for tests and the soak.

export interface Series {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface ParsedMetrics {
  series: Series[];
  /** Every metric family named by a # TYPE line (histograms: the family name, not _bucket/_sum/_count). */
  families: Map<string, string>;
  /** Series of `name` whose labels include `match`. */
  find(name: string, match?: Record<string, string>): Series[];
  /** The sum of the matching series' values (0 when none). */
  sum(name: string, match?: Record<string, string>): number;
  /** The largest matching value (0 when none). */
  max(name: string, match?: Record<string, string>): number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseMetrics(text: string): ParsedMetrics {
  const series: Series[] = [];
  const families = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      if (name && type) families.set(name, type);
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, '$1');
    series.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  const find = (name: string, match: Record<string, string> = {}) => series.filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v));
  return {
    series,
    families,
    find,
    sum: (name, match) => find(name, match).reduce((a, s) => a + s.value, 0),
    max: (name, match) => find(name, match).reduce((a, s) => Math.max(a, s.value), 0),
  };
}
