import { Button, Group, Text } from '@mantine/core';

interface LoadMoreProps {
  hasMore: boolean;
  loading: boolean;
  onLoad: () => void;
  /** How many items are shown, e.g. "50 projects shown". */
  shown?: string;
  /** What the button loads, for screen readers: "Load more projects". */
  label: string;
}

/** The foot of a paged list: how much is shown and a button for the next page while there is one. */
export function LoadMore({ hasMore, loading, onLoad, shown, label }: LoadMoreProps) {
  if (!hasMore && !shown) return null;
  return (
    <Group justify="center" gap="sm" wrap="wrap">
      {shown && (
        <Text size="sm" c="dimmed" aria-live="polite">
          {shown}
        </Text>
      )}
      {hasMore && (
        <Button variant="default" onClick={onLoad} loading={loading} aria-label={label}>
          Load more
        </Button>
      )}
    </Group>
  );
}
