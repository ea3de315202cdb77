import { fork } from 'node:child_process';
import path from 'node:path';

export interface ChildServer<T> {
  url: string;
  info: T;
  /** Disconnects the child, which closes its server and exits. */
  stop(): Promise<void>;
}

/**
 * Forks a server script of this folder and waits for its first message, `{url, ...info}`. The child
 * closes and exits when the IPC channel goes, so a crashed or finished parent never leaves it behind.
 */
export function forkServer<T = Record<string, never>>(script: string, env: Record<string, string> = {}, execArgv = process.execArgv): Promise<ChildServer<T>> {
  const child = fork(path.join(import.meta.dirname, script), [], { execArgv, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${script} exited (${code}) before it was ready`));
    child.once('exit', onExit);
    child.once('message', (m: { url: string } & T) => {
      child.off('exit', onExit);
      const { url, ...info } = m;
      resolve({
        url,
        info: info as T,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || !child.connected) return done();
            child.once('exit', () => done());
            child.disconnect();
          }),
      });
    });
  });
}

/** The child's side: announce readiness, and run `close` then exit when the parent lets go. */
export function serveUntilDisconnected(ready: { url: string } & Record<string, unknown>, close: () => Promise<void>): void {
  process.send!(ready);
  process.once('disconnect', () => {
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
