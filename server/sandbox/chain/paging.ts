// Lists the way Blockfrost pages them (count, page, order), amounts in its shape, and the
// from/to bounds of the transaction lists.
import type { AddressTxQuery } from './api';
import type { PageRequest } from '../../blockfrost/http';
import type { Amount, Pagination } from '../../../shared/chain';

export function fillPage(page: Pagination | undefined, total: number): PageRequest {
  return { count: page?.count ?? Math.max(total, 1), page: page?.page ?? 1, order: page?.order ?? 'asc' };
}

export function amounts(lovelace: number | bigint, assets: Iterable<[string, number | bigint]>): Amount[] {
  const out: Amount[] = [{ unit: 'lovelace', quantity: String(lovelace) }];
  for (const [unit, quantity] of assets) out.push({ unit, quantity: String(quantity) });
  return out;
}

export function parseBound(text: string | undefined): [number, number] | null {
  if (text === undefined) return null;
  const m = /^(\d+)(?::(\d+))?$/.exec(text);
  if (!m) throw new RangeError('malformed bound');
  return [Number(m[1]), m[2] === undefined ? -1 : Number(m[2])];
}

export const paginate = <T>(items: T[], page: Pagination | undefined): T[] => {
  const p = fillPage(page, items.length);
  const ordered = p.order === 'desc' ? items.slice().reverse() : items;
  return ordered.slice((p.page - 1) * p.count, p.page * p.count);
};

/** A page of a list known by its length and its i-th item, without building the list. */
export const virtualPage = <T>(total: number, page: Pagination | undefined, at: (i: number) => T): T[] => {
  const p = fillPage(page, 100);
  const out: T[] = [];
  for (let k = (p.page - 1) * p.count; k < p.page * p.count && k < total; k++) out.push(at(p.order === 'desc' ? total - 1 - k : k));
  return out;
};

export const byChainOrder = (a: { height: number; index: number }, b: { height: number; index: number }): number => a.height - b.height || a.index - b.index;
export const withinBounds = <T extends { height: number; index: number }>(rows: T[], query: AddressTxQuery | undefined): T[] => {
  const from = parseBound(query?.from);
  const to = parseBound(query?.to);
  if (!from && !to) return rows;
  return rows.filter((tx) => {
    if (from && (tx.height < from[0] || (tx.height === from[0] && from[1] >= 0 && tx.index < from[1]))) return false;
    if (to && (tx.height > to[0] || (tx.height === to[0] && to[1] >= 0 && tx.index > to[1]))) return false;
    return true;
  });
};

export const amountList = (lovelace: bigint, assets: Map<string, bigint>): Array<{ unit: string; quantity: string }> =>
  amounts(lovelace, [...assets.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
