import { Badge, Code, Group, Stack, Table, Text } from '@mantine/core';
import type { ConsoleResponse } from '../../../../preload/bridge';

function formatBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** One answer of the gateway: status, time, URL, its headers (name and value) and its body. */
export function ResponseView({ response }: { response: ConsoleResponse }) {
  const ok = response.status >= 200 && response.status < 300;
  return (
    <Stack gap="xs" aria-label="Response">
      <Group gap="sm">
        <Badge color={ok ? 'green' : response.status >= 500 ? 'red' : 'orange'} size="lg" variant="light">
          {response.status} {response.statusText}
        </Badge>
        <Text size="sm" c="dimmed">
          {response.timeMs} ms
        </Text>
      </Group>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {response.url}
      </Text>
      <details>
        <summary>
          <Text span size="sm">
            Headers ({response.headers.length})
          </Text>
        </summary>
        <Table verticalSpacing={2} fz="xs">
          <Table.Tbody>
            {response.headers.map(([name, value]) => (
              <Table.Tr key={name}>
                <Table.Td ff="monospace">{name}</Table.Td>
                <Table.Td ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {value}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </details>
      <Code block data-testid="console-response-body" style={{ maxHeight: 480, overflow: 'auto' }}>
        {formatBody(response.body)}
      </Code>
      {response.truncated && (
        <Text size="xs" c="dimmed">
          The body was cut at 1 MB.
        </Text>
      )}
    </Stack>
  );
}
