import type { FocusEvent } from 'react';
import { Alert, Button, Code, CopyButton, Group, List, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCheck, IconCopy, IconInfoCircle, IconShieldCheck } from '@tabler/icons-react';
import { webhookMessages, type WebhookDto } from '../../../../../shared/webhooks';
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
        </Stack>
      </Paper>
      <Alert color="yellow" variant="light" icon={<IconShieldCheck size={20} aria-hidden />} title="Verify every event">
        {webhookMessages.verifyWarning}
      </Alert>
      <SignatureDocs />
    </Stack>
  );
}

/** The docs banner: how a receiver checks the Blockfrost-Signature header with the auth token. */
function SignatureDocs() {
  return (
    <Alert color="blue" variant="light" icon={<IconInfoCircle size={20} aria-hidden />} title="How to verify the signature" className={classes.wrap}>
      <Stack gap="xs">
        <Text size="sm">
          Each request carries a <Code>Blockfrost-Signature</Code> header of the form <Code>t=&lt;unix time&gt;,v1=&lt;signature&gt;</Code>. The
          signature is the HMAC-SHA256, in hex, of the time, a dot and the raw request body, keyed with the auth token.
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
