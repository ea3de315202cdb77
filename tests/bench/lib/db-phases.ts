// Where a unit of work (a devnet's creation) spends its time against one process's database: each
// unit runs in an AsyncLocalStorage context of its own (`run`), and the knex client of `db` is
// wrapped so that every connection acquired and every statement sent on it is counted to the context
// it ran in: the wait for the pool's connection, the statements' time on it, and who held the
// connection meanwhile (labelled by the context that took it: `label` names work started in one).
// Bench only: it patches the client object it is given.
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import type { Db } from '../../../server/db/index';

export interface UnitTrace {
  label: string;
  /** Time waited for the pool's connection (summed), how many acquisitions, the longest. */
  acquireWait: number;
  acquires: number;
  longestAcquire: number;
  /** Statements sent on the connection from this context, their time from sending to the answer. */
  statements: number;
  statementMs: number;
  /** Free-form phases a caller times (ms). */
  phases: Record<string, number>;
  /** The intervals this unit waited for the connection. */
  waits: Array<[number, number]>;
}

interface Hold {
  label: string;
  from: number;
  to: number;
  statements: number;
}

/** The main thread's time on a CPU and waiting for one (ms), from Linux's schedstat; zeros elsewhere. */
export function schedMs(): { run: number; queued: number } {
  try {
    const [run, queued] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { run: run! / 1e6, queued: queued! / 1e6 };
  } catch {
    return { run: 0, queued: 0 };
  }
}

export function dbPhases(db: Db) {
  const als = new AsyncLocalStorage<{ label: string; trace?: UnitTrace }>();
  const holds: Hold[] = [];
  let holder: Hold | null = null;
  const client = db.client as unknown as {
    acquireConnection(): Promise<Record<string, unknown>>;
    releaseConnection(conn: unknown): Promise<void>;
  };
  const acquire = client.acquireConnection.bind(client);
  const release = client.releaseConnection.bind(client);
  const patched = new WeakSet<object>();
  const sqlCounts = new Map<string, number>();
  if (process.env.BENCH_SQL_COUNT) process.on('exit', () => console.log([...sqlCounts].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, n]) => `${n}\t${k}`).join('\n')));
  const wrapConnection = (conn: Record<string, unknown>) => {
    if (patched.has(conn)) return;
    patched.add(conn);
    for (const method of ['all', 'run', 'get']) {
      const original = conn[method] as ((...args: unknown[]) => unknown) | undefined;
      if (typeof original !== 'function') continue;
      conn[method] = function (this: unknown, ...args: unknown[]) {
        const ctx = als.getStore();
        const t0 = performance.now();
        if (holder) holder.statements++;
        if (process.env.BENCH_SQL_COUNT) {
          const k = `${ctx?.label.startsWith('creation') ? 'creation' : (ctx?.label ?? 'other')}: ${String(args[0]).slice(0, 90)}`;
          sqlCounts.set(k, (sqlCounts.get(k) ?? 0) + 1);
        }
        const last = args.length - 1;
        const done = args[last];
        if (typeof done === 'function') {
          args[last] = function (this: unknown, ...res: unknown[]) {
            if (ctx?.trace) {
              ctx.trace.statements++;
              ctx.trace.statementMs += performance.now() - t0;
            }
            return (done as (...a: unknown[]) => unknown).apply(this, res);
          };
        }
        return original.apply(this, args);
      };
    }
  };
  client.acquireConnection = async () => {
    const ctx = als.getStore();
    const t0 = performance.now();
    const conn = await acquire();
    const t1 = performance.now();
    wrapConnection(conn);
    if (ctx?.trace) {
      const w = t1 - t0;
      ctx.trace.acquireWait += w;
      ctx.trace.acquires++;
      ctx.trace.longestAcquire = Math.max(ctx.trace.longestAcquire, w);
      if (w > 1) ctx.trace.waits.push([t0, t1]);
    }
    holder = { label: ctx?.label ?? 'other', from: t1, to: t1, statements: 0 };
    return conn;
  };
  client.releaseConnection = (conn: unknown) => {
    if (holder) {
      holder.to = performance.now();
      holds.push(holder);
      if (holds.length > 200_000) holds.splice(0, 100_000);
      holder = null;
    }
    return release(conn);
  };
  return {
    /** Runs `fn` with its database work counted to `trace` (or, without one, labelled `label`). */
    run<T>(label: string, fn: () => T, trace?: UnitTrace): T {
      return als.run(trace ? { label, trace } : { label }, fn);
    },
    trace(label: string): UnitTrace {
      return { label, acquireWait: 0, acquires: 0, longestAcquire: 0, statements: 0, statementMs: 0, phases: {}, waits: [] };
    },
    /** Adds `ms` to a phase of the trace of the current context. */
    phase(name: string, ms: number): void {
      const t = als.getStore()?.trace;
      if (t) t.phases[name] = (t.phases[name] ?? 0) + ms;
    },
    /** Who held the connection during a unit's waits for it: per label, the time held within them, the holds and their statements. */
    heldDuring(trace: UnitTrace): Array<{ label: string; ms: number; holds: number; statements: number; longest: number }> {
      const by = new Map<string, { label: string; ms: number; holds: number; statements: number; longest: number }>();
      for (const [a, b] of trace.waits) {
        for (const h of holds) {
          if (h.to <= a || h.from >= b) continue;
          const e = by.get(h.label) ?? { label: h.label, ms: 0, holds: 0, statements: 0, longest: 0 };
          e.ms += Math.min(b, h.to) - Math.max(a, h.from);
          e.holds++;
          e.statements += h.statements;
          e.longest = Math.max(e.longest, h.to - h.from);
          by.set(h.label, e);
        }
      }
      return [...by.values()].sort((x, y) => y.ms - x.ms);
    },
    /** Per label: how long the connection was held in all, the holds, and the longest. */
    holdsSummary(from: number, to: number, group: (label: string) => string = (l) => l): Array<{ label: string; ms: number; holds: number; longest: number; statements: number }> {
      const by = new Map<string, { label: string; ms: number; holds: number; longest: number; statements: number }>();
      for (const h of holds) {
        if (h.to < from || h.from > to) continue;
        const label = group(h.label);
        const e = by.get(label) ?? { label, ms: 0, holds: 0, longest: 0, statements: 0 };
        e.ms += h.to - h.from;
        e.holds++;
        e.statements += h.statements;
        e.longest = Math.max(e.longest, h.to - h.from);
        by.set(label, e);
      }
      return [...by.values()].sort((x, y) => y.ms - x.ms);
    },
  };
}
