import { Group, Text, type MantineSize } from '@mantine/core';
import { IconNetwork, IconWorld } from '@tabler/icons-react';
import { countryName, flagEmoji, PRIVATE_NETWORK } from './country';

/** A country's flag and English name; 'unknown' (no geolocation) gets a neutral globe, a private network a network icon. */
export function CountryLabel({ code, size = 'sm' }: { code: string; size?: MantineSize }) {
  const flag = flagEmoji(code);
  return (
    <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
      <Text span aria-hidden fz={size} lh={1} style={{ flexShrink: 0, display: 'inline-flex' }}>
        {flag ?? (code === PRIVATE_NETWORK ? <IconNetwork size="1em" color="var(--mantine-color-dimmed)" /> : <IconWorld size="1em" color="var(--mantine-color-dimmed)" />)}
      </Text>
      <Text span fz={size} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
        {countryName(code)}
      </Text>
    </Group>
  );
}
