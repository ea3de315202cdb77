import { Box, Pagination as MantinePagination } from '@mantine/core';

/** Number of pages for `count` items, at least one. */
export const pageCount = (count: number, pageSize: number): number => Math.max(1, Math.ceil(count / pageSize));

/** The items of one page (pages count from 1); a page past the end is clamped to the last one. */
export function paginate<T>(items: readonly T[], page: number, pageSize: number): T[] {
  const last = pageCount(items.length, pageSize);
  const current = Math.min(Math.max(1, Math.floor(page)), last);
  return items.slice((current - 1) * pageSize, current * pageSize);
}

const controlLabels = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

interface PaginationProps {
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  /** Names the navigation landmark, e.g. "Projects pages". */
  label?: string;
}

/** Page links for a long list; renders nothing when everything fits on one page. */
export function Pagination({ page, totalPages, onChange, label = 'Pagination' }: PaginationProps) {
  if (totalPages <= 1) return null;
  return (
    <Box component="nav" aria-label={label}>
      <MantinePagination
        total={totalPages}
        value={page}
        onChange={onChange}
        withEdges={totalPages > 5}
        siblings={1}
        getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
        getControlProps={(control) => ({ 'aria-label': controlLabels[control] })}
        styles={{ root: { flexWrap: 'wrap' } }}
      />
    </Box>
  );
}
