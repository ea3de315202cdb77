#!/usr/bin/env node
// Runs several npm scripts at once (`node tests/helpers/run-scripts.mjs typecheck lint build:web`) and
// exits non-zero if any fails. The checks before the test run are single-threaded for most of their
// time (tsc, ESLint, the bundler's output phase), so on a machine with two cores or more they finish in
// about the time of the longest rather than of all of them in turn. Each script's output is printed
// whole when it ends, so their lines never interleave.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: run-scripts.mjs <npm script> [<npm script> …]');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = Date.now();
const results = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        const out = [];
        const child = spawn(npm, ['run', '-s', name], { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
        child.stdout.on('data', (c) => out.push(c));
        child.stderr.on('data', (c) => out.push(c));
        child.on('error', (err) => out.push(Buffer.from(`${err.message}\n`)));
        child.on('close', (code, signal) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          const text = Buffer.concat(out).toString();
          process.stdout.write(`==> npm run ${name}: ${code === 0 ? 'ok' : `failed (${signal ?? code})`} after ${seconds} s\n${text}${text && !text.endsWith('\n') ? '\n' : ''}`);
          resolve(code === 0);
        });
      }),
  ),
);
process.exit(results.every(Boolean) ? 0 : 1);
