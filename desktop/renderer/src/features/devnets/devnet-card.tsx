import type { ReactNode } from 'react';
import { Alert, Badge, Button, Group, Loader, NativeSelect, NumberInput, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { advanceTimeSchema, blockIntervalSchema, DEVNET_DEFAULTS, DEVNET_FIELD_LABELS, fundFormSchema, genesisFormSchema, GENESIS_FORM_FIELDS, genesisMoreOf, withDevnetFieldLabels, devnetFieldOf, MAX_PRODUCE_BLOCKS, MAX_ROLLBACK_BLOCKS, produceBlocksSchema, rollbackSchema, snapshotSchema, type DevnetSnapshotDto, type DevnetStateDto } from '../../../../../shared/devnets';
import type { Role } from '../../../../../shared/permissions';
import { ApiError, errorMessage } from '../../api/client';
import { deniedReason } from '../../components/permission';
import { ReasonTooltip } from '../../components/reason-tooltip';
import { failed, succeeded } from '../../components/feedback';
import { useZodForm, type FormSchema, type ZodFormState } from '../../components/zod-form';
import { DataList } from '../../components/data-list';
import { formatNumber } from '../../lib/format';
import { devnetQueries, useDevnetCall, type DevnetCall } from './queries';

interface DevnetProject {
  uuid: string;
  role_name: Role;
}

/**
 * A Cardano devnet project's own chain: where it stands, and the steering calls (the same as the
 * gateway's /cairn/v1/devnet) for roles that may update projects; others see it read-only, told why.
 */
export function DevnetCard({ project }: { project: DevnetProject }) {
  const state = useQuery(devnetQueries.state(project.uuid));
  const reason = deniedReason(project.role_name, 'projects.update');
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="devnet-title">
      <Stack gap="md">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4" id="devnet-title">
            Devnet
          </Title>
          {state.data && (
            <Badge color={state.data.paused ? 'yellow' : 'green'} variant="light">
              {state.data.paused ? 'Paused' : 'Running'}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          This project's own development chain: only its key reaches it. Steer it here or with the project key under /cairn/v1/devnet on the gateway.
        </Text>
        {state.data ? (
          <>
            <DevnetFacts state={state.data} />
            {reason && (
              <Text size="sm" c="dimmed">
                {reason}
              </Text>
            )}
            <DevnetActions uuid={project.uuid} state={state.data} reason={reason} />
            <SnapshotList uuid={project.uuid} state={state.data} reason={reason} />
            <GenesisForm uuid={project.uuid} state={state.data} reason={reason} />
          </>
        ) : state.error ? (
          <Alert color="red" variant="light" role="alert" title="Devnet not loaded">
            {errorMessage(state.error, 'The devnet could not be loaded.')}
          </Alert>
        ) : (
          <Group gap="xs">
            <Loader size="sm" aria-hidden />
            <Text size="sm">Loading the devnet…</Text>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function DevnetFacts({ state }: { state: DevnetStateDto }) {
  const facts: Array<[string, string]> = [
    ['Tip', formatNumber(state.tip.height)],
    ['Slot', formatNumber(state.tip.slot)],
    ['Epoch', formatNumber(state.tip.epoch)],
    ['State', state.paused ? 'Paused' : 'Running'],
    ['Block interval', `${formatNumber(state.block_interval_ms)} ms`],
    ['Network magic', String(state.network_magic)],
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
      {facts.map(([label, value]) => (
        <div key={label}>
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text fw={600} data-testid={`devnet-${label.toLowerCase().replace(/ /g, '-')}`}>
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

/** The form a call was sent from: the paths of its fields, and where a refusal of one of them is shown. */
interface SentFrom {
  fields: readonly string[];
  setFieldError(path: string, error: ReactNode): void;
  /** Where a refusal of a field with no input of its own is shown (the genesis form's JSON). */
  others?: { prefix: string; field: string };
}

/** The field of a form a refusal concerns: the path of the API's details, else the field its message starts with. */
function refusedField(error: unknown, message: string, fields: readonly string[]): string | undefined {
  const details = error instanceof ApiError && Array.isArray(error.details) ? (error.details as Array<{ path?: unknown }>) : [];
  const paths = [...details.map((d) => (typeof d.path === 'string' ? d.path : '')), devnetFieldOf(message) ?? ''];
  return paths.find((p) => fields.includes(p));
}

/**
 * Runs one call with its notices; `done` names what happened. A refusal says the fields by their
 * labels here: on the field of the form it was sent from when it concerns one, else in a notice.
 */
function useRun(uuid: string) {
  const call = useDevnetCall(uuid);
  const run = (c: DevnetCall, done: string, from?: SentFrom) =>
    call.mutate(c, {
      onSuccess: () => succeeded('Devnet', done),
      onError: (error) => {
        const message = errorMessage(error, 'The devnet call failed.');
        const field = from && (refusedField(error, message, from.fields) ?? (from.others && devnetFieldOf(message)?.startsWith(from.others.prefix) ? from.others.field : undefined));
        if (from && field) from.setFieldError(field, withDevnetFieldLabels(message));
        else failed('Devnet call refused', new Error(withDevnetFieldLabels(message)), 'The devnet call failed.');
      },
    });
  return { run, pending: call.isPending };
}

type GetInputPropsReturnType = ReturnType<ZodFormState<unknown>['getInputProps']>;
type InputsOf = { getInputProps(path: string): GetInputPropsReturnType };

/** A field's input props, its message in the card's words: the field's label where the shared schema's says its API name. */
function fieldProps(form: InputsOf, path: string): GetInputPropsReturnType {
  const props = form.getInputProps(path);
  return typeof props.error === 'string' ? { ...props, error: withDevnetFieldLabels(props.error) } : props;
}

/** A field of an action's row: marked invalid, its message shown under the row (ActionForm), so the row's button stays beside the inputs. */
function rowFieldProps(form: InputsOf, path: string): GetInputPropsReturnType {
  const props = form.getInputProps(path);
  return { ...props, error: Boolean(props.error) };
}

function ActionButton({ reason, loading, children, ...rest }: { reason: string | null; loading: boolean; children: ReactNode; type?: 'submit' | 'button'; onClick?: () => void; color?: string; variant?: string }) {
  return (
    <ReasonTooltip reason={reason}>
      <Button size="sm" disabled={!!reason} loading={loading} type={rest.type ?? 'button'} onClick={rest.onClick} color={rest.color} variant={rest.variant ?? 'filled'}>
        {children}
      </Button>
    </ReasonTooltip>
  );
}

/** One small form: its fields and its button, validated by a shared schema before the call. */
function ActionForm<S extends FormSchema>(props: {
  schema: S;
  initial: Parameters<typeof useZodForm<S>>[1];
  label: string;
  reason: string | null;
  pending: boolean;
  fields: (form: ReturnType<typeof useZodForm<S>>['form']) => ReactNode;
  send: (values: ReturnType<typeof useZodForm<S>>['form']['values'], from: SentFrom) => void;
}) {
  const { form, onSubmit } = useZodForm(props.schema, props.initial);
  const messages = Object.values(form.errors).flatMap((m) => (typeof m === 'string' ? [withDevnetFieldLabels(m)] : []));
  return (
    <form
      noValidate
      onSubmit={(e) => {
        if (props.reason) return e.preventDefault();
        onSubmit(() => props.send(form.values, { fields: Object.keys(form.values as object), setFieldError: form.setFieldError }))(e);
      }}
    >
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <div style={{ flex: 1, minWidth: 0 }}>{props.fields(form)}</div>
        <ActionButton type="submit" reason={props.reason} loading={props.pending}>
          {props.label}
        </ActionButton>
      </Group>
      {messages.map((m) => (
        <Text key={m} size="xs" c="red" mt={4} role="alert">
          {m}
        </Text>
      ))}
    </form>
  );
}

const slotsSchema = advanceTimeSchema.options[0];

function DevnetActions({ uuid, state, reason }: { uuid: string; state: DevnetStateDto; reason: string | null }) {
  const { run, pending } = useRun(uuid);
  return (
    <Stack gap="sm">
      <Group gap="xs">
        {state.paused ? (
          <ActionButton reason={reason} loading={pending} onClick={() => run({ path: '/resume' }, 'The clock runs again.')}>
            Resume
          </ActionButton>
        ) : (
          <ActionButton reason={reason} loading={pending} variant="default" onClick={() => run({ path: '/pause' }, 'Paused: no block comes until you resume.')}>
            Pause
          </ActionButton>
        )}
        <ActionButton reason={reason} loading={pending} variant="default" onClick={() => run({ path: '/time', body: { to: 'next-epoch' } }, 'Time moved to the next epoch.')}>
          Next epoch
        </ActionButton>
        <ActionButton reason={reason} loading={pending} color="red" variant="light" onClick={() => run({ path: '/reset' }, 'The devnet started again from its genesis.')}>
          Reset
        </ActionButton>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
        <ActionForm
          schema={produceBlocksSchema}
          initial={{ count: 1 }}
          label="Produce"
          reason={reason}
          pending={pending}
          fields={(form) => <NumberInput label={DEVNET_FIELD_LABELS.count} min={1} max={MAX_PRODUCE_BLOCKS} allowDecimal={false} clampBehavior="none" readOnly={!!reason} {...rowFieldProps(form, 'count')} />}
          send={(v, from) => run({ path: '/blocks', body: v }, `${formatNumber(Number(v.count))} block${Number(v.count) === 1 ? '' : 's'} produced.`, from)}
        />
        <ActionForm
          schema={slotsSchema}
          initial={{ slots: 60 }}
          label="Advance"
          reason={reason}
          pending={pending}
          fields={(form) => <NumberInput label={DEVNET_FIELD_LABELS.slots} min={1} allowDecimal={false} clampBehavior="none" readOnly={!!reason} {...rowFieldProps(form, 'slots')} />}
          send={(v, from) => run({ path: '/time', body: v }, `Time moved ${formatNumber(Number(v.slots))} slots forward.`, from)}
        />
        <ActionForm
          schema={rollbackSchema}
          initial={{ blocks: 1, txs: 'mempool' }}
          label="Roll back"
          reason={reason}
          pending={pending}
          fields={(form) => (
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
              <NumberInput label={DEVNET_FIELD_LABELS.blocks} min={1} max={MAX_ROLLBACK_BLOCKS} allowDecimal={false} clampBehavior="none" readOnly={!!reason} {...rowFieldProps(form, 'blocks')} />
              <NativeSelect
                label={DEVNET_FIELD_LABELS.txs}
                data={[
                  { value: 'mempool', label: 'To the mempool' },
                  { value: 'drop', label: 'Dropped' },
                ]}
                disabled={!!reason}
                {...rowFieldProps(form, 'txs')}
              />
            </SimpleGrid>
          )}
          send={(v, from) => run({ path: '/rollback', body: v }, `Rolled back ${formatNumber(Number(v.blocks))} block${Number(v.blocks) === 1 ? '' : 's'}: a new branch grows from there.`, from)}
        />
        <ActionForm
          key={`interval-${state.block_interval_ms}`}
          schema={blockIntervalSchema}
          initial={{ ms: state.block_interval_ms }}
          label="Set"
          reason={reason}
          pending={pending}
          fields={(form) => <NumberInput label={DEVNET_FIELD_LABELS.ms} min={100} step={100} allowDecimal={false} clampBehavior="none" readOnly={!!reason} {...rowFieldProps(form, 'ms')} />}
          send={(v, from) => run({ method: 'PUT', path: '/interval', body: v }, `A block every ${formatNumber(Number(v.ms))} ms from the tip on.`, from)}
        />
        <ActionForm
          schema={fundFormSchema}
          initial={{ address: '', lovelace: '10000000', assetName: '', tokens: '' }}
          label="Fund"
          reason={reason}
          pending={pending}
          fields={(form) => (
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
              <TextInput label={DEVNET_FIELD_LABELS.address} placeholder="addr_test1…" readOnly={!!reason} {...rowFieldProps(form, 'address')} />
              <TextInput label={DEVNET_FIELD_LABELS.lovelace} readOnly={!!reason} {...rowFieldProps(form, 'lovelace')} />
              <TextInput label={DEVNET_FIELD_LABELS.assetName} placeholder="74657374 (test)" readOnly={!!reason} {...rowFieldProps(form, 'assetName')} />
              <TextInput label={DEVNET_FIELD_LABELS.tokens} placeholder="None" readOnly={!!reason} {...rowFieldProps(form, 'tokens')} />
            </SimpleGrid>
          )}
          send={(v, from) => {
            const tokens = String(v.tokens).trim();
            const assets = tokens === '' ? {} : { assets: [{ assetName: String(v.assetName).trim(), quantity: tokens }] };
            run({ path: '/fund', body: { address: String(v.address).trim(), lovelace: String(v.lovelace), ...assets } }, tokens === '' ? 'Paid in the next block.' : 'Paid, with the tokens minted under the devnet policy, in the next block.', from);
          }}
        />
        <ActionForm
          schema={snapshotSchema}
          initial={{ name: '' }}
          label="Take snapshot"
          reason={reason}
          pending={pending}
          fields={(form) => <TextInput label={DEVNET_FIELD_LABELS.name} placeholder="before-upgrade" readOnly={!!reason} {...rowFieldProps(form, 'name')} />}
          send={(v, from) => run({ path: '/snapshots', body: v }, `Snapshot ${String(v.name)} taken.`, from)}
        />
      </SimpleGrid>
    </Stack>
  );
}

const GENESIS_FIELDS = GENESIS_FORM_FIELDS;

/** A new chain from a genesis of your own: the four fields most often changed, and the rest of the genesis as JSON. */
function GenesisForm({ uuid, state, reason }: { uuid: string; state: DevnetStateDto; reason: string | null }) {
  const { run, pending } = useRun(uuid);
  const { form, onSubmit } = useZodForm(genesisFormSchema, {
    genesis: { slotLengthMs: state.slot_length_ms, epochLength: state.epoch_length, blockIntervalMs: state.block_interval_ms, securityParam: DEVNET_DEFAULTS.securityParam },
    more: '',
  });
  const number = (name: (typeof GENESIS_FIELDS)[number], extra: { min: number; step?: number }) => (
    <NumberInput label={DEVNET_FIELD_LABELS[name]} allowDecimal={false} clampBehavior="none" readOnly={!!reason} {...extra} {...fieldProps(form, `genesis.${name}`)} />
  );
  return (
    <form
      noValidate
      aria-labelledby="devnet-genesis-title"
      onSubmit={(e) => {
        if (reason) return e.preventDefault();
        onSubmit(() =>
          run({ path: '', body: { genesis: { ...genesisMoreOf(form.values.more), ...form.values.genesis } } }, 'A new chain started from this genesis; its transactions are forgotten.', {
            fields: GENESIS_FIELDS.map((f) => `genesis.${f}`),
            setFieldError: form.setFieldError,
            others: { prefix: 'genesis.', field: 'more' },
          }),
        )(e);
      }}
    >
      <Stack gap="xs">
        <Text fw={600} id="devnet-genesis-title">
          Start again from a new genesis
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xs">
          {number('slotLengthMs', { min: 100, step: 100 })}
          {number('epochLength', { min: 10 })}
          {number('blockIntervalMs', { min: 100, step: 100 })}
          {number('securityParam', { min: 1 })}
        </SimpleGrid>
        <Textarea
          label={DEVNET_FIELD_LABELS.more}
          description="The rest of a genesis as the API takes it: protocolParams, initialFunds, initialDReps, committee, initialPools, initialDelegations (see the Devnets page of the API docs). The four fields above win over the same fields here."
          placeholder='{"initialFunds": [{"address": "addr_test1…", "lovelace": "5000000000"}]}'
          autosize
          minRows={2}
          maxRows={12}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          readOnly={!!reason}
          {...form.getInputProps('more')}
        />
        <Group justify="flex-end">
          <ActionButton type="submit" reason={reason} loading={pending} color="red" variant="light">
            Start new chain
          </ActionButton>
        </Group>
      </Stack>
    </form>
  );
}

function SnapshotList({ uuid, state, reason }: { uuid: string; state: DevnetStateDto; reason: string | null }) {
  const { run, pending } = useRun(uuid);
  const path = (name: string) => `/snapshots/${encodeURIComponent(name)}`;
  return (
    <DataList<DevnetSnapshotDto>
      records={state.snapshots}
      idAccessor="name"
      label="Snapshots"
      loadingLabel="Loading snapshots…"
      empty={
        <Text size="sm" c="dimmed">
          No snapshot yet.
        </Text>
      }
      cardGap={0}
      cardsTestId="devnet-snapshots"
      card={(s) => (
        <Group justify="space-between" gap="xs" py="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <div style={{ minWidth: 0 }}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {s.name}
            </Text>
            <Text size="xs" c="dimmed">
              Tip {formatNumber(s.height)}
            </Text>
          </div>
          <Group gap="xs" wrap="nowrap">
            <ActionButton reason={reason} loading={pending} variant="default" onClick={() => run({ path: `${path(s.name)}/restore` }, `Back to snapshot ${s.name}.`)}>
              Restore
            </ActionButton>
            <ActionButton reason={reason} loading={pending} color="red" variant="subtle" onClick={() => run({ method: 'DELETE', path: path(s.name) }, `Snapshot ${s.name} deleted.`)}>
              Delete
            </ActionButton>
          </Group>
        </Group>
      )}
    />
  );
}
