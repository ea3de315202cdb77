import { Alert, Button, Group, Loader, NumberInput, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_TX_CONFIRMATIONS, MAX_TX_CONFIRMATIONS, txConfirmationsSchema } from '../../../../../shared/txs';
import { errorMessage } from '../../api/client';
import { deniedReason } from '../../components/permission';
import { ReasonTooltip } from '../../components/reason-tooltip';
import { useZodForm } from '../../components/zod-form';
import { projectQueries, useSetTxConfirmations, useSetTxResubmit, type ProjectWithRole } from './queries';

/** The blocks that confirm the transactions a Cardano project submits (PUT /api/projects/:uuid/tx-confirmations). */
export function TxConfirmationsCard({ project }: { project: ProjectWithRole }) {
  // The value comes with the project's submissions; this screen does not need them refreshed as blocks come.
  const current = useQuery({ ...projectQueries.submissions(project.uuid), refetchInterval: false });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="tx-confirmations-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="tx-confirmations-title">
          Transaction confirmations
        </Title>
        <Text size="sm" c="dimmed">
          A transaction submitted through the gateway is confirmed once this many blocks hold it, its own included ({DEFAULT_TX_CONFIRMATIONS} unless you set it). A change applies to the
          transactions submitted from then on.
        </Text>
        {current.data ? (
          <>
            <ConfirmationsForm key={current.data.confirmations} project={project} confirmations={current.data.confirmations} />
            <ResubmitSwitch project={project} resubmit={current.data.resubmit} />
          </>
        ) : current.error ? (
          <Alert color="red" variant="light" role="alert" title="Confirmations not loaded">
            {errorMessage(current.error, 'The confirmations could not be loaded.')}
          </Alert>
        ) : (
          <Group gap="xs">
            <Loader size="sm" aria-hidden />
            <Text size="sm">Loading confirmations…</Text>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function ConfirmationsForm({ project, confirmations }: { project: ProjectWithRole; confirmations: number }) {
  // The server's own rules and words, said before sending; the server checks them again.
  const { form, onSubmit } = useZodForm(txConfirmationsSchema, { confirmations });
  const save = useSetTxConfirmations(project.uuid);
  const reason = deniedReason(project.role_name, 'projects.update');
  const submit = onSubmit((body) =>
    save.mutate(body.confirmations, {
      onSuccess: (saved) =>
        notifications.show({
          color: 'green',
          title: 'Confirmations saved',
          message: `Transactions submitted from now on are confirmed at ${saved.confirmations} block${saved.confirmations === 1 ? '' : 's'}.`,
        }),
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Confirmations not saved', message: errorMessage(error, 'The confirmations could not be saved.') }),
    }),
  );
  return (
    <form
      onSubmit={(event) => {
        // Nothing to check while the value cannot be changed or is being saved.
        if (reason || save.isPending) event.preventDefault();
        else submit(event);
      }}
      noValidate
    >
      <Stack gap="xs">
        <NumberInput
          label="Confirmations for a submitted transaction"
          {...form.getInputProps('confirmations')}
          min={1}
          max={MAX_TX_CONFIRMATIONS}
          clampBehavior="none"
          allowDecimal={false}
          allowNegative={false}
          readOnly={!!reason}
          description={reason ?? `From 1 to ${MAX_TX_CONFIRMATIONS} blocks.`}
          maw={420}
        />
        <Group justify="flex-end">
          <ReasonTooltip reason={reason}>
            <Button type="submit" loading={save.isPending} disabled={!!reason || form.values.confirmations === confirmations}>
              Save confirmations
            </Button>
          </ReasonTooltip>
        </Group>
      </Stack>
    </form>
  );
}

/** PUT /api/projects/:uuid/tx-resubmit, saved as soon as it is switched. */
function ResubmitSwitch({ project, resubmit }: { project: ProjectWithRole; resubmit: boolean }) {
  const save = useSetTxResubmit(project.uuid);
  const reason = deniedReason(project.role_name, 'projects.update');
  const checked = save.isPending && save.variables !== undefined ? save.variables : resubmit;
  return (
    <ReasonTooltip reason={reason}>
      <Switch
        label="Resubmit on rollback"
        description={
          reason ??
          'A transaction a rollback takes out of its block is submitted again while its validity allows, unless the chain still holds it in its mempool.'
        }
        checked={checked}
        disabled={!!reason || save.isPending}
        onChange={(event) =>
          save.mutate(event.currentTarget.checked, {
            onSuccess: (saved) =>
              notifications.show({
                color: 'green',
                title: 'Resubmission saved',
                message: saved.resubmit ? 'Rolled-back transactions are submitted again.' : 'Rolled-back transactions are no longer submitted again.',
              }),
            onError: (error) =>
              notifications.show({ color: 'red', title: 'Resubmission not saved', message: errorMessage(error, 'The setting could not be saved.') }),
          })
        }
        maw={520}
      />
    </ReasonTooltip>
  );
}
