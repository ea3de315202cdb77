// Keyset pages for the dashboard API's lists (shared/pagination.ts has the convention): a page is
// read as `limit + 1` rows after the cursor's sort key, so the query costs the same on page 1 and on
// page 1,000, and the extra row says whether a next page exists.
import type { Knex } from 'knex';
import { Invalid } from '../errors';
import { CURSOR_MESSAGE, PAGE_DEFAULT_LIMIT } from '../../shared/pagination';

export type CursorValue = string | number;

/** One page of a list; route() answers it as `{data: items, next}`. */
export class Paged<T> {
  constructor(
    readonly items: T[],
    readonly next: string | null,
  ) {}

  map<U>(f: (item: T) => U): Paged<U> {
    return new Paged(this.items.map(f), this.next);
  }
}

export const encodeCursor = (key: readonly CursorValue[]): string => Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');

/**
 * The sort key a cursor carries, checked against the kinds the list sorts by ('int' for ids and
 * epoch milliseconds, 'string' for uuids and names); anything else is a 400.
 */
export function decodeCursor(cursor: string, kinds: ReadonlyArray<'int' | 'string'>): CursorValue[] {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new Invalid(CURSOR_MESSAGE);
  }
  if (!Array.isArray(key) || key.length !== kinds.length) throw new Invalid(CURSOR_MESSAGE);
  kinds.forEach((kind, i) => {
    const v: unknown = key[i];
    const ok = kind === 'int' ? Number.isSafeInteger(v) : typeof v === 'string' && v.length <= 200;
    if (!ok) throw new Invalid(CURSOR_MESSAGE);
  });
  return key as CursorValue[];
}

export const pageLimit = (limit: number | undefined): number => limit ?? PAGE_DEFAULT_LIMIT;

/** Cuts the `limit + 1` rows read into a page and the cursor of the row it ends on. */
export function pageOf<R>(rows: R[], limit: number, keyOf: (row: R) => CursorValue[]): Paged<R> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return new Paged(items, rows.length > limit && last !== undefined ? encodeCursor(keyOf(last)) : null);
}

/**
 * Rows strictly after `key` in ascending order of `columns` (raw SQL expressions or column names):
 * (a > x) OR (a = x AND b > y) OR … — the form both SQLite and PostgreSQL serve from an index.
 */
export function afterKey(qb: Knex.QueryBuilder, columns: readonly string[], key: readonly CursorValue[]): Knex.QueryBuilder {
  return qb.where((outer) => {
    columns.forEach((_, i) => {
      outer.orWhere((inner) => {
        for (let j = 0; j < i; j++) inner.whereRaw(`${columns[j]} = ?`, [key[j]!]);
        inner.whereRaw(`${columns[i]} > ?`, [key[i]!]);
      });
    });
  });
}

/** A LIKE pattern matching `text` anywhere, its own % and _ taken literally (ESCAPE '\'). */
export const containsPattern = (text: string): string => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Case-insensitive `column` contains `text`, the same on both engines. */
export const whereContains = (qb: Knex.QueryBuilder, column: string, text: string | undefined): Knex.QueryBuilder =>
  text ? qb.whereRaw(`lower(${column}) like ? escape '\\'`, [containsPattern(text)]) : qb;
