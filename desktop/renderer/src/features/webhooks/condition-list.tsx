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
import { newCondition, withConditionType, type ConditionDraft, type FieldErrors } from './form-model';
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
};

interface ConditionListProps {
  trigger: Trigger;
  network: number;
  conditions: ConditionDraft[];
  onChange: (conditions: ConditionDraft[]) => void;
  /** Validation messages by path ('conditions.0.value', …). */
  errors: FieldErrors;
  /** Whether a condition field has been left, so its message may show: `${key}.value`, `${key}.selector`. */
  isTouched: (field: string) => boolean;
  onTouch: (field: string) => void;
}

/** The trigger conditions: at most five, all of which an event must meet. */
export function ConditionList({ trigger, network, conditions, onChange, errors, isTouched, onTouch }: ConditionListProps) {
  const full = conditions.length >= MAX_CONDITIONS;
  const replace = (i: number, next: ConditionDraft) => onChange(conditions.map((c, j) => (j === i ? next : c)));
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
          <ConditionRow
            key={condition.key}
            index={i}
            trigger={trigger}
            network={network}
            condition={condition}
            onChange={(next) => replace(i, next)}
            onRemove={() => onChange(conditions.filter((_, j) => j !== i))}
            errorOf={(field) => {
              const message = errors[`conditions.${i}.${field}`];
              // Type and operator come from lists, so their messages show at once; typed fields once left.
              if (!message) return undefined;
              return field === 'type' || field === 'operator' || isTouched(`${condition.key}.${field}`) ? message : undefined;
            }}
            onTouch={(field) => onTouch(`${condition.key}.${field}`)}
          />
        ))}
        <Group gap="sm" align="center">
          <Button
            variant="light"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => onChange([...conditions, newCondition(trigger)])}
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
  index: number;
  trigger: Trigger;
  network: number;
  condition: ConditionDraft;
  onChange: (next: ConditionDraft) => void;
  onRemove: () => void;
  errorOf: (field: 'type' | 'operator' | 'value' | 'selector') => string | undefined;
  onTouch: (field: 'value' | 'selector') => void;
}

function ConditionRow({ index, trigger, network, condition, onChange, onRemove, errorOf, onTouch }: ConditionRowProps) {
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
            onClick={onRemove}
            aria-label={`Remove condition ${index + 1}`}
          >
            Remove
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: isJsonPath ? 2 : 3 }} spacing="sm" verticalSpacing="sm">
          <NativeSelect
            label="Condition type"
            value={condition.type}
            onChange={(e) => onChange(withConditionType(trigger, condition, e.currentTarget.value as ConditionType))}
            data={conditionsByTrigger[trigger].map((d) => ({ value: d.type, label: d.label }))}
            error={errorOf('type')}
          />
          {isJsonPath && (
            <TextInput
              label="JSONPath query"
              description={`For example ${exampleQueries[trigger]}`}
              value={condition.selector}
              onChange={(e) => onChange({ ...condition, selector: e.currentTarget.value })}
              onBlur={() => onTouch('selector')}
              error={errorOf('selector')}
              withAsterisk
              spellCheck={false}
              autoComplete="off"
              classNames={{ input: classes.code }}
            />
          )}
          <NativeSelect
            label="Operator"
            value={condition.operator}
            onChange={(e) => onChange({ ...condition, operator: e.currentTarget.value as Operator })}
            data={operators.map((op) => ({ value: op, label: operatorLabels[op] }))}
            error={errorOf('operator')}
          />
          <TextInput
            label="Value"
            description={valueHints[condition.type]}
            value={condition.value}
            onChange={(e) => onChange({ ...condition, value: e.currentTarget.value })}
            onBlur={() => onTouch('value')}
            error={errorOf('value')}
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
