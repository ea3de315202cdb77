import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconRefresh } from '@tabler/icons-react';
import { AppLink as Link } from '../lib/nav';
import { messages } from '../../../../shared/messages';
import { errorMessage, isApiError } from '../api/client';

interface ErrorViewProps {
  /** The failure to describe: the server's error text (ApiError) or the error's own message is shown. */
  error?: unknown;
  /** Shows a Refresh button that reloads the page. */
  withRefresh?: boolean;
  /** Where 'not found' leads back to (a missing or someone else's workspace, project or webhook). */
  back?: { to: string; label: string };
}

const describe = (error: unknown): string | null => {
  if (error == null) return null;
  if (typeof error === 'string') return error;
  return errorMessage(error, '') || null;
};

const DASHBOARD = { to: '/dashboard', label: 'Back to the dashboard' };

export function ErrorView({ error, withRefresh = false, back = DASHBOARD }: ErrorViewProps) {
  const detail = describe(error);
  // A 404 is no failure to apologise for: the thing is not there (or not theirs). Say so, offer a way back.
  if (isApiError(error, 404)) {
    return (
      <Paper withBorder p="xl" role="alert">
        <Stack align="center" gap="sm" ta="center">
          <Title order={2} size="h3">
            {messages.errorView.notFoundTitle}
          </Title>
          <Text style={{ overflowWrap: 'anywhere' }}>{detail ?? messages.errorView.notFoundText}</Text>
          <Button component={Link} to={back.to} variant="light" leftSection={<IconArrowLeft size={18} aria-hidden />}>
            {back.label}
          </Button>
        </Stack>
      </Paper>
    );
  }
  return (
    <Paper withBorder p="xl" role="alert">
      <Stack align="center" gap="sm" ta="center">
        <Title order={2} size="h3">
          {messages.errorView.title}
        </Title>
        {detail && <Text style={{ overflowWrap: 'anywhere' }}>{detail}</Text>}
        {withRefresh && (
          <Button leftSection={<IconRefresh size={18} aria-hidden />} onClick={() => window.location.reload()}>
            Refresh
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
