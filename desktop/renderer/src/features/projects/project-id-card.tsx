import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** The project's key with a copy button whose confirmation shows for 0.5 s (spec section 9). */
export function ProjectIdCard({ projectId }: { projectId: string }) {
  const clipboard = useClipboard({ timeout: 500 });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Project ID
        </Title>
        <Text size="sm" c="dimmed">
          Send it in the project_id header of every API request.
        </Text>
        <Group gap="sm" wrap="nowrap" align="center">
          <Text
            component="code"
            ff="monospace"
            size="sm"
            p="xs"
            bg="gray.1"
            style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', borderRadius: 'var(--mantine-radius-sm)' }}
            data-testid="project-id"
          >
            {projectId}
          </Text>
          <Button
            variant={clipboard.copied ? 'filled' : 'light'}
            color={clipboard.copied ? 'teal' : undefined}
            onClick={() => clipboard.copy(projectId)}
            data-testid="copy-project-id"
            leftSection={clipboard.copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            miw={96}
          >
            {clipboard.copied ? 'Copied' : 'Copy'}
          </Button>
        </Group>
        <Text size="sm" role="status" aria-live="polite" c={clipboard.error ? 'red.8' : undefined}>
          {clipboard.error ? 'The browser did not allow copying. Select the project ID and copy it by hand.' : ''}
        </Text>
      </Stack>
    </Paper>
  );
}
