// npm run bench — every benchmark in turn, each in its own process, then one table of every target:
// measure, figure, baseline of the same run, ratio, target, PASS/FAIL. Exits non-zero when a target
// failed or a bench ended in error, but always runs them all so one run reports every figure.
//
// A bench contributes rows with row() from ./lib/report: it prints each row and appends it as a JSON
// line to the file named by BENCH_ROWS_FILE, which this runner sets. To add a bench, add its file to
// BENCHES. BENCH_ONLY=stats,webhooks runs a subset; BENCH_ROWS_OUT=file keeps the rows as JSON.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { machine, rowsTable, type BenchRow } from './lib/report';

const BENCHES = ['gateway.ts', 'keys.ts', 'scale-out.ts', 'jsonrpc.ts', 'stats.ts', 'audit.ts', 'dashboard.ts', 'webhooks.ts', 'webhook-latency.ts', 'push.ts', 'ppu.ts', 'ipfs.ts', 'ipfs-size.ts', 'sandbox.ts', 'devnet.ts', 'web.ts'];

const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim().replace(/\.ts$/, ''));
const rowsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-')), 'rows.jsonl');
fs.writeFileSync(rowsFile, '');
const errors: string[] = [];
for (const file of BENCHES.filter((f) => !only || only.includes(f.replace(/\.ts$/, '')))) {
  const before = fs.readFileSync(rowsFile, 'utf8').split('\n').filter(Boolean).length;
  const run = spawnSync(process.execPath, [...process.execArgv, path.join(import.meta.dirname, file)], {
    stdio: 'inherit',
    timeout: 900_000,
    env: { ...process.env, BENCH_ROWS_FILE: rowsFile },
  });
  const after = fs.readFileSync(rowsFile, 'utf8').split('\n').filter(Boolean).length;
  // A bench that exits non-zero without a failed row of its own ended in error (or timed out).
  const rows = fs.readFileSync(rowsFile, 'utf8').split('\n').filter(Boolean).slice(before).map((l) => JSON.parse(l) as BenchRow);
  if (run.status !== 0 && rows.every((r) => r.pass)) errors.push(`${file} ended with ${run.status ?? run.signal} (${after - before} rows)`);
  console.log();
}

const rows = fs.readFileSync(rowsFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as BenchRow);
fs.rmSync(path.dirname(rowsFile), { recursive: true, force: true });
const at = new Date().toISOString();
// BENCH_ROWS_OUT keeps this run's rows as JSON, for tests/bench/runs-table.ts to set runs side by side.
if (process.env.BENCH_ROWS_OUT) fs.writeFileSync(process.env.BENCH_ROWS_OUT, JSON.stringify({ machine: machine(), at, rows }, null, 1));
console.log(`npm run bench on ${machine()}, ${at}\n`);
console.log(rowsTable(rows));
for (const e of errors) console.log(`ERROR  ${e}`);
const failed = rows.filter((r) => !r.pass).length;
console.log(`\n${rows.length - failed} of ${rows.length} targets met${errors.length ? `, ${errors.length} bench(es) in error` : ''}.`);
process.exitCode = failed || errors.length ? 1 : 0;
