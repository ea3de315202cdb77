import { useId } from 'react';
import { Badge, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';

const SANDBOX_BADGE = 'Sandbox data';
const SANDBOX_EXPLANATION =
  "No upstream is configured for this network, so Cairn serves it from its built-in sandbox: a simulated Cardano chain, or for Milkomeda a local EVM development chain.";

/**
 * Marks a project whose network is served by the simulated sandbox chain. The badge takes focus so keyboard
 * users get the tooltip too; screen readers read the explanation as its description.
 */
export function SandboxBadge({ sandbox }: { sandbox: boolean }) {
  const descriptionId = useId();
  if (!sandbox) return null;
  return (
    <>
      <Tooltip label={SANDBOX_EXPLANATION} multiline maw={300} withArrow events={{ hover: true, focus: true, touch: true }}>
        <Badge
          color="orange"
          variant="light"
          tt="none"
          radius="sm"
          tabIndex={0}
          aria-describedby={descriptionId}
          leftSection={<IconFlask size={14} aria-hidden />}
          style={{ cursor: 'help' }}
        >
          {SANDBOX_BADGE}
        </Badge>
      </Tooltip>
      <VisuallyHidden id={descriptionId}>{SANDBOX_EXPLANATION}</VisuallyHidden>
    </>
  );
}
