import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useClipboard } from '@mantine/hooks';
import { IconCheck, IconCopy, IconRefresh } from '@tabler/icons-react';
import { KEY_GRACE_PERIODS, type KeyGrace } from '../../../../../shared/allow-list';
import { errorMessage } from '../../api/client';
import { ModalDialog } from '../../components/modal-dialog';
import { ReasonTooltip } from '../../components/reason-tooltip';
import { deniedReason } from '../../components/permission';
import { formatDateTime } from '../../lib/format';
import { useRollKey, type ProjectWithRole } from './queries';

/** A key with a copy button whose confirmation shows for 0.5 s (spec section 9). */
function KeyLine({ value, testId }: { value: string; testId: string }) {
  const clipboard = useClipboard({ timeout: 500 });
  return (
    <Stack gap={4}>
      <Group gap="sm" wrap="nowrap" align="center">
        <Text
          component="code"
          ff="monospace"
          size="sm"
          p="xs"
          bg="gray.1"
          style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', borderRadius: 'var(--mantine-radius-sm)' }}
          data-testid={testId}
        >
          {value}
        </Text>
        <Button
          variant={clipboard.copied ? 'filled' : 'light'}
          color={clipboard.copied ? 'teal' : undefined}
          onClick={() => clipboard.copy(value)}
          data-testid={`copy-${testId}`}
          leftSection={clipboard.copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
          miw={96}
        >
          {clipboard.copied ? 'Copied' : 'Copy'}
        </Button>
      </Group>
      <Text size="sm" role="status" aria-live="polite" c={clipboard.error ? 'red.8' : undefined}>
        {clipboard.error ? 'The browser did not allow copying. Select the key and copy it by hand.' : ''}
      </Text>
    </Stack>
  );
}

/** The project's key (and, after 'Roll key', the previous one until its grace period ends), with 'Roll key'. */
export function ProjectIdCard({ project }: { project: ProjectWithRole }) {
  const [rolling, setRolling] = useState(false);
  const previous = project.previous_key;
  const reason = deniedReason(project.role_name, 'projects.update');
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4">
            Project ID
          </Title>
          <ReasonTooltip reason={reason}>
            <Button size="xs" variant="default" leftSection={<IconRefresh size={14} aria-hidden />} disabled={!!reason} onClick={() => setRolling(true)}>
              Roll key
            </Button>
          </ReasonTooltip>
        </Group>
        <Text size="sm" c="dimmed">
          Send it in the project_id header of every API request.
        </Text>
        <Group gap="xs">
          <Text size="sm" fw={500}>
            Current key
          </Text>
          <Badge variant="light" color="teal">
            Does not expire
          </Badge>
        </Group>
        <KeyLine value={project.project_id} testId="project-id" />
        {previous && (
          <>
            <Group gap="xs">
              <Text size="sm" fw={500}>
                Previous key
              </Text>
              <Badge variant="light" color="orange" data-testid="previous-key-expiry">
                Works until {formatDateTime(previous.expires_at)}
              </Badge>
            </Group>
            <KeyLine value={previous.project_id} testId="previous-project-id" />
          </>
        )}
      </Stack>
      <RollKeyDialog project={project} opened={rolling} onClose={() => setRolling(false)} />
    </Paper>
  );
}

function RollKeyDialog({ project, opened, onClose }: { project: ProjectWithRole; opened: boolean; onClose: () => void }) {
  const [grace, setGrace] = useState<KeyGrace>('24h');
  const roll = useRollKey(project);
  return (
    <ModalDialog opened={opened} onClose={onClose} title="Roll the project key">
      <Stack gap="md">
        <Text size="sm">
          A new key works at once. Choose how long the current key keeps working, so you can update every place that uses it. The project, its statistics,
          webhooks and IPFS pins stay.
        </Text>
        <Radio.Group value={grace} onChange={(v) => setGrace(v as KeyGrace)} label="Keep the old key working for" name="grace">
          <Stack gap="xs" mt="xs">
            {(Object.keys(KEY_GRACE_PERIODS) as KeyGrace[]).map((g) => (
              <Radio key={g} value={g} label={KEY_GRACE_PERIODS[g].label} />
            ))}
          </Stack>
        </Radio.Group>
        {project.previous_key && (
          <Alert color="orange" variant="light">
            The previous key ({project.previous_key.project_id.slice(0, 12)}…) stops at once: a project has at most two working keys.
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={roll.isPending}
            onClick={() =>
              roll.mutate(grace, {
                onSuccess: (answer) => {
                  onClose();
                  notifications.show({
                    color: 'green',
                    title: 'Key rolled',
                    message: answer.previous_key ? `The old key works until ${formatDateTime(answer.previous_key.expires_at)}.` : 'The old key no longer works.',
                  });
                },
                onError: (error) => notifications.show({ color: 'red', title: 'Key not rolled', message: errorMessage(error, 'The key could not be rolled.') }),
              })
            }
          >
            Roll key
          </Button>
        </Group>
      </Stack>
    </ModalDialog>
  );
}
