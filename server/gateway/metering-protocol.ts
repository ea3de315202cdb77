// The messages between the gateway's thread (metering.ts) and its metering worker (metering-worker.ts).
import type { Statement } from './metering-core';

/** A record's fields, each a float64 of a record's FIELDS; texts are numbers into the strings sent so far. */
export const FIELD = { projectId: 0, ownerId: 1, endpoint: 2, status: 3, ip: 4, userAgent: 5, admitted: 6, at: 7, latencyMs: 8, refused: 9, message: 10 } as const;
export const FIELDS = 11;

/**
 * What the worker is started with. On PostgreSQL `connection` is the database the worker writes to
 * through a connection of its own; on SQLite it is null and the gateway's thread runs the parts
 * (docs/decisions/metering-sqlite-writer.md).
 */
export interface MeteringWorkerData {
  engine: 'pg' | 'sqlite';
  flushMs: number;
  connection: string | Record<string, unknown> | null;
}

export type ToWorker =
  /**
   * `count` records packed in `buffer` (transferred); `strings` are the texts numbered since the last
   * message, in order; `restart`: the numbering started again at 0 (the table had grown too big).
   */
  | { t: 'records'; buffer: ArrayBuffer; count: number; strings: string[]; restart: boolean }
  | { t: 'flush'; id: number; now: number; paced: boolean }
  /** SQLite only: how part `id` went; `error` is null when it was written whole, otherwise why nothing of it was. */
  | { t: 'written'; id: number; error: string | null }
  /** Close the worker's own database connection (after the last flush), then answer 'closed'. */
  | { t: 'close' };

export type ToMain =
  /**
   * SQLite only: one part of a flush, statements with bound values to run in one transaction. The
   * worker sends the next part only when this one is written and its pause is over, so the gateway's
   * thread holds one part at a time, never a whole flush waiting through the pauses.
   */
  | { t: 'part'; id: number; statements: Statement[] }
  /** The flush `id` is over: the rows it wrote, and `error` when a part failed (its counts are kept for the next). */
  | { t: 'flushed'; id: number; rows: number; error: string | null }
  | { t: 'closed' };
