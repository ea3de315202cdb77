// npm run bench — every benchmark in turn, each in its own process; fails when any of them fails,
// but always runs them all so one run reports every figure.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const benches = ['gateway.ts', 'jsonrpc.ts', 'stats.ts', 'webhooks.ts', 'ipfs.ts'];
const failed: string[] = [];
for (const file of benches) {
  const run = spawnSync(process.execPath, [...process.execArgv, path.join(import.meta.dirname, file)], { stdio: 'inherit', timeout: 400_000 });
  if (run.status !== 0) failed.push(`${file} (${run.status ?? run.signal})`);
  console.log();
}
console.log(failed.length ? `bench: FAIL in ${failed.join(', ')}` : 'bench: every target met');
process.exitCode = failed.length ? 1 : 0;
