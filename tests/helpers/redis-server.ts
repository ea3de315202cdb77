import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './server-process';

// A redis-server of the test's own on a free loopback port, without persistence, that the test may
// kill and start again on the same port (the shared Redis on 6379 is never stopped).

export interface OwnRedis {
  url: string;
  port: number;
  /** Kills the server without warning (its data is gone: nothing is saved). */
  kill(): Promise<void>;
  /** Starts it again on the same port; resolves once it answers PING (epoch ms of that answer). */
  start(): Promise<number>;
  /** Sends the server a signal: SIGSTOP makes it hang (connections stay open, nothing answers), SIGCONT resumes it. */
  signal(signal: NodeJS.Signals): void;
  /** For afterAll. */
  stop(): Promise<void>;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const exited = (p: ChildProcess) => new Promise((r) => (p.exitCode === null && p.signalCode === null ? p.once('exit', r) : r(null)));
  const start = async (): Promise<number> => {
    child = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const end = Date.now() + 10_000;
    for (;;) {
      const probe = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      const ok = await probe
        .connect()
        .then(() => probe.ping())
        .then(() => true, () => false);
      probe.disconnect();
      if (ok) return Date.now();
      if (Date.now() > end) throw new Error(`redis-server did not answer on port ${port}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const kill = async () => {
    const c = child;
    child = null;
    if (!c) return;
    c.kill('SIGKILL');
    await exited(c);
  };
  await start();
  const signal = (sig: NodeJS.Signals) => void child?.kill(sig);
  return {
    url,
    port,
    kill,
    start,
    signal,
    stop: async () => {
      signal('SIGCONT');
      await kill();
    },
  };
}
