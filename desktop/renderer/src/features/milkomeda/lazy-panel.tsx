// The Milkomeda project page's panel, loaded only for Milkomeda projects.
import { lazy, Suspense } from 'react';
import { Paper, Skeleton } from '@mantine/core';
import { evmChainByNetworkId } from '../../../../../shared/milkomeda';
import type { MilkomedaPanelProps } from './milkomeda-panel';

export const isMilkomeda = (networkId: number): boolean => networkId in evmChainByNetworkId;

const LazyPanel = lazy(() => import('./milkomeda-panel').then((m) => ({ default: m.MilkomedaPanel })));

export function MilkomedaPanel(props: MilkomedaPanelProps) {
  return (
    <Suspense
      fallback={
        <Paper withBorder p="md" aria-busy>
          <Skeleton h={220} radius="sm" role="status" aria-label="Loading…" />
        </Paper>
      }
    >
      <LazyPanel {...props} />
    </Suspense>
  );
}
