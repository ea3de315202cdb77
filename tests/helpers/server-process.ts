import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { inject } from 'vitest';
import { ARTIFACTS, freshDatabase } from './db-template';
import { createDb, migrateLatest, sqliteFileIn, type Db } from '../../server/db/index';

// The server in a process of its own, as an operator runs it in production: the build of server/main.ts
// (staged once per run by server-build-setup.ts) started with package.json's start:prod flags and
// `--role …`, for the tests that must kill it without warning (SIGKILL) or read its memory.

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** node's flags and entry file in package.json's start:prod script (`node <flags…> dist/server/main.js`). */
const startProdArgs = (): string[] => {
  const command = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start:prod']!;
  return command.split(' ').slice(1).filter((a) => a !== '');
};

/** Every process started here, so a failed or timed-out test leaves none behind (stopServerProcesses). */
const started = new Set<ChildProcess>();

const running = (p: ChildProcess) => p.exitCode === null && p.signalCode === null;
const exited = (p: ChildProcess) => new Promise((r) => (running(p) ? p.once('exit', r) : r(null)));

export interface ServerProcessOptions {
  /** all: every part in one process, as `npm start` runs it. */
  role: 'all' | 'api' | 'gateway' | 'worker';
  env: Record<string, string>;
  /** Resolves only once a GET of this URL answers 2xx (polled every 50 ms). */
  readyUrl?: string;
  /** How long the process has to answer readyUrl; past it, or if it exits first, it is killed and this throws. */
  readyTimeoutMs?: number;
  /** Collects every line the process writes (stdout and stderr) here, instead of passing stderr on. */
  lines?: string[];
}

/**
 * Starts the built server in `role` with only PATH, HOME, LOG_LEVEL=warn, SANDBOX_SWEEP=false (no
 * sandbox chain workers, which development would start: tests start many servers) and `env`; its
 * stderr goes to the test's.
 */
export async function spawnServerProcess({ role, env, readyUrl, readyTimeoutMs = 30_000, lines }: ServerProcessOptions): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...startProdArgs(), '--role', role], {
    cwd: inject('serverBuild'),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', SANDBOX_SWEEP: 'false', ...env },
    stdio: ['ignore', lines ? 'pipe' : 'ignore', lines ? 'pipe' : 'inherit'],
  });
  started.add(child);
  if (lines) {
    for (const stream of [child.stdout!, child.stderr!]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop()!;
        lines.push(...parts);
      });
    }
  }
  if (!readyUrl) return child;
  const end = Date.now() + readyTimeoutMs;
  for (;;) {
    if (await fetch(readyUrl).then((r) => r.ok, () => false)) return child;
    const why = !running(child) ? `exited (${child.exitCode ?? child.signalCode})` : Date.now() > end ? `did not answer ${readyUrl} within ${readyTimeoutMs} ms` : null;
    if (why) {
      await stopServerProcess(child, 'SIGKILL');
      throw new Error(`the ${role} process ${why}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Sends `signal` (unless the process has already ended) and waits for it to exit. */
export async function stopServerProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (running(child)) child.kill(signal);
  await exited(child);
}

/** For afterAll: kills whatever spawnServerProcess started that is still running. */
export async function stopServerProcesses(): Promise<void> {
  for (const child of started) await stopServerProcess(child, 'SIGKILL');
  started.clear();
}

/**
 * A port nothing listens on now, for a process that must be told its port up front (and may be
 * restarted on it). Picked below the kernel's ephemeral range (32768–60999 on Linux), which every
 * `listen(0)` and outgoing connection of the other test files draws from: while a restarted process
 * is down, no other file's server can take its port and answer in its place.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + crypto.randomInt(12_000);
    const free = await new Promise<boolean>((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

export interface ServerData {
  /** The DATA_DIR, under tests/.artifacts. */
  dir: string;
  /** The test's own handle on the processes' database. */
  db: Db;
  /** DATA_DIR, and DATABASE_URL on PostgreSQL, for the processes' environment. */
  env: Record<string, string>;
  /** For afterAll: drops or closes the database and removes the folder. */
  remove(): Promise<void>;
}

/**
 * A data folder and a database for server processes: on PostgreSQL (DATABASE_URL set) a fresh copy of
 * the template, otherwise the SQLite file the process itself opens in its DATA_DIR, migrated here.
 */
export async function serverData(name: string): Promise<ServerData> {
  const dir = path.join(ARTIFACTS, `${name}-${process.pid}-${crypto.randomBytes(3).toString('hex')}`);
  fs.mkdirSync(dir, { recursive: true });
  const pg = process.env.DATABASE_URL ? await freshDatabase(inject('dbTemplate')) : null;
  const db = pg ? pg.db : createDb({ sqliteFile: sqliteFileIn(dir) });
  if (!pg) await migrateLatest(db);
  return {
    dir,
    db,
    env: { DATA_DIR: dir, ...(pg?.databaseUrl ? { DATABASE_URL: pg.databaseUrl } : {}) },
    async remove() {
      if (pg) await pg.drop();
      else await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
