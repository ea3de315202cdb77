import { Badge } from '@mantine/core';
import { roleLabels, type Role } from '../../../../shared/permissions';

/** A member's role; the owner's badge is styled apart from the others. */
export function RoleBadge({ role }: { role: Role }) {
  const owner = role === 'owner';
  return (
    <Badge variant={owner ? 'filled' : 'light'} color={owner ? 'yellow.8' : 'indigo'} data-role={role} radius="sm">
      {roleLabels[role]}
    </Badge>
  );
}
