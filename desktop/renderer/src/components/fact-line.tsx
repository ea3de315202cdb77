import { Children, Fragment, type ReactNode } from 'react';
import { Flex, Text, type MantineSize } from '@mantine/core';

/**
 * A few facts about a page or section ("Owner: … · Your role OWNER"): one line, dot-separated, from
 * the sm breakpoint up; below it each fact starts a line of its own, so no line begins with a
 * dangling dot when a phone wraps them.
 */
export function FactLine({ children, size }: { children: ReactNode; size?: MantineSize }) {
  return (
    <Flex direction={{ base: 'column', sm: 'row' }} align={{ base: 'flex-start', sm: 'center' }} wrap="wrap" columnGap={6} rowGap={4}>
      {Children.toArray(children).map((fact, i) => (
        <Fragment key={i}>
          {i > 0 && (
            <Text span size={size} c="dimmed" visibleFrom="sm" aria-hidden>
              ·
            </Text>
          )}
          {fact}
        </Fragment>
      ))}
    </Flex>
  );
}
