import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { LatencySummary } from './report';

export interface LoadTarget {
  /** Loopback only: the generator refuses any other host. */
  url: string;
  /** More servers of the same target (same path), taking requests in turn with `url`: a scale-out of several processes. */
  alsoUrls?: string[];
  /** Sent as the project_id header, one per request in rotation. */
  keys?: string[];
  /** Hard cap on requests sent to this target in the whole run, warm-up included. */
  maxRequests: number;
  /** POSTs this JSON body instead of a GET (JSON-RPC). */
  body?: string;
  /** Sent with every request (e.g. the Origin an allow-list admits). */
  headers?: Record<string, string>;
}

/**
 * Every target is first warmed up for warmupMs; then the measured time is cut into `rounds` slices
 * of sliceMs. Apart (together false), the targets take turns, one slice each per round, so each is
 * measured alone and a passing disturbance of the machine lands on all of them alike over the
 * rounds. Together (open mode), every slice loads all targets at once, alternating request by
 * request, so each disturbance lands on all of them at the same moment: the fairest comparison of
 * their latencies on a noisy machine.
 */
export interface LoadRun {
  targets: LoadTarget[];
  /**
   * closed: `concurrency` connections, each sending its next request when the last one answered
   * (throughput). open: a fixed `rate` of requests per second whatever the answers (latency at a
   * load every target sustains).
   */
  mode: 'closed' | 'open';
  concurrency: number;
  /** Open mode: requests per second, to each target. */
  rate?: number;
  together?: boolean;
  warmupMs: number;
  sliceMs: number;
  rounds: number;
}

export interface LoadResult {
  /** Answers completed inside the measured slices, per second of measured time. */
  rps: number;
  latency: LatencySummary;
  /** p99 of each measured slice, in the order they ran. */
  sliceP99: number[];
  /** Answers by status in the measured slices; 0 means a network error. */
  statuses: Record<string, number>;
  /** Open mode: requests not sent because too many were already waiting (generator or target saturated). */
  skipped: number;
  /** maxRequests was reached: the figures cover less time than asked. */
  capped: boolean;
}

type FromWorker = { kind: 'result'; results: LoadResult[] } | { kind: 'error'; message: string };

/** The load generator in its own process, so it never shares an event loop with a server under test. */
export class LoadGenerator {
  private child: ChildProcess;

  constructor(execArgv: string[] = process.execArgv) {
    this.child = fork(path.join(import.meta.dirname, 'load-worker.ts'), [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  }

  /** One result per target, in the order given. */
  run(run: LoadRun): Promise<LoadResult[]> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`load generator exited (${code}) during a run`));
      this.child.once('exit', onExit);
      this.child.once('message', (m: FromWorker) => {
        this.child.off('exit', onExit);
        if (m.kind === 'result') resolve(m.results);
        else reject(new Error(`load generator: ${m.message}`));
      });
      this.child.send(run);
    });
  }

  close(): Promise<void> {
    if (this.child.exitCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.disconnect();
    });
  }
}
