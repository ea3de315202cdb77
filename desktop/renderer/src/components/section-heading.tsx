import type { ReactNode } from 'react';
import { Button, Group, Title, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';

interface SectionHeadingProps {
  title: string;
  /** The create button; omitted when the section has none. */
  create?: {
    label: string;
    onClick: () => void;
    /** Why the button is disabled (no permission, or plan limit reached); enabled when absent. */
    disabledReason?: string | null;
  };
  children?: ReactNode;
}

/** A section title with its create button, disabled with a tooltip giving the reason. */
export function SectionHeading({ title, create, children }: SectionHeadingProps) {
  const reason = create?.disabledReason ?? null;
  return (
    <Group justify="space-between" align="center" gap="sm">
      <Title order={2} size="h3">
        {title}
      </Title>
      <Group gap="sm">
        {children}
        {create && (
          <Tooltip label={reason} disabled={!reason} multiline maw={320} withArrow>
            {/* A disabled button gets no pointer events; the wrapper keeps the tooltip reachable by hover and keyboard. */}
            <span tabIndex={reason ? 0 : -1} aria-label={reason ?? undefined} style={{ display: 'inline-block' }}>
              <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={create.onClick} disabled={!!reason}>
                {create.label}
              </Button>
            </span>
          </Tooltip>
        )}
      </Group>
    </Group>
  );
}
