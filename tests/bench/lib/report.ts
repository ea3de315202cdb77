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

/** A fixed-width text table, first column left-aligned, the rest right-aligned. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
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
  const ok = list.every((v) => v.ok);
  if (!ok) process.exitCode = 1;
  return ok;
}
