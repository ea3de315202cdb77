import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PublicShell } from '../components/public-shell';
import { usePageTitle } from '../components/use-page-title';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <PublicShell size="sm">
      <Paper withBorder p="xl">
        <Stack align="center" ta="center" gap="sm">
          <Title order={1} size="h2">
            Page not found
          </Title>
          <Text>There is no page at this address.</Text>
          <Button component={Link} to="/">
            Go to the home page
          </Button>
        </Stack>
      </Paper>
    </PublicShell>
  );
}
