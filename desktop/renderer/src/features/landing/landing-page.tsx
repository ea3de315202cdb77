import { Anchor, Box, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { CairnLogo } from '../../components/cairn-logo';
import { meQueries } from '../account/queries';

export const PITCH = 'Instant API access to the Cardano blockchain and IPFS';

/** The public page at /. Kept small: it is in the entry chunk that every first visit downloads. */
export function LandingPage() {
  useDocumentTitle(`Cairn · ${PITCH}`);
  const me = useQuery(meQueries.me());
  const dashboardTarget = me.isSuccess ? '/dashboard' : '/auth/signin';

  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box component="header" py="md" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg">
          <Group justify="space-between" wrap="nowrap">
            <Anchor component={Link} to="/" underline="never" c="inherit" aria-label="Cairn home">
              <Group gap={8} wrap="nowrap">
                <CairnLogo />
                <Text fw={700} size="xl">
                  Cairn
                </Text>
              </Group>
            </Anchor>
            <Box component="nav" aria-label="Main">
              <Button component={Link} to={dashboardTarget}>
                Dashboard
              </Button>
            </Box>
          </Group>
        </Container>
      </Box>
      <Container component="main" id="introduction" size="md" py={{ base: 48, sm: 96 }} style={{ flex: 1 }}>
        <Stack gap="lg" align="center" ta="center">
          <CairnLogo size={72} />
          <Title order={1} fz={{ base: 32, sm: 48 }} lh={1.15}>
            Cairn
          </Title>
          <Text fz={{ base: 'lg', sm: 'xl' }} maw={640}>
            {PITCH}
          </Text>
          <Text c="dimmed" maw={640}>
            A self-hostable developer platform for Cardano and IPFS.
          </Text>
        </Stack>
      </Container>
    </Box>
  );
}
