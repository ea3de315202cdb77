import { Badge } from '@mantine/core';

const statusColors: Record<string, string> = {
  active: 'green',
  trialing: 'green',
  past_due: 'orange',
  unpaid: 'red',
  incomplete: 'orange',
  incomplete_expired: 'red',
  canceled: 'gray',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    // Never shrunk or cut ('AC…'): a badge keeps its whole word beside text that wraps.
    <Badge color={statusColors[status] ?? 'gray'} variant="light" data-testid="subscription-status" styles={{ root: { flexShrink: 0, maxWidth: 'none', overflow: 'visible' }, label: { overflow: 'visible', textOverflow: 'clip' } }}>
      {status.replace(/_/g, ' ')}
    </Badge>
  );
}
