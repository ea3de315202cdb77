import { Alert, Anchor, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router-dom';
import { siteQueries } from '../site/index';
import { usePageTitle } from '../../components/use-page-title';

export interface VerifyRequestState {
  email?: string;
}

export function VerifyRequestPage() {
  usePageTitle('Check your email');
  const state = useLocation().state as VerifyRequestState | null;
  const email = typeof state?.email === 'string' ? state.email : null;
  const devMailbox = useQuery(siteQueries.site()).data?.devMailbox;
  const mailbox = devMailbox ? `${window.location.origin}${devMailbox}` : null;
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
        {mailbox && (
          <Alert color="blue" variant="light" ta="left" w="100%" title="Development: no mail is sent" data-testid="dev-mailbox-notice">
            This Cairn runs without a mail server, so the link is in the development mailbox at{' '}
            <Anchor href={mailbox} style={{ overflowWrap: 'anywhere' }}>
              {mailbox}
            </Anchor>{' '}
            (open it on this machine, in this browser) and in the server's log.
          </Alert>
        )}
        <Anchor component={Link} to="/auth/signin">
          Back to sign in
        </Anchor>
      </Stack>
    </Paper>
  );
}
