import { useState, type FocusEvent } from 'react';
import { notifications } from '@mantine/notifications';
import { Alert, Button, Code, CopyButton, Group, List, Paper, PasswordInput, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCheck, IconCopy, IconInfoCircle, IconRefresh, IconShieldCheck } from '@tabler/icons-react';
import { can } from '../../../../../shared/permissions';
import { secretOverlaps, webhookMessages, type WebhookDto } from '../../../../../shared/webhooks';
import { apiErrorText } from '../../api/client';
import { ModalDialog } from '../../components/modal-dialog';
import { formatDateTime } from '../../lib/format';
import { useRotateWebhookSecret } from './queries';
import classes from './webhooks.module.css';

function CopyField({ label, value, secret = false }: { label: string; value: string; secret?: boolean }) {
  const field = {
    label,
    value,
    readOnly: true,
    style: { flex: 1, minWidth: 0 },
    classNames: { input: classes.code },
    onFocus: (e: FocusEvent<HTMLInputElement>) => e.currentTarget.select(),
  };
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      {secret ? (
        <PasswordInput {...field} visibilityToggleButtonProps={{ 'aria-label': `Show or hide the ${label.toLowerCase()}` }} />
      ) : (
        <TextInput {...field} />
      )}
      <CopyButton value={value} timeout={1500}>
        {({ copied, copy }) => (
          <Button
            variant={copied ? 'filled' : 'light'}
            color={copied ? 'teal' : undefined}
            onClick={copy}
            leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            aria-label={copied ? `${label} copied` : `Copy ${label.toLowerCase()}`}
            miw={92}
          >
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}

/** Identifier and auth token of an existing webhook, with how to check that events come from Cairn. */
export function WebhookCredentials({ webhook }: { webhook: WebhookDto }) {
  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={2} size="h4">
            Credentials
          </Title>
          <CopyField label="Identifier" value={webhook.id} />
          {webhook.auth_token === null ? (
            <TextInput label="Auth token" value="" placeholder="Hidden" readOnly disabled description={webhookMessages.tokenHidden} />
          ) : (
            <CopyField label="Auth token" value={webhook.auth_token} secret />
          )}
          {webhook.previous_secret_expires_at !== null && (
            <Text size="sm" c="dimmed" data-testid="secret-overlap">
              The previous auth token also signs every delivery until {formatDateTime(webhook.previous_secret_expires_at)}.
            </Text>
          )}
          {can(webhook.role_name as Parameters<typeof can>[0], 'webhooks.update') && <RotateSecret webhook={webhook} />}
        </Stack>
      </Paper>
      <Alert color="yellow" variant="light" icon={<IconShieldCheck size={20} aria-hidden />} title="Verify every event">
        {webhookMessages.verifyWarning}
      </Alert>
      <SignatureDocs />
    </Stack>
  );
}

/** 'Rotate secret': a new auth token, with the old one signing too for an overlap the user picks. */
function RotateSecret({ webhook }: { webhook: WebhookDto }) {
  const [open, setOpen] = useState(false);
  const [overlap, setOverlap] = useState('86400');
  const rotate = useRotateWebhookSecret(webhook.workspace_id, webhook.id);
  return (
    <>
      <Group justify="flex-end">
        <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => setOpen(true)}>
          Rotate secret
        </Button>
      </Group>
      <ModalDialog opened={open} onClose={() => (rotate.isPending ? undefined : setOpen(false))} title="Rotate the auth token?">
        <Stack gap="md">
          <Text size="sm">
            Cairn issues a new auth token. During the overlap every delivery carries a signature for the new token and one for the old token, so
            your receiver accepts it while you switch; after the overlap only the new token signs.
          </Text>
          <Radio.Group label="Keep the old token signing for" value={overlap} onChange={setOverlap}>
            <Stack gap={6} mt={6}>
              {secretOverlaps.map((o) => (
                <Radio key={o.seconds} value={String(o.seconds)} label={o.label} />
              ))}
            </Stack>
          </Radio.Group>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setOpen(false)} disabled={rotate.isPending}>
              Cancel
            </Button>
            <Button
              loading={rotate.isPending}
              onClick={() =>
                rotate.mutate(Number(overlap), {
                  onSuccess: () => {
                    setOpen(false);
                    notifications.show({ color: 'green', message: 'Auth token rotated. Copy the new token to your receiver.' });
                  },
                  onError: (err) => notifications.show({ color: 'red', title: 'Auth token not rotated', message: apiErrorText(err) ?? 'The auth token could not be rotated.' }),
                })
              }
            >
              Rotate secret
            </Button>
          </Group>
        </Stack>
      </ModalDialog>
    </>
  );
}

/** The docs banner: how a receiver checks the Blockfrost-Signature header with the auth token. */
function SignatureDocs() {
  return (
    <Alert color="blue" variant="light" icon={<IconInfoCircle size={20} aria-hidden />} title="How to verify the signature" className={classes.wrap}>
      <Stack gap="xs">
        <Text size="sm">
          Each request carries a <Code>Blockfrost-Signature</Code> header of the form <Code>t=&lt;unix time&gt;,v1=&lt;signature&gt;</Code>. The
          signature is the HMAC-SHA256, in hex, of the time, a dot and the raw request body, keyed with the auth token. While a rotated token
          overlaps, the header holds one <Code>v1</Code> per token: accept the request when any of them matches.
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>
            In Node.js, pass the raw body, the header and the auth token to <Code>verifyWebhookSignature</Code> from{' '}
            <Code>@blockfrost/blockfrost-js</Code>: it returns the event, or throws when the signature does not match or the time is too old.
          </List.Item>
          <List.Item>Check the body as it arrived, before parsing the JSON, and refuse events whose time is far from now.</List.Item>
          <List.Item>
            Answer with a 2xx status within 15 seconds. Other answers and timeouts are retried later with the same event id, so handle an
            event id you have seen before as a repeat.
          </List.Item>
        </List>
      </Stack>
    </Alert>
  );
}
