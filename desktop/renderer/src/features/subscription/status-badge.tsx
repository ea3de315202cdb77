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
    <Badge color={statusColors[status] ?? 'gray'} variant="light" data-testid="subscription-status">
      {status.replace(/_/g, ' ')}
    </Badge>
  );
}
