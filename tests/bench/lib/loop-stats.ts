// BENCH_LOOP_STATS=1: a server process of the bench reports, when it stops, how long its event loop
// was held up (monitorEventLoopDelay) and its garbage collections by kind, to tell where a tail comes from.
import { PerformanceObserver, constants, monitorEventLoopDelay } from 'node:perf_hooks';
import { percentile } from './report';

const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

export function loopStats(name: string): () => void {
  if (process.env.BENCH_LOOP_STATS !== '1') return () => {};
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const gcs = new Map<string, number[]>();
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = KINDS[((e as PerformanceEntry & { detail?: { kind: number } }).detail?.kind) ?? -1] ?? 'other';
      const l = gcs.get(kind) ?? [];
      l.push(e.duration);
      gcs.set(kind, l);
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  return () => {
    delay.disable();
    obs.disconnect();
    const q = (l: number[], p: number) => percentile(l, p).toFixed(2);
    const gc = [...gcs].map(([k, l]) => (l.sort((a, b) => a - b), `${k} ${l.length}× p50 ${q(l, 50)} p90 ${q(l, 90)} max ${q(l, 100)} sum ${l.reduce((a, b) => a + b, 0).toFixed(0)} ms`));
    console.error(
      `[loop-stats ${name}] event-loop delay p50 ${(delay.percentile(50) / 1e6).toFixed(2)} p99 ${(delay.percentile(99) / 1e6).toFixed(2)} p99.9 ${(delay.percentile(99.9) / 1e6).toFixed(2)} max ${(delay.max / 1e6).toFixed(2)} ms; ${gc.join('; ')}`,
    );
  };
}
