// The messages between the gateway's thread (metering.ts) and its metering worker (metering-worker.ts).
import type { Statement } from './metering-core';

/** A record's fields, each a float64 of a record's FIELDS; texts are numbers into the strings sent so far. */
export const FIELD = { projectId: 0, ownerId: 1, endpoint: 2, status: 3, ip: 4, userAgent: 5, admitted: 6, at: 7, latencyMs: 8, refused: 9, message: 10 } as const;
export const FIELDS = 11;

export type ToWorker =
  /**
   * `count` records packed in `buffer` (transferred); `strings` are the texts numbered since the last
   * message, in order; `restart`: the numbering started again at 0 (the table had grown too big).
   */
  | { t: 'records'; buffer: ArrayBuffer; count: number; strings: string[]; restart: boolean }
  | { t: 'flush'; id: number; now: number; paced: boolean }
  /** How the flush's parts went: the first `written` were written; `error` says why the next was not. */
  | { t: 'written'; id: number; written: number; error: string | null };

export type ToMain =
  /** A flush's parts, each a list of statements with bound values, to run in order, one transaction each, `gapMs` apart. */
  | { t: 'parts'; id: number; parts: Statement[][]; gapMs: number }
  /** The flush `id` is over; `error` when a part failed (its counts are kept for the next). */
  | { t: 'flushed'; id: number; error: string | null };
