import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Badge, Box, Button, Code, Group, Loader, Stack, Text, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconRestore } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { triggerLabels, yieldsList, type Operator, type Trigger } from '../../../../../shared/webhooks';
import { apiErrorText } from '../../api/client';
import { webhookNetworkLabel } from './form-model';
import { extract, jsonPathHelp, jsonPathProblem, JsonPathRefused, parseSample, resultMatches, subjectsOf } from './jsonpath';
import { webhookQueries } from './queries';
import classes from './webhooks.module.css';

/** Wait this long after the last keystroke before telling the user the sample does not parse. */
const PARSE_TOAST_DELAY_MS = 800;

interface JsonPathEditorProps {
  trigger: Trigger;
  /** The network's webhook id. */
  network: number;
  selector: string;
  operator: Operator;
  value: string;
}

type Preview =
  | { kind: 'idle'; text: string }
  | { kind: 'error'; text: string }
  | { kind: 'result'; items: Array<{ results: unknown[]; matches: boolean | null }> };

const show = (results: unknown[]) => JSON.stringify(results.length === 1 ? results[0] : results, null, 2) ?? 'undefined';

/**
 * A sample payload of the trigger (a real one from the chain, editable) and what the condition's
 * JSONPath query extracts from it, evaluated the way the server's matcher does.
 */
export function JsonPathEditor({ trigger, network, selector, operator, value }: JsonPathEditorProps) {
  const sample = useQuery(webhookQueries.sample(trigger, network));
  const fetched = useMemo(() => (sample.data === undefined ? null : JSON.stringify(sample.data, null, 2)), [sample.data]);
  // null until the user edits the sample; then their text wins over the fetched one.
  const [edited, setEdited] = useState<string | null>(null);
  const text = edited ?? fetched ?? '';
  // An empty sample is no error: there is just nothing to try the query on yet.
  const parsed = useMemo(() => (text.trim() ? parseSample(text) : null), [text]);

  // The parser's message as a toast, once per edit: after typing pauses, or when the field is left.
  const toasted = useRef<string | null>(null);
  const reportInvalid = useCallback((candidate: string | null) => {
    if (candidate === null || !candidate.trim() || candidate === toasted.current) return;
    const result = parseSample(candidate);
    if (result.ok) return;
    toasted.current = candidate;
    notifications.show({ color: 'red', title: 'The sample JSON is not valid', message: result.message });
  }, []);
  const [settled] = useDebouncedValue(edited, PARSE_TOAST_DELAY_MS);
  useEffect(() => reportInvalid(settled), [settled, reportInvalid]);

  const query = selector.trim();
  const expected = value.trim();
  const preview = useMemo<Preview>(() => {
    if (!parsed) return { kind: 'idle', text: 'Paste a sample payload to try the query on.' };
    if (!parsed.ok) return { kind: 'idle', text: 'Fix the sample JSON to see what the query extracts.' };
    if (!query) return { kind: 'idle', text: 'Enter a JSONPath query to see the value it extracts from the sample.' };
    // What the server refuses on save (a script expression, too much work on a large transaction), said here first.
    const problem = jsonPathProblem(query);
    if (problem) return { kind: 'error', text: problem };
    try {
      return {
        kind: 'result',
        items: subjectsOf(trigger, parsed.json).map((subject) => {
          const results = extract(subject, query);
          return { results, matches: expected ? resultMatches(results, operator, expected) : null };
        }),
      };
    } catch (error) {
      if (error instanceof JsonPathRefused) return { kind: 'error', text: error.message };
      return { kind: 'error', text: `The query cannot be evaluated: ${error instanceof Error ? error.message : String(error)}` };
    }
  }, [parsed, query, trigger, operator, expected]);

  const perItem = yieldsList(trigger);

  return (
    <Stack gap="xs" className={classes.editor}>
      <Text fw={600} size="sm">
        JSONPath editor
      </Text>
      <Text size="xs" c="dimmed">
        {perItem
          ? `A ${triggerLabels[trigger].toLowerCase()} event carries a list; the query runs against each item of it.`
          : `The query runs against the whole ${triggerLabels[trigger].toLowerCase()} payload.`}{' '}
        {jsonPathHelp}
      </Text>
      {sample.isPending ? (
        <Group gap="xs" role="status">
          <Loader size="xs" aria-hidden />
          <Text size="sm">
            Reading a recent {triggerLabels[trigger].toLowerCase()} from {webhookNetworkLabel(network)}…
          </Text>
        </Group>
      ) : sample.isError ? (
        <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} p="xs">
          <Text size="sm">{apiErrorText(sample.error) ?? 'No sample payload could be read right now.'} Paste a payload below to try the query.</Text>
        </Alert>
      ) : null}
      <Textarea
        label="Sample JSON"
        description={`A recent ${triggerLabels[trigger].toLowerCase()} payload from ${webhookNetworkLabel(network)}. Edit it to try the query on other values.`}
        value={text}
        onChange={(e) => setEdited(e.currentTarget.value)}
        onBlur={() => reportInvalid(edited)}
        error={parsed && !parsed.ok ? parsed.message : undefined}
        autosize
        minRows={6}
        maxRows={16}
        spellCheck={false}
        autoComplete="off"
        classNames={{ input: classes.code }}
      />
      {edited !== null && fetched !== null && (
        <Group justify="flex-end">
          <Button
            size="xs"
            variant="subtle"
            leftSection={<IconRestore size={14} aria-hidden />}
            onClick={() => {
              setEdited(null);
              toasted.current = null;
            }}
          >
            Restore the chain sample
          </Button>
        </Group>
      )}
      <Box aria-live="polite">
        <Text fw={500} size="sm" mb={4}>
          Extracted value
        </Text>
        {preview.kind === 'idle' ? (
          <Text size="sm" c="dimmed">
            {preview.text}
          </Text>
        ) : preview.kind === 'error' ? (
          <Text size="sm" c="red.8" role="alert">
            {preview.text}
          </Text>
        ) : (
          <Stack gap="xs">
            {preview.items.length === 0 && (
              <Text size="sm" c="dimmed">
                The sample holds no items.
              </Text>
            )}
            {preview.items.map((item, i) => (
              <Stack key={i} gap={4}>
                {(perItem || item.matches !== null) && (
                  <Group gap="xs">
                    {perItem && (
                      <Text size="xs" c="dimmed">
                        Item {i + 1}
                      </Text>
                    )}
                    {item.matches !== null && (
                      <Badge size="sm" variant="light" color={item.matches ? 'green' : 'gray'}>
                        {item.matches ? 'Condition matches' : 'Condition does not match'}
                      </Badge>
                    )}
                  </Group>
                )}
                {item.results.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    The query selects nothing in this sample.
                  </Text>
                ) : (
                  <Code block className={classes.preview} data-testid="jsonpath-preview">
                    {show(item.results)}
                  </Code>
                )}
              </Stack>
            ))}
          </Stack>
        )}
      </Box>
    </Stack>
  );
}
