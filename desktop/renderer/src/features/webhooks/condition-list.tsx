import { useId } from 'react';
import { Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  conditionDef,
  conditionsByTrigger,
  MAX_CONDITIONS,
  triggerLabels,
  type ConditionType,
  type Operator,
  type Trigger,
} from '../../../../../shared/webhooks';
import type { ZodFormState } from '../../components/zod-form';
import { newCondition, withConditionType, type ConditionDraft, type WebhookDraft } from './form-model';
import { JsonPathEditor } from './jsonpath-editor';
import classes from './webhooks.module.css';

const operatorLabels: Record<Operator, string> = {
  '=': '= (equals)',
  '!=': '!= (does not equal)',
  '<': '< (less than)',
  '<=': '<= (at most)',
  '>': '> (greater than)',
  '>=': '>= (at least)',
};

const valueHints: Partial<Record<ConditionType, string>> = {
  recipient: 'An address, or a stake address to match every address of it.',
  sender: 'An address, or a stake address to match every address of it.',
  policyId: 'The 56-character hex policy ID.',
  fingerprint: 'An asset fingerprint (asset1…).',
  assetHex: 'Policy ID and asset name, in hex.',
  quantity: 'Lovelace, as a whole number.',
  poolId: 'A pool ID (pool1…) or its hex form.',
  jsonPath: 'Compared with each value the query selects.',
};

const exampleQueries: Record<Trigger, string> = {
  transaction: '$.tx.fees',
  block: '$.tx_count',
  delegation: '$.delegations[*].pool_id',
  epoch: '$.current_epoch.epoch',
  tx_status: '$.state',
};

/** The trigger conditions: at most five, all of which an event must meet. */
export function ConditionList({ form }: { form: ZodFormState<WebhookDraft> }) {
  const { type: trigger, network, conditions } = form.getValues();
  const full = conditions.length >= MAX_CONDITIONS;
  const headingId = useId();
  return (
    <div role="group" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" align="baseline">
          <Text id={headingId} fw={500} size="sm">
            Trigger conditions
          </Text>
          <Text size="xs" c="dimmed" aria-live="polite">
            {conditions.length} of {MAX_CONDITIONS}
          </Text>
        </Group>
        <Text size="xs" c="dimmed" mt={-8}>
          {conditions.length === 0
            ? `Without conditions every ${triggerLabels[trigger].toLowerCase()} event is sent.`
            : 'An event is sent only when it meets every condition.'}
        </Text>
        {conditions.map((condition, i) => (
          <ConditionRow key={condition.key} form={form} index={i} trigger={trigger} network={network} condition={condition} />
        ))}
        <Group gap="sm" align="center">
          <Button
            variant="light"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => form.insertListItem('conditions', newCondition(trigger))}
            disabled={full}
          >
            Add condition
          </Button>
          {full && (
            <Text size="xs" c="dimmed">
              A webhook takes at most {MAX_CONDITIONS} conditions.
            </Text>
          )}
        </Group>
      </Stack>
    </div>
  );
}

interface ConditionRowProps {
  form: ZodFormState<WebhookDraft>;
  index: number;
  trigger: Trigger;
  network: number;
  condition: ConditionDraft;
}

function ConditionRow({ form, index, trigger, network, condition }: ConditionRowProps) {
  const path = `conditions.${index}` as const;
  const def = conditionDef(trigger, condition.type);
  const operators = def?.operators ?? [];
  const isJsonPath = condition.type === 'jsonPath';
  const numeric = operators.length > 2 && !isJsonPath;
  const name = `Condition ${index + 1}`;
  const headingId = useId();
  return (
    <Paper withBorder p="sm" role="group" aria-labelledby={headingId} className={classes.wrap}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text id={headingId} fw={600} size="sm">
            {name}
          </Text>
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={14} aria-hidden />}
            onClick={() => form.removeListItem('conditions', index)}
            aria-label={`Remove condition ${index + 1}`}
          >
            Remove
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: isJsonPath ? 2 : 3 }} spacing="sm" verticalSpacing="sm">
          <NativeSelect
            label="Condition type"
            value={condition.type}
            onChange={(e) => form.replaceListItem('conditions', index, withConditionType(trigger, condition, e.currentTarget.value as ConditionType))}
            data={conditionsByTrigger[trigger].map((d) => ({ value: d.type, label: d.label }))}
            error={form.errors[`${path}.type`]}
          />
          {isJsonPath && (
            <TextInput
              label="JSONPath query"
              description={`For example ${exampleQueries[trigger]}`}
              {...form.getInputProps(`${path}.selector`)}
              withAsterisk
              spellCheck={false}
              autoComplete="off"
              classNames={{ input: classes.code }}
            />
          )}
          <NativeSelect
            label="Operator"
            {...form.getInputProps(`${path}.operator`)}
            data={operators.map((op) => ({ value: op, label: operatorLabels[op] }))}
          />
          <TextInput
            label="Value"
            description={valueHints[condition.type]}
            {...form.getInputProps(`${path}.value`)}
            withAsterisk
            inputMode={numeric ? 'numeric' : undefined}
            spellCheck={false}
            autoComplete="off"
          />
        </SimpleGrid>
        {isJsonPath && <JsonPathEditor trigger={trigger} network={network} selector={condition.selector} operator={condition.operator} value={condition.value} />}
      </Stack>
    </Paper>
  );
}
