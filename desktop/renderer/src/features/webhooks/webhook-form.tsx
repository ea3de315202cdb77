import { useEffect, useId } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Alert, Box, Button, Group, NativeSelect, NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { isDevnetWebhookNetwork, MAX_CONFIRMATIONS, triggerLabels, triggers, webhookFormSchema, webhookNetworks, type Trigger } from '../../../../../shared/webhooks';
import { devnetNetwork } from '../../../../../shared/networks';
import { pagedItems } from '../../api/pages';
import { ReasonTooltip } from '../../components/reason-tooltip';
import { useZodForm } from '../../components/zod-form';
import { ConditionList } from './condition-list';
import { webhookNetworkLabel, type WebhookDraft } from './form-model';
import { useEndpointWarning, workspaceProjectsQuery, type WebhookBody } from './queries';
import classes from './webhooks.module.css';

interface WebhookFormProps {
  initial: WebhookDraft;
  workspace: { id: number; name: string };
  /** Why saving is not possible whatever the fields say (no permission, plan limit); null when it is. */
  blockedReason: string | null;
  submitting: boolean;
  onSubmit: (body: WebhookBody) => void;
  /** Show every field's message from the start (an existing webhook), not only once a field is left. */
  revealErrors?: boolean;
  /** False for members who may only look: every field is disabled. */
  editable?: boolean;
}

const INCOMPLETE = 'Complete the fields marked in red to save the webhook.';

/** The webhook form of spec section 2, validated with the API's own schema (webhookFormSchema). */
export function WebhookForm({ initial, workspace, blockedReason, submitting, onSubmit, revealErrors = false, editable = true }: WebhookFormProps) {
  const statusLabelId = useId();
  const { form, onSubmit: checked } = useZodForm(webhookFormSchema, initial, { checkAsLeft: true });
  const draft = form.getValues();

  // An existing webhook shows every field's message from the start, not only once a field is left.
  useEffect(() => {
    if (revealErrors) form.validate();
    // Once, for the webhook the form opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const valid = form.isValid();
  const reason = blockedReason ?? (valid ? null : INCOMPLETE);
  const endpointWarning = useEndpointWarning(draft.target_url);
  const networkSupported = webhookNetworks.some((n) => n.webhookId === draft.network);
  const networkOptions = [
    ...webhookNetworks.map((n) => ({ value: String(n.webhookId), label: n.label })),
    // A webhook may arrive on a network Secure Webhooks no longer watches: show it, with the error.
    ...(networkSupported ? [] : [{ value: String(draft.network), label: webhookNetworkLabel(draft.network) }]),
  ];

  // A devnet webhook follows one devnet project's chain: the workspace's devnet projects to choose from.
  const onDevnet = isDevnetWebhookNetwork(draft.network);
  const projects = useInfiniteQuery({ ...workspaceProjectsQuery(workspace.id), enabled: onDevnet });
  const devnetProjects = pagedItems(projects.data).filter((p) => p.network_id === devnetNetwork.value);
  const projectOptions = [{ value: '', label: devnetProjects.length > 0 || projects.isPending ? 'Choose a project' : `No ${devnetNetwork.label} project in this workspace` }, ...devnetProjects.map((p) => ({ value: p.uuid, label: p.project_name }))];

  const revealIfIncomplete = () => {
    if (!valid) form.validate();
  };

  const submit = checked((input) => {
    if (submitting || blockedReason) return;
    onSubmit({ ...input, api_version: 1, workspace_id: workspace.id });
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Webhook" className={classes.wrap}>
      <fieldset disabled={!editable} className={classes.fieldset}>
        <Stack gap="md">
          <TextInput
            label="Webhook name"
            {...form.getInputProps('name')}
            withAsterisk
            autoComplete="off"
          />
          <TextInput
            label="Endpoint URL"
            description="Cairn sends each event to this URL as an HTTPS or HTTP POST request."
            type="url"
            inputMode="url"
            {...form.getInputProps('target_url')}
            withAsterisk
            autoComplete="url"
            spellCheck={false}
          />
          {endpointWarning && (
            <Alert color="yellow" variant="light" p="xs" role="status">
              <Text size="sm">{endpointWarning}</Text>
            </Alert>
          )}
          <NativeSelect
            label="Network"
            value={String(draft.network)}
            onChange={(e) => form.setFieldValue('network', Number(e.currentTarget.value))}
            data={networkOptions}
            error={form.errors.network}
          />
          {onDevnet && (
            <NativeSelect
              label="Project"
              description="A devnet is one project's chain: the webhook follows this project's devnet."
              value={draft.project}
              onChange={(e) => form.setFieldValue('project', e.currentTarget.value)}
              data={projectOptions}
              error={form.errors.project}
              withAsterisk
            />
          )}
          <TextInput label="Workspace" value={workspace.name} readOnly variant="filled" description="Webhooks belong to the workspace they are created in." />
          <Box role="group" aria-labelledby={statusLabelId}>
            <Text id={statusLabelId} fw={500} size="sm" mb={6}>
              Status
            </Text>
            <Switch
              label={draft.status === 'enabled' ? 'Enabled' : 'Disabled'}
              description={draft.status === 'enabled' ? 'Events are sent to the endpoint.' : 'No events are sent until you enable the webhook.'}
              checked={draft.status === 'enabled'}
              onChange={(e) => form.setFieldValue('status', e.currentTarget.checked ? 'enabled' : 'disabled')}
            />
          </Box>
          <NativeSelect
            label="Trigger"
            description="Changing the trigger removes all trigger conditions."
            value={draft.type}
            onChange={(e) => {
              // Condition types differ per trigger (spec section 4): a new trigger starts without any.
              form.setFieldValue('conditions', []);
              const type = e.currentTarget.value as Trigger;
              form.setFieldValue('type', type);
              // A transaction's status is sent as it changes: confirmations do not apply to it.
              if (type === 'tx_status') form.setFieldValue('confirmations', 0);
            }}
            data={triggers.map((t) => ({ value: t, label: triggerLabels[t] }))}
            error={form.errors.type}
          />
          {draft.type === 'tx_status' ? (
            <Text size="sm" c="dimmed">
              Each change of a submitted transaction's status is sent as it happens; the depth that confirms a transaction is its project's (Project settings).
            </Text>
          ) : (
            <NumberInput
              label="Required confirmations"
              description={`Blocks to wait on top of the event's block before sending it, from 0 to ${MAX_CONFIRMATIONS}.`}
              {...form.getInputProps('confirmations')}
              min={0}
              max={MAX_CONFIRMATIONS}
              clampBehavior="none"
              allowDecimal={false}
              allowNegative={false}
              withAsterisk
            />
          )}
          <ConditionList form={form} />
        </Stack>
      </fieldset>
      <Group justify="flex-end" gap="sm" mt="lg">
        <Button component={Link} to="/dashboard" variant="default">
          Close
        </Button>
        {/* Hovering or focusing a Save that waits on the fields shows every field's message. */}
        <Box onMouseEnter={revealIfIncomplete} onFocus={revealIfIncomplete}>
          <ReasonTooltip reason={submitting ? null : reason}>
            <Button
              type="submit"
              loading={submitting}
              disabled={!!reason || submitting}
              leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            >
              Save Webhook
            </Button>
          </ReasonTooltip>
        </Box>
      </Group>
    </form>
  );
}
