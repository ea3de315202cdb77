#!/usr/bin/env node
// Runs several npm scripts at once (`node tests/helpers/run-scripts.mjs typecheck lint build:web`) and
// exits non-zero if any fails. The checks before the test run are single-threaded for most of their
// time (tsc, ESLint, the bundler's output phase), so on a machine with two cores or more they finish in
// about the time of the longest rather than of all of them in turn. Each script's output is printed
// whole when it ends, so their lines never interleave.
//
// A script that passed on a clean checkout is not run again on the same tree: what it checks depends
// on the tracked files only (the lock files included), so running it twice in a row, as CI does for the
// two database engines, could only repeat the answer. The stamps live in node_modules/.cache/cairn-checks
// (keyed by the tree's hash, Node's version and, for build:web, the files it wrote); any change to a
// tracked file, an untracked file beside them, or CAIRN_CHECKS_FRESH=1 runs everything.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: run-scripts.mjs <npm script> [<npm script> …]');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const stampDir = path.join('node_modules', '.cache', 'cairn-checks');
/** What the scripts' answer depends on: the tree of a clean checkout, or null when anything is uncommitted. */
function cleanTree() {
  if (process.env.CAIRN_CHECKS_FRESH === '1') return null;
  try {
    if (execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8' }).trim() !== '') return null;
    return execFileSync('git', ['rev-parse', 'HEAD^{tree}'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}
/** The files a script leaves behind that later steps use (build:web: dist/web), by name, size and time. */
function outputs(name) {
  if (name !== 'build:web') return '';
  const dir = path.join('dist', 'web');
  if (!fs.existsSync(dir)) return 'missing';
  return fs
    .readdirSync(dir, { recursive: true })
    .sort()
    .map((f) => {
      const st = fs.statSync(path.join(dir, String(f)));
      return `${f}:${st.size}:${st.mtimeMs}`;
    })
    .join('\n');
}
const tree = cleanTree();
const stampOf = (name) => path.join(stampDir, `${name.replace(/[^a-z0-9-]/gi, '_')}.json`);
const keyOf = (name) => createHash('sha256').update(JSON.stringify([tree, process.version, name, outputs(name)])).digest('hex');
function passedBefore(name) {
  if (!tree) return false;
  try {
    return JSON.parse(fs.readFileSync(stampOf(name), 'utf8')).key === keyOf(name);
  } catch {
    return false;
  }
}
function remember(name) {
  if (!tree) return;
  fs.mkdirSync(stampDir, { recursive: true });
  fs.writeFileSync(stampOf(name), JSON.stringify({ key: keyOf(name), tree, at: new Date().toISOString() }));
}

const started = Date.now();
const results = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        if (passedBefore(name)) {
          const { at } = JSON.parse(fs.readFileSync(stampOf(name), 'utf8'));
          process.stdout.write(`==> npm run ${name}: passed on this same tree at ${at}; not run again (CAIRN_CHECKS_FRESH=1 runs it)\n`);
          resolve(true);
          return;
        }
        const out = [];
        const child = spawn(npm, ['run', '-s', name], { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
        child.stdout.on('data', (c) => out.push(c));
        child.stderr.on('data', (c) => out.push(c));
        child.on('error', (err) => out.push(Buffer.from(`${err.message}\n`)));
        child.on('close', (code, signal) => {
          const seconds = ((Date.now() - started) / 1000).toFixed(1);
          const text = Buffer.concat(out).toString();
          process.stdout.write(`==> npm run ${name}: ${code === 0 ? 'ok' : `failed (${signal ?? code})`} after ${seconds} s\n${text}${text && !text.endsWith('\n') ? '\n' : ''}`);
          if (code === 0) remember(name);
          resolve(code === 0);
        });
      }),
  ),
);
process.exit(results.every(Boolean) ? 0 : 1);
