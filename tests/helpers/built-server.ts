import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildServer } from '../../server/build';
import { recordGatewayChange } from '../../server/db/gateway-changes';
import type { Db } from '../../server/db/index';
import { freePort } from './server-process';
import { makeProject, makeUser, makeWorkspace } from './workspace-fixture';

// The server as production runs it: server/build.ts's JavaScript in a folder of its own (what an
// operator copies to a machine), started with the node command of package.json's start:prod script.

export const repoRoot = path.resolve(import.meta.dirname, '../..');

const packageJson = () => JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/** node's arguments in one of package.json's scripts (`node <flags…> <file>`), without `node`. */
export function nodeArgsOf(script: string): string[] {
  const command = packageJson().scripts[script];
  if (!command?.startsWith('node ')) throw new Error(`package.json's ${script} script does not start node: ${command}`);
  return command.split(' ').slice(1).filter((a) => a !== '');
}

/**
 * Builds the server into `<root>/dist/server` and puts beside it what an install needs: package.json,
 * package-lock.json and the web build when there is one. Answers what the build imports from node_modules.
 */
export async function stageBuiltApp(root: string): Promise<{ packages: string[] }> {
  fs.mkdirSync(root, { recursive: true });
  const { packages } = await buildServer({ outRoot: root });
  for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(repoRoot, file), path.join(root, file));
  const web = path.join(repoRoot, 'dist', 'web');
  if (fs.existsSync(web)) fs.cpSync(web, path.join(root, 'dist', 'web'), { recursive: true });
  return { packages };
}

export interface BuiltServer {
  child: ChildProcess;
  url: string;
  gatewayUrl: string;
  /** Everything the process has written so far. */
  output(): string;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
}

const running = (p: ChildProcess) => p.exitCode === null && p.signalCode === null;

/** Every process started here, so a failed or timed-out test leaves none behind (stopBuiltServers). */
const started = new Set<ChildProcess>();

/** For afterAll: kills whatever startBuiltServer started that is still running. */
export async function stopBuiltServers(): Promise<void> {
  for (const child of started) {
    if (!running(child)) continue;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
  started.clear();
}

/**
 * Starts `node <start:prod flags> dist/server/main.js` in `root` with only PATH, HOME and `env`
 * (plus ports on 127.0.0.1) and waits until /readyz and the gateway's /health answer 200.
 */
export async function startBuiltServer(root: string, env: Record<string, string>, opts: { nodeArgs?: string[]; timeoutMs?: number } = {}): Promise<BuiltServer> {
  const [port, gatewayPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...nodeArgsOf('start:prod')], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: String(port), GATEWAY_PORT: String(gatewayPort), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const server: BuiltServer = {
    child,
    url: `http://127.0.0.1:${port}`,
    gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
    output: () => out,
    async stop() {
      if (running(child)) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      return child.exitCode;
    },
  };
  const end = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    const up = (url: string) => fetch(url).then((r) => r.status === 200, () => false);
    // The control plane listens first, then the gateway: both answer before the server counts as started.
    if ((await up(`${server.url}/readyz`)) && (await up(`${server.gatewayUrl}/health`))) return server;
    if (!running(child) || Date.now() > end) {
      if (running(child)) child.kill('SIGKILL');
      throw new Error(`the built server ${running(child) ? 'did not answer /readyz and the gateway in time' : `exited (${child.exitCode ?? child.signalCode})`}:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A user, a workspace and a cardano-mainnet project straight in the database, announced to the gateways' key caches; answers the project's key. */
export async function makeKeyedProject(db: Db, email: string): Promise<string> {
  const user = await makeUser(db, email);
  const ws = await makeWorkspace(db, user.id, []);
  const uuid = await makeProject(db, ws, 'Production check');
  await recordGatewayChange(db, 'project', uuid);
  const row = (await db('projects').where({ uuid }).first('project_id')) as { project_id: string };
  return row.project_id;
}

/** The shared libraries (.node add-ons and others) a running process has mapped, from /proc (Linux). */
export function loadedLibraries(pid: number): string[] {
  const maps = fs.readFileSync(`/proc/${pid}/maps`, 'utf8');
  const files = new Set<string>();
  for (const line of maps.split('\n')) {
    const file = line.split(/\s+/).slice(5).join(' ');
    if (file.startsWith('/')) files.add(file);
  }
  return [...files];
}
