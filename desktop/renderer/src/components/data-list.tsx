import type { ReactNode } from 'react';
import { Box, Button, Group, SimpleGrid, Stack, Text, type MantineSpacing, type StyleProp } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import 'mantine-datatable/styles.layer.css';
import { ErrorView } from './error-view';
import { ListSearch } from './list-search';
import { LoadMore } from './load-more';
import { Pagination } from './pagination';
import { PageLoader } from './page-loader';

export type DataListColumn<T> = DataTableColumn<T>;

/** Cursor paging: the next page is appended below by a 'Load more' button. */
interface CursorPaging {
  kind: 'cursor';
  hasMore: boolean;
  loading: boolean;
  onLoad: () => void;
  /** "Load more projects", for screen readers. */
  label: string;
  /** "50 projects shown". */
  shown?: string;
}

/** Numbered pages: one page of the rows at a time. */
interface NumberedPaging {
  kind: 'pages';
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  /** Names the navigation landmark: "Projects pages". */
  label: string;
}

/** A walk through a log, newest first: 'Newer' and 'Older' step one page at a time. */
interface SteppedPaging {
  kind: 'steps';
  /** Which page is shown, counting from the newest (1). */
  page: number;
  hasNewer: boolean;
  hasOlder: boolean;
  busy: boolean;
  onNewer: () => void;
  onOlder: () => void;
  /** Names the navigation landmark: "Audit log pages". */
  label: string;
}

export type DataListPaging = CursorPaging | NumberedPaging | SteppedPaging;

export type DataListSearch = Parameters<typeof ListSearch>[0];

/**
 * How the rows are drawn: a table (optionally one card per row on phones), or cards at every width,
 * for lists whose records read better as cards than as a row of cells (projects, webhooks, members).
 */
type Presentation<T> =
  | {
      columns: DataListColumn<T>[];
      /** On phones, one card per row instead of the table; the table is shown from `sm` up. */
      card?: (record: T, index: number) => ReactNode;
      cardColumns?: never;
    }
  | {
      columns?: never;
      /** Each record's card, at every width. */
      card: (record: T, index: number) => ReactNode;
      /** How many cards side by side, by breakpoint: { base: 1, sm: 2, md: 3 }; one by default. */
      cardColumns?: StyleProp<number>;
    };

type DataListProps<T> = Presentation<T> & {
  /** The rows to show; undefined while the first page loads. */
  records: T[] | undefined;
  /** The field (or function) giving each row's React key; 'id' by default. */
  idAccessor?: keyof T | ((record: T) => string | number);
  /** Names the table for assistive technology: "Subscription logs". */
  label: string;
  /** Shown while the first page loads: "Loading logs…". */
  loadingLabel: string;
  /** The loader's height: a section of a page wants less than a whole page's list. */
  loaderMinHeight?: number;
  /** The space between cards; 0 for rows drawn as one bordered block. */
  cardGap?: MantineSpacing | 0;
  /** Shown in place of the table when there are no rows (the search box stays). */
  empty: ReactNode;
  /** The list could not be loaded: the failure is shown in place of the rows (the search box stays). */
  error?: unknown;
  search?: DataListSearch;
  paging?: DataListPaging;
  /** A refetch (new search, next numbered page) is under way: the rows stay, dimmed. */
  fetching?: boolean;
  /** The widest the table may squeeze before it scrolls sideways. */
  minWidth?: number;
  /** Hides the header row, for lists whose cells say what they are. */
  noHeader?: boolean;
  /** Attributes of each table row (a test id, a data attribute). */
  rowAttributes?: (record: T) => Record<string, unknown>;
  testId?: string;
  cardsTestId?: string;
};

/**
 * The dashboard's one list: search box above, the rows (a table, with cards on phones; or cards at
 * every width), the loader, the failure or the empty state in their place, and the list's paging below.
 */
export function DataList<T>({
  records,
  columns,
  idAccessor,
  label,
  loadingLabel,
  loaderMinHeight,
  empty,
  error,
  search,
  paging,
  fetching = false,
  card,
  cardColumns,
  cardGap = 'sm',
  minWidth,
  noHeader = false,
  rowAttributes,
  testId,
  cardsTestId,
}: DataListProps<T>) {
  const searchBox = search ? <ListSearch {...search} /> : null;
  if (error != null && !records?.length) {
    return (
      <Stack gap="md">
        {searchBox}
        <ErrorView error={error} withRefresh />
      </Stack>
    );
  }
  if (records === undefined) {
    return (
      <Stack gap="md">
        {searchBox}
        <PageLoader label={loadingLabel} {...(loaderMinHeight !== undefined ? { minHeight: loaderMinHeight } : {})} />
      </Stack>
    );
  }
  const cards = (presentation: 'phones' | 'all') =>
    card && (
      <SimpleGrid
        component="ul"
        cols={presentation === 'all' ? (cardColumns ?? 1) : 1}
        spacing={cardGap}
        verticalSpacing={cardGap}
        aria-label={label}
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        {...(presentation === 'phones' ? { hiddenFrom: 'sm' } : {})}
        {...(cardsTestId ? { 'data-testid': cardsTestId } : {})}
      >
        {records.map((r, i) => (
          <Box component="li" key={keyOf(r, idAccessor, i)} miw={0}>
            {card(r, i)}
          </Box>
        ))}
      </SimpleGrid>
    );
  const table = columns && (
    <DataTable<T>
      records={records}
      columns={columns}
      idAccessor={(idAccessor ?? 'id') as keyof T}
      fetching={fetching}
      striped
      highlightOnHover
      noHeader={noHeader}
      aria-label={label}
      {...(rowAttributes ? { customRowAttributes: rowAttributes } : {})}
      {...(testId ? { 'data-testid': testId } : {})}
      {...(minWidth ? { styles: { table: { minWidth } } } : {})}
    />
  );
  return (
    <Stack gap="md">
      {searchBox}
      {records.length === 0 ? (
        empty
      ) : !table ? (
        cards('all')
      ) : card ? (
        <>
          {cards('phones')}
          <Box visibleFrom="sm">{table}</Box>
        </>
      ) : (
        table
      )}
      {paging?.kind === 'cursor' && (
        <LoadMore
          hasMore={paging.hasMore}
          loading={paging.loading}
          onLoad={paging.onLoad}
          label={paging.label}
          {...(paging.shown !== undefined ? { shown: paging.shown } : {})}
        />
      )}
      {paging?.kind === 'steps' && (paging.hasNewer || paging.hasOlder) && (
        <Group justify="space-between" component="nav" aria-label={paging.label}>
          <Button variant="default" leftSection={<IconChevronLeft size={16} aria-hidden />} disabled={!paging.hasNewer || paging.busy} onClick={paging.onNewer}>
            Newer
          </Button>
          <Text size="sm" c="dimmed">
            Page {paging.page}
          </Text>
          <Button variant="default" rightSection={<IconChevronRight size={16} aria-hidden />} disabled={!paging.hasOlder || paging.busy} onClick={paging.onOlder}>
            Older
          </Button>
        </Group>
      )}
      {paging?.kind === 'pages' && (
        <Pagination page={paging.page} totalPages={paging.totalPages} onChange={paging.onChange} label={paging.label} />
      )}
    </Stack>
  );
}

function keyOf<T>(record: T, idAccessor: DataListProps<T>['idAccessor'], index: number): string | number {
  if (typeof idAccessor === 'function') return idAccessor(record);
  const key = record[(idAccessor ?? 'id') as keyof T];
  return typeof key === 'string' || typeof key === 'number' ? key : index;
}
