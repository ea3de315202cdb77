import { useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Badge, Button, Code, FileButton, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { builtInSamples } from '../../../../../shared/webhook-samples';
import { conditionDef, conditionsByTrigger, MAX_CONDITIONS, triggerLabels, triggers, yieldsList, type Condition, type Operator, type Trigger } from '../../../../../shared/webhooks';
import { newCondition, withConditionType, type ConditionDraft } from '../webhooks/index';
import { evaluateSandbox } from './evaluate';

const operatorLabels: Record<Operator, string> = { '=': '=', '!=': '!=', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

const sampleText = (trigger: Trigger): string => JSON.stringify(builtInSamples[trigger], null, 2);

const parse = (text: string): { ok: true; json: unknown } | { ok: false; message: string } => {
  try {
    return { ok: true, json: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
};

const short = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

interface SandboxProps {
  /** Loading an event from a webhook's delivery history (the dashboard page only: it needs the server). */
  historyLoader?: (load: (trigger: Trigger, payload: unknown) => void) => ReactNode;
}

/**
 * Paste or load a payload of any trigger, write conditions as the webhook form allows, and see what each
 * selects and whether the event would fire, by the webhook matcher itself. Needs no server.
 */
export function JsonPathSandbox({ historyLoader }: SandboxProps) {
  const [trigger, setTrigger] = useState<Trigger>('transaction');
  const [text, setText] = useState(() => sampleText('transaction'));
  const [conditions, setConditions] = useState<ConditionDraft[]>(() => [{ ...newCondition('transaction'), type: 'jsonPath', operator: '>', selector: '$.tx.fees', value: '100000' }]);
  const [fileError, setFileError] = useState<string | null>(null);
  const resetFile = useRef<() => void>(null);

  const parsed = useMemo(() => parse(text), [text]);
  const asConditions: Condition[] = conditions.map((c) => ({ type: c.type, operator: c.operator, value: c.value, ...(c.type === 'jsonPath' ? { selector: c.selector } : {}) }));
  const verdict = useMemo(() => (parsed.ok ? evaluateSandbox(trigger, parsed.json, asConditions) : null), [parsed, trigger, JSON.stringify(asConditions)]); // eslint-disable-line react-hooks/exhaustive-deps

  const changeTrigger = (next: Trigger, payload?: unknown) => {
    if (next !== trigger) setConditions([]);
    setTrigger(next);
    setText(payload === undefined ? sampleText(next) : JSON.stringify(payload, null, 2));
  };

  const loadFile = async (file: File | null) => {
    setFileError(null);
    resetFile.current?.();
    if (!file) return;
    if (file.size > 5_000_000) return setFileError('That file is larger than 5 MB.');
    const content = await file.text();
    const json = parse(content);
    if (!json.ok) return setFileError(`${file.name} is not JSON: ${json.message}`);
    // A delivered body ({id, webhook_id, type, payload, …}) or a bare payload.
    const body = json.json as { type?: unknown; payload?: unknown };
    if (body && typeof body === 'object' && 'payload' in body && triggers.includes(body.type as Trigger)) changeTrigger(body.type as Trigger, body.payload);
    else setText(JSON.stringify(json.json, null, 2));
  };

  const replace = (i: number, next: ConditionDraft) => setConditions(conditions.map((c, j) => (j === i ? next : c)));

  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              Sample event
            </Title>
            <NativeSelect label="Trigger" value={trigger} onChange={(e) => changeTrigger(e.currentTarget.value as Trigger)} data={triggers.map((t) => ({ value: t, label: triggerLabels[t] }))} />
            <Group gap="xs">
              <Button variant="default" size="xs" onClick={() => setText(sampleText(trigger))}>
                Built-in sample
              </Button>
              <FileButton onChange={(file) => void loadFile(file)} accept="application/json,.json" resetRef={resetFile}>
                {(props) => (
                  <Button variant="default" size="xs" {...props}>
                    Load a file…
                  </Button>
                )}
              </FileButton>
            </Group>
            {historyLoader?.((t, payload) => changeTrigger(t, payload))}
            {fileError && (
              <Text size="sm" c="red" role="alert">
                {fileError}
              </Text>
            )}
            <Textarea
              label="Payload (JSON)"
              description="The event's payload as a webhook receives it; paste one of your own."
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              autosize
              minRows={12}
              maxRows={28}
              spellCheck={false}
              error={parsed.ok ? undefined : `Not valid JSON: ${parsed.message}`}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
            />
          </Stack>
        </Paper>

        <Stack gap="sm">
          <Paper withBorder p="md">
            <Stack gap="sm">
              <Group justify="space-between">
                <Title order={2} size="h4">
                  Conditions
                </Title>
                <Text size="xs" c="dimmed">
                  {conditions.length} of {MAX_CONDITIONS}
                </Text>
              </Group>
              {conditions.length === 0 && <Text size="sm" c="dimmed">Without conditions every {triggerLabels[trigger].toLowerCase()} event fires.</Text>}
              {conditions.map((c, i) => {
                const def = conditionDef(trigger, c.type);
                const result = verdict?.ok ? verdict.conditions[i] : undefined;
                return (
                  <Paper key={c.key} withBorder p="sm" role="group" aria-label={`Condition ${i + 1}`}>
                    <Stack gap="xs">
                      <Group justify="space-between" wrap="nowrap" align="flex-start">
                        <Group gap="xs" miw={0}>
                          <Text fw={600} size="sm">
                            Condition {i + 1}
                          </Text>
                          {result && (
                            <Badge color={result.matches ? 'green' : 'gray'} variant="light">
                              {result.matches ? 'matches' : 'does not match'}
                            </Badge>
                          )}
                        </Group>
                        <Button size="compact-sm" variant="subtle" color="red" style={{ flexShrink: 0 }} leftSection={<IconTrash size={14} aria-hidden />} onClick={() => setConditions(conditions.filter((_, j) => j !== i))}>
                          Remove
                        </Button>
                      </Group>
                      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
                        <NativeSelect
                          label="Condition type"
                          value={c.type}
                          onChange={(e) => replace(i, withConditionType(trigger, c, e.currentTarget.value as Condition['type']))}
                          data={conditionsByTrigger[trigger].map((d) => ({ value: d.type, label: d.label }))}
                        />
                        <NativeSelect label="Operator" value={c.operator} onChange={(e) => replace(i, { ...c, operator: e.currentTarget.value as Operator })} data={(def?.operators ?? []).map((op) => ({ value: op, label: operatorLabels[op] }))} />
                        <TextInput label="Value" value={c.value} onChange={(e) => replace(i, { ...c, value: e.currentTarget.value })} spellCheck={false} autoComplete="off" />
                      </SimpleGrid>
                      {c.type === 'jsonPath' && (
                        <TextInput
                          label="JSONPath query"
                          value={c.selector}
                          onChange={(e) => replace(i, { ...c, selector: e.currentTarget.value })}
                          spellCheck={false}
                          autoComplete="off"
                          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                        />
                      )}
                      {result?.extracted && (
                        <Stack gap={2} aria-label={`Extracted by condition ${i + 1}`}>
                          {result.extracted.map((e, k) => (
                            <Text key={k} size="xs" c={e.ok ? undefined : 'red'}>
                              {result.extracted!.length > 1 ? `Item ${k + 1}: ` : 'Extracted: '}
                              {e.ok ? (e.values.length === 0 ? 'nothing' : <Code>{e.values.map(short).join(', ')}</Code>) : e.message}
                            </Text>
                          ))}
                        </Stack>
                      )}
                    </Stack>
                  </Paper>
                );
              })}
              <Group>
                <Button variant="light" leftSection={<IconPlus size={16} aria-hidden />} disabled={conditions.length >= MAX_CONDITIONS} onClick={() => setConditions([...conditions, newCondition(trigger)])}>
                  Add condition
                </Button>
              </Group>
            </Stack>
          </Paper>
          <Verdict verdict={verdict} trigger={trigger} />
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

function Verdict({ verdict, trigger }: { verdict: ReturnType<typeof evaluateSandbox> | null; trigger: Trigger }) {
  if (verdict === null) return <Alert color="gray" title="Fix the payload first" />;
  if (!verdict.ok) return <Alert color="orange" title="This payload cannot be matched">{verdict.message}</Alert>;
  const list = yieldsList(trigger);
  return (
    <Alert color={verdict.fires ? 'green' : 'gray'} title={verdict.fires ? 'This event would fire' : 'This event would not fire'} role="status">
      {list ? `${verdict.matchedItems} of ${verdict.items} ${verdict.items === 1 ? 'item meets' : 'items meet'} every condition${verdict.fires ? ' and would be sent.' : '.'}` : verdict.fires ? 'It meets every condition.' : 'It does not meet every condition.'}
    </Alert>
  );
}
