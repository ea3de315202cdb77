import type { ReactNode } from 'react';
import { Anchor, Box, Container, Group, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { CairnLogo } from './cairn-logo';

/** Frame for public pages outside the dashboard (sign-in, errors): a slim header and the main landmark. */
export function PublicShell({ children, size = 'xs' }: { children: ReactNode; size?: 'xs' | 'sm' | 'md' }) {
  return (
    <Box mih="100dvh" bg="gray.0">
      <Box component="header" py="md" px="md">
        <Group justify="center">
          <Anchor component={Link} to="/" underline="never" c="inherit" aria-label="Cairn home">
            <Group gap={8} wrap="nowrap">
              <CairnLogo />
              <Text fw={700} size="xl">
                Cairn
              </Text>
            </Group>
          </Anchor>
        </Group>
      </Box>
      <Container component="main" size={size} px="md" pb="xl">
        {children}
      </Container>
    </Box>
  );
}
