// Sets several `npm run bench` runs side by side, as docs/benchmarks.md's table: one row per measure, each
// run's figure, ratio and verdict, the target, and the verdict of the median run. Each argument is a
// file a run wrote with BENCH_ROWS_OUT=file. A target is a threshold, so the median figure meets it
// exactly when more than half of the runs do.
//   npx tsx tests/bench/runs-table.ts run1.json run2.json run3.json
import fs from 'node:fs';
import type { BenchRow } from './lib/report';

interface Run {
  machine: string;
  at: string;
  rows: BenchRow[];
}

const runs = process.argv.slice(2).map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as Run);
if (runs.length === 0) {
  console.error('usage: tsx tests/bench/runs-table.ts run1.json [run2.json …]');
  process.exit(2);
}
// Measures are matched by bench and by their text without the figures some put in it (the gateway's
// open-loop rate, the IPFS add's medians), which change from run to run.
const key = (r: BenchRow) => `${r.bench}|${r.measure.replace(/ at \d+ req\/s/, '').replace(/ \(median [^)]*\)/, '')}`;
const order: string[] = [];
for (const run of runs) for (const r of run.rows) if (!order.includes(key(r))) order.push(key(r));

const cell = (r: BenchRow | undefined) => (r ? `${r.figure}${r.ratio ? ` (${r.ratio})` : ''} ${r.pass ? 'PASS' : 'FAIL'}` : '—');
const lines = [
  `| bench | measure | ${runs.map((_, i) => `run ${i + 1}`).join(' | ')} | target | median verdict |`,
  `|---|---|${runs.map(() => '---|').join('')}---|---|`,
];
for (const k of order) {
  const found = runs.map((run) => run.rows.find((r) => key(r) === k));
  const first = found.find(Boolean)!;
  const passes = found.filter((r) => r?.pass).length;
  lines.push(`| ${first.bench} | ${first.measure} | ${found.map(cell).join(' | ')} | ${first.target} | ${passes * 2 > runs.length ? 'PASS' : 'FAIL'} |`);
}
console.log(runs.map((r, i) => `run ${i + 1}: ${r.at} on ${r.machine}`).join('\n') + '\n');
console.log(lines.join('\n'));
