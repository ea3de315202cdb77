import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';

/** The value below which `p` of the sorted samples lie (nearest rank). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Sorts in place and summarises latencies given in milliseconds. */
export function summarize(samples: Float64Array): LatencySummary {
  samples.sort();
  return {
    count: samples.length,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    max: samples.length ? samples[samples.length - 1]! : Number.NaN,
  };
}

export const ms = (v: number, digits = 2) => `${v.toFixed(digits)} ms`;

/** A fixed-width text table, the first `leftColumns` columns left-aligned, the rest right-aligned. */
export function table(header: string[], rows: string[][], leftColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < leftColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The machine the figures came from, to print with them. */
export function machine(): string {
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${os.availableParallelism()} CPU (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

export interface Verdict {
  name: string;
  ok: boolean;
  detail: string;
}

/** Prints PASS/FAIL lines and sets the exit code when any target was missed. */
export function verdicts(list: Verdict[]): boolean {
  for (const v of list) console.log(`${v.ok ? 'PASS' : 'FAIL'}  ${v.name}: ${v.detail}`);
  // Into npm run bench's closing table too (a bench that reports with row() gets baseline and ratio columns).
  const file = process.env.BENCH_ROWS_FILE;
  const bench = path.basename(process.argv[1] ?? 'bench').replace(/\.ts$/, '');
  if (file) for (const v of list) fs.appendFileSync(file, `${JSON.stringify({ bench, measure: v.name, figure: v.detail, baseline: '', ratio: '', target: '', pass: v.ok } satisfies BenchRow)}\n`);
  const ok = list.every((v) => v.ok);
  if (!ok) process.exitCode = 1;
  return ok;
}

/**
 * One line of `npm run bench`'s closing table. Every bench file reports its targets with `row()`:
 * the row is printed at once and, when BENCH_ROWS_FILE names a file (all.ts sets it), appended to
 * it as one JSON line, so all.ts can gather the rows of every bench into one table. A bench added to
 * all.ts needs nothing else to contribute rows.
 */
export interface BenchRow {
  /** The bench file's name, e.g. 'stats'. */
  bench: string;
  /** What was measured, e.g. 'SQLite /stats p95 at 10 M requests'. */
  measure: string;
  /** The figure, with its unit. */
  figure: string;
  /** The baseline measured in the same run, with its unit ('' when the measure has none). */
  baseline: string;
  /** figure ÷ baseline, e.g. '0.62×' ('' without a baseline). */
  ratio: string;
  /** The target, e.g. '≤ 20 ms'. */
  target: string;
  pass: boolean;
}

export const ratio = (figure: number, baseline: number): string => (baseline > 0 && Number.isFinite(figure) ? `${(figure / baseline).toFixed(2)}×` : '');

/** Reports one measure against its target; a failed target sets the exit code. */
export function row(r: BenchRow): BenchRow {
  console.log(`${r.pass ? 'PASS' : 'FAIL'}  ${r.measure}: ${r.figure}${r.baseline ? ` (baseline ${r.baseline}, ${r.ratio})` : ''}, target ${r.target}`);
  if (!r.pass) process.exitCode = 1;
  const file = process.env.BENCH_ROWS_FILE;
  if (file) fs.appendFileSync(file, `${JSON.stringify(r)}\n`);
  return r;
}

/** The closing table of every row, in the order reported. */
export function rowsTable(rows: BenchRow[]): string {
  return table(
    ['bench', 'measure', 'figure', 'baseline', 'ratio', 'target', 'result'],
    rows.map((r) => [r.bench, r.measure, r.figure, r.baseline, r.ratio, r.target, r.pass ? 'PASS' : 'FAIL']),
    4,
  );
}
