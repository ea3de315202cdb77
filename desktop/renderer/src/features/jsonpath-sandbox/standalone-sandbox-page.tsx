import { Container, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../components/use-page-title';
import { JsonPathSandbox } from './sandbox';
import { DESCRIPTION } from './sandbox-description';

/** /jsonpath-sandbox: the sandbox alone, for the desktop app's window of its own; it needs no server. */
export function StandaloneSandboxPage() {
  usePageTitle('JSONPath sandbox');
  return (
    <Container size="lg" py="lg" px="md">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1} size="h2">
            JSONPath sandbox
          </Title>
          <Text c="dimmed">{DESCRIPTION}</Text>
        </Stack>
        <JsonPathSandbox />
      </Stack>
    </Container>
  );
}
