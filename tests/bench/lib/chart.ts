// Growth charts: a bench that runs its work at 1×, 10× and 100× draws each measure against the work
// as a small SVG line chart (x on a log scale), written next to docs/benchmarks.md, so a reader sees
// at a glance whether the line is flat. BENCH_CHARTS_DIR names another folder; BENCH_CHARTS=0 writes none.
import fs from 'node:fs';
import path from 'node:path';

export interface GrowthSeries {
  name: string;
  /** One value per point of the x axis; NaN for a point not measured. */
  values: number[];
}

export interface GrowthChart {
  /** File name without extension, e.g. 'stats-growth'. */
  name: string;
  title: string;
  /** The work at each point, e.g. [1e6, 1e7, 1e8], and how to print it. */
  xs: number[];
  xLabel: (x: number) => string;
  xTitle: string;
  yUnit: string;
  series: GrowthSeries[];
  /** A target drawn as a dashed line, e.g. 20 (ms). */
  target?: number;
}

const COLORS = ['#4c6ef5', '#e8590c', '#2b8a3e', '#ae3ec9', '#1098ad', '#f08c00', '#c92a2a', '#5c940d'];
const W = 560;
const H = 300;
const PAD = { left: 64, right: 16, top: 36, bottom: 48 };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));

/** The chart as SVG text. */
export function growthSvg(c: GrowthChart): string {
  const values = c.series.flatMap((s) => s.values).filter(Number.isFinite);
  const top = Math.max(...values, c.target ?? 0, Number.EPSILON) * 1.15;
  const lx = c.xs.map(Math.log10);
  const [x0, x1] = [Math.min(...lx), Math.max(...lx)];
  // The first and last points sit 40 px inside the plot, so their labels fit.
  const px = (x: number) => PAD.left + 40 + ((Math.log10(x) - x0) / (x1 - x0 || 1)) * (W - PAD.left - PAD.right - 80);
  const py = (y: number) => H - PAD.bottom - (y / top) * (H - PAD.top - PAD.bottom);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H + 18 * Math.ceil(c.series.length / 2)}" viewBox="0 0 ${W} ${H + 18 * Math.ceil(c.series.length / 2)}" font-family="system-ui, sans-serif" font-size="11" role="img">`);
  out.push(`<title>${esc(c.title)}</title>`);
  out.push(`<rect width="100%" height="100%" fill="#fff"/>`);
  out.push(`<text x="${PAD.left}" y="20" font-size="13" font-weight="600">${esc(c.title)}</text>`);
  // Grid and y ticks.
  for (let i = 0; i <= 4; i++) {
    const y = (top / 4) * i;
    out.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${py(y).toFixed(1)}" y2="${py(y).toFixed(1)}" stroke="#e9ecef"/>`);
    out.push(`<text x="${PAD.left - 6}" y="${(py(y) + 4).toFixed(1)}" text-anchor="end" fill="#495057">${fmt(y)}</text>`);
  }
  out.push(`<text transform="translate(14 ${(PAD.top + H - PAD.bottom) / 2}) rotate(-90)" text-anchor="middle" fill="#495057">${esc(c.yUnit)}</text>`);
  // x ticks.
  for (const x of c.xs) {
    out.push(`<line x1="${px(x).toFixed(1)}" x2="${px(x).toFixed(1)}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="#f1f3f5"/>`);
    out.push(`<text x="${px(x).toFixed(1)}" y="${H - PAD.bottom + 16}" text-anchor="middle" fill="#495057">${esc(c.xLabel(x))}</text>`);
  }
  out.push(`<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 10}" text-anchor="middle" fill="#495057">${esc(c.xTitle)}</text>`);
  out.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom}" stroke="#868e96"/>`);
  if (c.target !== undefined) {
    out.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${py(c.target).toFixed(1)}" y2="${py(c.target).toFixed(1)}" stroke="#c92a2a" stroke-dasharray="5 4"/>`);
    out.push(`<text x="${W - PAD.right}" y="${(py(c.target) - 4).toFixed(1)}" text-anchor="end" fill="#c92a2a">target ${fmt(c.target)}</text>`);
  }
  c.series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length]!;
    const points = c.xs.map((x, j) => [x, s.values[j]!] as const).filter(([, v]) => Number.isFinite(v));
    out.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.map(([x, v]) => `${px(x).toFixed(1)},${py(v).toFixed(1)}`).join(' ')}"/>`);
    for (const [x, v] of points) out.push(`<circle cx="${px(x).toFixed(1)}" cy="${py(v).toFixed(1)}" r="3" fill="${color}"><title>${esc(`${s.name}: ${fmt(v)} ${c.yUnit} at ${c.xLabel(x)}`)}</title></circle>`);
    const lxPos = PAD.left + (i % 2) * ((W - PAD.left) / 2);
    const lyPos = H + 4 + 18 * Math.floor(i / 2);
    out.push(`<rect x="${lxPos}" y="${lyPos}" width="12" height="3" fill="${color}"/>`);
    out.push(`<text x="${lxPos + 18}" y="${lyPos + 5}" fill="#212529">${esc(s.name)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** Writes the chart (unless BENCH_CHARTS=0) and answers its path, or null. */
export function writeGrowthChart(c: GrowthChart): string | null {
  if (process.env.BENCH_CHARTS === '0') return null;
  const dir = process.env.BENCH_CHARTS_DIR ?? path.join(import.meta.dirname, '../../../docs/benchmarks');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${c.name}.svg`);
  fs.writeFileSync(file, growthSvg(c));
  console.log(`Growth chart: ${path.relative(process.cwd(), file)}`);
  return file;
}
