import { TextInput, type MantineSpacing } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { PAGE_SEARCH_MAX } from '../../../../shared/pagination';

interface ListSearchProps {
  /** The search text being typed. */
  value: string;
  onChange: (value: string) => void;
  /** The search the list answers (debounced). */
  query: string;
  /** The list's paging: shown only for a list longer than a page, or while a search is on; always without one. */
  list?: { hasNextPage: boolean; data?: { pages: unknown[] } | undefined };
  /** "Search projects". */
  label: string;
  /** "Project name". */
  placeholder: string;
  mb?: MantineSpacing;
}

/**
 * The search box of a list: for a paged list, shown once the list spans pages and kept while a search
 * is on; for a list the server answers whole (searched on the server all the same), always.
 */
export function ListSearch({ value, onChange, query, list, label, placeholder, mb }: ListSearchProps) {
  if (list && query === '' && !list.hasNextPage && (list.data?.pages.length ?? 0) <= 1) return null;
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      maxLength={PAGE_SEARCH_MAX}
      maw={{ base: '100%', sm: 360 }}
      {...(mb !== undefined ? { mb } : {})}
    />
  );
}
