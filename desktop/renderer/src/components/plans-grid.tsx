import type { ReactNode } from 'react';
import { SimpleGrid } from '@mantine/core';

/** Plan cards side by side: four columns on wide screens, two from 768 px (sm) up to 1200 px (lg), one below. */
export function PlansGrid({ children }: { children: ReactNode }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg" verticalSpacing="lg" data-testid="plans-grid">
      {children}
    </SimpleGrid>
  );
}
