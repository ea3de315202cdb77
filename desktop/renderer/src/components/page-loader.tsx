import { Center, Loader } from '@mantine/core';

/** A centred spinner with an accessible name, for pages waiting on their first data. */
export function PageLoader({ label = 'Loading…', minHeight = '40vh' }: { label?: string; minHeight?: string | number }) {
  return (
    <Center mih={minHeight} role="status" aria-live="polite">
      {/* role=img: an aria-label on a plain span is not allowed (axe: aria-prohibited-attr). */}
      <Loader role="img" aria-label={label} />
    </Center>
  );
}
