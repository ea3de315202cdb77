import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconServer } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { PageLayout } from '../../components/page-layout';
import { PageLoader } from '../../components/page-loader';
import { ErrorView } from '../../components/error-view';
import { EmptyState } from '../../components/empty-state';
import { ApiError, apiErrorText, isApiError } from '../../api/client';
import { endpointNetworks, submitEndpointSchema, type CommunityEndpoint, type EndpointStatus } from '../../../../../shared/endpoints';
import { endpointQueries, useReviewEndpoint, useSubmitEndpoint } from './queries';
import { meQueries } from '../account/queries';

const STATUS_COLOR: Record<EndpointStatus, string> = { pending: 'yellow', enabled: 'teal', disabled: 'gray', rejected: 'red' };
const formatDate = (ms: number) => new Date(ms).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

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

// ---- /dashboard/endpoints ----

export function SubmitEndpointPage() {
  const mine = useQuery(endpointQueries.mine());
  const me = useQuery(meQueries.me());
  // Only operators may review; nobody else asks (the review call answers them 404).
  const operator = useQuery({ ...endpointQueries.review(), enabled: me.data?.is_operator === true });
  return (
    <PageLayout
      title="Submit an endpoint"
      description="Run a Blockfrost-compatible backend? Submit it to serve this Cairn's traffic. It is checked now, and an operator enables it as an upstream of its network; the requests it serves are counted for paying your address."
      actions={
        operator.isSuccess ? (
          <Button component={Link} to="/dashboard/operator/endpoints" variant="default">
            Review submitted endpoints
          </Button>
        ) : null
      }
    >
      <Stack gap="lg">
        <SubmitEndpointForm />
        <Stack gap="xs">
          <Title order={2} size="h4">
            Your endpoints
          </Title>
          {mine.isPending ? (
            <PageLoader label="Loading your endpoints…" minHeight={80} />
          ) : mine.isError ? (
            <ErrorView error={mine.error} withRefresh />
          ) : mine.data.length === 0 ? (
            <EmptyState title="No endpoint submitted yet" icon={IconServer}>
              Endpoints you submit are listed here with their status.
            </EmptyState>
          ) : (
            <EndpointTable endpoints={mine.data} />
          )}
        </Stack>
      </Stack>
    </PageLayout>
  );
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

function EndpointTable({ endpoints, review }: { endpoints: CommunityEndpoint[]; review?: boolean }) {
  const action = useReviewEndpoint();
  return (
    <Table.ScrollContainer minWidth={review ? 860 : 560}>
      <Table striped verticalSpacing="xs" fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Endpoint</Table.Th>
            <Table.Th>Network</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Requests served</Table.Th>
            {review ? <Table.Th>Submitted by</Table.Th> : <Table.Th>Submitted</Table.Th>}
            {review && <Table.Th>Review</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {endpoints.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Text size="sm" ff="monospace">
                  {e.url}
                </Text>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  pays {e.payment_address}
                </Text>
              </Table.Td>
              <Table.Td>{endpointNetworks[e.network]?.label ?? e.network}</Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLOR[e.status]} variant="light">
                  {e.status}
                  {e.status === 'enabled' ? ` #${e.position}` : ''}
                </Badge>
              </Table.Td>
              <Table.Td>{e.requests_served.toLocaleString()}</Table.Td>
              <Table.Td>{review ? (e as CommunityEndpoint & { submitter_email: string }).submitter_email : formatDate(e.created_at)}</Table.Td>
              {review && (
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    {(['enable', 'disable', 'reject'] as const)
                      .filter((a) => (a === 'enable' ? e.status !== 'enabled' : a === 'disable' ? e.status === 'enabled' : e.status === 'pending'))
                      .map((a) => (
                        <Button
                          key={a}
                          size="compact-xs"
                          variant={a === 'enable' ? 'filled' : 'default'}
                          color={a === 'reject' ? 'red' : undefined}
                          aria-label={`${a[0]!.toUpperCase()}${a.slice(1)} ${e.url}`}
                          loading={action.isPending && action.variables?.id === e.id && action.variables.action === a}
                          onClick={() =>
                            action.mutate(
                              { id: e.id, action: a },
                              { onError: (error) => notifications.show({ color: 'red', title: 'Review not saved', message: apiErrorText(error) ?? 'The endpoint could not be updated.' }) },
                            )
                          }
                        >
                          {a[0]!.toUpperCase() + a.slice(1)}
                        </Button>
                      ))}
                  </Group>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

// ---- /dashboard/operator/endpoints ----

export function OperatorEndpointsPage() {
  const review = useQuery(endpointQueries.review());
  return (
    <PageLayout
      title="Submitted endpoints"
      breadcrumbs={[{ label: 'Submit an endpoint', to: '/dashboard/endpoints' }, { label: 'Submitted endpoints' }]}
      description="Enabled endpoints serve their network after the configured upstream, in the order shown (#1 first); each is health-checked and skipped while it does not answer."
    >
      {review.isPending ? (
        <PageLoader label="Loading submitted endpoints…" />
      ) : review.isError ? (
        isApiError(review.error, 404) ? (
          <Alert color="yellow" title="Operators only">
            Only the operators of this Cairn server (OPERATOR_EMAILS) review submitted endpoints. <Anchor component={Link} to="/dashboard/endpoints">Submit an endpoint</Anchor> instead.
          </Alert>
        ) : (
          <ErrorView error={review.error} withRefresh />
        )
      ) : review.data.length === 0 ? (
        <EmptyState title="Nothing submitted yet" icon={IconServer}>
          Endpoints submitted through the form appear here for review.
        </EmptyState>
      ) : (
        <EndpointTable endpoints={review.data} review />
      )}
    </PageLayout>
  );
}
