import type { ReactElement } from 'react';
import { Tooltip } from '@mantine/core';

/**
 * Wraps a button that may be disabled, showing why in a tooltip. A disabled button gets no pointer
 * events or focus, so the wrapper takes them and carries the reason as its accessible name.
 */
export function ReasonTooltip({ reason, children }: { reason: string | null | undefined; children: ReactElement }) {
  if (!reason) return children;
  return (
    <Tooltip label={reason} multiline maw={320} withArrow>
      <span tabIndex={0} aria-label={reason} style={{ display: 'inline-block' }}>
        {children}
      </span>
    </Tooltip>
  );
}
