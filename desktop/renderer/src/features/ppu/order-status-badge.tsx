import { Badge } from '@mantine/core';
import { ppuOrderStatusLabels, type PpuOrderStatus } from '../../../../../shared/ppu';

const statusColors: Record<PpuOrderStatus, string> = { awaiting_payment: 'blue', confirming: 'orange', paid: 'green', underpaid: 'orange', expired: 'gray' };

export function OrderStatusBadge({ status }: { status: PpuOrderStatus }) {
  return (
    <Badge color={statusColors[status]} variant="light" data-testid="order-status" styles={{ root: { flexShrink: 0, maxWidth: 'none', overflow: 'visible' }, label: { overflow: 'visible', textOverflow: 'clip' } }}>
      {ppuOrderStatusLabels[status]}
    </Badge>
  );
}
