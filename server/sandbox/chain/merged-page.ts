// A page of a long list known by index merged with a few other items, without building the list
// (the world's records or votes with the live ledger's). Apart from a page's type it imports
// nothing of the chain, so the modules below the chain's interface (gov.ts, nutlink.ts) can use it.
import type { PageRequest } from '../../blockfrost/http';

/**
 * A page of a list that merges `total` items known by their index (the i-th in `at`, already in
 * chain order) with a few others (`extra`), without building the indexed part: each extra item's
 * place is found by binary search, so a page costs its own items and log(total) lookups. Items that
 * compare equal keep the indexed one first, as a stable sort of [...indexed, ...extra] would.
 */
export function mergedPage<T>(total: number, at: (i: number) => T, extra: T[], page: PageRequest, compare: (a: T, b: T) => number): T[] {
  const sorted = extra.slice().sort(compare);
  // Where each extra item sits in the merged list: the indexed items not after it, plus the extras before it.
  const places = sorted.map((x, j) => {
    let lo = 0;
    let hi = total;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(at(mid), x) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo + j;
  });
  const size = total + sorted.length;
  const extrasBefore = (pos: number): number => {
    let lo = 0;
    let hi = places.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (places[mid]! < pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const out: T[] = [];
  for (let k = (page.page - 1) * page.count; k < page.page * page.count && k < size; k++) {
    const pos = page.order === 'desc' ? size - 1 - k : k;
    const j = extrasBefore(pos);
    // j extras sit before pos: the item there is the j-th extra, or else the indexed item pos − j.
    out.push(places[j] === pos ? sorted[j]! : at(pos - j));
  }
  return out;
}
