import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Paper, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ApiError, apiErrorText, isApiError } from '../../api/client';
import { endpointNetworks, submitEndpointSchema } from '../../../../../shared/endpoints';
import { useSubmitEndpoint } from './queries';

type Field = 'endpoint' | 'paymentAddress';

/** Field errors from the shared schema (the same messages the server answers). */
function validate(values: Record<Field, string>): Partial<Record<Field, string>> {
  const parsed = submitEndpointSchema.safeParse(values);
  if (parsed.success) return {};
  const out: Partial<Record<Field, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field;
    out[field] ??= issue.message;
  }
  return out;
}

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
  const [values, setValues] = useState<Record<Field, string>>({ endpoint: '', paymentAddress: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const submit = useSubmitEndpoint();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const found = validate(values);
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) return;
    submit.mutate(values, {
      onSuccess: (endpoint) => {
        setValues({ endpoint: '', paymentAddress: '' });
        notifications.show({ color: 'green', title: 'Endpoint submitted', message: `${endpoint.url} answers for ${endpointNetworks[endpoint.network].label} and waits for an operator.` });
      },
      onError: (error) => {
        const fields = fieldErrorsOf(error);
        setErrors(fields);
        if (Object.keys(fields).length === 0 || isApiError(error, 409)) setFormError(apiErrorText(error) ?? 'The endpoint could not be submitted.');
      },
    });
  };
  const field = (name: Field) => ({
    value: values[name],
    error: errors[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const value = e.currentTarget.value;
      setValues((v) => ({ ...v, [name]: value }));
      if (errors[name]) setErrors((er) => ({ ...er, [name]: undefined }));
    },
  });
  return (
    <Paper withBorder p="md" component="form" onSubmit={onSubmit} noValidate aria-label="Submit endpoint">
      <Stack gap="sm">
        <TextInput label="Endpoint" name="endpoint" description="The base URL of your backend, e.g. https://blockfrost.example.com/api/v0" placeholder="https://" autoComplete="url" {...field('endpoint')} />
        <TextInput label="Payment address" name="paymentAddress" description="The Cardano address the served requests are paid to (the network of the endpoint)" placeholder="addr1…" spellCheck={false} {...field('paymentAddress')} />
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
