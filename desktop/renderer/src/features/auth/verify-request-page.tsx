import { Anchor, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { usePageTitle } from '../../components/use-page-title';

export interface VerifyRequestState {
  email?: string;
}

export function VerifyRequestPage() {
  usePageTitle('Check your email');
  const state = useLocation().state as VerifyRequestState | null;
  const email = typeof state?.email === 'string' ? state.email : null;
  return (
    <Paper withBorder p="xl">
      <Stack align="center" ta="center" gap="md">
        <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
          <IconMailCheck size={32} />
        </ThemeIcon>
        <Title order={1} size="h2">
          Check your email
        </Title>
        <Text style={{ overflowWrap: 'anywhere' }}>
          A sign-in link has been sent to {email ? <strong>{email}</strong> : 'your email address'}. Open it to sign in.
        </Text>
        <Text size="sm" c="dimmed">
          The link works once. If it does not arrive within a few minutes, check your spam folder or ask for a new one.
        </Text>
        <Anchor component={Link} to="/auth/signin">
          Back to sign in
        </Anchor>
      </Stack>
    </Paper>
  );
}
