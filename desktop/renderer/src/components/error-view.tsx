import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { messages } from '../../../../shared/messages';
import { errorMessage } from '../api/client';

export interface ErrorViewProps {
  /** The failure to describe: the server's error text (ApiError) or the error's own message is shown. */
  error?: unknown;
  /** Shows a Refresh button that reloads the page. */
  withRefresh?: boolean;
}

const describe = (error: unknown): string | null => {
  if (error == null) return null;
  if (typeof error === 'string') return error;
  return errorMessage(error, '') || null;
};

export function ErrorView({ error, withRefresh = false }: ErrorViewProps) {
  const detail = describe(error);
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
