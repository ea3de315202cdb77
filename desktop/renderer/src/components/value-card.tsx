import type { ReactNode } from 'react';
import { Group, Paper, Text } from '@mantine/core';

interface ValueCardProps {
  label: ReactNode;
  /** The figure; while loading it may be a stale or sample value, shown blurred. */
  value: ReactNode;
  loading?: boolean;
  icon?: ReactNode;
  description?: ReactNode;
}

/** A labelled figure (requests today, storage used, …) that blurs while its data loads instead of jumping around. */
export function ValueCard({ label, value, loading = false, icon, description }: ValueCardProps) {
  return (
    <Paper withBorder p="md" aria-busy={loading} data-loading={loading || undefined}>
      <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
        <Text size="sm" c="dimmed" fw={600} tt="uppercase" style={{ letterSpacing: '0.02em' }}>
          {label}
        </Text>
        {icon}
      </Group>
      <Text
        component="div"
        fz={28}
        fw={700}
        lh={1.3}
        mt={4}
        style={{
          filter: loading ? 'blur(6px)' : 'none',
          transition: 'filter 150ms ease',
          userSelect: loading ? 'none' : undefined,
          overflowWrap: 'anywhere',
        }}
      >
        {value}
      </Text>
      {description && (
        <Text size="sm" c="dimmed" mt={4}>
          {description}
        </Text>
      )}
    </Paper>
  );
}
