import { Badge, type MantineSize } from '@mantine/core';
import { roleLabels, type Role } from '../../../../shared/permissions';

/** A member's role; the owner's badge is styled apart from the others. */
export function RoleBadge({ role, size }: { role: Role; size?: MantineSize }) {
  const owner = role === 'owner';
  return (
    // autoContrast gives the owner's yellow badge dark text: white on yellow fails WCAG contrast.
    <Badge variant={owner ? 'filled' : 'light'} color={owner ? 'yellow.5' : 'indigo'} autoContrast data-role={role} radius="sm" size={size}>
      {roleLabels[role]}
    </Badge>
  );
}
