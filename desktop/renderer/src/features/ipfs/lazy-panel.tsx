// The IPFS part of an IPFS project's page, loaded with the page when the project is on the ipfs network.
import { lazy, Suspense } from 'react';
import { Skeleton } from '@mantine/core';
import type { IpfsPanelProps } from './ipfs-panel';

const LazyIpfsPanel = lazy(() => import('./ipfs-panel').then((m) => ({ default: m.IpfsPanel })));

export function IpfsPanel(props: IpfsPanelProps) {
  return (
    <Suspense fallback={<Skeleton h={240} radius="sm" aria-label="Loading IPFS storage…" />}>
      <LazyIpfsPanel {...props} />
    </Suspense>
  );
}
