import { useState } from 'react';
import { Alert, Button, Group, MultiSelect, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ALLOWED_EVM_METHODS } from '../../../../../shared/milkomeda';
import { allowListsFormSchema, MAX_ALLOW_LIST_ENTRIES, type AllowLists } from '../../../../../shared/allow-list';
import { errorMessage } from '../../api/client';
import { ReasonTooltip } from '../../components/reason-tooltip';
import { deniedReason } from '../../components/permission';
import { useZodForm } from '../../components/zod-form';
import { useSaveAllowLists, type ProjectWithRole } from './queries';

const METHOD_OPTIONS = [...ALLOWED_EVM_METHODS];

const fieldsOf = (lists: AllowLists) => ({ origins: lists.origins.join('\n'), ips: lists.ips.join('\n'), methods: lists.methods });

/**
 * Which browser origins, client addresses and (Milkomeda) JSON-RPC methods the project's keys accept.
 * The gateway refuses everything else with a 403 naming the list, before any rate limit or quota.
 */
export function AllowListsCard({ project, milkomeda }: { project: ProjectWithRole; milkomeda: boolean }) {
  // The server's own rules, said before sending; the server checks them again.
  const { form, onSubmit } = useZodForm(allowListsFormSchema, fieldsOf(project.allow_lists));
  const [serverError, setServerError] = useState<string | null>(null);
  const save = useSaveAllowLists(project);
  const reason = deniedReason(project.role_name, 'projects.update');
  const methods = form.getValues().methods ?? [];

  const submit = onSubmit((lists) => {
    setServerError(null);
    save.mutate(
      { ...lists, methods: milkomeda ? lists.methods : [] },
      {
        onSuccess: (saved) => {
          // The fields show what the server stored: each entry in its canonical form.
          form.setValues(fieldsOf(saved));
          form.resetDirty(fieldsOf(saved));
          notifications.show({ color: 'green', title: 'Allow-lists saved', message: 'The gateway applies them within a second.' });
        },
        onError: (error) => setServerError(errorMessage(error, 'The allow-lists could not be saved.')),
      },
    );
  });

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="allow-lists-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="allow-lists-title">
          Allow-lists
        </Title>
        <Text size="sm" c="dimmed">
          Leave a list empty to accept any caller. A request from outside a list gets 403 before any rate limit or quota is spent. One entry per line, at most{' '}
          {MAX_ALLOW_LIST_ENTRIES} per list.
        </Text>
        <fieldset disabled={!!reason} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack gap="sm">
            <Textarea
              label="Browser origins"
              description="The Origin header of browser calls: https://app.example.com, or *.example.com for every subdomain. With a list, calls without an Origin header are refused."
              placeholder={'https://app.example.com\n*.example.com'}
              autosize
              minRows={2}
              maxRows={8}
              {...form.getInputProps('origins')}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
            <Textarea
              label="IP addresses and CIDR ranges"
              description="IPv4 or IPv6: 203.0.113.7, 203.0.113.0/24, 2001:db8::/32."
              placeholder={'203.0.113.0/24\n2001:db8::/32'}
              autosize
              minRows={2}
              maxRows={8}
              {...form.getInputProps('ips')}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
            {milkomeda && (
              <MultiSelect
                label="JSON-RPC methods"
                description="Every call of a batch must use one of them."
                placeholder={methods.length ? undefined : 'Any method the gateway serves'}
                data={METHOD_OPTIONS}
                {...form.getInputProps('methods')}
                searchable
                clearable
              />
            )}
          </Stack>
        </fieldset>
        {serverError && (
          <Alert color="red" variant="light" role="alert" title="Not saved">
            {serverError}
          </Alert>
        )}
        <Group justify="flex-end">
          <ReasonTooltip reason={reason}>
            <Button onClick={() => submit()} loading={save.isPending} disabled={!!reason}>
              Save allow-lists
            </Button>
          </ReasonTooltip>
        </Group>
      </Stack>
    </Paper>
  );
}
