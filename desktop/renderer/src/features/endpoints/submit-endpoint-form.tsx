import { useState } from 'react';
import { Alert, Button, Group, Paper, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ApiError, apiErrorText, isApiError } from '../../api/client';
import { endpointNetworks, submitEndpointSchema } from '../../../../../shared/endpoints';
import { useZodForm } from '../../components/zod-form';
import { useSubmitEndpoint } from './queries';

type Field = 'endpoint' | 'paymentAddress';

/** Server errors carry details [{path, message}] for the fields they concern. */
function fieldErrorsOf(error: unknown): Partial<Record<Field, string>> {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return {};
  const out: Partial<Record<Field, string>> = {};
  for (const d of error.details as Array<{ path?: unknown; message?: unknown }>) {
    if ((d.path === 'endpoint' || d.path === 'paymentAddress') && typeof d.message === 'string') out[d.path] ??= d.message;
  }
  return out;
}

export function SubmitEndpointForm() {
  const { form, onSubmit } = useZodForm(submitEndpointSchema, { endpoint: '', paymentAddress: '' });
  const [formError, setFormError] = useState<string | null>(null);
  const submit = useSubmitEndpoint();
  const send = onSubmit((values) => {
    submit.mutate(values, {
      onSuccess: (endpoint) => {
        form.reset();
        notifications.show({ color: 'green', title: 'Endpoint submitted', message: `${endpoint.url} answers for ${endpointNetworks[endpoint.network].label} and waits for an operator.` });
      },
      onError: (error) => {
        const fields = fieldErrorsOf(error);
        form.setErrors(fields);
        if (Object.keys(fields).length === 0 || isApiError(error, 409)) setFormError(apiErrorText(error) ?? 'The endpoint could not be submitted.');
      },
    });
  });
  return (
    <Paper withBorder p="md" component="form"
      onSubmit={(event: React.FormEvent<HTMLFormElement>) => {
        setFormError(null);
        send(event);
      }} noValidate aria-label="Submit endpoint">
      <Stack gap="sm">
        <TextInput label="Endpoint" name="endpoint" description="The base URL of your backend, e.g. https://blockfrost.example.com/api/v0" placeholder="https://" autoComplete="url" {...form.getInputProps('endpoint')} />
        <TextInput label="Payment address" name="paymentAddress" description="The Cardano address the served requests are paid to (the network of the endpoint)" placeholder="addr1…" spellCheck={false} {...form.getInputProps('paymentAddress')} />
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={submit.isPending}>
            Submit endpoint
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
