// The messages between the gateway's thread (metering.ts) and its metering worker (metering-worker.ts).

/** A record's fields, each a float64 of a record's FIELDS; texts are numbers into the strings sent so far. */
export const FIELD = { projectId: 0, ownerId: 1, endpoint: 2, status: 3, ip: 4, userAgent: 5, admitted: 6, at: 7, latencyMs: 8, refused: 9, message: 10 } as const;
export const FIELDS = 11;

/**
 * What the worker is started with: the database it writes to through a connection of its own, the
 * gateway's PostgreSQL `connection` or its SQLite `file` (docs/decisions/metering-sqlite-writer.md).
 */
export type MeteringWorkerData = { flushMs: number } & ({ engine: 'pg'; connection: string | Record<string, unknown> } | { engine: 'sqlite'; file: string });

export type ToWorker =
  /**
   * `count` records packed in `buffer` (transferred); `strings` are the texts numbered since the last
   * message, in order; `restart`: the numbering started again at 0 (the table had grown too big).
   */
  | { t: 'records'; buffer: ArrayBuffer; count: number; strings: string[]; restart: boolean }
  | { t: 'flush'; id: number; now: number; paced: boolean }
  /** Close the worker's own database connection (after the last flush), then answer 'closed'. */
  | { t: 'close' };

export type ToMain =
  /** The flush `id` is over: the rows it wrote, and `error` when a part failed (its counts are kept for the next). */
  | { t: 'flushed'; id: number; rows: number; error: string | null }
  | { t: 'closed' };
