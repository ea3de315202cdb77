import { infiniteQueryOptions, type InfiniteData } from '@tanstack/react-query';
import { pageParams, type PageDto } from '../../../../shared/pagination';
import { apiFetchPage } from './client';

/**
 * A paged list as TanStack Query's infinite query: the first page at once, the next ones as the
 * screen asks for them ('Load more'), each by the cursor the previous page answered.
 */
export function pagedListQuery<T, K extends readonly unknown[]>(queryKey: K, path: string, opts: { q?: string; limit?: number } = {}) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam, signal }) => {
      const query = pageParams({ cursor: pageParam, q: opts.q || undefined, limit: opts.limit });
      return apiFetchPage<T>(query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last: PageDto<T>) => last.next,
  });
}

/** Every item of the pages loaded so far, in order. */
export const pagedItems = <T>(data: InfiniteData<PageDto<T>> | undefined): T[] => data?.pages.flatMap((p) => p.data) ?? [];
