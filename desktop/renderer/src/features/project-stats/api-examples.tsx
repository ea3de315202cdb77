import { useId } from 'react';
import { Button, Code, Group, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconBrandJavascript, IconCheck, IconCopy, IconTerminal2 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { clientExamples, type ClientExample } from '../../../../../shared/client-examples';
import classes from '../../components/code-snippet.module.css';
import { gatewayUrlOf, statsQueries } from './queries';

export interface ApiExamplesProps {
  /** The project's key (project_id), network prefix included: its prefix picks the clients shown. */
  projectKey: string;
}

/** curl and SDK snippets calling this gateway with the project's key, each in the form its client needs, with a copy button. */
export function ApiExamples({ projectKey }: ApiExamplesProps) {
  const titleId = useId();
  // Until /api/site answers (or if it fails), the gateway is assumed on port 3001 of this host.
  const gateway = useQuery(statsQueries.gatewayUrl());
  const examples = clientExamples(gateway.data ?? gatewayUrlOf(undefined), projectKey);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId} style={{ minWidth: 0 }}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={titleId}>
          API examples
        </Title>
        <Tabs defaultValue="curl" keepMounted={false}>
          <Tabs.List aria-label="Example language">
            {examples.map((ex) => (
              <Tabs.Tab
                key={ex.value}
                value={ex.value}
                leftSection={ex.language === 'shell' ? <IconTerminal2 size={16} aria-hidden /> : <IconBrandJavascript size={16} aria-hidden />}
              >
                {ex.tab}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {examples.map((ex) => (
            <Tabs.Panel key={ex.value} value={ex.value} pt="sm">
              <Snippet example={ex} />
            </Tabs.Panel>
          ))}
        </Tabs>
      </Stack>
    </Paper>
  );
}

function Snippet({ example }: { example: ClientExample }) {
  const clipboard = useClipboard({ timeout: 500 });
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs" wrap="nowrap" align="center">
        <Text size="sm" c="dimmed">
          {example.description}
        </Text>
        <Button
          size="xs"
          variant={clipboard.copied ? 'filled' : 'light'}
          color={clipboard.copied ? 'teal' : undefined}
          leftSection={clipboard.copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
          onClick={() => clipboard.copy(example.code)}
          aria-label={clipboard.copied ? 'Copied' : `Copy the ${example.tab} example`}
          style={{ flexShrink: 0 }}
        >
          {clipboard.copied ? 'Copied' : 'Copy'}
        </Button>
      </Group>
      <Code block data-testid={`api-example-${example.value}`} className={classes.code}>
        {example.code}
      </Code>
      <Text size="sm" role="status" aria-live="polite" c={clipboard.error ? 'red.8' : undefined}>
        {clipboard.error ? 'The browser did not allow copying. Select the example and copy it by hand.' : ''}
      </Text>
    </Stack>
  );
}
